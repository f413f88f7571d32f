// NaN payloads, bit for bit: the fast kernels of both variants against the reference, called
// directly on host tensors (the public API's case builders only write canonical NaNs). Inputs
// carry signalling and quiet NaNs of either sign with random payloads in every float dtype,
// so each conversion (f16/bf16 <-> f32) and each kernel must keep or quiet them exactly as
// the reference does. Where two different NaNs meet in one addition or multiplication x86
// returns the first operand's, and compilers order those operands freely, so such rows are
// left out: an l2 row holds at most one NaN, and weights, A_log and dt_bias stay finite (an
// fma's addend loses to either factor's NaN in every x86 form, so a NaN in the conv's
// running sum may meet another).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "fast.hpp"
#include "host_tensor.hpp"
#include "vt/reference/reference.hpp"

namespace vt::cpu_fast_test {
namespace {

using reference::test::HostTensor;
using reference::test::ints;

enum class Impl { reference, avx2, baseline };

vt_status run(Impl impl, auto reference_fn, auto fast_fn, const auto& args) {
  if (impl == Impl::reference) return reference_fn(args);
  return fast_fn(args,
                 cpu::fast::Context{impl == Impl::avx2 ? cpu::fast::Isa::avx2 : cpu::fast::Isa::baseline, nullptr});
}

// A NaN of `dtype` with a random sign, quiet bit and nonzero payload.
uint32_t nan_bits(vt_dtype dtype, std::mt19937& rng) {
  const auto r = static_cast<uint32_t>(rng());
  switch (dtype) {
    case VT_DTYPE_F16: return (r & 0x8000u) | 0x7c00u | std::max<uint32_t>(r & 0x3ffu, 1u);
    case VT_DTYPE_BF16: return (r & 0x8000u) | 0x7f80u | std::max<uint32_t>(r & 0x7fu, 1u);
    default: return (r & 0x80000000u) | 0x7f800000u | std::max<uint32_t>(r & 0x7fffffu, 1u);
  }
}

void put_nan(HostTensor& t, char* p, std::mt19937& rng) {
  const vt_dtype dtype = t.raw().dtype;
  const uint32_t bits = nan_bits(dtype, rng);
  std::memcpy(p, &bits, static_cast<size_t>(reference::element_size(dtype)));  // little-endian low bytes
}

// Random values, and a NaN with probability `p` at each element.
void fill(HostTensor& t, std::mt19937& rng, float p) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  reference::test::fill_random(t, rng);
  t.for_each([&](char* at, vt_dtype) {
    if (u(rng) < p) put_nan(t, at, rng);
  });
}

// With probability p, one NaN in each row of a contiguous [R, D] tensor.
void one_nan_per_row(HostTensor& t, std::mt19937& rng, float p) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const vt_tensor raw = t.raw();
  for (int64_t r = 0; r < raw.shape[0]; ++r)
    if (u(rng) < p)
      put_nan(t, reference::element(raw, r, static_cast<int64_t>(rng() % static_cast<uint64_t>(raw.shape[1]))), rng);
}

// The four bytes around byte `at`, as the little-endian word they start.
std::string hex_at(const std::vector<uint8_t>& bytes, size_t at) {
  char s[16];
  uint32_t word = 0;
  const size_t first = at / 4 * 4;
  for (size_t i = first; i < first + 4 && i < bytes.size(); ++i) word |= uint32_t{bytes[i]} << (8 * (i - first));
  std::snprintf(s, sizeof s, "0x%08x", word);
  return s;
}

// Runs `call` on three copies of the tensors and expects every byte of every copy equal.
void expect_same_bytes(const std::vector<HostTensor>& initial,
                       const std::function<vt_status(std::vector<HostTensor>&, Impl)>& call, const std::string& what) {
  std::vector<HostTensor> expected = initial;
  ASSERT_EQ(call(expected, Impl::reference), VT_OK);
  for (Impl impl : {Impl::avx2, Impl::baseline}) {
    if (impl == Impl::avx2 && cpu::fast::detected_isa() != cpu::fast::Isa::avx2) continue;
    std::vector<HostTensor> got = initial;
    ASSERT_EQ(call(got, impl), VT_OK);
    for (size_t i = 0; i < got.size(); ++i) {
      const std::vector<uint8_t>&g = got[i].bytes(), &e = expected[i].bytes();
      const auto at = static_cast<size_t>(std::mismatch(g.begin(), g.end(), e.begin()).first - g.begin());
      ASSERT_EQ(at, g.size()) << what << " (" << (impl == Impl::avx2 ? "avx2" : "baseline") << "): tensor " << i
                              << " differs first at byte " << at << ": got " << hex_at(g, at) << ", expected "
                              << hex_at(e, at);
    }
  }
}

const vt_dtype kFloatTypes[] = {VT_DTYPE_F32, VT_DTYPE_F16, VT_DTYPE_BF16};

TEST(NanPayloads, ConvFwdKeepsThemInOutputsAndState) {
  std::mt19937 rng(7);
  for (vt_dtype x : kFloatTypes)
    for (vt_dtype out : {VT_DTYPE_F32, x})
      for (vt_dtype state : {VT_DTYPE_F32, x})
        for (int k = 2; k <= 8; ++k) {
          const int64_t C = 300, S = 4;
          std::vector<HostTensor> t = {HostTensor(x, {90, C}),
                                       HostTensor(VT_DTYPE_F32, {C, k}),
                                       HostTensor(VT_DTYPE_F32, {C}),
                                       HostTensor(out, {90, C}),
                                       HostTensor(state, {S, C, k - 1}),
                                       ints({2, -1, 0}),
                                       ints({1, 0, 0}),
                                       ints({0, 70, 72, 90})};
          fill(t[0], rng, 0.05f);
          reference::test::fill_random(t[1], rng, 0.25f);
          fill(t[2], rng, 0.05f);
          t[3].poison();
          fill(t[4], rng, 0.1f);
          const auto call = [&](std::vector<HostTensor>& v, Impl impl) {
            vt_causal_conv1d_fwd_args a{};
            a.struct_size = sizeof a;
            a.x = v[0];
            a.weight = v[1];
            a.bias = v[2];
            a.out = v[3];
            a.conv_state = v[4];
            a.state_indices = v[5];
            a.has_initial_state = v[6];
            a.query_start_loc = v[7];
            a.activation = VT_ACTIVATION_SILU;
            a.num_tokens = 90;
            a.channels = C;
            a.width = k;
            a.num_seqs = 3;
            a.num_slots = S;
            return run(impl, reference::causal_conv1d_fwd, cpu::fast::causal_conv1d_fwd, a);
          };
          expect_same_bytes(t, call, "conv fwd K=" + std::to_string(k));
        }
}

TEST(NanPayloads, ConvUpdateInPlaceKeepsThem) {
  std::mt19937 rng(11);
  for (vt_dtype x : kFloatTypes)
    for (vt_dtype state : {VT_DTYPE_F32, x})
      for (int k = 2; k <= 8; ++k) {
        const int64_t B = 5, L = 3, C = 270;
        std::vector<HostTensor> t = {HostTensor(x, {B, L, C}), HostTensor(VT_DTYPE_F32, {C, k}),
                                     HostTensor(state, {B + 1, C, k - 1})};
        fill(t[0], rng, 0.05f);
        reference::test::fill_random(t[1], rng, 0.25f);
        fill(t[2], rng, 0.1f);
        const auto call = [&](std::vector<HostTensor>& v, Impl impl) {
          const vt_causal_conv1d_update_args a =
              reference::test::update_args(v[0], v[1], vt_tensor{}, v[0], v[2], vt_tensor{}, VT_ACTIVATION_SILU);
          return run(impl, reference::causal_conv1d_update, cpu::fast::causal_conv1d_update, a);
        };
        expect_same_bytes(t, call, "conv update K=" + std::to_string(k));
      }
}

TEST(NanPayloads, L2NormKeepsARowsOneNaN) {
  std::mt19937 rng(13);
  for (vt_dtype x : kFloatTypes)
    for (vt_dtype out : {VT_DTYPE_F32, x})
      for (int64_t d : {8, 40, 128, 300}) {
        const int64_t R = 40;
        std::vector<HostTensor> t = {HostTensor(x, {R, d}), HostTensor(out, {R, d})};
        reference::test::fill_random(t[0], rng);
        one_nan_per_row(t[0], rng, 0.5f);
        t[1].poison();
        const auto call = [&](std::vector<HostTensor>& v, Impl impl) {
          return run(impl, reference::l2norm, cpu::fast::l2norm, reference::test::l2norm_args(v[0], v[1], 1e-6f));
        };
        expect_same_bytes(t, call, "l2norm D=" + std::to_string(d));
      }
}

TEST(NanPayloads, PostConvKeepsThemInEveryOutput) {
  std::mt19937 rng(17);
  const int64_t T = 12, Hk = 2, Hv = 4, Dk = 24, Dv = 40, C = 2 * Hk * Dk + Hv * Dv;
  for (vt_dtype in : kFloatTypes)
    for (vt_dtype out : {VT_DTYPE_F32, in}) {
      std::vector<HostTensor> t = {
          HostTensor(in, {T, C}),           HostTensor(in, {T, Hv}),        HostTensor(in, {T, Hv}),
          HostTensor(VT_DTYPE_F32, {Hv}),   HostTensor(VT_DTYPE_F32, {Hv}), HostTensor(out, {T, Hk, Dk}),
          HostTensor(out, {T, Hk, Dk}),     HostTensor(out, {T, Hv, Dv}),   HostTensor(VT_DTYPE_F32, {T, Hv}),
          HostTensor(VT_DTYPE_F32, {T, Hv})};
      reference::test::fill_random(t[0], rng);
      const auto somewhere = [&](int64_t n) { return static_cast<int64_t>(rng() % static_cast<uint64_t>(n)); };
      for (int64_t tok = 0; tok < T; ++tok) {
        for (int64_t h = 0; h < 2 * Hk; ++h)  // a q or k head: at most one NaN
          if (rng() % 2) put_nan(t[0], reference::element(t[0].raw(), tok, h * Dk + somewhere(Dk)), rng);
        for (int64_t i = 0; i < Hv * Dv; ++i)  // v: any number
          if (rng() % 8 == 0) put_nan(t[0], reference::element(t[0].raw(), tok, 2 * Hk * Dk + i), rng);
      }
      fill(t[1], rng, 0.2f);
      fill(t[2], rng, 0.2f);
      reference::test::fill_random(t[3], rng);
      reference::test::fill_random(t[4], rng);
      for (size_t i = 5; i < t.size(); ++i) t[i].poison();
      const auto call = [&](std::vector<HostTensor>& v, Impl impl) {
        vt_gdn_post_conv_args a{};
        a.struct_size = sizeof a;
        a.conv_out = v[0];
        a.a = v[1];
        a.b = v[2];
        a.A_log = v[3];
        a.dt_bias = v[4];
        a.q_out = v[5];
        a.k_out = v[6];
        a.v_out = v[7];
        a.g_out = v[8];
        a.beta_out = v[9];
        a.l2norm = 1;
        a.eps = 1e-6f;
        a.num_tokens = T;
        a.key_heads = Hk;
        a.value_heads = Hv;
        a.key_dim = Dk;
        a.value_dim = Dv;
        return run(impl, reference::gdn_post_conv, cpu::fast::gdn_post_conv, a);
      };
      expect_same_bytes(t, call, "post conv");
    }
}

}  // namespace
}  // namespace vt::cpu_fast_test
