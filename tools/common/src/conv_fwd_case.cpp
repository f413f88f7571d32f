// causal_conv1d_fwd cases (ops.md section 1).
#include <optional>

#include "fill.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/ops/gdn.hpp"
#include "vt/reference/reference.hpp"

namespace vt::opcheck {
namespace {

constexpr int kNone = -1;

class ConvFwdCase final : public OpCase {
 public:
  ConvFwdCase(std::string name, const ConvFwdParams& p, uint64_t seed)
      : OpCase(std::move(name), VT_OP_CAUSAL_CONV1D_FWD, seed), p_(p) {
    Rng rng(seed);
    const int64_t C = p.channels, K = p.width, W = K - 1;
    const auto N = static_cast<int64_t>(p.lengths.size());
    qsl_.assign(1, 0);
    for (int32_t L : p.lengths) qsl_.push_back(qsl_.back() + L);
    const int64_t T = qsl_.back();
    const int64_t S = p.num_slots ? p.num_slots : N + 2;
    slots_ = p.slots;
    if (slots_.empty()) slots_ = detail::distinct_slots(rng, S, N);  // two live sequences may not share a slot

    x_ = memory_.add("x", Role::input, p.x, {T, C}, detail::padded_strides({T, C}, p.x_row_extra), p.x_row_extra / 2);
    weight_ = memory_.add("weight", Role::input, p.weight, {C, K});
    bias_ = p.bias ? memory_.add("bias", Role::input, p.weight, {C}) : kNone;
    out_ = memory_.add("out", Role::output, p.out, {T, C}, detail::padded_strides({T, C}, p.out_row_extra));
    qsl_id_ = memory_.add("query_start_loc", Role::input, DType::i32, {N + 1});
    if (!p.stateless) {
      const std::vector<int64_t> strides =
          p.transposed_state ? std::vector<int64_t>{W * C, 1, C} : std::vector<int64_t>{C * W, W, 1};
      state_ = memory_.add("conv_state", Role::inout, p.state, {S, C, W}, strides);
      indices_ = memory_.add("state_indices", Role::input, DType::i32, {N});
      if (p.initial != ConvFwdParams::Initial::absent)
        initial_ = memory_.add("has_initial_state", Role::input, p.initial_dtype, {N});
    }

    memory_.fill(x_, [&](const Index&) {
      return p.specials ? detail::activation_or_special(rng, p.x, 0.05f) : detail::activation(rng, p.model_values);
    });
    memory_.fill(weight_, [&](const Index&) { return detail::conv_weight(rng); });
    if (bias_ != kNone) memory_.fill(bias_, [&](const Index&) { return detail::conv_weight(rng); });
    memory_.set_ints(qsl_id_, qsl_);
    if (state_ != kNone) {
      memory_.fill(state_, [&](const Index&) { return detail::activation(rng, p.model_values); });
      memory_.set_ints(indices_, slots_);
    }
    if (initial_ != kNone) {
      std::vector<int32_t> flags(static_cast<size_t>(N), 1);
      if (p.initial == ConvFwdParams::Initial::mixed)
        for (size_t n = 0; n < flags.size(); ++n)
          flags[n] = n % 2 == 0 ? 1 : static_cast<int32_t>(rng.uniform_int(0, 1));
      memory_.set_ints(initial_, flags);
    }

    shape_ = "T=" + std::to_string(T) + " N=" + std::to_string(N) + " C=" + std::to_string(C) +
             " K=" + std::to_string(K) + " x=" + detail::dtype_text(p.x) + " weight=" + detail::dtype_text(p.weight) +
             " out=" + detail::dtype_text(p.out);
    if (p.stateless) {
      shape_ += " stateless";
    } else {
      shape_ += " state=" + detail::dtype_text(p.state) + (p.transposed_state ? "[S,W,C]" : "[S,C,W]") +
                " S=" + std::to_string(S);
    }
    if (p.plan_chunk) shape_ += " plan=" + std::to_string(p.plan_chunk);
    if (p.silu) shape_ += " silu";
    if (p.x_row_extra) shape_ += " x-row-view";
    if (p.model_values) shape_ += " model-values";
  }

  std::string_view run(Queue& queue) override { return ops::causal_conv1d_fwd(queue, args_); }

  // A live sequence's tokens (x read, out written) and its state (read and written), the
  // weights and bias once; a padding sequence or one whose slot is out of range moves nothing
  // (ops.md).
  uint64_t floor_bytes() const override {
    const auto C = static_cast<uint64_t>(p_.channels), K = static_cast<uint64_t>(p_.width);
    uint64_t bytes = C * K * dtype_size(p_.weight);
    if (p_.bias) bytes += C * dtype_size(p_.weight);
    const int64_t S = p_.stateless ? 0 : memory_.slot(state_).shape[0];
    for (size_t n = 0; n < p_.lengths.size(); ++n) {
      const auto L = static_cast<uint64_t>(p_.lengths[n]);
      if (!p_.stateless && (slots_[n] < 0 || slots_[n] >= S)) continue;
      bytes += L * C * (dtype_size(p_.x) + dtype_size(p_.out));
      if (!p_.stateless && L > 0) bytes += 2 * C * (K - 1) * dtype_size(p_.state);
    }
    return bytes;
  }

 private:
  void build_call(Queue& queue) override {
    auto view = [&](int id) { return id == kNone ? TensorView{} : memory_.view(id); };
    args_ = {};
    args_.x = view(x_);
    args_.weight = view(weight_);
    args_.bias = view(bias_);
    args_.out = view(out_);
    args_.conv_state = view(state_);
    args_.state_indices = view(indices_);
    args_.has_initial_state = view(initial_);
    args_.query_start_loc = view(qsl_id_);
    args_.activation = p_.silu ? ops::Activation::silu : ops::Activation::none;
    if (p_.host_indices) {
      args_.host_query_start_loc = qsl_;
      if (!p_.stateless) args_.host_state_indices = slots_;
    }
    plan_.reset();
    if (p_.plan_chunk) {
      plan_.emplace(ops::make_conv_chunk_plan(qsl_, p_.plan_chunk));
      plan_->upload(queue);
      args_.plan = &*plan_;
    }
  }

  void run_reference(Images& host) const override {
    vt_causal_conv1d_fwd_args a = ops::validate(args_, device_);
    for (vt_tensor* t :
         {&a.x, &a.weight, &a.bias, &a.out, &a.conv_state, &a.state_indices, &a.has_initial_state, &a.query_start_loc})
      memory_.rebind_to_host(*t, host);
    a.plan = nullptr;  // a plan only schedules work; the answer is defined without one
    check_reference_status(*this, reference::causal_conv1d_fwd(a));
  }

  ConvFwdParams p_;
  std::vector<int32_t> qsl_, slots_;
  int x_ = kNone, weight_ = kNone, bias_ = kNone, out_ = kNone, qsl_id_ = kNone, state_ = kNone, indices_ = kNone,
      initial_ = kNone;
  ops::CausalConv1dFwd args_;
  std::optional<ops::ConvChunkPlan> plan_;
};

}  // namespace

std::unique_ptr<OpCase> make_case(std::string name, const ConvFwdParams& p, uint64_t seed) {
  return std::make_unique<ConvFwdCase>(std::move(name), p, seed);
}

}  // namespace vt::opcheck
