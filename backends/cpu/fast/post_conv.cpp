// gdn_post_conv and its pieces, a token (or an l2norm row) per task. The fused op is written
// with the same row functions as split, l2norm and gating, so it equals their composition bit
// for bit, as in the reference (reference/src/post_conv.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "entries.hpp"
#include "row_io.hpp"
#include "vt/ops/portable_math.h"
#include "vt/reference/element.hpp"

VT_FAST_BEGIN
namespace {

using reference::element;
using reference::element_size;
using reference::load_float;
using reference::store_float;

// Elements per piece of a row held in f32 at once; a multiple of 32, so a piece's element l
// belongs to partial sum l % 32 wherever the piece starts. Head rows (D <= 256) fit in one.
constexpr int64_t kPiece = 256;

// A contiguous row of one dtype (its length travels separately).
struct Row {
  char* p;
  vt_dtype dtype;

  char* at(int64_t i) const { return p + i * element_size(dtype); }
};

// parity.md's sum of squares: partial l accumulates elements l, l+32, ... with fma. Over a
// piece it runs as 4 x 8 lanes: the inner loop over l is one pass of 32 partials.
void accumulate_squares(const float* __restrict x, int64_t n, float* __restrict p) {
  int64_t base = 0;
  for (; base + 32 <= n; base += 32)
    for (int l = 0; l < 32; ++l) p[l] = std::fma(x[base + l], x[base + l], p[l]);
  for (int64_t l = 0; base + l < n; ++l) p[l] = std::fma(x[base + l], x[base + l], p[l]);
}

// The pairwise tree, then 1 / sqrt(sum + eps), each step rounded to f32.
float inverse_norm(float* p, float eps) {
  for (int s = 16; s >= 1; s /= 2)
    for (int l = 0; l < s; ++l) p[l] = p[l] + p[l + s];
  const float sum = p[0] + eps;
  const float root = std::sqrt(sum);
  return 1.0f / root;
}

void scale(float* __restrict x, int64_t n, float factor) {
  for (int64_t i = 0; i < n; ++i) x[i] = x[i] * factor;
}

// out = in * (1 / sqrt(sum_sq(in) + eps)). A row longer than a piece is read twice.
void l2_row(const Row& in, const Row& out, int64_t d, float eps) {
  alignas(64) float x[kPiece];
  alignas(64) float p[32] = {};
  for (int64_t i = 0; i < d; i += kPiece) {
    const int64_t n = std::min(kPiece, d - i);
    widen(in.dtype, in.at(i), 1, n, x);
    accumulate_squares(x, n, p);
  }
  const float inv = inverse_norm(p, eps);
  for (int64_t i = 0; i < d; i += kPiece) {
    const int64_t n = std::min(kPiece, d - i);
    if (d > kPiece) widen(in.dtype, in.at(i), 1, n, x);
    scale(x, n, inv);
    narrow(out.dtype, x, n, out.at(i), 1);
  }
}

void copy_row(const Row& in, const Row& out, int64_t d) {
  alignas(64) float x[kPiece];
  for (int64_t i = 0; i < d; i += kPiece) {
    const int64_t n = std::min(kPiece, d - i);
    widen(in.dtype, in.at(i), 1, n, x);
    narrow(out.dtype, x, n, out.at(i), 1);
  }
}

void row(const Row& in, const Row& out, int64_t d, bool normalise, float eps) {
  if (normalise) {
    l2_row(in, out, d, eps);
  } else {
    copy_row(in, out, d);
  }
}

// The reference's order: u = a + dt_bias; sp = softplus(u); e = exp(A_log); g = -(e * sp);
// beta = sigmoid(b).
void gate_token(const vt_tensor& a, const vt_tensor& b, const vt_tensor& A_log, const vt_tensor& dt_bias,
                const vt_tensor& g_out, const vt_tensor& beta_out, int64_t t, int64_t heads) {
  for (int64_t h = 0; h < heads; ++h) {
    const float u = load_float(a, t, h) + load_float(dt_bias, h);
    const float sp = vt::math::softplus(u);
    const float e = vt::math::exp(load_float(A_log, h));
    store_float(g_out, -(e * sp), t, h);
    store_float(beta_out, vt::math::sigmoid(load_float(b, t, h)), t, h);
  }
}

// q, k and v rows of token t, q and k normalised when asked.
void split_token(const vt_tensor& conv_out, const vt_tensor& q_out, const vt_tensor& k_out, const vt_tensor& v_out,
                 int64_t t, int64_t hk, int64_t hv, int64_t dk, int64_t dv, bool normalise, float eps) {
  const auto in = [&](int64_t first) { return Row{element(conv_out, t, first), conv_out.dtype}; };
  const auto head = [&](const vt_tensor& o, int64_t h) { return Row{element(o, t, h), o.dtype}; };
  for (int64_t h = 0; h < hk; ++h) row(in(h * dk), head(q_out, h), dk, normalise, eps);
  for (int64_t h = 0; h < hk; ++h) row(in((hk + h) * dk), head(k_out, h), dk, normalise, eps);
  for (int64_t h = 0; h < hv; ++h) copy_row(in(2 * hk * dk + h * dv), head(v_out, h), dv);
}

// Row j of l2norm's [outer, inner, D] view, i = j / inner: a rank-2 tensor is [1, R, D].
Row l2norm_row(const vt_tensor& t, int64_t inner, int64_t j) {
  return {t.rank == 3 ? element(t, j / inner, j % inner) : element(t, j), t.dtype};
}

}  // namespace

void gdn_post_conv_tokens(const vt_gdn_post_conv_args& a, int64_t first, int64_t end) {
  for (int64_t t = first; t < end; ++t) {
    split_token(a.conv_out, a.q_out, a.k_out, a.v_out, t, a.key_heads, a.value_heads, a.key_dim, a.value_dim,
                a.l2norm != 0, a.eps);
    gate_token(a.a, a.b, a.A_log, a.dt_bias, a.g_out, a.beta_out, t, a.value_heads);
  }
}

void gdn_split_tokens(const vt_gdn_split_args& a, int64_t first, int64_t end) {
  for (int64_t t = first; t < end; ++t)
    split_token(a.conv_out, a.q_out, a.k_out, a.v_out, t, a.key_heads, a.value_heads, a.key_dim, a.value_dim, false,
                0.0f);
}

void l2norm_rows(const vt_l2norm_args& a, int64_t first, int64_t end) {
  for (int64_t j = first; j < end; ++j)
    l2_row(l2norm_row(a.x, a.inner, j), l2norm_row(a.out, a.inner, j), a.dim, a.eps);
}

void gdn_gating_tokens(const vt_gdn_gating_args& a, int64_t first, int64_t end) {
  for (int64_t t = first; t < end; ++t) gate_token(a.a, a.b, a.A_log, a.dt_bias, a.g_out, a.beta_out, t, a.value_heads);
}

VT_FAST_END
