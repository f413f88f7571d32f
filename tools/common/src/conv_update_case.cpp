// causal_conv1d_update cases (ops.md section 2).
#include "fill.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/ops/gdn.hpp"
#include "vt/reference/reference.hpp"

namespace vt::opcheck {
namespace {

constexpr int kNone = -1;

class ConvUpdateCase final : public OpCase {
 public:
  ConvUpdateCase(std::string name, const ConvUpdateParams& p, uint64_t seed)
      : OpCase(std::move(name), VT_OP_CAUSAL_CONV1D_UPDATE, seed), p_(p) {
    Rng rng(seed);
    const int64_t C = p.channels, K = p.width, W = K - 1, B = p.batch;
    const int64_t S = p.num_slots ? p.num_slots : B + 2;
    if (p.indices) {  // distinct slots, `padding` of them replaced by -1 at random positions
      slots_ = detail::distinct_slots(rng, S, B);
      for (int64_t b = 0; b < p.padding && b < B; ++b) slots_[static_cast<size_t>(b)] = -1;
      detail::shuffle(rng, slots_);
    }

    const std::vector<int64_t> x_shape = p.tokens ? std::vector<int64_t>{B, p.tokens, C} : std::vector<int64_t>{B, C};
    x_ = memory_.add("x", p.in_place ? Role::inout : Role::input, p.x, x_shape,
                     detail::padded_strides(x_shape, p.x_row_extra));
    out_ = p.in_place ? x_ : memory_.add("out", Role::output, p.out, x_shape);
    weight_ = memory_.add("weight", Role::input, p.weight, {C, K});
    bias_ = p.bias ? memory_.add("bias", Role::input, p.weight, {C}) : kNone;
    const std::vector<int64_t> strides =
        p.transposed_state ? std::vector<int64_t>{W * C, 1, C} : std::vector<int64_t>{C * W, W, 1};
    state_ = memory_.add("conv_state", Role::inout, p.state, {S, C, W}, strides);
    if (p.indices) indices_ = memory_.add("state_indices", Role::input, DType::i32, {B});

    memory_.fill(x_, [&](const Index&) {
      return p.specials ? detail::activation_or_special(rng, p.x, 0.05f) : detail::activation(rng, p.model_values);
    });
    memory_.fill(weight_, [&](const Index&) { return detail::conv_weight(rng); });
    if (bias_ != kNone) memory_.fill(bias_, [&](const Index&) { return detail::conv_weight(rng); });
    memory_.fill(state_, [&](const Index&) { return detail::activation(rng, p.model_values); });
    if (indices_ != kNone) memory_.set_ints(indices_, slots_);

    shape_ = "B=" + std::to_string(B) + (p.tokens ? " L=" + std::to_string(p.tokens) : "") + " C=" + std::to_string(C) +
             " K=" + std::to_string(K) + " x=" + detail::dtype_text(p.x) + " weight=" + detail::dtype_text(p.weight) +
             " out=" + (p.in_place ? "x (in place)" : detail::dtype_text(p.out)) +
             " state=" + detail::dtype_text(p.state) + (p.transposed_state ? "[S,W,C]" : "[S,C,W]") +
             " S=" + std::to_string(S) + (p.indices ? " padding=" + std::to_string(p.padding) : " no-indices") +
             (p.silu ? " silu" : "") + (p.model_values ? " model-values" : "");
  }

  std::string_view run(Queue& queue) override { return ops::causal_conv1d_update(queue, args_); }

  uint64_t floor_bytes() const override {
    const auto C = static_cast<uint64_t>(p_.channels), W = static_cast<uint64_t>(p_.width - 1);
    const uint64_t L = p_.tokens ? static_cast<uint64_t>(p_.tokens) : 1;
    uint64_t live = static_cast<uint64_t>(p_.batch);
    for (int32_t s : slots_) live -= s < 0 ? 1 : 0;
    const uint64_t out_size = dtype_size(p_.in_place ? p_.x : p_.out);
    return live * (L * C * (dtype_size(p_.x) + out_size) + 2 * C * W * dtype_size(p_.state));
  }

 private:
  void build_call(Queue&) override {
    auto view = [&](int id) { return id == kNone ? TensorView{} : memory_.view(id); };
    args_ = {};
    args_.x = view(x_);
    args_.out = view(out_);
    args_.weight = view(weight_);
    args_.bias = view(bias_);
    args_.conv_state = view(state_);
    args_.state_indices = view(indices_);
    args_.activation = p_.silu ? ops::Activation::silu : ops::Activation::none;
    if (p_.host_indices && p_.indices) args_.host_state_indices = slots_;
  }

  void run_reference(Images& host) const override {
    vt_causal_conv1d_update_args a = ops::validate(args_, device_);
    for (vt_tensor* t : {&a.x, &a.weight, &a.bias, &a.out, &a.conv_state, &a.state_indices})
      memory_.rebind_to_host(*t, host);
    check_reference_status(*this, reference::causal_conv1d_update(a));
  }

  ConvUpdateParams p_;
  std::vector<int32_t> slots_;
  int x_ = kNone, out_ = kNone, weight_ = kNone, bias_ = kNone, state_ = kNone, indices_ = kNone;
  ops::CausalConv1dUpdate args_;
};

}  // namespace

std::unique_ptr<OpCase> make_case(std::string name, const ConvUpdateParams& p, uint64_t seed) {
  return std::make_unique<ConvUpdateCase>(std::move(name), p, seed);
}

}  // namespace vt::opcheck
