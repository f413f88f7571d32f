// gdn_post_conv and its composable pieces (split, l2norm, gating): validation (ops.md
// sections 4 to 6) and dispatch. The fused op's rules are the pieces' rules, written once.
#include <cmath>

#include "checker.hpp"
#include "vt/ops/gdn.hpp"

namespace vt::ops {
namespace {

using detail::Checker;
using detail::NamedTensor;

constexpr std::initializer_list<DType> kActivationTypes = {DType::f32, DType::f16, DType::bf16};

struct Heads {
  int64_t T, Hk, Hv, Dk, Dv;
};

void check_head_dim(const Checker& c, std::string_view arg, const TensorView& t, int64_t dim, std::string_view name) {
  if (dim < 8 || dim > 256 || dim % 8 != 0)
    c.fail(arg, "shape " + detail::shape_text(t) + ": " + std::string(name) + "=" + std::to_string(dim) +
                    " must be a multiple of 8 from 8 to 256");
}

// conv_out [T, C] split into q, k [T, Hk, Dk] and v [T, Hv, Dv].
Heads check_split(const Checker& c, const TensorView& conv_out, const TensorView& q, const TensorView& k,
                  const TensorView& v) {
  c.need(conv_out, "conv_out", {2});
  c.dtype_in(conv_out, "conv_out", kActivationTypes);
  c.row_major(conv_out, "conv_out");
  c.need(q, "q_out", {3});
  c.need(k, "k_out", {3});
  c.need(v, "v_out", {3});
  c.dtype_f32_or(q, "q_out", conv_out.dtype(), "conv_out");
  if (k.dtype() != q.dtype())
    c.fail("k_out", "dtype " + std::string(dtype_name(k.dtype())) + " must equal q_out's (" +
                        std::string(dtype_name(q.dtype())) + ")");
  if (v.dtype() != q.dtype())
    c.fail("v_out", "dtype " + std::string(dtype_name(v.dtype())) + " must equal q_out's (" +
                        std::string(dtype_name(q.dtype())) + ")");
  const Heads h{conv_out.size(0), q.size(1), v.size(1), q.size(2), v.size(2)};
  c.extent(q, "q_out", 0, h.T, "T");
  c.extent(k, "k_out", 0, h.T, "T");
  c.extent(k, "k_out", 1, h.Hk, "Hk");
  c.extent(k, "k_out", 2, h.Dk, "Dk");
  c.extent(v, "v_out", 0, h.T, "T");
  if (h.Hk < 1) c.fail("q_out", "shape " + detail::shape_text(q) + ": Hk must be at least 1");
  if (h.Hv % h.Hk != 0)
    c.fail("v_out", "Hv=" + std::to_string(h.Hv) + " is not a multiple of Hk=" + std::to_string(h.Hk));
  check_head_dim(c, "q_out", q, h.Dk, "Dk");
  check_head_dim(c, "v_out", v, h.Dv, "Dv");
  for (auto [t, name] : {NamedTensor{&q, "q_out"}, {&k, "k_out"}, {&v, "v_out"}}) {
    c.row_major(*t, name);
    c.no_overlap(*t, name, conv_out, "conv_out");
  }
  // Dk, Dv <= 256, but with T = 0 the outputs hold no memory, and so bound no head count:
  // the fuzzer's Hv = 2^56 overflowed this sum.
  int64_t qk = 0, vv = 0, channels = 0;
  if (__builtin_mul_overflow(h.Hk, 2 * h.Dk, &qk) || __builtin_mul_overflow(h.Hv, h.Dv, &vv) ||
      __builtin_add_overflow(qk, vv, &channels))
    c.fail("conv_out",
           "2*Hk*Dk + Hv*Dv overflows 64 bits (Hk=" + std::to_string(h.Hk) + ", Hv=" + std::to_string(h.Hv) + ")");
  c.extent(conv_out, "conv_out", 1, channels, "2*Hk*Dk + Hv*Dv");
  c.no_overlap(q, "q_out", k, "k_out");
  c.no_overlap(q, "q_out", v, "v_out");
  c.no_overlap(k, "k_out", v, "v_out");
  return h;
}

// a, b [T, Hv] (f32 or `act`), A_log, dt_bias [Hv] f32, g_out, beta_out [T, Hv] f32.
void check_gating(const Checker& c, const TensorView& a, const TensorView& b, const TensorView& A_log,
                  const TensorView& dt_bias, const TensorView& g, const TensorView& beta, int64_t T, int64_t Hv) {
  for (auto [t, name] : {NamedTensor{&a, "a"}, {&b, "b"}, {&g, "g_out"}, {&beta, "beta_out"}}) {
    c.need(*t, name, {2});
    c.extent(*t, name, 0, T, "T");
    c.extent(*t, name, 1, Hv, "Hv");
    c.row_major(*t, name);
  }
  for (auto [t, name] : {NamedTensor{&A_log, "A_log"}, {&dt_bias, "dt_bias"}}) {
    c.need(*t, name, {1});
    c.dtype_in(*t, name, {DType::f32});
    c.extent(*t, name, 0, Hv, "Hv");
    c.row_major(*t, name);
  }
  if (b.dtype() != a.dtype())
    c.fail("b", "dtype " + std::string(dtype_name(b.dtype())) + " must equal a's (" +
                    std::string(dtype_name(a.dtype())) + ")");
  c.dtype_in(g, "g_out", {DType::f32});
  c.dtype_in(beta, "beta_out", {DType::f32});
  c.no_overlap(g, "g_out", beta, "beta_out");
  for (auto [t, name] : {NamedTensor{&a, "a"}, {&b, "b"}, {&A_log, "A_log"}, {&dt_bias, "dt_bias"}}) {
    c.no_overlap(g, "g_out", *t, name);
    c.no_overlap(beta, "beta_out", *t, name);
  }
}

void check_eps(const Checker& c, float eps) {
  if (!(eps >= 0.0f) || !std::isfinite(eps)) c.fail("eps", std::to_string(eps) + " must be finite and >= 0");
}

}  // namespace

vt_gdn_split_args validate(const GdnSplit& a, const Device& device) {
  const Checker c("gdn_split", device);
  const Heads h = check_split(c, a.conv_out, a.q_out, a.k_out, a.v_out);
  vt_gdn_split_args r{};
  r.struct_size = sizeof r;
  r.conv_out = a.conv_out.raw();
  r.q_out = a.q_out.raw();
  r.k_out = a.k_out.raw();
  r.v_out = a.v_out.raw();
  r.num_tokens = h.T;
  r.key_heads = h.Hk;
  r.value_heads = h.Hv;
  r.key_dim = h.Dk;
  r.value_dim = h.Dv;
  return r;
}

vt_gdn_gating_args validate(const GdnGating& a, const Device& device) {
  const Checker c("gdn_gating", device);
  c.need(a.a, "a", {2});
  c.dtype_in(a.a, "a", kActivationTypes);
  const int64_t T = a.a.size(0), Hv = a.a.size(1);
  check_gating(c, a.a, a.b, a.A_log, a.dt_bias, a.g_out, a.beta_out, T, Hv);
  vt_gdn_gating_args r{};
  r.struct_size = sizeof r;
  r.a = a.a.raw();
  r.b = a.b.raw();
  r.A_log = a.A_log.raw();
  r.dt_bias = a.dt_bias.raw();
  r.g_out = a.g_out.raw();
  r.beta_out = a.beta_out.raw();
  r.num_tokens = T;
  r.value_heads = Hv;
  return r;
}

vt_l2norm_args validate(const L2Norm& a, const Device& device) {
  const Checker c("l2norm", device);
  c.need(a.x, "x", {2, 3});
  c.dtype_in(a.x, "x", kActivationTypes);
  c.row_major(a.x, "x");
  c.need(a.out, "out", {a.x.rank()});
  c.dtype_f32_or(a.out, "out", a.x.dtype(), "x");
  for (uint32_t d = 0; d < a.x.rank(); ++d) c.extent(a.out, "out", d, a.x.size(d), "x's extent");
  c.row_major(a.out, "out");
  c.no_overlap(a.out, "out", a.x, "x");
  check_eps(c, a.eps);
  const bool three = a.x.rank() == 3;
  const int64_t D = a.x.size(a.x.rank() - 1);
  if (D < 1) c.fail("x", "shape " + detail::shape_text(a.x) + ": rows of length 0");
  vt_l2norm_args r{};
  r.struct_size = sizeof r;
  r.x = a.x.raw();
  r.out = a.out.raw();
  r.eps = a.eps;
  r.outer = three ? a.x.size(0) : 1;
  r.inner = three ? a.x.size(1) : a.x.size(0);
  r.dim = D;
  return r;
}

vt_gdn_post_conv_args validate(const GdnPostConv& a, const Device& device) {
  const Checker c("gdn_post_conv", device);
  const Heads h = check_split(c, a.conv_out, a.q_out, a.k_out, a.v_out);
  c.need(a.a, "a", {2});
  c.dtype_f32_or(a.a, "a", a.conv_out.dtype(), "conv_out");
  check_gating(c, a.a, a.b, a.A_log, a.dt_bias, a.g_out, a.beta_out, h.T, h.Hv);
  check_eps(c, a.eps);
  const TensorView* outs[] = {&a.q_out, &a.k_out, &a.v_out};
  const std::string_view out_names[] = {"q_out", "k_out", "v_out"};
  for (size_t i = 0; i < std::size(outs); ++i)
    for (auto [t, name] : {NamedTensor{&a.a, "a"},
                           {&a.b, "b"},
                           {&a.A_log, "A_log"},
                           {&a.dt_bias, "dt_bias"},
                           {&a.g_out, "g_out"},
                           {&a.beta_out, "beta_out"}})
      c.no_overlap(*outs[i], out_names[i], *t, name);
  c.no_overlap(a.g_out, "g_out", a.conv_out, "conv_out");
  c.no_overlap(a.beta_out, "beta_out", a.conv_out, "conv_out");
  vt_gdn_post_conv_args r{};
  r.struct_size = sizeof r;
  r.conv_out = a.conv_out.raw();
  r.a = a.a.raw();
  r.b = a.b.raw();
  r.A_log = a.A_log.raw();
  r.dt_bias = a.dt_bias.raw();
  r.q_out = a.q_out.raw();
  r.k_out = a.k_out.raw();
  r.v_out = a.v_out.raw();
  r.g_out = a.g_out.raw();
  r.beta_out = a.beta_out.raw();
  r.l2norm = a.l2norm ? 1 : 0;
  r.eps = a.eps;
  r.num_tokens = h.T;
  r.key_heads = h.Hk;
  r.value_heads = h.Hv;
  r.key_dim = h.Dk;
  r.value_dim = h.Dv;
  return r;
}

std::string_view gdn_split(Queue& queue, const GdnSplit& args) {
  const auto r = validate(args, queue.device());
  return queue.run_op(VT_OP_GDN_SPLIT, &r);
}

std::string_view gdn_gating(Queue& queue, const GdnGating& args) {
  const auto r = validate(args, queue.device());
  return queue.run_op(VT_OP_GDN_GATING, &r);
}

std::string_view l2norm(Queue& queue, const L2Norm& args) {
  const auto r = validate(args, queue.device());
  return queue.run_op(VT_OP_L2NORM, &r);
}

std::string_view gdn_post_conv(Queue& queue, const GdnPostConv& args) {
  const auto r = validate(args, queue.device());
  return queue.run_op(VT_OP_GDN_POST_CONV, &r);
}

}  // namespace vt::ops
