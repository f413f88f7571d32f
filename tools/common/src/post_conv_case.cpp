// gdn_post_conv cases (ops.md section 4).
#include "fill.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/ops/gdn.hpp"
#include "vt/reference/reference.hpp"

namespace vt::opcheck {
namespace {

class PostConvCase final : public OpCase {
 public:
  PostConvCase(std::string name, const PostConvParams& p, uint64_t seed)
      : OpCase(std::move(name), VT_OP_GDN_POST_CONV, seed), p_(p) {
    Rng rng(seed);
    const int64_t T = p.tokens, Hk = p.key_heads, Hv = p.value_heads, Dk = p.key_dim, Dv = p.value_dim;
    const int64_t C = 2 * Hk * Dk + Hv * Dv;
    const int64_t lead = p.row_extra / 2;
    conv_out_ = memory_.add("conv_out", Role::input, p.in, {T, C}, detail::padded_strides({T, C}, p.row_extra), lead);
    a_ = memory_.add("a", Role::input, p.gate, {T, Hv}, detail::padded_strides({T, Hv}, p.row_extra), lead);
    b_ = memory_.add("b", Role::input, p.gate, {T, Hv}, detail::padded_strides({T, Hv}, p.row_extra), lead);
    A_log_ = memory_.add("A_log", Role::input, DType::f32, {Hv});
    dt_bias_ = memory_.add("dt_bias", Role::input, DType::f32, {Hv});
    q_ = memory_.add("q_out", Role::output, p.out, {T, Hk, Dk});
    k_ = memory_.add("k_out", Role::output, p.out, {T, Hk, Dk});
    v_ = memory_.add("v_out", Role::output, p.out, {T, Hv, Dv});
    g_ = memory_.add("g_out", Role::output, DType::f32, {T, Hv});
    beta_ = memory_.add("beta_out", Role::output, DType::f32, {T, Hv});

    memory_.fill(conv_out_, [&](const Index& i) {
      return detail::row_value(rng, detail::row_kind(i[0], p.special_rows), p.in, i[1] == (i[0] * 7) % C);
    });
    detail::fill_gates(memory_, a_, b_, A_log_, dt_bias_, rng, p.softplus_threshold, false);

    shape_ = "T=" + std::to_string(T) + " Hk=" + std::to_string(Hk) + " Hv=" + std::to_string(Hv) +
             " Dk=" + std::to_string(Dk) + " Dv=" + std::to_string(Dv) + " conv_out=" + detail::dtype_text(p.in) +
             " a,b=" + detail::dtype_text(p.gate) + " q,k,v=" + detail::dtype_text(p.out) +
             (p.l2norm ? " l2norm" : " no-l2norm") + (p.special_rows ? " special-rows" : "") +
             (p.softplus_threshold ? " softplus-threshold" : "");
  }

  std::string_view run(Queue& queue) override { return ops::gdn_post_conv(queue, args_); }

  uint64_t floor_bytes() const override {
    const auto T = static_cast<uint64_t>(p_.tokens), Hv = static_cast<uint64_t>(p_.value_heads);
    const auto C = static_cast<uint64_t>(2 * p_.key_heads * p_.key_dim + p_.value_heads * p_.value_dim);
    return T * (C * (dtype_size(p_.in) + dtype_size(p_.out)) + Hv * (2 * dtype_size(p_.gate) + 2 * sizeof(float)));
  }

 private:
  void build_call(Queue&) override {
    args_ = {};
    args_.conv_out = memory_.view(conv_out_);
    args_.a = memory_.view(a_);
    args_.b = memory_.view(b_);
    args_.A_log = memory_.view(A_log_);
    args_.dt_bias = memory_.view(dt_bias_);
    args_.q_out = memory_.view(q_);
    args_.k_out = memory_.view(k_);
    args_.v_out = memory_.view(v_);
    args_.g_out = memory_.view(g_);
    args_.beta_out = memory_.view(beta_);
    args_.l2norm = p_.l2norm;
    args_.eps = p_.eps;
  }

  void run_reference(Images& host) const override {
    vt_gdn_post_conv_args a = ops::validate(args_, device_);
    for (vt_tensor* t :
         {&a.conv_out, &a.a, &a.b, &a.A_log, &a.dt_bias, &a.q_out, &a.k_out, &a.v_out, &a.g_out, &a.beta_out})
      memory_.rebind_to_host(*t, host);
    check_reference_status(*this, reference::gdn_post_conv(a));
  }

  PostConvParams p_;
  int conv_out_, a_, b_, A_log_, dt_bias_, q_, k_, v_, g_, beta_;
  ops::GdnPostConv args_;
};

}  // namespace

std::unique_ptr<OpCase> make_case(std::string name, const PostConvParams& p, uint64_t seed) {
  return std::make_unique<PostConvCase>(std::move(name), p, seed);
}

}  // namespace vt::opcheck
