// The shader math (backends/vulkan/shaders/math.glsl) on the device against the CPU: fma,
// exp, log1p and the composites bit for bit against the portable math the reference uses;
// division, reciprocal and square root against IEEE; the dtype conversions against
// vt/dtype.hpp. Runs through the plugin's internals in the shader build its probe chose.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "../../math/div_cases.hpp"
#include "vk_backend.hpp"
#include "vt/dtype.hpp"
#include "vt/ops/portable_math.h"

namespace vt::vulkan_test {
namespace {

using vulkan::Device;
using vulkan::ShaderBuild;

std::string g_error;
const vt_host_api kHost = {VT_ABI_MAJOR,
                           VT_ABI_MINOR,
                           sizeof(vt_host_api),
                           [](int, const char*) {},
                           [](const char* m) { g_error = m ? m : ""; },
                           nullptr};

float from_bits(uint32_t u) { return vt::math::from_bits(u); }
uint32_t bits(float f) { return vt::math::bits(f); }
bool is_nan(float f) { return f != f; }

class VulkanMath : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    vulkan::set_host(&kHost);
    const vulkan::OpenResult r = vulkan::open_devices(-1);
    if (r.result == VT_INIT_READY) device_ = vulkan::device_at(0);
    why_ = r.reason;
  }

  void SetUp() override {
    if (!device_) GTEST_SKIP() << "no Vulkan device: " << why_;
    build_ = vulkan::shader_build(*device_);
  }

  std::vector<float> run(uint32_t fn, const std::vector<float>& a, const std::vector<float>& b = {},
                         const std::vector<float>& c = {}) {
    const std::vector<float> zeros(a.size(), 0.0f);
    std::vector<float> out(a.size());
    const vt_status s = vulkan::run_math(*device_, vulkan::Shader::math_probe, build_, fn, a.data(),
                                         b.empty() ? zeros.data() : b.data(), c.empty() ? zeros.data() : c.data(),
                                         out.data(), a.size());
    EXPECT_EQ(s, VT_OK) << g_error;
    return out;
  }

  // Same bits, or both NaN.
  template <class Want>
  void expect_same(const char* what, const std::vector<float>& a, const std::vector<float>& got, Want want) {
    size_t bad = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      const float w = want(i);
      if (bits(w) == bits(got[i]) || (is_nan(w) && is_nan(got[i]))) continue;
      if (++bad <= 5)
        ADD_FAILURE() << what << " input " << i << " (" << std::hexfloat << a[i] << "): got " << got[i] << " (0x"
                      << std::hex << bits(got[i]) << "), want " << std::hexfloat << w << " (0x" << std::hex << bits(w)
                      << ")";
    }
    EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << a.size() << " inputs differ";
  }

  static inline Device* device_ = nullptr;
  static inline std::string why_;
  ShaderBuild build_ = ShaderBuild::native;
};

std::vector<float> random_bits(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = from_bits(static_cast<uint32_t>(rng()));
  return v;
}

std::vector<float> uniform(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

const std::vector<float> kSpecials = {
    0.0f,    -0.0f,    INFINITY, -INFINITY, NAN,     -NAN,   from_bits(1), from_bits(0x807fffff),
    FLT_MIN, -FLT_MIN, FLT_MAX,  -FLT_MAX,  1.0f,    -1.0f,  0.5f,         2.0f,
    20.0f,   88.72f,   89.0f,    -103.97f,  -104.0f, 1e-30f, -0.99999994f};

std::vector<float> concat(std::vector<std::vector<float>> parts) {
  std::vector<float> all;
  for (auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

TEST_F(VulkanMath, AddAndMultiplyAreIeeeIncludingSubnormals) {
  // Everything else is built on these; tiny operands check that nothing is flushed to zero.
  const std::vector<float> a = concat({random_bits(1 << 18, 1), uniform(1 << 16, -1e-19f, 1e-19f, 2)});
  const std::vector<float> b = concat({random_bits(1 << 18, 3), uniform(1 << 16, -1e-19f, 1e-19f, 4)});
  expect_same("a * b", a, run(VT_MATH_MUL, a, b), [&](size_t i) { return a[i] * b[i]; });
  expect_same("a + b", a, run(VT_MATH_ADD, a, b), [&](size_t i) { return a[i] + b[i]; });
}

TEST_F(VulkanMath, FmaIsFusedInTheChosenBuild) {
  std::vector<float> a = concat({random_bits(1 << 18, 5), uniform(1 << 18, -100.0f, 100.0f, 6)});
  std::vector<float> b = concat({random_bits(1 << 18, 7), uniform(1 << 18, -100.0f, 100.0f, 8)});
  std::vector<float> c = concat({random_bits(1 << 18, 9), uniform(1 << 18, -1e4f, 1e4f, 10)});
  // Products that cancel against c, and results in the subnormal range.
  for (size_t i = 0; i < a.size(); i += 7) c[i] = -a[i] * b[i];
  for (size_t i = 3; i < a.size(); i += 11) {
    a[i] = std::ldexp(a[i] - std::trunc(a[i]) + 1.0f, -70);
    b[i] = std::ldexp(b[i] - std::trunc(b[i]) + 1.0f, -70);
  }
  expect_same("fma", a, run(VT_MATH_FMA, a, b, c), [&](size_t i) { return std::fma(a[i], b[i], c[i]); });
}

TEST_F(VulkanMath, ExpMatchesPortableMath) {
  const std::vector<float> x = concat(
      {uniform(1 << 18, -110.0f, 95.0f, 11), uniform(1 << 16, -1e-3f, 1e-3f, 12), random_bits(1 << 16, 13), kSpecials});
  expect_same("exp", x, run(VT_MATH_EXP, x), [&](size_t i) { return vt::math::exp(x[i]); });
}

TEST_F(VulkanMath, Log1pMatchesPortableMath) {
  std::vector<float> near_minus_one(1 << 14);
  for (size_t i = 0; i < near_minus_one.size(); ++i)
    near_minus_one[i] = from_bits(0xbf7fffffu - static_cast<uint32_t>(i));
  const std::vector<float> x = concat({uniform(1 << 18, -0.999f, 50.0f, 14), uniform(1 << 16, -1e-4f, 1e-4f, 15),
                                       random_bits(1 << 17, 16), near_minus_one, kSpecials});
  expect_same("log1p", x, run(VT_MATH_LOG1P, x), [&](size_t i) { return vt::math::log1p(x[i]); });
}

TEST_F(VulkanMath, CompositesMatchPortableMath) {
  const std::vector<float> x = concat(
      {uniform(1 << 18, -120.0f, 120.0f, 17), uniform(1 << 16, 19.0f, 21.0f, 18), random_bits(1 << 16, 19), kSpecials});
  expect_same("sigmoid", x, run(VT_MATH_SIGMOID, x), [&](size_t i) { return vt::math::sigmoid(x[i]); });
  expect_same("silu", x, run(VT_MATH_SILU, x), [&](size_t i) { return vt::math::silu(x[i]); });
  expect_same("softplus", x, run(VT_MATH_SOFTPLUS, x), [&](size_t i) { return vt::math::softplus(x[i]); });
}

TEST_F(VulkanMath, DivisionByAtLeastOneIsIeee) {
  std::vector<float> n = random_bits(1 << 18, 20), d = random_bits(1 << 18, 21);
  std::mt19937 rng(22);
  for (float& v : d)
    v = from_bits(((127u + static_cast<uint32_t>(rng()) % 129u) << 23) | (bits(v) & 0x7fffffu));  // [1, inf], NaN
  // Quotients next to rounding midpoints (tests/math's construction), and tiny quotients.
  for (int k = 0; k < 512; ++k) {
    const float dk = from_bits(0x3f800000u | (static_cast<uint32_t>(rng()) & 0x7fffffu) | 1u);
    std::vector<float> hard;
    vt::math::test::hard_numerators(dk, {1, -1, 3, -3, 5, -5}, hard);
    for (float h : hard) {
      n.push_back(h);
      d.push_back(dk);
      n.push_back(std::ldexp(h, -130));
      d.push_back(dk);
    }
  }
  for (float s : kSpecials)
    for (float t : {1.0f, 1.5f, 3e38f, INFINITY, NAN}) {
      n.push_back(s);
      d.push_back(t);
    }
  const std::vector<float> got = run(VT_MATH_DIV_GE1, n, d);
  expect_same("n / d", n, got, [&](size_t i) { return n[i] / d[i]; });
}

TEST_F(VulkanMath, ReciprocalIsIeee) {
  std::vector<float> r = concat({random_bits(1 << 18, 23), uniform(1 << 16, 0.0f, 2e-38f, 24), kSpecials});
  expect_same("1 / r", r, run(VT_MATH_RECIP, r), [&](size_t i) { return 1.0f / r[i]; });
}

TEST_F(VulkanMath, SquareRootIsIeee) {
  std::vector<float> every_61st;  // a walk over [1, 4), where every binade's cases recur
  for (uint32_t u = 0x3f800000u; u < 0x40800000u; u += 61) every_61st.push_back(from_bits(u));
  const std::vector<float> x =
      concat({random_bits(1 << 18, 25), every_61st, uniform(1 << 16, 0.0f, 2e-38f, 26), kSpecials});
  expect_same("sqrt", x, run(VT_MATH_SQRT, x), [&](size_t i) { return std::sqrt(x[i]); });
}

TEST_F(VulkanMath, ConversionsMatchDtypeHpp) {
  const std::vector<float> x = concat({random_bits(1 << 18, 27), uniform(1 << 16, -70000.0f, 70000.0f, 28),
                                       uniform(1 << 16, -1e-4f, 1e-4f, 29), kSpecials});
  expect_same("to f16", x, run(VT_MATH_TO_F16, x), [&](size_t i) { return from_bits(vt::f32_to_f16_bits(x[i])); });
  expect_same("to bf16", x, run(VT_MATH_TO_BF16, x), [&](size_t i) { return from_bits(vt::f32_to_bf16_bits(x[i])); });
  std::vector<float> halves(65536);
  for (uint32_t h = 0; h < 65536; ++h) halves[h] = from_bits(h);
  // Widening keeps NaN payloads: compare every bit.
  const std::vector<float> f16 = run(VT_MATH_FROM_F16, halves), bf16 = run(VT_MATH_FROM_BF16, halves);
  for (uint32_t h = 0; h < 65536; ++h) {
    ASSERT_EQ(bits(f16[h]), bits(vt::f16_bits_to_f32(static_cast<uint16_t>(h)))) << "f16 0x" << std::hex << h;
    ASSERT_EQ(bits(bf16[h]), bits(vt::bf16_bits_to_f32(static_cast<uint16_t>(h)))) << "bf16 0x" << std::hex << h;
  }
}

}  // namespace
}  // namespace vt::vulkan_test
