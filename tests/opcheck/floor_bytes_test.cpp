// The floor of performance.md behind every GB/s and "% copy" figure (vt-bench, vt-demo): each
// case's floor_bytes() against the bytes counted here by hand from the spec's table, for the
// shapes' parts that change it (dtypes, padding, empty sequences, a missing state, bias).
#include <gtest/gtest.h>

#include <cstdint>

#include "vt/opcheck/gdn_cases.hpp"

namespace {

using vt::DType;
using namespace vt::opcheck;

constexpr uint64_t kSeed = 1;

TEST(FloorBytes, ConvFwdCountsLiveSequencesTheirStateAndTheWeightsOnce) {
  ConvFwdParams p;
  p.channels = 64;
  p.width = 4;
  p.x = p.out = p.weight = DType::bf16;
  p.state = DType::f32;
  p.bias = false;
  p.lengths = {16, 7, 0, 5, 3};
  p.num_slots = 4;
  p.slots = {2, -1, 0, 4, 1};  // the second is padding, the fourth's slot is out of range
  const uint64_t C = 64, W = 3;
  const uint64_t tokens = (16 + 3) * C * (2 + 2);  // the live sequences' x and out
  const uint64_t states = 2 * (2 * C * W * 4);     // two live sequences with tokens, read and written
  const uint64_t weights = C * 4 * 2;
  EXPECT_EQ(make_case("fwd", p, kSeed)->floor_bytes(), tokens + states + weights);

  p.bias = true;
  EXPECT_EQ(make_case("fwd bias", p, kSeed)->floor_bytes(), tokens + states + weights + C * 2);
}

TEST(FloorBytes, ConvFwdWithoutStateCountsEveryToken) {
  ConvFwdParams p;
  p.channels = 40;
  p.x = DType::f16;
  p.out = DType::f32;
  p.weight = DType::f32;
  p.bias = false;
  p.lengths = {9, 0, 4};
  p.stateless = true;
  p.initial = ConvFwdParams::Initial::absent;
  EXPECT_EQ(make_case("fwd stateless", p, kSeed)->floor_bytes(), 13u * 40 * (2 + 4) + 40u * 4 * 4);
}

TEST(FloorBytes, ConvUpdateCountsEachLiveSequence) {
  ConvUpdateParams p;
  p.channels = 48;
  p.width = 4;
  p.x = p.out = p.weight = DType::bf16;
  p.state = DType::f32;
  p.batch = 6;
  p.padding = 2;
  const uint64_t per_sequence = 48 * (2 + 2) + 2 * 48 * 3 * 4;  // x, out; the state read and written
  EXPECT_EQ(make_case("update", p, kSeed)->floor_bytes(), 4 * per_sequence);

  p.tokens = 3;  // three tokens a sequence
  p.in_place = true;
  EXPECT_EQ(make_case("update tokens", p, kSeed)->floor_bytes(), 4 * (3 * 48 * (2 + 2) + 2 * 48 * 3 * 4));
}

TEST(FloorBytes, PostConvIsFourCPlusTwelveHvATokenInBf16) {
  PostConvParams p;
  p.tokens = 5;
  p.key_heads = 2;
  p.value_heads = 4;
  p.key_dim = 16;
  p.value_dim = 32;
  p.in = p.gate = p.out = DType::bf16;
  const uint64_t C = 2 * 2 * 16 + 4 * 32;
  EXPECT_EQ(make_case("post", p, kSeed)->floor_bytes(), 5 * (4 * C + 12 * 4));
}

TEST(FloorBytes, TheStepsOnTheirOwn) {
  L2NormParams l;
  l.rows = 3;
  l.heads = 2;
  l.dim = 16;
  l.in = DType::bf16;
  l.out = DType::f32;
  EXPECT_EQ(make_case("l2norm", l, kSeed)->floor_bytes(), 3u * 2 * 16 * (2 + 4));

  GatingParams g;
  g.tokens = 7;
  g.heads = 4;
  g.gate = DType::bf16;
  EXPECT_EQ(make_case("gating", g, kSeed)->floor_bytes(), 7u * 4 * (2 * 2 + 2 * 4));  // a, b in; g, beta f32 out

  SplitParams s;
  s.tokens = 2;
  s.key_heads = 1;
  s.value_heads = 2;
  s.key_dim = 8;
  s.value_dim = 16;
  s.in = DType::bf16;
  s.out = DType::bf16;
  EXPECT_EQ(make_case("split", s, kSeed)->floor_bytes(), 2u * (2 * 8 + 2 * 16) * (2 + 2));
}

}  // namespace
