// The probes: run fma_probe.comp or math_probe.comp over host arrays. At first use of a device
// the fma probe picks the shader build: the device's own fma when it is fused (GPUs), with
// DenormPreserve when the device otherwise flushes subnormals (NVIDIA), else the exact
// double-precision emulation (lavapipe splits fma into a multiply and an add). The unit tests
// run math_probe the same way against the CPU.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

struct Scratch {
  Device& d;
  vt_queue q = nullptr;
  vt_mem mem[4] = {};
  ~Scratch() {
    if (q) queue_destroy(q);
    for (vt_mem m : mem) mem_free(d.index, m);
  }
};

vt_tensor vector_of(vt_mem mem, size_t n) {
  vt_tensor t{};
  t.mem = mem;
  t.dtype = VT_DTYPE_F32;
  t.rank = 1;
  t.shape[0] = static_cast<int64_t>(n);
  t.strides[0] = 1;
  return t;
}

}  // namespace

vt_status run_math(Device& d, Shader probe, ShaderBuild build, uint32_t fn, const float* a, const float* b,
                   const float* c, float* out, size_t n) {
  constexpr size_t kPiece = size_t{1} << 22;
  Scratch s{d};
  if (const vt_status st = queue_create(d.index, &s.q); st != VT_OK) return st;
  const size_t cap = std::min(n, kPiece);
  for (vt_mem& m : s.mem)
    if (const vt_status st = mem_alloc(d.index, cap * sizeof(float), &m); st != VT_OK) return st;
  DispatchDesc desc;
  if (const vt_status st = pipeline_for(d, probe, build, 0, &desc.pipeline); st != VT_OK) return st;
  for (size_t done = 0; done < n; done += kPiece) {
    const size_t m = std::min(n - done, kPiece);
    const float* in[3] = {a + done, b + done, c + done};
    for (int i = 0; i < 3; ++i)
      if (const vt_status st = copy_h2d(s.q, s.mem[i], 0, in[i], m * sizeof(float)); st != VT_OK) return st;
    MathParams p{};
    TensorRef* refs[4] = {&p.a, &p.b, &p.c, &p.result};
    std::string why;
    for (uint32_t i = 0; i < 4; ++i)
      if (!bind_tensor(d, vector_of(s.mem[i], m), i + 1, refs[i], &desc, &why))
        return fail(VT_STATUS_INVALID_ARGUMENT, "vulkan: math probe: " + why);
    p.count = static_cast<uint32_t>(m);
    p.fn = fn;
    desc.params = &p;
    desc.params_bytes = sizeof p;
    grid_1d(d, (m + 63) / 64, &desc);
    if (const vt_status st = dispatch(s.q, desc); st != VT_OK) return st;
    if (const vt_status st = copy_d2h(s.q, out + done, s.mem[3], 0, m * sizeof(float)); st != VT_OK) return st;
    if (const vt_status st = queue_sync(s.q); st != VT_OK) return st;
  }
  return VT_OK;
}

ShaderBuild probe_build(Device& d) {
  // Products whose fused and unfused sums differ, then a spread of ordinary ones; all normal.
  std::vector<float> a = {0x1.676168p+5f, 0x1.7394d8p+4f, 1.0f + 0x1p-23f, 0x1.651f6p-2f};
  std::vector<float> b = {-0x1.71b67p+9f, 0x1.59081cp+6f, 1.0f - 0x1p-23f, 0x1.567382p+0f};
  std::vector<float> c = {-0x1.c91a76p-1f, -0x1.51f75p+2f, -1.0f, 0x1.f9cb68p-9f};
  uint32_t state = 12345u;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return std::ldexp(static_cast<float>(state >> 8) / 16777216.0f + 0.5f, static_cast<int>(state % 16) - 8);
  };
  while (a.size() < 256) {
    a.push_back(next());
    b.push_back(-next());
    c.push_back(next());
  }
  // Then subnormal results and operands, which some devices flush to zero.
  const size_t normal = a.size();
  for (float s : {0x1p-70f, 0x1.8p-65f, 0x1.234p-66f}) {
    a.insert(a.end(), {s, 0x1.8p-130f, 3.0f});
    b.insert(b.end(), {s, 2.0f, 0x1p-140f});
    c.insert(c.end(), {0.0f, 0x1p-149f, -0x1p-140f});
  }
  struct Result {
    bool fused = false, subnormals = false;
  };
  auto check = [&](ShaderBuild build) {
    Result r;
    std::vector<float> out(a.size());
    if (run_math(d, Shader::fma_probe, build, VT_MATH_FMA, a.data(), b.data(), c.data(), out.data(), a.size()) != VT_OK)
      return r;
    auto same = [&](size_t i) {
      const float want = std::fma(a[i], b[i], c[i]);
      return std::memcmp(&want, &out[i], sizeof want) == 0;
    };
    r.fused = r.subnormals = true;
    for (size_t i = 0; i < a.size(); ++i) (i < normal ? r.fused : r.subnormals) &= same(i);
    return r;
  };
  const Result plain = check(ShaderBuild::native);
  if (plain.fused) {
    if (plain.subnormals) {
      log(2, d.label + ": fma is fused and subnormals are kept; the shaders use the device's own arithmetic");
      return ShaderBuild::native;
    }
    // Devices that flush subnormals by default keep them under the DenormPreserve mode. NVIDIA's
    // driver honours the mode without advertising shaderDenormPreserveFloat32, so the probe,
    // not the property, decides.
    const Result kept = check(ShaderBuild::denorm);
    if (kept.fused && kept.subnormals) {
      log(2, d.label + ": fma is fused; subnormals are kept under DenormPreserve" +
                 (d.denorm_preserve ? std::string() : " (which the driver does not advertise)"));
      return ShaderBuild::denorm;
    }
    log(1, d.label + ": the device flushes subnormal floats: results with subnormal values differ from the reference");
    d.flushes_subnormals = true;
    return ShaderBuild::native;
  }
  if (d.float64) {
    const Result emulated = check(ShaderBuild::f64_fma);
    if (emulated.fused) {
      log(2, d.label + ": fma is not fused; the shaders emulate it exactly in double precision");
      if (!emulated.subnormals) {
        log(1,
            d.label + ": the device flushes subnormal floats: results with subnormal values differ from the reference");
        d.flushes_subnormals = true;
      }
      return ShaderBuild::f64_fma;
    }
  }
  log(1, d.label +
             ": fma is not fused and cannot be emulated (no shaderFloat64): results may differ from the "
             "reference by a few ulp");
  return ShaderBuild::native;
}

}  // namespace vt::vulkan
