// l2norm cases (ops.md section 5): rank 2 and 3, row views.
#include "fill.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/ops/gdn.hpp"
#include "vt/reference/reference.hpp"

namespace vt::opcheck {
namespace {

class L2NormCase final : public OpCase {
 public:
  L2NormCase(std::string name, const L2NormParams& p, uint64_t seed)
      : OpCase(std::move(name), VT_OP_L2NORM, seed), p_(p) {
    Rng rng(seed);
    const std::vector<int64_t> shape =
        p.heads ? std::vector<int64_t>{p.rows, p.heads, p.dim} : std::vector<int64_t>{p.rows, p.dim};
    x_ = memory_.add("x", Role::input, p.in, shape, detail::padded_strides(shape, p.row_extra));
    out_ = memory_.add("out", Role::output, p.out, shape, detail::padded_strides(shape, p.row_extra));
    const size_t last = shape.size() - 1;
    memory_.fill(x_, [&](const Index& i) {
      const int64_t row = p.heads ? i[0] * p.heads + i[1] : i[0];
      return detail::row_value(rng, detail::row_kind(row, p.special_rows), p.in, i[last] == row % p.dim);
    });
    shape_ = "x=" + detail::dtype_text(p.in) + detail::dims_text(shape) + " out=" + detail::dtype_text(p.out) +
             (p.row_extra ? " row-view" : "") + (p.special_rows ? " special-rows" : "");
  }

  std::string_view run(Queue& queue) override { return ops::l2norm(queue, args_); }

  uint64_t floor_bytes() const override {
    const uint64_t n = static_cast<uint64_t>(p_.rows * (p_.heads ? p_.heads : 1) * p_.dim);
    return n * (dtype_size(p_.in) + dtype_size(p_.out));
  }

 private:
  void build_call(Queue&) override {
    args_ = {};
    args_.x = memory_.view(x_);
    args_.out = memory_.view(out_);
    args_.eps = p_.eps;
  }

  void run_reference(Images& host) const override {
    vt_l2norm_args a = ops::validate(args_, device_);
    memory_.rebind_to_host(a.x, host);
    memory_.rebind_to_host(a.out, host);
    check_reference_status(*this, reference::l2norm(a));
  }

  L2NormParams p_;
  int x_, out_;
  ops::L2Norm args_;
};

}  // namespace

std::unique_ptr<OpCase> make_case(std::string name, const L2NormParams& p, uint64_t seed) {
  return std::make_unique<L2NormCase>(std::move(name), p, seed);
}

}  // namespace vt::opcheck
