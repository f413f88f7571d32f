// gdn_post_conv and its pieces (ops.md sections 4 and 5). The fused op is written with the
// same three row functions as gdn_split, l2norm and gdn_gating, so it equals their
// composition bit for bit by construction.
#include <cmath>

#include "vt/ops/portable_math.h"
#include "vt/reference/element.hpp"
#include "vt/reference/reference.hpp"

namespace vt::reference {
namespace {

// D elements starting at p, `stride` elements apart.
struct Row {
  char* p;
  vt_dtype dtype;
  int64_t stride;

  char* at(int64_t i) const { return p + i * stride * element_size(dtype); }
  float load(int64_t i) const { return load_float(dtype, at(i)); }
  void store(int64_t i, float v) const { store_float(dtype, at(i), v); }
};

// Row of a rank-2 [T, C] tensor starting at column `first`.
Row slice(const vt_tensor& t, int64_t token, int64_t first) {
  return {element(t, token, first), t.dtype, t.strides[1]};
}

// Row [i0, i1, :] of a rank-3 tensor.
Row head(const vt_tensor& t, int64_t i0, int64_t i1) { return {element(t, i0, i1), t.dtype, t.strides[2]}; }

// Row [i, j, :] of l2norm's [outer, inner, D] view: a rank-2 tensor is [1, R, D].
Row l2norm_row(const vt_tensor& t, int64_t i, int64_t j) {
  return t.rank == 3 ? head(t, i, j) : Row{element(t, j), t.dtype, t.strides[1]};
}

void copy_row(const Row& in, const Row& out, int64_t d) {
  for (int64_t i = 0; i < d; ++i) out.store(i, in.load(i));
}

// parity.md's canonical sum of squares: 32 fma partials over i = l, l+32, ..., then a
// pairwise tree (the 32-lane butterfly). Then x * (1 / sqrt(sum + eps)), each step in f32.
void l2_row(const Row& in, const Row& out, int64_t d, float eps) {
  float p[32] = {};
  for (int64_t i = 0; i < d; ++i) {
    const float x = in.load(i);
    p[i % 32] = std::fma(x, x, p[i % 32]);
  }
  for (int s = 16; s >= 1; s /= 2)
    for (int l = 0; l < s; ++l) p[l] = p[l] + p[l + s];
  const float sum = p[0] + eps;
  const float root = std::sqrt(sum);
  const float inv = 1.0f / root;
  for (int64_t i = 0; i < d; ++i) out.store(i, in.load(i) * inv);
}

void row(const Row& in, const Row& out, int64_t d, bool normalise, float eps) {
  if (normalise) {
    l2_row(in, out, d, eps);
  } else {
    copy_row(in, out, d);
  }
}

// g = -exp(A_log) * softplus(a + dt_bias), evaluated as u = a + dt_bias; sp = softplus(u);
// e = exp(A_log); g = -(e * sp): every backend copies this order. beta = sigmoid(b).
void gate(const vt_tensor& a, const vt_tensor& b, const vt_tensor& A_log, const vt_tensor& dt_bias,
          const vt_tensor& g_out, const vt_tensor& beta_out, int64_t t, int64_t h) {
  const float u = load_float(a, t, h) + load_float(dt_bias, h);
  const float sp = vt::math::softplus(u);
  const float e = vt::math::exp(load_float(A_log, h));
  store_float(g_out, -(e * sp), t, h);
  store_float(beta_out, vt::math::sigmoid(load_float(b, t, h)), t, h);
}

// q, k and v rows of one token; q and k normalised when asked.
void split_token(const vt_tensor& conv_out, const vt_tensor& q_out, const vt_tensor& k_out, const vt_tensor& v_out,
                 int64_t t, int64_t hk, int64_t hv, int64_t dk, int64_t dv, bool normalise, float eps) {
  for (int64_t h = 0; h < hk; ++h) row(slice(conv_out, t, h * dk), head(q_out, t, h), dk, normalise, eps);
  for (int64_t h = 0; h < hk; ++h) row(slice(conv_out, t, (hk + h) * dk), head(k_out, t, h), dk, normalise, eps);
  for (int64_t h = 0; h < hv; ++h) copy_row(slice(conv_out, t, 2 * hk * dk + h * dv), head(v_out, t, h), dv);
}

}  // namespace

vt_status gdn_post_conv(const vt_gdn_post_conv_args& args) {
  for (int64_t t = 0; t < args.num_tokens; ++t) {
    split_token(args.conv_out, args.q_out, args.k_out, args.v_out, t, args.key_heads, args.value_heads, args.key_dim,
                args.value_dim, args.l2norm != 0, args.eps);
    for (int64_t h = 0; h < args.value_heads; ++h)
      gate(args.a, args.b, args.A_log, args.dt_bias, args.g_out, args.beta_out, t, h);
  }
  return VT_OK;
}

vt_status gdn_split(const vt_gdn_split_args& args) {
  for (int64_t t = 0; t < args.num_tokens; ++t)
    split_token(args.conv_out, args.q_out, args.k_out, args.v_out, t, args.key_heads, args.value_heads, args.key_dim,
                args.value_dim, false, 0.0f);
  return VT_OK;
}

vt_status l2norm(const vt_l2norm_args& args) {
  for (int64_t i = 0; i < args.outer; ++i)
    for (int64_t j = 0; j < args.inner; ++j)
      l2_row(l2norm_row(args.x, i, j), l2norm_row(args.out, i, j), args.dim, args.eps);
  return VT_OK;
}

vt_status gdn_gating(const vt_gdn_gating_args& args) {
  for (int64_t t = 0; t < args.num_tokens; ++t)
    for (int64_t h = 0; h < args.value_heads; ++h)
      gate(args.a, args.b, args.A_log, args.dt_bias, args.g_out, args.beta_out, t, h);
  return VT_OK;
}

}  // namespace vt::reference
