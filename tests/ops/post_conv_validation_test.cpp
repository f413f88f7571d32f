// gdn_post_conv and its pieces (gdn_split, gdn_gating, l2norm): one test per rule. The
// fused op checks its pieces' rules through the same code, so the shared rules are tested on
// the fused op and each piece gets its own op name and extras checked.
#include <gtest/gtest.h>

#include <limits>

#include "validation_fixture.hpp"

namespace {

using ops_test::Arena;
using vt::DType;

// A valid fused call: 5 tokens, Hk=2 key heads of Dk=8, Hv=4 value heads of Dv=16 (C=96),
// bf16 activations and q/k/v, f32 gates.
struct PostConv {
  static constexpr int64_t T = 5, Hk = 2, Dk = 8, Hv = 4, Dv = 16, C = 2 * Hk * Dk + Hv * Dv;
  vt::ops::GdnPostConv args;

  explicit PostConv(Arena& a) {
    args.conv_out = a.tensor(DType::bf16, {T, C});
    args.a = a.tensor(DType::bf16, {T, Hv});
    args.b = a.tensor(DType::bf16, {T, Hv});
    args.A_log = a.tensor(DType::f32, {Hv});
    args.dt_bias = a.tensor(DType::f32, {Hv});
    args.q_out = a.tensor(DType::bf16, {T, Hk, Dk});
    args.k_out = a.tensor(DType::bf16, {T, Hk, Dk});
    args.v_out = a.tensor(DType::bf16, {T, Hv, Dv});
    args.g_out = a.tensor(DType::f32, {T, Hv});
    args.beta_out = a.tensor(DType::f32, {T, Hv});
  }
  // q, k, v and conv_out for other head counts and sizes.
  void heads(Arena& a, int64_t hk, int64_t dk, int64_t hv, int64_t dv) {
    args.conv_out = a.tensor(DType::bf16, {T, 2 * hk * dk + hv * dv});
    args.q_out = a.tensor(DType::bf16, {T, hk, dk});
    args.k_out = a.tensor(DType::bf16, {T, hk, dk});
    args.v_out = a.tensor(DType::bf16, {T, hv, dv});
    args.a = a.tensor(DType::bf16, {T, hv});
    args.b = a.tensor(DType::bf16, {T, hv});
    args.A_log = a.tensor(DType::f32, {hv});
    args.dt_bias = a.tensor(DType::f32, {hv});
    args.g_out = a.tensor(DType::f32, {T, hv});
    args.beta_out = a.tensor(DType::f32, {T, hv});
  }
};

class PostConvValidation : public ::testing::Test {
 protected:
  void expect(const std::string& message) {
    ops_test::expect_rejected(
        arena, [&] { vt::ops::gdn_post_conv(arena.queue(), p.args); }, message);
  }
  void expect_accepted() {
    EXPECT_NO_THROW(vt::ops::validate(p.args, arena.device()));
    if (ops_test::has_provider(VT_OP_GDN_POST_CONV)) {
      EXPECT_NO_THROW(vt::ops::gdn_post_conv(arena.queue(), p.args));
    }
  }

  Arena arena;
  PostConv p{arena};
};

TEST_F(PostConvValidation, AcceptsAValidCallAndDerivesItsSizes) {
  const auto r = vt::ops::validate(p.args, arena.device());
  EXPECT_EQ(r.num_tokens, PostConv::T);
  EXPECT_EQ(r.key_heads, PostConv::Hk);
  EXPECT_EQ(r.value_heads, PostConv::Hv);
  EXPECT_EQ(r.key_dim, PostConv::Dk);
  EXPECT_EQ(r.value_dim, PostConv::Dv);
  EXPECT_EQ(r.l2norm, 1);
  EXPECT_EQ(r.eps, 1e-6f);
  if (ops_test::has_provider(VT_OP_GDN_POST_CONV)) {
    const auto before = arena.snapshot();
    EXPECT_EQ(vt::ops::gdn_post_conv(arena.queue(), p.args), ops_test::first_provider(VT_OP_GDN_POST_CONV));
    EXPECT_FALSE(arena.snapshot() == before) << "a valid call wrote nothing";
  }
}

// With no tokens the outputs hold no memory and so bound no head count: the channel count
// 2*Hk*Dk + Hv*Dv must not overflow (the fuzzer's Hv = 2^56 at Dv = 256 did).
TEST_F(PostConvValidation, HeadCountsWhoseChannelsOverflow) {
  constexpr int64_t kHv = int64_t{1} << 56, kDv = 256;
  p.args.conv_out = arena.tensor(DType::bf16, {0, PostConv::C});
  p.args.q_out = arena.tensor(DType::bf16, {0, PostConv::Hk, PostConv::Dk});
  p.args.k_out = arena.tensor(DType::bf16, {0, PostConv::Hk, PostConv::Dk});
  p.args.v_out = arena.strided(DType::bf16, {0, kHv, kDv}, {0, 0, 1});  // no elements
  expect("gdn_post_conv: conv_out: 2*Hk*Dk + Hv*Dv overflows 64 bits (Hk=2, Hv=72057594037927936)");
}

TEST_F(PostConvValidation, AcceptsTheAllowedVariants) {
  p.args.a = arena.strided(DType::f32, {PostConv::T, PostConv::Hv}, {3 * PostConv::Hv, 1});  // a row view
  p.args.b = arena.tensor(DType::f32, {PostConv::T, PostConv::Hv});
  p.args.eps = 0.0f;
  p.args.l2norm = false;
  expect_accepted();
  p.heads(arena, 1, 256, 3, 8);  // grouped heads, the largest Dk and the smallest Dv
  expect_accepted();
}

TEST_F(PostConvValidation, WrongRanks) {
  p.args.q_out = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hk * PostConv::Dk});
  expect("gdn_post_conv: q_out: rank 2, expected 3");
  p.args.q_out = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hk, PostConv::Dk});
  p.args.a = arena.tensor(DType::bf16, {PostConv::T * PostConv::Hv});
  expect("gdn_post_conv: a: rank 1, expected 2");
}

TEST_F(PostConvValidation, RequiredTensors) {
  p.args.beta_out = vt::TensorView();
  expect("gdn_post_conv: beta_out: is required");
}

TEST_F(PostConvValidation, ChannelsDisagreeWithTheHeads) {
  p.args.conv_out = arena.tensor(DType::bf16, {PostConv::T, PostConv::C + 1});
  expect("gdn_post_conv: conv_out: shape [5, 97]: dim 1 is 97, expected 2*Hk*Dk + Hv*Dv = 96");
}

TEST_F(PostConvValidation, TokensDisagree) {
  p.args.q_out = arena.tensor(DType::bf16, {PostConv::T - 1, PostConv::Hk, PostConv::Dk});
  expect("gdn_post_conv: q_out: shape [4, 2, 8]: dim 0 is 4, expected T = 5");
  p.args.q_out = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hk, PostConv::Dk});
  p.args.b = arena.tensor(DType::bf16, {PostConv::T + 1, PostConv::Hv});
  expect("gdn_post_conv: b: shape [6, 4]: dim 0 is 6, expected T = 5");
}

TEST_F(PostConvValidation, KeyHeadsDisagree) {
  p.args.k_out = arena.tensor(DType::bf16, {PostConv::T, 1, PostConv::Dk});
  expect("gdn_post_conv: k_out: shape [5, 1, 8]: dim 1 is 1, expected Hk = 2");
  p.args.k_out = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hk, 2 * PostConv::Dk});
  expect("gdn_post_conv: k_out: shape [5, 2, 16]: dim 2 is 16, expected Dk = 8");
}

TEST_F(PostConvValidation, ValueHeadsDisagree) {
  p.args.a = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hv - 1});
  expect("gdn_post_conv: a: shape [5, 3]: dim 1 is 3, expected Hv = 4");
  p.args.a = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hv});
  p.args.A_log = arena.tensor(DType::f32, {2 * PostConv::Hv});
  expect("gdn_post_conv: A_log: shape [8]: dim 0 is 8, expected Hv = 4");
}

TEST_F(PostConvValidation, NoKeyHeads) {
  p.args.q_out = arena.tensor(DType::bf16, {PostConv::T, 0, PostConv::Dk});
  p.args.k_out = arena.tensor(DType::bf16, {PostConv::T, 0, PostConv::Dk});
  expect("gdn_post_conv: q_out: shape [5, 0, 8]: Hk must be at least 1");
}

TEST_F(PostConvValidation, ValueHeadsNotAMultipleOfKeyHeads) {
  p.heads(arena, 2, 8, 3, 16);
  expect("gdn_post_conv: v_out: Hv=3 is not a multiple of Hk=2");
}

TEST_F(PostConvValidation, HeadDimsOutsideMultiplesOfEightUpTo256) {
  p.heads(arena, 2, 12, 4, 16);
  expect("gdn_post_conv: q_out: shape [5, 2, 12]: Dk=12 must be a multiple of 8 from 8 to 256");
  p.heads(arena, 2, 264, 4, 16);
  expect("gdn_post_conv: q_out: shape [5, 2, 264]: Dk=264 must be a multiple of 8 from 8 to 256");
  p.heads(arena, 2, 8, 4, 4);
  expect("gdn_post_conv: v_out: shape [5, 4, 4]: Dv=4 must be a multiple of 8 from 8 to 256");
  p.heads(arena, 2, 0, 4, 16);
  expect("gdn_post_conv: q_out: shape [5, 2, 0]: Dk=0 must be a multiple of 8 from 8 to 256");
}

TEST_F(PostConvValidation, OutputDtypes) {
  p.args.q_out = arena.tensor(DType::f16, {PostConv::T, PostConv::Hk, PostConv::Dk});
  expect("gdn_post_conv: q_out: dtype f16 must be f32 or conv_out's dtype (bf16)");
  p.args.q_out = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hk, PostConv::Dk});
  p.args.k_out = arena.tensor(DType::f32, {PostConv::T, PostConv::Hk, PostConv::Dk});
  expect("gdn_post_conv: k_out: dtype f32 must equal q_out's (bf16)");
  p.args.k_out = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hk, PostConv::Dk});
  p.args.v_out = arena.tensor(DType::f32, {PostConv::T, PostConv::Hv, PostConv::Dv});
  expect("gdn_post_conv: v_out: dtype f32 must equal q_out's (bf16)");
}

TEST_F(PostConvValidation, InputDtypes) {
  p.args.conv_out = arena.tensor(DType::u8, {PostConv::T, PostConv::C});
  expect("gdn_post_conv: conv_out: dtype u8 not accepted (expected f32, f16, bf16)");
}

TEST_F(PostConvValidation, GateDtypes) {
  p.args.a = arena.tensor(DType::f16, {PostConv::T, PostConv::Hv});
  expect("gdn_post_conv: a: dtype f16 must be f32 or conv_out's dtype (bf16)");
  p.args.a = arena.tensor(DType::f32, {PostConv::T, PostConv::Hv});
  expect("gdn_post_conv: b: dtype bf16 must equal a's (f32)");
}

TEST_F(PostConvValidation, GateParametersMustBeF32) {
  p.args.A_log = arena.tensor(DType::f16, {PostConv::Hv});
  expect("gdn_post_conv: A_log: dtype f16 not accepted (expected f32)");
  p.args.A_log = arena.tensor(DType::f32, {PostConv::Hv});
  p.args.dt_bias = arena.tensor(DType::bf16, {PostConv::Hv});
  expect("gdn_post_conv: dt_bias: dtype bf16 not accepted (expected f32)");
}

TEST_F(PostConvValidation, GateOutputsMustBeF32) {
  p.args.g_out = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hv});
  expect("gdn_post_conv: g_out: dtype bf16 not accepted (expected f32)");
  p.args.g_out = arena.tensor(DType::f32, {PostConv::T, PostConv::Hv});
  p.args.beta_out = arena.tensor(DType::f16, {PostConv::T, PostConv::Hv});
  expect("gdn_post_conv: beta_out: dtype f16 not accepted (expected f32)");
}

TEST_F(PostConvValidation, InnermostStrideAndOverlappingRows) {
  p.args.v_out = arena.strided(DType::bf16, {PostConv::T, PostConv::Hv, PostConv::Dv}, {128, 32, 2});
  expect("gdn_post_conv: v_out: innermost stride is 2, must be 1");
  p.args.v_out = arena.strided(DType::bf16, {PostConv::T, PostConv::Hv, PostConv::Dv}, {64, 8, 1});
  expect("gdn_post_conv: v_out: stride 8 of dim 1 is below the inner span 16 (rows would overlap)");
  p.args.v_out = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hv, PostConv::Dv});
  p.args.g_out = arena.strided(DType::f32, {PostConv::T, PostConv::Hv}, {2, 1});
  expect("gdn_post_conv: g_out: stride 2 of dim 0 is below the inner span 4 (rows would overlap)");
}

TEST_F(PostConvValidation, SplitOutputsOverlapConvOutOrEachOther) {
  const auto big = arena.tensor(DType::bf16, {4 * PostConv::T, PostConv::C});
  p.args.conv_out = arena.alias(big, DType::bf16, {PostConv::T, PostConv::C}, {PostConv::C, 1}, 0);
  p.args.q_out = arena.alias(big, DType::bf16, {PostConv::T, PostConv::Hk, PostConv::Dk}, {16, 8, 1}, 2 * 400);
  expect("gdn_post_conv: q_out: overlaps conv_out in memory");
  const uint64_t free_bytes = 2 * PostConv::T * PostConv::C;
  p.args.q_out = arena.alias(big, DType::bf16, {PostConv::T, PostConv::Hk, PostConv::Dk}, {16, 8, 1}, free_bytes);
  p.args.k_out = arena.alias(big, DType::bf16, {PostConv::T, PostConv::Hk, PostConv::Dk}, {16, 8, 1}, free_bytes + 2);
  expect("gdn_post_conv: q_out: overlaps k_out in memory");
  p.args.k_out = arena.alias(big, DType::bf16, {PostConv::T, PostConv::Hk, PostConv::Dk}, {16, 8, 1}, free_bytes + 160);
  p.args.v_out =
      arena.alias(big, DType::bf16, {PostConv::T, PostConv::Hv, PostConv::Dv}, {64, 16, 1}, free_bytes + 318);
  expect("gdn_post_conv: k_out: overlaps v_out in memory");
  p.args.v_out =
      arena.alias(big, DType::bf16, {PostConv::T, PostConv::Hv, PostConv::Dv}, {64, 16, 1}, free_bytes + 320);
  expect_accepted();  // all four adjacent in one buffer
}

TEST_F(PostConvValidation, GateOutputsOverlapInputsOrEachOther) {
  const auto big = arena.tensor(DType::f32, {4, PostConv::T, PostConv::Hv});
  const uint64_t gate_bytes = 4 * PostConv::T * PostConv::Hv;
  p.args.g_out = arena.alias(big, DType::f32, {PostConv::T, PostConv::Hv}, {PostConv::Hv, 1}, 0);
  p.args.beta_out = arena.alias(big, DType::f32, {PostConv::T, PostConv::Hv}, {PostConv::Hv, 1}, gate_bytes - 4);
  expect("gdn_post_conv: g_out: overlaps beta_out in memory");
  p.args.beta_out = arena.alias(big, DType::f32, {PostConv::T, PostConv::Hv}, {PostConv::Hv, 1}, gate_bytes);
  p.args.a = arena.alias(big, DType::f32, {PostConv::T, PostConv::Hv}, {PostConv::Hv, 1}, 2 * gate_bytes - 4);
  p.args.b = arena.tensor(DType::f32, {PostConv::T, PostConv::Hv});
  expect("gdn_post_conv: beta_out: overlaps a in memory");
  p.args.a = arena.tensor(DType::f32, {PostConv::T, PostConv::Hv});
  p.args.A_log = arena.alias(big, DType::f32, {PostConv::Hv}, {1}, 0);
  expect("gdn_post_conv: g_out: overlaps A_log in memory");
  p.args.A_log = arena.tensor(DType::f32, {PostConv::Hv});
  p.args.beta_out = arena.alias(p.args.conv_out, DType::f32, {PostConv::T, PostConv::Hv}, {PostConv::Hv, 1}, 0);
  expect("gdn_post_conv: beta_out: overlaps conv_out in memory");
}

TEST_F(PostConvValidation, SplitOutputsOverlapGateTensors) {
  const auto big = arena.tensor(DType::bf16, {2, PostConv::T, PostConv::Hv, PostConv::Dv});
  p.args.v_out = arena.alias(big, DType::bf16, {PostConv::T, PostConv::Hv, PostConv::Dv}, {64, 16, 1}, 0);
  p.args.g_out = arena.alias(big, DType::f32, {PostConv::T, PostConv::Hv}, {PostConv::Hv, 1}, 636);
  expect("gdn_post_conv: v_out: overlaps g_out in memory");
  p.args.g_out = arena.tensor(DType::f32, {PostConv::T, PostConv::Hv});
  const auto b = arena.tensor(DType::bf16, {PostConv::T, PostConv::Hk * PostConv::Dk});
  p.args.b = arena.alias(b, DType::bf16, {PostConv::T, PostConv::Hv}, {PostConv::Hv, 1}, 0);
  p.args.q_out = arena.alias(b, DType::bf16, {PostConv::T, PostConv::Hk, PostConv::Dk}, {16, 8, 1}, 0);
  expect("gdn_post_conv: q_out: overlaps b in memory");
}

// Found by tests/fuzz: with broadcast q/k (stride 0) of Hk = 2^59 heads, 2*Hk*Dk overflows
// int64 (UB, a UBSan abort) before q/k's rows are checked. Enable with the fix: check q, k, v
// rows before computing C, or compute C with overflow checks.
TEST_F(PostConvValidation, HugeBroadcastHeadCountIsRejectedWithoutOverflow) {
  const vt::TensorView q = arena.strided(DType::bf16, {1, int64_t{1} << 59, 8}, {0, 0, 1});
  const vt::ops::GdnSplit split{arena.tensor(DType::bf16, {1, PostConv::C}), q,
                                arena.strided(DType::bf16, {1, int64_t{1} << 59, 8}, {0, 0, 1}),
                                arena.tensor(DType::bf16, {1, 0, 16})};
  ops_test::expect_rejected(
      arena, [&] { vt::ops::gdn_split(arena.queue(), split); },
      "gdn_split: q_out: stride 0 of dim 1 is below the inner span 8 (rows would overlap)");
}

TEST_F(PostConvValidation, EpsMustBeFiniteAndNonNegative) {
  p.args.eps = -1.0f;
  expect("gdn_post_conv: eps: -1.000000 must be finite and >= 0");
  p.args.eps = std::numeric_limits<float>::quiet_NaN();
  expect("gdn_post_conv: eps: nan must be finite and >= 0");
  p.args.eps = std::numeric_limits<float>::infinity();
  expect("gdn_post_conv: eps: inf must be finite and >= 0");
}

TEST_F(PostConvValidation, TensorOnAnotherDevice) {
  p.args.A_log = arena.tensor_on(ops_test::other_device(), DType::f32, {PostConv::Hv});
  expect("gdn_post_conv: A_log: is on cpu:0 of another vt::Runtime, the queue is on cpu:0");
}

// --- the composable pieces: their op names and the rules only they have

TEST_F(PostConvValidation, SplitAcceptsAndRejectsUnderItsOwnName) {
  const vt::ops::GdnSplit split{p.args.conv_out, p.args.q_out, p.args.k_out, p.args.v_out};
  const auto r = vt::ops::validate(split, arena.device());
  EXPECT_EQ(r.num_tokens, PostConv::T);
  EXPECT_EQ(r.key_heads, PostConv::Hk);
  EXPECT_EQ(r.value_dim, PostConv::Dv);
  if (ops_test::has_provider(VT_OP_GDN_SPLIT)) {
    EXPECT_NO_THROW(vt::ops::gdn_split(arena.queue(), split));
  }
  vt::ops::GdnSplit bad = split;
  bad.v_out = arena.tensor(DType::bf16, {PostConv::T, 3, PostConv::Dv});
  ops_test::expect_rejected(
      arena, [&] { vt::ops::gdn_split(arena.queue(), bad); }, "gdn_split: v_out: Hv=3 is not a multiple of Hk=2");
  bad = split;
  bad.k_out = bad.q_out;
  ops_test::expect_rejected(
      arena, [&] { vt::ops::gdn_split(arena.queue(), bad); }, "gdn_split: q_out: overlaps k_out in memory");
}

TEST_F(PostConvValidation, GatingAcceptsAndRejectsUnderItsOwnName) {
  vt::ops::GdnGating gating{p.args.a, p.args.b, p.args.A_log, p.args.dt_bias, p.args.g_out, p.args.beta_out};
  const auto r = vt::ops::validate(gating, arena.device());
  EXPECT_EQ(r.num_tokens, PostConv::T);
  EXPECT_EQ(r.value_heads, PostConv::Hv);
  if (ops_test::has_provider(VT_OP_GDN_GATING)) {
    EXPECT_NO_THROW(vt::ops::gdn_gating(arena.queue(), gating));
  }
  auto expect = [&](const std::string& message) {
    ops_test::expect_rejected(
        arena, [&] { vt::ops::gdn_gating(arena.queue(), gating); }, message);
  };
  gating.a = arena.tensor(DType::i32, {PostConv::T, PostConv::Hv});
  expect("gdn_gating: a: dtype i32 not accepted (expected f32, f16, bf16)");
  gating.a = arena.tensor(DType::f16, {PostConv::T, PostConv::Hv});  // any activation dtype, b must follow
  expect("gdn_gating: b: dtype bf16 must equal a's (f16)");
  gating.b = arena.tensor(DType::f16, {PostConv::T, PostConv::Hv + 1});
  expect("gdn_gating: b: shape [5, 5]: dim 1 is 5, expected Hv = 4");
  gating.b = arena.tensor(DType::f16, {PostConv::T, PostConv::Hv});
  gating.a = vt::TensorView();
  expect("gdn_gating: a: is required");
}

class L2NormValidation : public ::testing::Test {
 protected:
  void expect(const std::string& message) {
    ops_test::expect_rejected(
        arena, [&] { vt::ops::l2norm(arena.queue(), args); }, message);
  }
  Arena arena;
  vt::ops::L2Norm args{arena.tensor(DType::bf16, {6, 32}), arena.tensor(DType::f32, {6, 32})};
};

TEST_F(L2NormValidation, AcceptsRowsAndHeadsAndDerivesTheirShape) {
  auto r = vt::ops::validate(args, arena.device());
  EXPECT_EQ(r.outer, 1);
  EXPECT_EQ(r.inner, 6);
  EXPECT_EQ(r.dim, 32);
  if (ops_test::has_provider(VT_OP_L2NORM)) {
    EXPECT_NO_THROW(vt::ops::l2norm(arena.queue(), args));
  }
  args.x = arena.strided(DType::bf16, {5, 2, 8}, {96, 16, 1});  // q heads inside conv_out rows
  args.out = arena.tensor(DType::bf16, {5, 2, 8});
  r = vt::ops::validate(args, arena.device());
  EXPECT_EQ(r.outer, 5);
  EXPECT_EQ(r.inner, 2);
  EXPECT_EQ(r.dim, 8);
}

TEST_F(L2NormValidation, RanksAndExtents) {
  args.x = arena.tensor(DType::bf16, {2, 3, 4, 8});
  expect("l2norm: x: rank 4, expected 2 or 3");
  args.x = arena.tensor(DType::bf16, {6, 32});
  args.out = arena.tensor(DType::f32, {6, 1, 32});
  expect("l2norm: out: rank 3, expected 2");
  args.out = arena.tensor(DType::f32, {6, 16});
  expect("l2norm: out: shape [6, 16]: dim 1 is 16, expected x's extent = 32");
}

TEST_F(L2NormValidation, Dtypes) {
  args.out = arena.tensor(DType::f16, {6, 32});
  expect("l2norm: out: dtype f16 must be f32 or x's dtype (bf16)");
  args.x = arena.tensor(DType::u8, {6, 32});
  expect("l2norm: x: dtype u8 not accepted (expected f32, f16, bf16)");
}

TEST_F(L2NormValidation, InPlaceIsAnOverlap) {
  args.out = args.x;
  expect("l2norm: out: overlaps x in memory");
}

TEST_F(L2NormValidation, InnermostStride) {
  args.x = arena.strided(DType::bf16, {6, 32}, {64, 2});
  expect("l2norm: x: innermost stride is 2, must be 1");
}

TEST_F(L2NormValidation, RowsOfLengthZero) {
  args.x = arena.tensor(DType::bf16, {6, 0});
  args.out = arena.tensor(DType::bf16, {6, 0});
  expect("l2norm: x: shape [6, 0]: rows of length 0");
}

TEST_F(L2NormValidation, EpsMustBeFiniteAndNonNegative) {
  args.eps = -1e-6f;
  expect("l2norm: eps: -0.000001 must be finite and >= 0");
  args.eps = -std::numeric_limits<float>::quiet_NaN();
  ops_test::expect_rejected_with(
      arena, [&] { vt::ops::l2norm(arena.queue(), args); }, "nan must be finite and >= 0");
}

TEST_F(L2NormValidation, OutOnAnotherDevice) {
  args.out = arena.tensor_on(ops_test::other_device(), DType::f32, {6, 32});
  expect("l2norm: out: is on cpu:0 of another vt::Runtime, the queue is on cpu:0");
}

// Found by tests/fuzz: TensorView's end_byte() wraps in 64 bits, so (2^62+1) rows of stride 64
// "end" at byte 2 and fit a 64-byte buffer, and validation accepts them. numel() overflows
// int64 for [2^62, 4]. Enable with the fix in vt/src/tensor.cpp: overflow-checked span and
// element count, refusing the view.
TEST(TensorViewSpan, NoViewReachesPastItsBufferThroughOverflow) {
  const vt::Buffer small = ops_test::device().alloc(64);
  EXPECT_THROW(vt::TensorView::strided(small, DType::bf16, {(int64_t{1} << 62) + 1, 1}, {64, 1}), vt::Error);
  EXPECT_THROW(vt::TensorView::strided(small, DType::bf16, {int64_t{1} << 62, 4}, {0, 0}), vt::Error);
}

}  // namespace
