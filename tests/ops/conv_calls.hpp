// The valid conv calls that the validation tests start from; each test breaks one thing.
#pragma once
#include <vector>

#include "validation_fixture.hpp"

namespace ops_test {

// A valid prefill: 3 sequences (the middle one empty and padding), bf16 activations, an f32
// state cache of 4 slots, and host copies of the metadata.
struct Fwd {
  static constexpr int64_t T = 7, C = 16, K = 4, N = 3, S = 4;
  std::vector<int32_t> qsl{0, 3, 3, 7}, slots{2, -1, 0};
  vt::ops::CausalConv1dFwd args;

  explicit Fwd(Arena& a) {
    args.x = a.tensor(vt::DType::bf16, {T, C});
    args.weight = a.tensor(vt::DType::bf16, {C, K});
    args.bias = a.tensor(vt::DType::bf16, {C});
    args.out = a.tensor(vt::DType::bf16, {T, C});
    args.conv_state = a.tensor(vt::DType::f32, {S, C, K - 1});
    args.state_indices = a.i32(slots);
    args.has_initial_state = a.u8({1, 0, 0});
    args.query_start_loc = a.i32(qsl);
    args.activation = vt::ops::Activation::silu;
    args.host_query_start_loc = qsl;
    args.host_state_indices = slots;
  }
  Fwd(const Fwd&) = delete;  // args points into qsl and slots
};

// A valid decode step: 3 sequences of one token (the second padding), bf16 activations,
// f32 weights and out, a bf16 state cache of 4 slots.
struct Update {
  static constexpr int64_t B = 3, C = 16, K = 4, S = 4;
  std::vector<int32_t> slots{1, -1, 3};
  vt::ops::CausalConv1dUpdate args;

  explicit Update(Arena& a) {
    args.x = a.tensor(vt::DType::bf16, {B, C});
    args.weight = a.tensor(vt::DType::f32, {C, K});
    args.bias = a.tensor(vt::DType::f32, {C});
    args.out = a.tensor(vt::DType::f32, {B, C});
    args.conv_state = a.tensor(vt::DType::bf16, {S, C, K - 1});
    args.state_indices = a.i32(slots);
    args.host_state_indices = slots;
  }
  Update(const Update&) = delete;  // args points into slots
};

}  // namespace ops_test
