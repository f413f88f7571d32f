// The reference convolution: hand-computed cases, then properties that must hold exactly
// (update chains equal prefill, state layouts agree, a plan changes nothing, skipped
// sequences leave every byte alone, in place equals out of place).
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <ostream>
#include <random>
#include <vector>

#include "host_tensor.hpp"
#include "vt/ops/portable_math.h"
#include "vt/reference/reference.hpp"

namespace vt::reference::test {
namespace {

HostTensor values(vt_dtype dtype, std::vector<int64_t> shape, const std::vector<float>& v) {
  HostTensor t(dtype, std::move(shape));
  int64_t i = 0;
  t.for_each([&](char* p, vt_dtype d) { store_float(d, p, v[static_cast<size_t>(i++)]); });
  return t;
}

HostTensor flags(vt_dtype dtype, const std::vector<int32_t>& v) {
  HostTensor t(dtype, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) t.set_int(v[i], i);
  return t;
}

std::vector<float> column(const HostTensor& t, int64_t c) {
  std::vector<float> v;
  for (int64_t i = 0; i < t.shape()[0]; ++i) v.push_back(t.get(i, c));
  return v;
}

std::vector<float> state_of(const HostTensor& s, int64_t slot, int64_t c) {
  std::vector<float> v;
  for (int64_t j = 0; j < s.shape()[2]; ++j) v.push_back(s.get(slot, c, j));
  return v;
}

using Floats = std::vector<float>;

// ---- hand-computed cases ----

TEST(ReferenceConv, WidthTwoStatelessSeesZerosOnTheLeft) {
  FwdTensors f;
  f.x = values(VT_DTYPE_F32, {3, 1}, {1, 2, 3});
  f.weight = values(VT_DTYPE_F32, {1, 2}, {10, 1});  // weight[c, K-1] multiplies the current token
  f.bias = values(VT_DTYPE_F32, {1}, {100});
  f.out = HostTensor(VT_DTYPE_F32, {3, 1});
  f.out.poison();
  f.query_start_loc = ints({0, 3});
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, VT_ACTIVATION_NONE)), VT_OK);
  EXPECT_EQ(column(f.out, 0), (Floats{101, 112, 123}));
}

TEST(ReferenceConv, WidthFourReadsTheOldStateAndRollsIt) {
  FwdTensors f;
  f.x = values(VT_DTYPE_F32, {3, 2}, {4, 1, 5, 2, 6, 3});
  f.weight = values(VT_DTYPE_F32, {2, 4}, {1000, 100, 10, 1, 1, -1, 2, -2});
  f.out = HostTensor(VT_DTYPE_F32, {3, 2});
  f.conv_state = HostTensor(VT_DTYPE_F32, {2, 2, 3});
  for (int j = 0; j < 3; ++j) {
    f.conv_state.set(static_cast<float>(1 + j), 1, 0, j);
    f.conv_state.set(static_cast<float>(7 + j), 1, 1, j);
  }
  f.state_indices = ints({1});
  f.has_initial_state = flags(VT_DTYPE_U8, {1});
  f.query_start_loc = ints({0, 3});
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, VT_ACTIVATION_NONE)), VT_OK);
  // channel 0: 1000*1 + 100*2 + 10*3 + 4, then the window slides one token per output
  EXPECT_EQ(column(f.out, 0), (Floats{1234, 2345, 3456}));
  // channel 1: 7 - 8 + 2*9 - 2*1, 8 - 9 + 2*1 - 2*2, 9 - 1 + 2*2 - 2*3
  EXPECT_EQ(column(f.out, 1), (Floats{15, -3, 6}));
  EXPECT_EQ(state_of(f.conv_state, 1, 0), (Floats{4, 5, 6}));
  EXPECT_EQ(state_of(f.conv_state, 1, 1), (Floats{1, 2, 3}));
}

TEST(ReferenceConv, WithoutInitialStateTheSlotIsOverwrittenFromZeros) {
  for (const vt_dtype flag_type : {VT_DTYPE_U8, VT_DTYPE_I32}) {
    for (const bool absent : {false, true}) {
      FwdTensors f;
      f.x = values(VT_DTYPE_F32, {2, 1}, {4, 5});  // T = 2 < W = 3
      f.weight = values(VT_DTYPE_F32, {1, 4}, {1000, 100, 10, 1});
      f.out = HostTensor(VT_DTYPE_F32, {2, 1});
      f.conv_state = values(VT_DTYPE_F32, {1, 1, 3}, {99, 99, 99});
      f.state_indices = ints({0});
      if (!absent) f.has_initial_state = flags(flag_type, {0});
      f.query_start_loc = ints({0, 2});
      ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, VT_ACTIVATION_NONE)), VT_OK);
      EXPECT_EQ(column(f.out, 0), (Floats{4, 45}));
      EXPECT_EQ(state_of(f.conv_state, 0, 0), (Floats{0, 4, 5}));
    }
  }
}

TEST(ReferenceConv, TapsAccumulateFromTheBiasOldestInputFirst) {
  // Both channels at token 2 add 2^24 and two ones. In the contract's order each one is
  // added to 2^24 and ties back to it; any other order keeps them (2^24 + 2 or + 4).
  FwdTensors f;
  f.x = values(VT_DTYPE_F32, {3, 2}, {4096, 1, 1, 1, 1, 1});
  f.weight = values(VT_DTYPE_F32, {2, 3}, {4096, 1, 1, 1, 1, 1});
  f.bias = values(VT_DTYPE_F32, {2}, {0, 0x1p24f});
  f.out = HostTensor(VT_DTYPE_F32, {3, 2});
  f.query_start_loc = ints({0, 3});
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, VT_ACTIVATION_NONE)), VT_OK);
  EXPECT_EQ(f.out.get(2, 0), 0x1p24f) << "oldest input first";
  EXPECT_EQ(f.out.get(2, 1), 0x1p24f) << "bias first";
}

TEST(ReferenceConv, SiluAppliesToOutputsButTheStateKeepsRawInputs) {
  FwdTensors f;
  f.x = values(VT_DTYPE_F32, {2, 1}, {-2, 3});
  f.weight = values(VT_DTYPE_F32, {1, 2}, {1, 1});
  f.out = HostTensor(VT_DTYPE_F32, {2, 1});
  f.conv_state = values(VT_DTYPE_F32, {1, 1, 1}, {0.5f});
  f.state_indices = ints({0});
  f.has_initial_state = flags(VT_DTYPE_U8, {1});
  f.query_start_loc = ints({0, 2});
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, VT_ACTIVATION_SILU)), VT_OK);
  EXPECT_EQ(column(f.out, 0), (Floats{vt::math::silu(-1.5f), vt::math::silu(1.0f)}));
  EXPECT_EQ(state_of(f.conv_state, 0, 0), (Floats{3}));
}

TEST(ReferenceConv, LaterTokensSeeXPrecisionWhileTheStateRoundsToItsDtype) {
  const float a = 1.0f + 0x1p-10f;  // not a bf16 value: rounds to 1
  FwdTensors f;
  f.x = values(VT_DTYPE_F32, {2, 1}, {a, 2});
  f.weight = values(VT_DTYPE_F32, {1, 3}, {0, 1, 1});
  f.out = HostTensor(VT_DTYPE_F32, {2, 1});
  f.conv_state = HostTensor(VT_DTYPE_BF16, {1, 1, 2});
  f.state_indices = ints({0});
  f.query_start_loc = ints({0, 2});
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, VT_ACTIVATION_NONE)), VT_OK);
  EXPECT_EQ(column(f.out, 0), (Floats{a, a + 2}));
  EXPECT_EQ(state_of(f.conv_state, 0, 0), (Floats{1, 2}));
}

TEST(ReferenceConv, NarrowOutputsRoundToNearestEven) {
  FwdTensors f;
  // 1 + 2^-8 is halfway between bf16 neighbours 1 and 1 + 2^-7: ties to the even one, 1.
  // 1 + 3*2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: ties to 1 + 2^-6.
  f.x = values(VT_DTYPE_F32, {2, 1}, {1.0f + 0x1p-8f, 1.0f + 0x3p-8f});
  f.weight = values(VT_DTYPE_F32, {1, 2}, {0, 1});
  f.out = HostTensor(VT_DTYPE_BF16, {2, 1});
  f.query_start_loc = ints({0, 2});
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, VT_ACTIVATION_NONE)), VT_OK);
  EXPECT_EQ(column(f.out, 0), (Floats{1.0f, 1.0f + 0x1p-6f}));
}

TEST(ReferenceConvUpdate, OneAndTwoTokensPerSequence) {
  const HostTensor weight = values(VT_DTYPE_F32, {1, 3}, {100, 10, 1});
  HostTensor state = values(VT_DTYPE_F32, {1, 1, 2}, {1, 2});
  HostTensor x1 = values(VT_DTYPE_F32, {1, 1}, {3});
  HostTensor out1(VT_DTYPE_F32, {1, 1});
  ASSERT_EQ(causal_conv1d_update(update_args(x1, weight, {}, out1, state, {}, VT_ACTIVATION_NONE)), VT_OK);
  EXPECT_EQ(out1.get(0, 0), 123);
  EXPECT_EQ(state_of(state, 0, 0), (Floats{2, 3}));

  HostTensor x2 = values(VT_DTYPE_F32, {1, 2, 1}, {4, 5});
  HostTensor out2(VT_DTYPE_F32, {1, 2, 1});
  ASSERT_EQ(causal_conv1d_update(update_args(x2, weight, {}, out2, state, {}, VT_ACTIVATION_NONE)), VT_OK);
  EXPECT_EQ(out2.get(0, 0, 0), 234);
  EXPECT_EQ(out2.get(0, 1, 0), 345);
  EXPECT_EQ(state_of(state, 0, 0), (Floats{4, 5}));
}

// ---- properties ----

struct Dtypes {
  vt_dtype x, state, out;
};

std::ostream& operator<<(std::ostream& os, const Dtypes& d) {
  return os << "x_" << name_of(d.x) << "_state_" << name_of(d.state) << "_out_" << name_of(d.out);
}

class ConvChain : public ::testing::TestWithParam<Dtypes> {};

TEST_P(ConvChain, UpdatesEqualOnePrefillBitForBit) {
  const Dtypes dt = GetParam();
  constexpr int64_t B = 3, C = 37, S = 4;
  const std::vector<int64_t> steps = {1, 2, 4};  // L of each update call; [B, C] for L = 1
  const int64_t total = 7;
  for (const int64_t K : {2, 4, 8}) {
    std::mt19937 rng(static_cast<uint32_t>(K));
    FwdTensors f;
    f.x = HostTensor(dt.x, {B * total, C});
    fill_random(f.x, rng);
    f.weight = HostTensor(dt.x, {C, K});
    fill_random(f.weight, rng, 0.5f);
    f.bias = HostTensor(dt.x, {C});
    fill_random(f.bias, rng);
    f.out = HostTensor(dt.out, {B * total, C});
    f.conv_state = HostTensor(dt.state, {S, C, K - 1});
    fill_random(f.conv_state, rng);
    HostTensor chain_state = f.conv_state;
    f.state_indices = ints({2, 0, 3});
    f.has_initial_state = flags(VT_DTYPE_I32, {1, 1, 1});
    f.query_start_loc = ints({0, total, 2 * total, 3 * total});
    ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, VT_ACTIVATION_SILU)), VT_OK);

    int64_t first = 0;
    for (const int64_t L : steps) {
      const std::vector<int64_t> shape = L == 1 ? std::vector<int64_t>{B, C} : std::vector<int64_t>{B, L, C};
      HostTensor x(dt.x, shape), out(dt.out, shape);
      const vt_tensor xv = HostTensor::view(x, {B, L, C}, {L * C, C, 1});
      for (int64_t b = 0; b < B; ++b)
        for (int64_t t = 0; t < L; ++t)
          for (int64_t c = 0; c < C; ++c) store_float(xv, f.x.get(b * total + first + t, c), b, t, c);
      const auto args = update_args(x, f.weight, f.bias, out, chain_state, f.state_indices, VT_ACTIVATION_SILU);
      ASSERT_EQ(causal_conv1d_update(args), VT_OK);
      const vt_tensor ov = HostTensor::view(out, {B, L, C}, {L * C, C, 1});
      for (int64_t b = 0; b < B; ++b)
        for (int64_t t = 0; t < L; ++t)
          for (int64_t c = 0; c < C; ++c)
            ASSERT_EQ(std::bit_cast<uint32_t>(load_float(ov, b, t, c)), f.out.bits(b * total + first + t, c))
                << "K=" << K << " b=" << b << " token=" << first + t << " c=" << c;
      first += L;
    }
    EXPECT_EQ(chain_state.bytes(), f.conv_state.bytes()) << "K=" << K;
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, ConvChain,
                         ::testing::Values(Dtypes{VT_DTYPE_F32, VT_DTYPE_F32, VT_DTYPE_F32},
                                           Dtypes{VT_DTYPE_BF16, VT_DTYPE_BF16, VT_DTYPE_BF16},
                                           Dtypes{VT_DTYPE_F16, VT_DTYPE_F32, VT_DTYPE_F32}));

// A prefill batch with every kind of sequence: with and without initial state, T < W, L = 0.
FwdTensors mixed_batch(std::mt19937& rng, vt_dtype dtype, const HostTensor& state) {
  constexpr int64_t C = 19, K = 4;
  FwdTensors f;
  f.query_start_loc = ints({0, 5, 7, 7, 16});
  f.x = HostTensor(dtype, {16, C});
  fill_random(f.x, rng);
  f.weight = HostTensor(dtype, {C, K});
  fill_random(f.weight, rng);
  f.bias = HostTensor(dtype, {C});
  fill_random(f.bias, rng);
  f.out = HostTensor(dtype, {16, C});
  f.conv_state = state;
  f.state_indices = ints({1, 0, 2, 3});
  f.has_initial_state = flags(VT_DTYPE_U8, {1, 0, 1, 1});
  return f;
}

TEST(ReferenceConvProperties, StateLayoutsGiveTheSameValues) {
  constexpr int64_t S = 4, C = 19, W = 3;
  for (const vt_dtype dtype : {VT_DTYPE_F32, VT_DTYPE_BF16}) {
    const HostTensor scw(dtype, {S, C, W});
    const HostTensor swc(dtype, {S, C, W}, {W * C, 1, C});  // [S, W, C] storage
    std::mt19937 rng(7);
    FwdTensors a = mixed_batch(rng, dtype, scw);
    fill_random(a.conv_state, rng);
    FwdTensors b = a;
    b.conv_state = swc;
    for (int64_t s = 0; s < S; ++s)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t j = 0; j < W; ++j) b.conv_state.set(a.conv_state.get(s, c, j), s, c, j);
    ASSERT_EQ(causal_conv1d_fwd(fwd_args(a, VT_ACTIVATION_SILU)), VT_OK);
    ASSERT_EQ(causal_conv1d_fwd(fwd_args(b, VT_ACTIVATION_SILU)), VT_OK);
    EXPECT_EQ(a.out.bytes(), b.out.bytes());

    HostTensor x(dtype, {S, 2, C}), out_a(dtype, {S, 2, C}), out_b(dtype, {S, 2, C});
    fill_random(x, rng);
    const auto update = [&](const FwdTensors& f, const HostTensor& out) {
      return causal_conv1d_update(update_args(x, f.weight, f.bias, out, f.conv_state, {}, VT_ACTIVATION_NONE));
    };
    ASSERT_EQ(update(a, out_a), VT_OK);
    ASSERT_EQ(update(b, out_b), VT_OK);
    EXPECT_EQ(out_a.bytes(), out_b.bytes());
    for (int64_t s = 0; s < S; ++s)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t j = 0; j < W; ++j)
          ASSERT_EQ(a.conv_state.bits(s, c, j), b.conv_state.bits(s, c, j)) << s << "," << c << "," << j;
  }
}

TEST(ReferenceConvProperties, APlanChangesNoBits) {
  std::mt19937 rng(11);
  FwdTensors a = mixed_batch(rng, VT_DTYPE_BF16, HostTensor(VT_DTYPE_F32, {4, 19, 3}));
  fill_random(a.conv_state, rng);
  FwdTensors b = a;
  // Chunks of 2 tokens: sequence lengths 5, 2, 0, 9.
  const std::vector<int32_t> pairs = {0, 0, 0, 2, 0, 4, 1, 0, 3, 0, 3, 2, 3, 4, 3, 6, 3, 8};
  HostTensor plan_items(VT_DTYPE_I32, {9, 2});
  for (size_t i = 0; i < pairs.size(); ++i) plan_items.set_int(pairs[i], i / 2, i % 2);
  vt_conv_chunk_plan plan{};
  plan.items = plan_items;
  plan.n_items = 9;
  plan.num_seqs = 4;
  plan.num_tokens = 16;
  plan.chunk_size = 2;
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(a, VT_ACTIVATION_SILU)), VT_OK);
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(b, VT_ACTIVATION_SILU, &plan)), VT_OK);
  EXPECT_EQ(a.out.bytes(), b.out.bytes());
  EXPECT_EQ(a.conv_state.bytes(), b.conv_state.bytes());
}

bool all_bytes(const HostTensor& t, int64_t first_byte, int64_t count, uint8_t value) {
  for (int64_t i = 0; i < count; ++i)
    if (t.bytes()[static_cast<size_t>(first_byte + i)] != value) return false;
  return true;
}

TEST(ReferenceConvProperties, SkippedSequencesLeaveEveryByteAlone) {
  constexpr int64_t C = 5, K = 3, W = K - 1, S = 3, T = 8;
  std::mt19937 rng(3);
  FwdTensors f;
  f.query_start_loc = ints({0, 2, 5, 5, 7, 8});  // lengths 2, 3, 0, 2, 1
  f.state_indices = ints({-1, 1, 2, 7, 0});      // padding, live, L = 0, slot >= S, live
  f.has_initial_state = flags(VT_DTYPE_U8, {1, 1, 1, 1, 1});
  f.x = HostTensor(VT_DTYPE_F32, {T, C});
  fill_random(f.x, rng);
  f.weight = HostTensor(VT_DTYPE_F32, {C, K});
  fill_random(f.weight, rng);
  f.out = HostTensor(VT_DTYPE_F32, {T, C});
  f.out.poison();
  f.conv_state = HostTensor(VT_DTYPE_F32, {S, C, W});
  fill_random(f.conv_state, rng);
  const std::vector<uint8_t> before = f.conv_state.bytes();
  ASSERT_EQ(causal_conv1d_fwd(fwd_args(f, VT_ACTIVATION_SILU)), VT_OK);
  const int64_t row = C * 4, slot = C * W * 4;
  EXPECT_TRUE(all_bytes(f.out, 0, 2 * row, 0xff)) << "padding sequence rows written";
  EXPECT_TRUE(all_bytes(f.out, 5 * row, 2 * row, 0xff)) << "out-of-range slot rows written";
  for (const int64_t t : {2, 3, 4, 7})
    for (int64_t c = 0; c < C; ++c) EXPECT_FALSE(std::isnan(f.out.get(t, c))) << "live row " << t << " not written";
  const auto slot_bytes = [&](const std::vector<uint8_t>& v, int64_t s) {
    return std::vector<uint8_t>(v.begin() + s * slot, v.begin() + (s + 1) * slot);
  };
  EXPECT_EQ(slot_bytes(f.conv_state.bytes(), 2), slot_bytes(before, 2)) << "L = 0 sequence's slot written";
  EXPECT_NE(slot_bytes(f.conv_state.bytes(), 0), slot_bytes(before, 0));
  EXPECT_NE(slot_bytes(f.conv_state.bytes(), 1), slot_bytes(before, 1));

  // Decode: padding and out-of-range slots again, nothing written for them.
  HostTensor x(VT_DTYPE_F32, {4, C}), out(VT_DTYPE_F32, {4, C});
  fill_random(x, rng);
  out.poison();
  const std::vector<uint8_t> state_before = f.conv_state.bytes();
  const HostTensor idx = ints({-1, 2, 5, 1});
  ASSERT_EQ(causal_conv1d_update(update_args(x, f.weight, {}, out, f.conv_state, idx, VT_ACTIVATION_NONE)), VT_OK);
  EXPECT_TRUE(all_bytes(out, 0, row, 0xff));
  EXPECT_TRUE(all_bytes(out, 2 * row, row, 0xff));
  EXPECT_FALSE(all_bytes(out, row, row, 0xff));
  EXPECT_FALSE(all_bytes(out, 3 * row, row, 0xff));
  EXPECT_EQ(slot_bytes(f.conv_state.bytes(), 0), slot_bytes(state_before, 0));
}

TEST(ReferenceConvProperties, InconsistentOffsetsNeverReachOutsideTheTensors) {
  constexpr int64_t C = 4, K = 4, T = 4;
  std::mt19937 rng(5);
  FwdTensors f;
  f.query_start_loc = ints({0, 3, 50});  // qsl[N] != T: clamped to T
  f.state_indices = ints({9, 0});        // slot 9 >= S: skipped
  f.x = HostTensor(VT_DTYPE_F32, {T, C});
  fill_random(f.x, rng);
  f.weight = HostTensor(VT_DTYPE_F32, {C, K});
  fill_random(f.weight, rng);
  HostTensor guarded(VT_DTYPE_F32, {T + 2, C});  // one guard row on each side of out
  guarded.poison();
  HostTensor guarded_state(VT_DTYPE_F32, {3, C, K - 1});  // slots 0 and 2 are guards around slot 1
  guarded_state.poison();
  vt_causal_conv1d_fwd_args args = fwd_args(f, VT_ACTIVATION_NONE);
  args.out = HostTensor::view(guarded, {T, C}, {C, 1}, C);
  args.conv_state = HostTensor::view(guarded_state, {1, C, K - 1}, {C * (K - 1), K - 1, 1}, C * (K - 1));
  args.num_slots = 1;
  ASSERT_EQ(causal_conv1d_fwd(args), VT_OK);
  const int64_t row = C * 4, slot = C * (K - 1) * 4;
  EXPECT_TRUE(all_bytes(guarded, 0, row, 0xff));
  EXPECT_TRUE(all_bytes(guarded, (T + 1) * row, row, 0xff));
  EXPECT_FALSE(all_bytes(guarded, 4 * row, row, 0xff)) << "the clamped sequence's last token";
  EXPECT_TRUE(all_bytes(guarded_state, 0, slot, 0xff));
  EXPECT_TRUE(all_bytes(guarded_state, 2 * slot, slot, 0xff));
  EXPECT_FALSE(all_bytes(guarded_state, slot, slot, 0xff));
}

TEST(ReferenceConvProperties, InPlaceUpdateEqualsOutOfPlace) {
  constexpr int64_t B = 3, L = 3, C = 21, K = 4, S = 3;
  for (const vt_dtype dtype : {VT_DTYPE_F32, VT_DTYPE_BF16}) {
    std::mt19937 rng(13);
    HostTensor x(dtype, {B, L, C}), weight(dtype, {C, K}), out(dtype, {B, L, C}), state(dtype, {S, C, K - 1});
    fill_random(x, rng);
    fill_random(weight, rng);
    fill_random(state, rng);
    HostTensor x_in_place = x;
    HostTensor state_in_place = state;
    const HostTensor idx = ints({1, 2, 0});
    ASSERT_EQ(causal_conv1d_update(update_args(x, weight, {}, out, state, idx, VT_ACTIVATION_SILU)), VT_OK);
    ASSERT_EQ(
        causal_conv1d_update(update_args(x_in_place, weight, {}, x_in_place, state_in_place, idx, VT_ACTIVATION_SILU)),
        VT_OK);
    EXPECT_EQ(x_in_place.bytes(), out.bytes());
    EXPECT_EQ(state_in_place.bytes(), state.bytes());
  }
}

}  // namespace
}  // namespace vt::reference::test
