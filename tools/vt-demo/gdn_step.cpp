#include "gdn_step.hpp"

#include "vt/opcheck/gdn_cases.hpp"

namespace vt::demo {
namespace {

constexpr int64_t kKeyHeads = 16, kValueHeads = 32, kHeadDim = 128, kWidth = 4;
constexpr int64_t kChannels = 2 * kKeyHeads * kHeadDim + kValueHeads * kHeadDim;  // 8192

opcheck::PostConvParams post_conv(int64_t tokens) {
  opcheck::PostConvParams p;
  p.tokens = tokens;
  p.key_heads = kKeyHeads;
  p.value_heads = kValueHeads;
  p.key_dim = p.value_dim = kHeadDim;
  p.in = p.gate = p.out = DType::bf16;
  return p;
}

}  // namespace

StepSizes step_sizes(bool quick) { return quick ? StepSizes{256, 16} : StepSizes{1024, 64}; }

std::vector<StepOp> build_step(const StepSizes& sizes, uint64_t seed) {
  std::vector<StepOp> ops;

  opcheck::ConvFwdParams fwd;  // a variable-length batch: some sequences continue from a cached state
  fwd.channels = kChannels;
  fwd.width = kWidth;
  fwd.x = fwd.weight = fwd.out = DType::bf16;
  fwd.state = DType::f32;
  const int32_t T = sizes.prefill_tokens;
  fwd.lengths = {T / 2, T / 4, T / 8, T - T / 2 - T / 4 - T / 8};
  fwd.num_slots = 8;
  fwd.bias = false;
  fwd.silu = true;
  fwd.plan_chunk = 8;
  ops.push_back({"prefill", opcheck::make_case("prefill_conv", fwd, seed), -1, "", "", false});
  ops.push_back(
      {"prefill", opcheck::make_case("prefill_post_conv", post_conv(T), seed + 1), 0, "conv_out", "out", false});

  opcheck::ConvUpdateParams upd;
  upd.channels = kChannels;
  upd.width = kWidth;
  upd.x = upd.weight = upd.out = DType::bf16;
  upd.state = DType::f32;
  upd.batch = sizes.decode_batch;
  upd.padding = 0;
  upd.bias = false;
  upd.silu = true;
  ops.push_back({"decode", opcheck::make_case("decode_conv", upd, seed + 2), -1, "", "", false});
  ops.push_back({"decode", opcheck::make_case("decode_post_conv", post_conv(sizes.decode_batch), seed + 3), 2,
                 "conv_out", "out", false});
  return ops;
}

void feed_if_needed(std::vector<StepOp>& ops, size_t i) {
  StepOp& s = ops[i];
  if (s.source < 0 || s.fed) return;
  s.op->feed(s.input, *ops[static_cast<size_t>(s.source)].op, s.output);
  s.fed = true;
}

}  // namespace vt::demo
