// The chunk plan's rules (builder, upload, agreement with the call) and deep validation of
// device-side metadata, which only a runtime with deep_validate reads back.
#include <gtest/gtest.h>

#include "conv_calls.hpp"

namespace {

using ops_test::Arena;
using ops_test::Fwd;
using ops_test::Update;

// True when `call` got past validation: it ran, or failed later (no provider yet) with an
// error other than invalid_argument.
bool reaches_dispatch(const std::function<void()>& call) {
  try {
    call();
    return true;
  } catch (const vt::Error& e) {
    EXPECT_NE(e.code(), vt::Status::invalid_argument) << e.what();
    return e.code() != vt::Status::invalid_argument;
  }
}

void expect_plan_error(const std::function<void()>& call, const std::string& message) {
  try {
    call();
    ADD_FAILURE() << "accepted; expected: " << message;
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), vt::Status::invalid_argument);
    EXPECT_EQ(std::string(e.what()), message);
  }
}

class PlanValidation : public ::testing::Test {
 protected:
  void expect(const std::string& message) {
    ops_test::expect_rejected(
        arena, [&] { vt::ops::causal_conv1d_fwd(arena.queue(), f.args); }, message);
  }
  Arena arena;
  Fwd f{arena};
};

TEST_F(PlanValidation, BuildsOneItemPerStartedChunk) {
  const auto plan = vt::ops::make_conv_chunk_plan(f.qsl, 2);
  EXPECT_EQ(plan.num_seqs(), Fwd::N);
  EXPECT_EQ(plan.num_tokens(), Fwd::T);
  EXPECT_EQ(plan.chunk_size(), 2);
  EXPECT_EQ(plan.items(), (std::vector<int32_t>{0, 0, 0, 2, 2, 0, 2, 2}));
  EXPECT_FALSE(plan.uploaded());
}

TEST_F(PlanValidation, AMatchingUploadedPlanIsPassedThrough) {
  auto plan = vt::ops::make_conv_chunk_plan(f.qsl);
  plan.upload(arena.queue());
  plan.upload(arena.queue());  // again on the same device: a no-op
  f.args.plan = &plan;
  const auto r = vt::ops::validate(f.args, arena.device());
  EXPECT_EQ(r.plan, &plan.raw());
  EXPECT_EQ(r.plan->n_items, 2);
  EXPECT_EQ(r.plan->num_seqs, Fwd::N);
  EXPECT_EQ(r.plan->num_tokens, Fwd::T);
  EXPECT_TRUE(reaches_dispatch([&] { vt::ops::causal_conv1d_fwd(arena.queue(), f.args); }));
}

TEST_F(PlanValidation, NotUploaded) {
  const auto plan = vt::ops::make_conv_chunk_plan(f.qsl);
  f.args.plan = &plan;
  expect("causal_conv1d_fwd: chunk_plan: is not uploaded to a device (call upload(queue) once per step)");
  expect_plan_error([&] { (void)plan.raw(); }, "chunk_plan: not uploaded to a device");
}

TEST_F(PlanValidation, UploadedToAnotherDevice) {
  auto plan = vt::ops::make_conv_chunk_plan(f.qsl);
  vt::Queue other = ops_test::other_device().create_queue();
  plan.upload(other);
  f.args.plan = &plan;
  expect("causal_conv1d_fwd: chunk_plan: was uploaded to cpu:0 of another vt::Runtime, the queue is on cpu:0");
  expect_plan_error([&] { plan.upload(arena.queue()); },
                    "make_conv_chunk_plan: chunk_plan: already uploaded to cpu:0; build one plan per device");
}

TEST_F(PlanValidation, BuiltForAnotherN) {
  auto plan = vt::ops::make_conv_chunk_plan(std::vector<int32_t>{0, 3, 7});
  plan.upload(arena.queue());
  f.args.plan = &plan;
  expect("causal_conv1d_fwd: chunk_plan: built for N=2, the call has N=3");
}

TEST_F(PlanValidation, BuiltForAnotherT) {
  auto plan = vt::ops::make_conv_chunk_plan(std::vector<int32_t>{0, 3, 3, 8});
  plan.upload(arena.queue());
  f.args.plan = &plan;
  expect("causal_conv1d_fwd: chunk_plan: built for T=8, the call has T=7");
}

TEST(PlanBuilder, RejectsABadChunkSize) {
  expect_plan_error(
      [] {
        vt::ops::make_conv_chunk_plan(std::vector<int32_t>{0, 4}, 0);
      },
      "make_conv_chunk_plan: chunk_size: 0 must be at least 1");
}

TEST(PlanBuilder, RejectsOffsetsThatAreNotAPrefixSum) {
  expect_plan_error([] { vt::ops::make_conv_chunk_plan(std::vector<int32_t>{}); },
                    "make_conv_chunk_plan: query_start_loc: has no elements, needs N+1 >= 1");
  expect_plan_error(
      [] {
        vt::ops::make_conv_chunk_plan(std::vector<int32_t>{2, 4});
      },
      "make_conv_chunk_plan: query_start_loc: query_start_loc[0]=2, must be 0");
  expect_plan_error(
      [] {
        vt::ops::make_conv_chunk_plan(std::vector<int32_t>{0, 20, 21, 20, 24});
      },
      "make_conv_chunk_plan: query_start_loc: query_start_loc[3]=20 < query_start_loc[2]=21");
}

// --- deep validation: bad values in device memory, no host copies

class DeepValidation : public ::testing::Test {
 protected:
  void SetUp() override {
    f.args.host_query_start_loc = f.args.host_state_indices = {};
    u.args.host_state_indices = {};
  }
  void upload(const vt::TensorView& t, const std::vector<int32_t>& values) {
    arena.write(t, values.data(), values.size() * sizeof(int32_t));
  }
  // The same call on the plain runtime's device passes validation with the same values.
  void expect_unchecked_without_deep(const std::vector<int32_t>& qsl, const std::vector<int32_t>& slots) {
    Arena plain;
    Fwd g{plain};
    g.args.host_query_start_loc = g.args.host_state_indices = {};
    plain.write(g.args.query_start_loc, qsl.data(), qsl.size() * sizeof(int32_t));
    plain.write(g.args.state_indices, slots.data(), slots.size() * sizeof(int32_t));
    EXPECT_TRUE(reaches_dispatch([&] { vt::ops::causal_conv1d_fwd(plain.queue(), g.args); }));
  }

  Arena arena{ops_test::deep_runtime().device("cpu:0")};
  Fwd f{arena};
  Update u{arena};
};

TEST_F(DeepValidation, AcceptsValidMetadata) {
  EXPECT_TRUE(reaches_dispatch([&] { vt::ops::causal_conv1d_fwd(arena.queue(), f.args); }));
  EXPECT_TRUE(reaches_dispatch([&] { vt::ops::causal_conv1d_update(arena.queue(), u.args); }));
}

TEST_F(DeepValidation, CatchesNonMonotonicOffsets) {
  upload(f.args.query_start_loc, {0, 3, 2, 7});
  ops_test::expect_rejected(
      arena, [&] { vt::ops::causal_conv1d_fwd(arena.queue(), f.args); },
      "causal_conv1d_fwd (deep validation): query_start_loc: query_start_loc[2]=2 < "
      "query_start_loc[1]=3");
  expect_unchecked_without_deep({0, 3, 2, 7}, f.slots);
}

TEST_F(DeepValidation, CatchesOffsetsNotEndingAtT) {
  upload(f.args.query_start_loc, {0, 3, 3, 9});
  ops_test::expect_rejected(
      arena, [&] { vt::ops::causal_conv1d_fwd(arena.queue(), f.args); },
      "causal_conv1d_fwd (deep validation): query_start_loc: query_start_loc[3]=9, must equal T = 7");
}

TEST_F(DeepValidation, CatchesDuplicateSlots) {
  upload(f.args.state_indices, {2, -1, 2});
  ops_test::expect_rejected(
      arena, [&] { vt::ops::causal_conv1d_fwd(arena.queue(), f.args); },
      "causal_conv1d_fwd (deep validation): state_indices: state_indices[2] and "
      "state_indices[0] both name slot 2");
  expect_unchecked_without_deep(f.qsl, {2, -1, 2});
}

TEST_F(DeepValidation, CatchesSlotsOutOfRange) {
  upload(f.args.state_indices, {2, -1, 9});
  ops_test::expect_rejected(
      arena, [&] { vt::ops::causal_conv1d_fwd(arena.queue(), f.args); },
      "causal_conv1d_fwd (deep validation): state_indices: state_indices[2]=9 >= S = 4");
}

TEST_F(DeepValidation, CatchesDuplicateSlotsInUpdate) {
  upload(u.args.state_indices, {3, -1, 3});
  ops_test::expect_rejected(
      arena, [&] { vt::ops::causal_conv1d_update(arena.queue(), u.args); },
      "causal_conv1d_update (deep validation): state_indices: state_indices[2] and "
      "state_indices[0] both name slot 3");
}

}  // namespace
