// causal_conv1d_update: the decode op's own rules (in place, slots, S >= B). The weight, bias
// and state rules it shares with causal_conv1d_fwd are exercised there.
#include <gtest/gtest.h>

#include "conv_calls.hpp"

namespace {

using ops_test::Arena;
using ops_test::Update;
using vt::DType;

class ConvUpdateValidation : public ::testing::Test {
 protected:
  void expect(const std::string& message) {
    ops_test::expect_rejected(
        arena, [&] { vt::ops::causal_conv1d_update(arena.queue(), u.args); }, message);
  }
  void expect_accepted() {
    EXPECT_NO_THROW(vt::ops::validate(u.args, arena.device()));
    if (ops_test::has_provider(VT_OP_CAUSAL_CONV1D_UPDATE)) {
      EXPECT_NO_THROW(vt::ops::causal_conv1d_update(arena.queue(), u.args));
    }
  }
  static constexpr const char* kShifted =
      "causal_conv1d_update: out: overlaps x (only an exact in-place call may share x's memory) in memory";

  Arena arena;
  Update u{arena};
};

TEST_F(ConvUpdateValidation, AcceptsAValidCallAndDerivesItsSizes) {
  const auto r = vt::ops::validate(u.args, arena.device());
  EXPECT_EQ(r.batch, Update::B);
  EXPECT_EQ(r.tokens_per_seq, 1);
  EXPECT_EQ(r.channels, Update::C);
  EXPECT_EQ(r.width, Update::K);
  EXPECT_EQ(r.num_slots, Update::S);
  EXPECT_EQ(r.x_seq_stride, Update::C);
  EXPECT_EQ(r.x_tok_stride, 0);
  if (ops_test::has_provider(VT_OP_CAUSAL_CONV1D_UPDATE)) {
    u.args.activation = vt::ops::Activation::silu;  // poison in gives poison out without it
    const auto before = arena.snapshot();
    EXPECT_EQ(vt::ops::causal_conv1d_update(arena.queue(), u.args),
              ops_test::first_provider(VT_OP_CAUSAL_CONV1D_UPDATE));
    EXPECT_FALSE(arena.snapshot() == before) << "a valid call wrote nothing";
  }
}

TEST_F(ConvUpdateValidation, AcceptsSeveralTokensPerSequenceInWiderRows) {
  u.args.x = arena.strided(DType::bf16, {Update::B, 2, Update::C}, {96, 32, 1});
  u.args.out = arena.tensor(DType::bf16, {Update::B, 2, Update::C});
  const auto r = vt::ops::validate(u.args, arena.device());
  EXPECT_EQ(r.tokens_per_seq, 2);
  EXPECT_EQ(r.x_seq_stride, 96);
  EXPECT_EQ(r.x_tok_stride, 32);
  EXPECT_EQ(r.out_seq_stride, 2 * Update::C);
  EXPECT_EQ(r.out_tok_stride, Update::C);
  expect_accepted();
}

TEST_F(ConvUpdateValidation, AcceptsAnExactInPlaceCall) {
  u.args.out = u.args.x;
  expect_accepted();
}

TEST_F(ConvUpdateValidation, AcceptsSlotsByPositionWhenSCoversB) {
  u.args.state_indices = vt::TensorView();
  u.args.host_state_indices = {};
  expect_accepted();
}

TEST_F(ConvUpdateValidation, RejectsAShiftedOverlapWithX) {
  const auto rows = arena.tensor(DType::bf16, {Update::B + 1, Update::C});
  u.args.x = arena.alias(rows, DType::bf16, {Update::B, Update::C}, {Update::C, 1}, 0);
  u.args.out = arena.alias(rows, DType::bf16, {Update::B, Update::C}, {Update::C, 1}, 2 * Update::C);
  expect(kShifted);
}

TEST_F(ConvUpdateValidation, RejectsSameStartWithOtherStridesOrDtype) {
  const auto rows = arena.tensor(DType::f32, {Update::B, 2 * Update::C});
  u.args.x = arena.alias(rows, DType::bf16, {Update::B, Update::C}, {2 * Update::C, 1}, 0);
  u.args.out = arena.alias(rows, DType::bf16, {Update::B, Update::C}, {Update::C, 1}, 0);
  expect(kShifted);
  u.args.x = arena.alias(rows, DType::bf16, {Update::B, Update::C}, {Update::C, 1}, 0);
  u.args.out = arena.alias(rows, DType::f32, {Update::B, Update::C}, {Update::C, 1}, 0);
  expect(kShifted);
}

TEST_F(ConvUpdateValidation, RanksOfXAndOut) {
  u.args.x = arena.tensor(DType::bf16, {Update::C});
  expect("causal_conv1d_update: x: rank 1, expected 2 or 3");
  u.args.x = arena.tensor(DType::bf16, {Update::B, Update::C});
  u.args.out = arena.tensor(DType::f32, {Update::B, 1, Update::C});
  expect("causal_conv1d_update: out: rank 3, expected 2");
}

TEST_F(ConvUpdateValidation, OutExtentsDisagreeWithX) {
  u.args.out = arena.tensor(DType::f32, {Update::B, Update::C / 2});
  expect("causal_conv1d_update: out: shape [3, 8]: dim 1 is 8, expected x's extent = 16");
}

TEST_F(ConvUpdateValidation, ZeroTokensPerSequence) {
  u.args.x = arena.tensor(DType::bf16, {Update::B, 0, Update::C});
  u.args.out = arena.tensor(DType::bf16, {Update::B, 0, Update::C});
  expect("causal_conv1d_update: x: shape [3, 0, 16]: L=0, each sequence needs at least one token");
}

TEST_F(ConvUpdateValidation, OutF16WhenXIsBf16) {
  u.args.out = arena.tensor(DType::f16, {Update::B, Update::C});
  expect("causal_conv1d_update: out: dtype f16 must be f32 or x's dtype (bf16)");
}

TEST_F(ConvUpdateValidation, WidthOutsideTwoToEight) {
  u.args.weight = arena.tensor(DType::f32, {Update::C, 9});
  expect("causal_conv1d_update: weight: shape [16, 9]: K=9 outside 2..8");
}

TEST_F(ConvUpdateValidation, StateIsRequired) {
  u.args.conv_state = vt::TensorView();
  expect("causal_conv1d_update: conv_state: is required");
}

TEST_F(ConvUpdateValidation, FewerSlotsThanSequencesWithoutIndices) {
  u.args.conv_state = arena.tensor(DType::bf16, {Update::B - 1, Update::C, Update::K - 1});
  u.args.state_indices = vt::TensorView();
  u.args.host_state_indices = {};
  expect("causal_conv1d_update: conv_state: S=2 < B=3 without state_indices (sequence b uses slot b)");
}

TEST_F(ConvUpdateValidation, HostSlotsWithoutTheTensor) {
  u.args.state_indices = vt::TensorView();
  expect("causal_conv1d_update: state_indices: host copy given but the tensor is absent");
}

TEST_F(ConvUpdateValidation, SlotsDisagreeWithB) {
  u.args.state_indices = arena.i32({1, -1});
  expect("causal_conv1d_update: state_indices: shape [2]: dim 0 is 2, expected B = 3");
}

TEST_F(ConvUpdateValidation, HostSlotOutOfRange) {
  u.slots = {1, -1, 4};
  u.args.host_state_indices = u.slots;
  expect("causal_conv1d_update: state_indices: state_indices[2]=4 >= S = 4");
}

TEST_F(ConvUpdateValidation, HostDuplicateSlots) {
  u.slots = {3, -1, 3};
  u.args.host_state_indices = u.slots;
  expect("causal_conv1d_update: state_indices: state_indices[2] and state_indices[0] both name slot 3");
}

// The duplicate test keeps a table between calls (ops/src/metadata.cpp): a rejected call
// leaves nothing in it for the next one.
TEST_F(ConvUpdateValidation, HostSlotChecksStartAfreshAfterARejectedCall) {
  const std::vector<int32_t> good = u.slots;
  u.slots = {3, -1, 3};
  u.args.host_state_indices = u.slots;
  expect("causal_conv1d_update: state_indices: state_indices[2] and state_indices[0] both name slot 3");
  u.slots = {3, 1, 7};
  u.args.host_state_indices = u.slots;
  expect("causal_conv1d_update: state_indices: state_indices[2]=7 >= S = 4");
  u.slots = good;
  u.args.host_state_indices = u.slots;
  expect_accepted();
  u.slots = {3, 2, 1};  // slots the rejected calls named, in other places
  u.args.host_state_indices = u.slots;
  EXPECT_NO_THROW(vt::ops::validate(u.args, arena.device()));
}

// A state cache of no channels holds any number of slots in no memory: the duplicate test's
// table stops at 2^20 slots (with S stamps, the fuzzer's S = 2^59 asked for 2^62 bytes), and
// slots beyond it are compared by sorting, with the same message.
TEST_F(ConvUpdateValidation, HostSlotsOfAHugeCacheOfNoChannels) {
  constexpr int64_t kS = int64_t{1} << 59;
  u.args.x = arena.tensor(DType::bf16, {Update::B, 0});
  u.args.weight = arena.tensor(DType::f32, {0, Update::K});
  u.args.bias = arena.tensor(DType::f32, {0});
  u.args.out = arena.tensor(DType::f32, {Update::B, 0});
  u.args.conv_state = arena.strided(DType::bf16, {kS, 0, Update::K - 1}, {0, Update::K - 1, 1});  // no elements
  u.slots = {5, -1, (1 << 30) + 7};
  u.args.host_state_indices = u.slots;
  const auto r = vt::ops::validate(u.args, arena.device());
  EXPECT_EQ(r.num_slots, kS);
  EXPECT_EQ(r.channels, 0);
  u.slots = {(1 << 30) + 7, -1, (1 << 30) + 7};
  u.args.host_state_indices = u.slots;
  expect("causal_conv1d_update: state_indices: state_indices[2] and state_indices[0] both name slot 1073741831");
  u.slots = {-1, (1 << 21), (1 << 21)};
  u.args.host_state_indices = u.slots;
  expect("causal_conv1d_update: state_indices: state_indices[2] and state_indices[1] both name slot 2097152");
  u.slots = {(1 << 20) - 1, (1 << 20), (1 << 20) - 1};  // either side of the cap
  u.args.host_state_indices = u.slots;
  expect("causal_conv1d_update: state_indices: state_indices[2] and state_indices[0] both name slot 1048575");
  u.slots = {(1 << 20) - 1, (1 << 20), INT32_MAX};
  u.args.host_state_indices = u.slots;
  EXPECT_NO_THROW(vt::ops::validate(u.args, arena.device()));
}

TEST_F(ConvUpdateValidation, HostSlotCountDisagreesWithB) {
  u.slots.pop_back();
  u.args.host_state_indices = u.slots;
  expect("causal_conv1d_update: state_indices: host copy has 2 values, expected 3");
}

TEST_F(ConvUpdateValidation, StateOverlapsX) {
  const auto both = arena.tensor(DType::bf16, {Update::S + 1, Update::C, Update::K - 1});
  u.args.conv_state = arena.alias(both, DType::bf16, {Update::S, Update::C, Update::K - 1}, {48, 3, 1}, 0);
  u.args.x = arena.alias(both, DType::bf16, {Update::B, Update::C}, {Update::C, 1}, 2 * 48 * Update::S - 2);
  expect("causal_conv1d_update: conv_state: overlaps x in memory");
}

TEST_F(ConvUpdateValidation, OutOverlapsStateOrBias) {
  u.args.out = arena.alias(u.args.conv_state, DType::f32, {Update::B, Update::C}, {Update::C, 1}, 0);
  expect("causal_conv1d_update: out: overlaps conv_state in memory");
  const auto both = arena.tensor(DType::f32, {Update::B + 1, Update::C});
  u.args.bias = arena.alias(both, DType::f32, {Update::C}, {1}, 0);
  u.args.out = arena.alias(both, DType::f32, {Update::B, Update::C}, {Update::C, 1}, 0);
  expect("causal_conv1d_update: out: overlaps bias in memory");
}

TEST_F(ConvUpdateValidation, StateOverlapsSlots) {
  const auto both = arena.tensor(DType::i32, {Update::S * Update::C * Update::K});
  u.args.conv_state = arena.alias(both, DType::bf16, {Update::S, Update::C, Update::K - 1}, {48, 3, 1}, 0);
  u.args.state_indices = arena.alias(both, DType::i32, {Update::B}, {1}, 4);
  expect("causal_conv1d_update: conv_state: overlaps state_indices in memory");
}

TEST_F(ConvUpdateValidation, StateOnAnotherDevice) {
  u.args.conv_state = arena.tensor_on(ops_test::other_device(), DType::bf16, {Update::S, Update::C, Update::K - 1});
  expect("causal_conv1d_update: conv_state: is on cpu:0 of another vt::Runtime, the queue is on cpu:0");
}

// Found by tests/fuzz: Checker::row_major takes dim d's inner span as size(d+1)*stride(d+1),
// which a unit dim makes 0 (or anything). Enable with the fix: span = 1 + sum over e > d of
// (size(e)-1)*stride(e).
TEST_F(ConvUpdateValidation, RejectsSequencesSharingARowThroughAUnitDim) {
  u.args.x = arena.tensor(DType::bf16, {Update::B, 1, Update::C});
  u.args.out = arena.strided(DType::f32, {Update::B, 1, Update::C}, {0, 0, 1});  // all three on one row
  expect("causal_conv1d_update: out: stride 0 of dim 0 is below the inner span 16 (rows would overlap)");
}

TEST_F(ConvUpdateValidation, AcceptsAnyStrideOnAUnitDim) {
  u.args.x = arena.strided(DType::bf16, {Update::B, 1, Update::C}, {Update::C, 1000, 1});
  u.args.out = arena.tensor(DType::f32, {Update::B, 1, Update::C});
  expect_accepted();
}

}  // namespace
