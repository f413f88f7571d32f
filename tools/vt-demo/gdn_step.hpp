// The demo's workload: one Qwen3.5-shaped GDN layer step (C = 8192: Hk = 16, Hv = 32,
// Dk = Dv = 128, K = 4, bf16 activations, f32 state) as op cases: a prefill conv feeding a
// post-conv, and a decode conv update feeding a post-conv.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "vt/opcheck/op_case.hpp"

namespace vt::demo {

struct StepOp {
  std::string step;  // "prefill" or "decode"
  std::unique_ptr<opcheck::OpCase> op;
  // The earlier op whose output (by the reference) is this op's input, or -1.
  int source = -1;
  std::string input, output;
  bool fed = false;
};

struct StepSizes {
  int32_t prefill_tokens;  // over four sequences
  int64_t decode_batch;
};
StepSizes step_sizes(bool quick);

// The ops in call order.
std::vector<StepOp> build_step(const StepSizes& sizes, uint64_t seed);

// Before binding op i: takes its input from its source's reference output, once.
void feed_if_needed(std::vector<StepOp>& ops, size_t i);

}  // namespace vt::demo
