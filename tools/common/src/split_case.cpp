// gdn_split cases (ops.md section 5).
#include "fill.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/ops/gdn.hpp"
#include "vt/reference/reference.hpp"

namespace vt::opcheck {
namespace {

class SplitCase final : public OpCase {
 public:
  SplitCase(std::string name, const SplitParams& p, uint64_t seed)
      : OpCase(std::move(name), VT_OP_GDN_SPLIT, seed), p_(p) {
    Rng rng(seed);
    const int64_t T = p.tokens, C = 2 * p.key_heads * p.key_dim + p.value_heads * p.value_dim;
    conv_out_ = memory_.add("conv_out", Role::input, p.in, {T, C}, detail::padded_strides({T, C}, p.row_extra),
                            p.row_extra / 2);
    q_ = memory_.add("q_out", Role::output, p.out, {T, p.key_heads, p.key_dim});
    k_ = memory_.add("k_out", Role::output, p.out, {T, p.key_heads, p.key_dim});
    v_ = memory_.add("v_out", Role::output, p.out, {T, p.value_heads, p.value_dim});
    memory_.fill(conv_out_, [&](const Index&) {
      return p.specials ? detail::activation_or_special(rng, p.in, 0.05f) : detail::activation(rng);
    });
    shape_ = "T=" + std::to_string(T) + " Hk=" + std::to_string(p.key_heads) + " Hv=" + std::to_string(p.value_heads) +
             " Dk=" + std::to_string(p.key_dim) + " Dv=" + std::to_string(p.value_dim) +
             " in=" + detail::dtype_text(p.in) + " out=" + detail::dtype_text(p.out) +
             (p.row_extra ? " row-view" : "") + (p.specials ? " nan-inf" : "");
  }

  std::string_view run(Queue& queue) override { return ops::gdn_split(queue, args_); }

  uint64_t floor_bytes() const override {
    const auto C = static_cast<uint64_t>(2 * p_.key_heads * p_.key_dim + p_.value_heads * p_.value_dim);
    return static_cast<uint64_t>(p_.tokens) * C * (dtype_size(p_.in) + dtype_size(p_.out));
  }

 private:
  void build_call(Queue&) override {
    args_ = {};
    args_.conv_out = memory_.view(conv_out_);
    args_.q_out = memory_.view(q_);
    args_.k_out = memory_.view(k_);
    args_.v_out = memory_.view(v_);
  }

  void run_reference(Images& host) const override {
    vt_gdn_split_args a = ops::validate(args_, device_);
    for (vt_tensor* t : {&a.conv_out, &a.q_out, &a.k_out, &a.v_out}) memory_.rebind_to_host(*t, host);
    check_reference_status(*this, reference::gdn_split(a));
  }

  SplitParams p_;
  int conv_out_, q_, k_, v_;
  ops::GdnSplit args_;
};

}  // namespace

std::unique_ptr<OpCase> make_case(std::string name, const SplitParams& p, uint64_t seed) {
  return std::make_unique<SplitCase>(std::move(name), p, seed);
}

}  // namespace vt::opcheck
