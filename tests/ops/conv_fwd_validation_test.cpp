// causal_conv1d_fwd: one test per rule of ops.md section 6. Each starts from a valid call,
// breaks one thing, and checks the error text and that no byte of any buffer changed.
#include <gtest/gtest.h>

#include "conv_calls.hpp"

namespace {

using ops_test::Arena;
using ops_test::Fwd;
using vt::DType;

class ConvFwdValidation : public ::testing::Test {
 protected:
  void expect(const std::string& message) {
    ops_test::expect_rejected(
        arena, [&] { vt::ops::causal_conv1d_fwd(arena.queue(), f.args); }, message);
  }
  void expect_accepted() {
    EXPECT_NO_THROW(vt::ops::validate(f.args, arena.device()));
    if (ops_test::has_provider(VT_OP_CAUSAL_CONV1D_FWD)) {
      EXPECT_NO_THROW(vt::ops::causal_conv1d_fwd(arena.queue(), f.args));
    }
  }
  static constexpr const char* kBothOrNeither =
      "conv_state and state_indices come together: both present, or both absent for a stateless prefill";

  Arena arena;
  Fwd f{arena};
};

TEST_F(ConvFwdValidation, AcceptsAValidCallAndDerivesItsSizes) {
  const auto r = vt::ops::validate(f.args, arena.device());
  EXPECT_EQ(r.struct_size, sizeof r);
  EXPECT_EQ(r.num_tokens, Fwd::T);
  EXPECT_EQ(r.channels, Fwd::C);
  EXPECT_EQ(r.width, Fwd::K);
  EXPECT_EQ(r.num_seqs, Fwd::N);
  EXPECT_EQ(r.num_slots, Fwd::S);
  EXPECT_EQ(r.activation, VT_ACTIVATION_SILU);
  EXPECT_EQ(r.plan, nullptr);
  if (ops_test::has_provider(VT_OP_CAUSAL_CONV1D_FWD)) {
    const auto before = arena.snapshot();
    EXPECT_EQ(vt::ops::causal_conv1d_fwd(arena.queue(), f.args), ops_test::first_provider(VT_OP_CAUSAL_CONV1D_FWD));
    EXPECT_FALSE(arena.snapshot() == before) << "a valid call wrote nothing";
  }
}

TEST_F(ConvFwdValidation, AcceptsEmptyBatchesStatelessCallsAndWiderRows) {
  f.args.x = arena.strided(DType::bf16, {Fwd::T, Fwd::C}, {3 * Fwd::C, 1}, 2 * Fwd::C);       // a row view
  f.args.conv_state = arena.strided(DType::bf16, {Fwd::S, Fwd::C, Fwd::K - 1}, {48, 1, 16});  // [S, W, C] storage
  expect_accepted();
  f.args.conv_state = f.args.state_indices = f.args.has_initial_state = vt::TensorView();
  f.args.host_state_indices = {};
  expect_accepted();
  f.args.x = arena.tensor(DType::f32, {0, Fwd::C});
  f.args.out = arena.tensor(DType::f32, {0, Fwd::C});
  f.args.query_start_loc = arena.i32({0});
  f.qsl = {0};
  f.args.host_query_start_loc = f.qsl;
  f.args.weight = arena.tensor(DType::f32, {Fwd::C, Fwd::K});
  f.args.bias = vt::TensorView();
  expect_accepted();
}

TEST_F(ConvFwdValidation, AcceptsTheWidthBounds) {
  for (int64_t k : {2, 8}) {
    f.args.weight = arena.tensor(DType::bf16, {Fwd::C, k});
    f.args.conv_state = arena.tensor(DType::f32, {Fwd::S, Fwd::C, k - 1});
    expect_accepted();
  }
}

TEST_F(ConvFwdValidation, RequiredTensorsAbsent) {
  f.args.x = vt::TensorView();
  expect("causal_conv1d_fwd: x: is required");
  f.args.x = arena.tensor(DType::bf16, {Fwd::T, Fwd::C});
  f.args.weight = vt::TensorView();
  expect("causal_conv1d_fwd: weight: is required");
  f.args.weight = arena.tensor(DType::bf16, {Fwd::C, Fwd::K});
  f.args.out = vt::TensorView();
  expect("causal_conv1d_fwd: out: is required");
  f.args.out = arena.tensor(DType::bf16, {Fwd::T, Fwd::C});
  f.args.query_start_loc = vt::TensorView();
  expect("causal_conv1d_fwd: query_start_loc: is required");
}

TEST_F(ConvFwdValidation, WrongRanks) {
  f.args.x = arena.tensor(DType::bf16, {1, Fwd::T, Fwd::C});
  expect("causal_conv1d_fwd: x: rank 3, expected 2");
  f.args.x = arena.tensor(DType::bf16, {Fwd::T, Fwd::C});
  f.args.conv_state = arena.tensor(DType::f32, {Fwd::S, Fwd::C * (Fwd::K - 1)});
  expect("causal_conv1d_fwd: conv_state: rank 2, expected 3");
  f.args.conv_state = arena.tensor(DType::f32, {Fwd::S, Fwd::C, Fwd::K - 1});
  f.args.bias = arena.tensor(DType::bf16, {1, Fwd::C});
  expect("causal_conv1d_fwd: bias: rank 2, expected 1");
}

TEST_F(ConvFwdValidation, OutExtentsDisagreeWithX) {
  f.args.out = arena.tensor(DType::bf16, {Fwd::T - 1, Fwd::C});
  expect("causal_conv1d_fwd: out: shape [6, 16]: dim 0 is 6, expected T = 7");
  f.args.out = arena.tensor(DType::bf16, {Fwd::T, Fwd::C + 8});
  expect("causal_conv1d_fwd: out: shape [7, 24]: dim 1 is 24, expected C = 16");
}

TEST_F(ConvFwdValidation, ChannelsDisagree) {
  f.args.weight = arena.tensor(DType::bf16, {Fwd::C - 1, Fwd::K});
  expect("causal_conv1d_fwd: weight: shape [15, 4]: dim 0 is 15, expected C = 16");
  f.args.weight = arena.tensor(DType::bf16, {Fwd::C, Fwd::K});
  f.args.bias = arena.tensor(DType::bf16, {Fwd::C * 2});
  expect("causal_conv1d_fwd: bias: shape [32]: dim 0 is 32, expected C = 16");
  f.args.bias = vt::TensorView();
  f.args.conv_state = arena.tensor(DType::f32, {Fwd::S, Fwd::C + 1, Fwd::K - 1});
  expect("causal_conv1d_fwd: conv_state: shape [4, 17, 3]: dim 1 is 17, expected C = 16");
}

TEST_F(ConvFwdValidation, StateWidthDisagreesWithK) {
  f.args.conv_state = arena.tensor(DType::f32, {Fwd::S, Fwd::C, Fwd::K});
  expect("causal_conv1d_fwd: conv_state: shape [4, 16, 4]: dim 2 is 4, expected W = K-1 = 3");
}

TEST_F(ConvFwdValidation, WidthOutsideTwoToEight) {
  f.args.weight = arena.tensor(DType::bf16, {Fwd::C, 1});
  expect("causal_conv1d_fwd: weight: shape [16, 1]: K=1 outside 2..8");
  f.args.weight = arena.tensor(DType::bf16, {Fwd::C, 9});
  f.args.conv_state = arena.tensor(DType::f32, {Fwd::S, Fwd::C, 8});
  expect("causal_conv1d_fwd: weight: shape [16, 9]: K=9 outside 2..8");
}

TEST_F(ConvFwdValidation, PerSequenceVectorsDisagreeWithN) {
  f.args.state_indices = arena.i32({2, -1});
  expect("causal_conv1d_fwd: state_indices: shape [2]: dim 0 is 2, expected N = 3");
  f.args.state_indices = arena.i32(f.slots);
  f.args.has_initial_state = arena.u8({1, 0, 0, 0});
  expect("causal_conv1d_fwd: has_initial_state: shape [4]: dim 0 is 4, expected N = 3");
}

TEST_F(ConvFwdValidation, QueryStartLocWithoutElements) {
  f.args.query_start_loc = arena.tensor(DType::i32, {0});
  expect("causal_conv1d_fwd: query_start_loc: has no elements, needs N+1 >= 1");
}

TEST_F(ConvFwdValidation, InnermostStrideMustBeOne) {
  f.args.x = arena.strided(DType::bf16, {Fwd::T, Fwd::C}, {2 * Fwd::C, 2});
  expect("causal_conv1d_fwd: x: innermost stride is 2, must be 1");
  f.args.x = arena.tensor(DType::bf16, {Fwd::T, Fwd::C});
  f.args.out = arena.strided(DType::bf16, {Fwd::T, Fwd::C}, {1, Fwd::T});  // column-major
  expect("causal_conv1d_fwd: out: innermost stride is 7, must be 1");
  f.args.out = arena.tensor(DType::bf16, {Fwd::T, Fwd::C});
  f.args.query_start_loc = arena.strided(DType::i32, {Fwd::N + 1}, {2});
  expect("causal_conv1d_fwd: query_start_loc: innermost stride is 2, must be 1");
}

TEST_F(ConvFwdValidation, OverlappingRows) {
  f.args.x = arena.strided(DType::bf16, {Fwd::T, Fwd::C}, {Fwd::C / 2, 1});
  expect("causal_conv1d_fwd: x: stride 8 of dim 0 is below the inner span 16 (rows would overlap)");
  f.args.x = arena.tensor(DType::bf16, {Fwd::T, Fwd::C});
  f.args.weight = arena.strided(DType::bf16, {Fwd::C, Fwd::K}, {0, 1});  // one row broadcast
  expect("causal_conv1d_fwd: weight: stride 0 of dim 0 is below the inner span 4 (rows would overlap)");
}

TEST_F(ConvFwdValidation, AliasingStateStrides) {
  f.args.conv_state = arena.strided(DType::f32, {Fwd::S, Fwd::C, Fwd::K - 1}, {48, 1, 8});
  expect("causal_conv1d_fwd: conv_state: strides make elements alias (dim 2 stride 8 < 16)");
  f.args.conv_state = arena.strided(DType::f32, {Fwd::S, Fwd::C, Fwd::K - 1}, {0, 3, 1});  // one slot for all
  expect("causal_conv1d_fwd: conv_state: strides make elements alias (dim 0 stride 0 < 1)");
}

TEST_F(ConvFwdValidation, ActivationDtypes) {
  f.args.x = arena.tensor(DType::i32, {Fwd::T, Fwd::C});
  expect("causal_conv1d_fwd: x: dtype i32 not accepted (expected f32, f16, bf16)");
}

TEST_F(ConvFwdValidation, OutF16WhenXIsBf16) {
  f.args.out = arena.tensor(DType::f16, {Fwd::T, Fwd::C});
  expect("causal_conv1d_fwd: out: dtype f16 must be f32 or x's dtype (bf16)");
}

TEST_F(ConvFwdValidation, WeightAndBiasDtypes) {
  f.args.weight = arena.tensor(DType::f16, {Fwd::C, Fwd::K});
  expect("causal_conv1d_fwd: weight: dtype f16 must be f32 or x's dtype (bf16)");
  f.args.weight = arena.tensor(DType::f32, {Fwd::C, Fwd::K});
  expect("causal_conv1d_fwd: bias: dtype bf16 must equal weight's dtype (f32)");
}

TEST_F(ConvFwdValidation, StateDtype) {
  f.args.conv_state = arena.tensor(DType::f16, {Fwd::S, Fwd::C, Fwd::K - 1});
  expect("causal_conv1d_fwd: conv_state: dtype f16 must be f32 or x's dtype (bf16)");
}

TEST_F(ConvFwdValidation, IndexDtypes) {
  f.args.query_start_loc = arena.u8({0, 3, 3, 7});
  expect("causal_conv1d_fwd: query_start_loc: dtype u8 not accepted (expected i32)");
  f.args.query_start_loc = arena.i32(f.qsl);
  f.args.state_indices = arena.tensor(DType::f32, {Fwd::N});
  expect("causal_conv1d_fwd: state_indices: dtype f32 not accepted (expected i32)");
  f.args.state_indices = arena.i32(f.slots);
  f.args.has_initial_state = arena.tensor(DType::f32, {Fwd::N});
  expect("causal_conv1d_fwd: has_initial_state: dtype f32 not accepted (expected u8, i32)");
  f.args.has_initial_state = arena.i32({1, 0, 1});
  expect_accepted();
}

TEST_F(ConvFwdValidation, TensorOnAnotherDevice) {
  f.args.x = arena.tensor_on(ops_test::other_device(), DType::bf16, {Fwd::T, Fwd::C});
  expect("causal_conv1d_fwd: x: is on cpu:0 of another vt::Runtime, the queue is on cpu:0");
  f.args.x = arena.tensor(DType::bf16, {Fwd::T, Fwd::C});
  f.args.conv_state = arena.tensor_on(ops_test::other_device(), DType::f32, {Fwd::S, Fwd::C, Fwd::K - 1});
  expect("causal_conv1d_fwd: conv_state: is on cpu:0 of another vt::Runtime, the queue is on cpu:0");
}

TEST_F(ConvFwdValidation, OutOverlapsX) {
  const auto rows = arena.tensor(DType::bf16, {Fwd::T + 1, Fwd::C});
  f.args.x = arena.alias(rows, DType::bf16, {Fwd::T, Fwd::C}, {Fwd::C, 1}, 0);
  f.args.out = arena.alias(rows, DType::bf16, {Fwd::T, Fwd::C}, {Fwd::C, 1}, 2 * Fwd::C);  // one row on
  expect("causal_conv1d_fwd: out: overlaps x in memory");
}

TEST_F(ConvFwdValidation, OutOverlapsWeight) {
  const auto both = arena.tensor(DType::bf16, {Fwd::T, Fwd::C});
  f.args.weight = arena.alias(both, DType::bf16, {Fwd::C, Fwd::K}, {Fwd::K, 1}, 0);
  f.args.out = both;
  expect("causal_conv1d_fwd: out: overlaps weight in memory");
}

TEST_F(ConvFwdValidation, OutOverlapsState) {
  // The f32 state takes 768 bytes; the bf16 out (224 bytes) sits in its last slots.
  f.args.out = arena.alias(f.args.conv_state, DType::bf16, {Fwd::T, Fwd::C}, {Fwd::C, 1}, 512);
  expect("causal_conv1d_fwd: out: overlaps conv_state in memory");
}

TEST_F(ConvFwdValidation, StateOverlapsAnInput) {
  const auto x = arena.tensor(DType::bf16, {64, Fwd::C});  // room for x then a bf16 state
  f.args.x = arena.alias(x, DType::bf16, {Fwd::T, Fwd::C}, {Fwd::C, 1}, 0);
  f.args.conv_state = arena.alias(x, DType::bf16, {Fwd::S, Fwd::C, Fwd::K - 1}, {48, 3, 1}, 2 * Fwd::C * (Fwd::T - 1));
  expect("causal_conv1d_fwd: conv_state: overlaps x in memory");
  f.args.conv_state = arena.alias(x, DType::bf16, {Fwd::S, Fwd::C, Fwd::K - 1}, {48, 3, 1}, 2 * Fwd::C * Fwd::T);
  expect_accepted();  // adjacent, not overlapping
}

TEST_F(ConvFwdValidation, StateAndSlotsComeTogether) {
  f.args.conv_state = vt::TensorView();
  expect(std::string("causal_conv1d_fwd: conv_state: ") + kBothOrNeither);
}

TEST_F(ConvFwdValidation, SlotsWithoutState) {
  f.args.state_indices = vt::TensorView();
  expect(std::string("causal_conv1d_fwd: state_indices: ") + kBothOrNeither);
}

TEST_F(ConvFwdValidation, InitialStateFlagsInAStatelessCall) {
  f.args.conv_state = f.args.state_indices = vt::TensorView();
  f.args.host_state_indices = {};
  expect("causal_conv1d_fwd: has_initial_state: given in a stateless call (no conv_state)");
}

TEST_F(ConvFwdValidation, HostSlotsInAStatelessCall) {
  f.args.conv_state = f.args.state_indices = f.args.has_initial_state = vt::TensorView();
  expect("causal_conv1d_fwd: state_indices: host copy given in a stateless call");
}

// --- host copies of the metadata (ops.md section 6: checked when the caller passes them)

TEST_F(ConvFwdValidation, HostOffsetsCountDisagreesWithN) {
  f.qsl = {0, 3, 7};
  f.args.host_query_start_loc = f.qsl;
  expect("causal_conv1d_fwd: query_start_loc: host copy has 3 values, expected N+1 = 4");
}

TEST_F(ConvFwdValidation, HostOffsetsMustStartAtZero) {
  f.qsl = {1, 3, 3, 7};
  f.args.host_query_start_loc = f.qsl;
  expect("causal_conv1d_fwd: query_start_loc: query_start_loc[0]=1, must be 0");
}

TEST_F(ConvFwdValidation, HostOffsetsMustNotDecrease) {
  f.qsl = {0, 3, 2, 7};
  f.args.host_query_start_loc = f.qsl;
  expect("causal_conv1d_fwd: query_start_loc: query_start_loc[2]=2 < query_start_loc[1]=3");
}

TEST_F(ConvFwdValidation, HostOffsetsMustEndAtT) {
  f.qsl = {0, 3, 3, 6};
  f.args.host_query_start_loc = f.qsl;
  expect("causal_conv1d_fwd: query_start_loc: query_start_loc[3]=6, must equal T = 7");
}

TEST_F(ConvFwdValidation, HostSlotCountDisagreesWithN) {
  f.slots = {2, -1};
  f.args.host_state_indices = f.slots;
  expect("causal_conv1d_fwd: state_indices: host copy has 2 values, expected 3");
}

TEST_F(ConvFwdValidation, HostSlotOutOfRange) {
  f.slots = {2, -1, 4};
  f.args.host_state_indices = f.slots;
  expect("causal_conv1d_fwd: state_indices: state_indices[2]=4 >= S = 4");
}

TEST_F(ConvFwdValidation, HostDuplicateSlotsWhateverTheLengths) {
  f.slots = {2, -1, 2};
  f.args.host_state_indices = f.slots;
  expect("causal_conv1d_fwd: state_indices: state_indices[2] and state_indices[0] both name slot 2");
  f.slots = {2, 2, 0};  // the second sequence is empty
  f.args.host_state_indices = f.slots;
  expect("causal_conv1d_fwd: state_indices: state_indices[1] and state_indices[0] both name slot 2");
}

TEST_F(ConvFwdValidation, AcceptsAnyNegativeSlotAsPadding) {
  f.slots = {-7, -1, 3};
  f.args.host_state_indices = f.slots;
  f.args.state_indices = arena.i32(f.slots);
  expect_accepted();
}

}  // namespace
