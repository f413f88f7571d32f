// gdn_gating cases (ops.md section 5).
#include "fill.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/ops/gdn.hpp"
#include "vt/reference/reference.hpp"

namespace vt::opcheck {
namespace {

class GatingCase final : public OpCase {
 public:
  GatingCase(std::string name, const GatingParams& p, uint64_t seed)
      : OpCase(std::move(name), VT_OP_GDN_GATING, seed), p_(p) {
    Rng rng(seed);
    const int64_t T = p.tokens, Hv = p.heads, lead = p.row_extra / 2;
    a_ = memory_.add("a", Role::input, p.gate, {T, Hv}, detail::padded_strides({T, Hv}, p.row_extra), lead);
    b_ = memory_.add("b", Role::input, p.gate, {T, Hv}, detail::padded_strides({T, Hv}, p.row_extra), lead);
    A_log_ = memory_.add("A_log", Role::input, DType::f32, {Hv});
    dt_bias_ = memory_.add("dt_bias", Role::input, DType::f32, {Hv});
    g_ = memory_.add("g_out", Role::output, DType::f32, {T, Hv});
    beta_ = memory_.add("beta_out", Role::output, DType::f32, {T, Hv});
    detail::fill_gates(memory_, a_, b_, A_log_, dt_bias_, rng, p.softplus_threshold, p.specials);
    shape_ = "T=" + std::to_string(T) + " Hv=" + std::to_string(Hv) + " a,b=" + detail::dtype_text(p.gate) +
             (p.row_extra ? " row-view" : "") + (p.softplus_threshold ? " softplus-threshold" : "") +
             (p.specials ? " nan-inf" : "");
  }

  std::string_view run(Queue& queue) override { return ops::gdn_gating(queue, args_); }

  uint64_t floor_bytes() const override {
    return static_cast<uint64_t>(p_.tokens * p_.heads) * (2 * dtype_size(p_.gate) + 2 * sizeof(float));
  }

 private:
  void build_call(Queue&) override {
    args_ = {};
    args_.a = memory_.view(a_);
    args_.b = memory_.view(b_);
    args_.A_log = memory_.view(A_log_);
    args_.dt_bias = memory_.view(dt_bias_);
    args_.g_out = memory_.view(g_);
    args_.beta_out = memory_.view(beta_);
  }

  void run_reference(Images& host) const override {
    vt_gdn_gating_args a = ops::validate(args_, device_);
    for (vt_tensor* t : {&a.a, &a.b, &a.A_log, &a.dt_bias, &a.g_out, &a.beta_out}) memory_.rebind_to_host(*t, host);
    check_reference_status(*this, reference::gdn_gating(a));
  }

  GatingParams p_;
  int a_, b_, A_log_, dt_bias_, g_, beta_;
  ops::GdnGating args_;
};

}  // namespace

std::unique_ptr<OpCase> make_case(std::string name, const GatingParams& p, uint64_t seed) {
  return std::make_unique<GatingCase>(std::move(name), p, seed);
}

}  // namespace vt::opcheck
