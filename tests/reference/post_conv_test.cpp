// The reference post-conv pieces: hand-computed l2norm, gating and split cases, the
// canonical reduction order, and the fused op against its composition, bit for bit.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "host_tensor.hpp"
#include "vt/reference/reference.hpp"

namespace vt::reference::test {
namespace {

// Distance in units in the last place between two finite floats of the same sign.
int64_t ulps(float a, float b) {
  return std::abs(int64_t{std::bit_cast<int32_t>(a)} - int64_t{std::bit_cast<int32_t>(b)});
}

HostTensor row_of(vt_dtype dtype, int64_t rows, int64_t d, const std::vector<std::vector<float>>& v) {
  HostTensor t(dtype, {rows, d});
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t i = 0; i < d; ++i) t.set(i < static_cast<int64_t>(v[r].size()) ? v[r][i] : 0.0f, r, i);
  return t;
}

TEST(ReferenceL2Norm, ThreeFourFive) {
  const HostTensor x = row_of(VT_DTYPE_F32, 1, 8, {{3, 4}});
  HostTensor out(VT_DTYPE_F32, {1, 8});
  out.poison();
  ASSERT_EQ(l2norm(l2norm_args(x, out, 0.0f)), VT_OK);
  // inv = 1 / sqrt(25) = 0.2f; 3 * 0.2f rounds to 0.6f and 4 * 0.2f is 0.8f exactly.
  EXPECT_EQ(out.get(0, 0), 0.6f);
  EXPECT_EQ(out.get(0, 1), 0.8f);
  for (int i = 2; i < 8; ++i) EXPECT_EQ(out.bits(0, i), 0u);
}

TEST(ReferenceL2Norm, SumOfSquaresFollowsTheCanonicalOrder) {
  // Row 0: lane 0 holds 4096^2 = 2^24 and lanes 1..31 hold 1. Lanes first, then the tree:
  // 2^24 + 1 ties to 2^24, then + 2, + 4, + 8, + 16 are exact: 2^24 + 30. A sequential
  // sum would stay at 2^24.
  // Row 1: lane 0 accumulates 1, 1, 4096^2 in increasing index: 2^24 + 2 (descending
  // would round both ones away).
  std::vector<float> a(96, 0.0f), b(96, 0.0f);
  a[0] = 4096;
  for (int i = 1; i < 32; ++i) a[i] = 1;
  b[0] = 1;
  b[32] = 1;
  b[64] = 4096;
  const HostTensor x = row_of(VT_DTYPE_F32, 2, 96, {a, b});
  HostTensor out(VT_DTYPE_F32, {2, 96});
  ASSERT_EQ(l2norm(l2norm_args(x, out, 0.0f)), VT_OK);
  const float inv_a = 1.0f / std::sqrt(16777246.0f), inv_b = 1.0f / std::sqrt(16777218.0f);
  for (int i = 0; i < 96; ++i) {
    EXPECT_EQ(out.get(0, i), a[i] * inv_a) << i;
    EXPECT_EQ(out.get(1, i), b[i] * inv_b) << i;
  }
  EXPECT_NE(out.get(0, 0), 1.0f);
}

TEST(ReferenceL2Norm, EpsAndOverflowFollowTheFormula) {
  const HostTensor x = row_of(VT_DTYPE_F32, 3, 8, {{}, {1e30f, -1e30f}, {1e-4f}});
  HostTensor out(VT_DTYPE_F32, {3, 8});
  ASSERT_EQ(l2norm(l2norm_args(x, out, 1e-6f)), VT_OK);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out.bits(0, i), 0u) << "zeros stay zeros";
  EXPECT_EQ(out.get(1, 0), 0.0f) << "an overflowing sum of squares normalises to zeros";
  EXPECT_EQ(std::bit_cast<uint32_t>(out.get(1, 1)), 0x80000000u);
  // 1e-4 / sqrt(1e-8 + 1e-6): eps dominates, about 0.0995.
  const float s = std::fma(1e-4f, 1e-4f, 0.0f) + 1e-6f;
  EXPECT_EQ(out.get(2, 0), 1e-4f * (1.0f / std::sqrt(s)));
  EXPECT_NEAR(out.get(2, 0), 1e-4 / std::sqrt(1e-8 + 1e-6), 1e-7);
}

TEST(ReferenceL2Norm, HeadsLayoutAndNarrowOutput) {
  // [T, H, D] view with a padded token stride, bf16 output: 3/5 and 4/5 rounded to bf16.
  HostTensor x(VT_DTYPE_F32, {2, 2, 8}, {20, 8, 1});
  HostTensor out(VT_DTYPE_BF16, {2, 2, 8});
  for (int t = 0; t < 2; ++t)
    for (int h = 0; h < 2; ++h) {
      x.set(3.0f * static_cast<float>(t + h + 1), t, h, 0);
      x.set(4.0f * static_cast<float>(t + h + 1), t, h, 1);
    }
  ASSERT_EQ(l2norm(l2norm_args(x, out, 0.0f)), VT_OK);
  for (int t = 0; t < 2; ++t)
    for (int h = 0; h < 2; ++h) {
      EXPECT_EQ(out.get(t, h, 0), 0.6015625f) << t << h;   // bf16 nearest to 0.6
      EXPECT_EQ(out.get(t, h, 1), 0.80078125f) << t << h;  // bf16 nearest to 0.8
    }
}

TEST(ReferenceGating, HandValues) {
  const std::vector<float> a = {20, -1, 1, 3, 0}, dt = {5, 1, -1, 0, 0}, A_log = {0, 0, 0, 0, 1},
                           b = {0, 100, -100, 1, 0};
  HostTensor ta(VT_DTYPE_F32, {1, 5}), tb(VT_DTYPE_F32, {1, 5}), tA(VT_DTYPE_F32, {5}), tdt(VT_DTYPE_F32, {5});
  for (int h = 0; h < 5; ++h) {
    ta.set(a[h], 0, h);
    tb.set(b[h], 0, h);
    tA.set(A_log[h], h);
    tdt.set(dt[h], h);
  }
  HostTensor g(VT_DTYPE_F32, {1, 5}), beta(VT_DTYPE_F32, {1, 5});
  g.poison();
  beta.poison();
  ASSERT_EQ(gdn_gating(gating_args(ta, tb, tA, tdt, g, beta)), VT_OK);
  EXPECT_EQ(g.get(0, 0), -25.0f) << "softplus(25) = 25 above the threshold, exp(0) = 1";
  EXPECT_LE(ulps(g.get(0, 1), -0.6931472f), 1) << "-log1p(exp(0)) = -ln 2";
  EXPECT_EQ(g.bits(0, 1), g.bits(0, 2));
  EXPECT_LE(ulps(g.get(0, 3), -3.0485873f), 2) << "-log1p(exp(3))";
  EXPECT_LE(ulps(g.get(0, 4), -1.8841693f), 2) << "-e * ln 2";
  EXPECT_EQ(beta.get(0, 0), 0.5f);
  EXPECT_EQ(beta.get(0, 1), 1.0f);
  EXPECT_EQ(beta.get(0, 2), 0.0f) << "exp(100) overflows: 1 / inf";
  EXPECT_LE(ulps(beta.get(0, 3), 0.7310586f), 1) << "sigmoid(1)";
  EXPECT_EQ(beta.get(0, 4), 0.5f);
}

// ---- the fused op against its pieces ----

struct Shape {
  int64_t T = 5, Hk = 2, Hv = 4, Dk = 40, Dv = 24;
  int64_t C() const { return 2 * Hk * Dk + Hv * Dv; }
};

struct PostConv {
  HostTensor conv_out, a, b, A_log, dt_bias, q, k, v, g, beta;
};

PostConv make(const Shape& s, vt_dtype in, vt_dtype out, vt_dtype ab, std::mt19937& rng) {
  PostConv p;
  p.conv_out = HostTensor(in, {s.T, s.C()}, {s.C() + 7, 1});  // a row view of a wider projection
  fill_random(p.conv_out, rng);
  p.a = HostTensor(ab, {s.T, s.Hv}, {s.Hv + 3, 1});
  fill_random(p.a, rng, 4.0f);
  p.b = HostTensor(ab, {s.T, s.Hv}, {s.Hv + 3, 1});
  fill_random(p.b, rng, 4.0f);
  p.A_log = HostTensor(VT_DTYPE_F32, {s.Hv});
  fill_random(p.A_log, rng);
  p.dt_bias = HostTensor(VT_DTYPE_F32, {s.Hv});
  fill_random(p.dt_bias, rng);
  p.q = HostTensor(out, {s.T, s.Hk, s.Dk});
  p.k = HostTensor(out, {s.T, s.Hk, s.Dk});
  p.v = HostTensor(out, {s.T, s.Hv, s.Dv});
  p.g = HostTensor(VT_DTYPE_F32, {s.T, s.Hv});
  p.beta = HostTensor(VT_DTYPE_F32, {s.T, s.Hv});
  for (HostTensor* t : {&p.q, &p.k, &p.v, &p.g, &p.beta}) t->poison();
  return p;
}

vt_gdn_split_args split_args(const PostConv& p, const Shape& s) {
  vt_gdn_split_args a{};
  a.struct_size = sizeof a;
  a.conv_out = p.conv_out;
  a.q_out = p.q;
  a.k_out = p.k;
  a.v_out = p.v;
  a.num_tokens = s.T;
  a.key_heads = s.Hk;
  a.value_heads = s.Hv;
  a.key_dim = s.Dk;
  a.value_dim = s.Dv;
  return a;
}

vt_gdn_post_conv_args post_conv_args(const PostConv& p, const Shape& s, bool normalise, float eps) {
  vt_gdn_post_conv_args a{};
  a.struct_size = sizeof a;
  a.conv_out = p.conv_out;
  a.a = p.a;
  a.b = p.b;
  a.A_log = p.A_log;
  a.dt_bias = p.dt_bias;
  a.q_out = p.q;
  a.k_out = p.k;
  a.v_out = p.v;
  a.g_out = p.g;
  a.beta_out = p.beta;
  a.l2norm = normalise ? 1 : 0;
  a.eps = eps;
  a.num_tokens = s.T;
  a.key_heads = s.Hk;
  a.value_heads = s.Hv;
  a.key_dim = s.Dk;
  a.value_dim = s.Dv;
  return a;
}

struct Combo {
  vt_dtype in, out, ab;
};

std::ostream& operator<<(std::ostream& os, const Combo& c) {
  return os << "in_" << name_of(c.in) << "_out_" << name_of(c.out) << "_ab_" << name_of(c.ab);
}

class PostConvComposition : public ::testing::TestWithParam<Combo> {};

TEST_P(PostConvComposition, FusedEqualsSplitL2normAndGating) {
  const Combo c = GetParam();
  const Shape s;
  const float eps = 1e-6f;
  for (const bool normalise : {true, false}) {
    std::mt19937 rng(21);
    PostConv fused = make(s, c.in, c.out, c.ab, rng);
    PostConv pieces = fused;
    ASSERT_EQ(gdn_post_conv(post_conv_args(fused, s, normalise, eps)), VT_OK);

    ASSERT_EQ(gdn_split(split_args(pieces, s)), VT_OK);
    if (normalise) {
      const int64_t row = s.C() + 7;
      const vt_tensor q_in = HostTensor::view(pieces.conv_out, {s.T, s.Hk, s.Dk}, {row, s.Dk, 1});
      const vt_tensor k_in = HostTensor::view(pieces.conv_out, {s.T, s.Hk, s.Dk}, {row, s.Dk, 1}, s.Hk * s.Dk);
      ASSERT_EQ(l2norm(l2norm_args(q_in, pieces.q, eps)), VT_OK);
      ASSERT_EQ(l2norm(l2norm_args(k_in, pieces.k, eps)), VT_OK);
    }
    ASSERT_EQ(gdn_gating(gating_args(pieces.a, pieces.b, pieces.A_log, pieces.dt_bias, pieces.g, pieces.beta)), VT_OK);

    EXPECT_EQ(fused.q.bytes(), pieces.q.bytes()) << "l2norm=" << normalise;
    EXPECT_EQ(fused.k.bytes(), pieces.k.bytes()) << "l2norm=" << normalise;
    EXPECT_EQ(fused.v.bytes(), pieces.v.bytes());
    EXPECT_EQ(fused.g.bytes(), pieces.g.bytes());
    EXPECT_EQ(fused.beta.bytes(), pieces.beta.bytes());
    for (const HostTensor* t : {&fused.q, &fused.k, &fused.v, &fused.g, &fused.beta}) EXPECT_FALSE(any_nan(*t));
    // Without l2norm q is a copy of conv_out's q part.
    if (!normalise) {
      EXPECT_EQ(fused.q.bits(1, 1, 3), std::bit_cast<uint32_t>(fused.conv_out.get(1, s.Dk + 3)));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, PostConvComposition,
                         ::testing::Values(Combo{VT_DTYPE_F32, VT_DTYPE_F32, VT_DTYPE_F32},
                                           Combo{VT_DTYPE_BF16, VT_DTYPE_BF16, VT_DTYPE_BF16},
                                           Combo{VT_DTYPE_BF16, VT_DTYPE_F32, VT_DTYPE_F32},
                                           Combo{VT_DTYPE_F16, VT_DTYPE_F16, VT_DTYPE_F32}));

TEST(ReferenceSplit, HandValuesThroughARowView) {
  const Shape s{2, 1, 2, 8, 8};  // C = 32
  HostTensor conv_out(VT_DTYPE_F32, {2, 32}, {40, 1});
  for (int t = 0; t < 2; ++t)
    for (int i = 0; i < 32; ++i) conv_out.set(static_cast<float>(100 * t + i), t, i);
  PostConv p;
  p.conv_out = conv_out;
  p.q = HostTensor(VT_DTYPE_BF16, {2, 1, 8});
  p.k = HostTensor(VT_DTYPE_BF16, {2, 1, 8});
  p.v = HostTensor(VT_DTYPE_BF16, {2, 2, 8});
  ASSERT_EQ(gdn_split(split_args(p, s)), VT_OK);
  for (int t = 0; t < 2; ++t)
    for (int i = 0; i < 8; ++i) {
      EXPECT_EQ(p.q.get(t, 0, i), 100 * t + i);
      EXPECT_EQ(p.k.get(t, 0, i), 100 * t + 8 + i);
      EXPECT_EQ(p.v.get(t, 0, i), 100 * t + 16 + i);
      EXPECT_EQ(p.v.get(t, 1, i), 100 * t + 24 + i);
    }
}

}  // namespace
}  // namespace vt::reference::test
