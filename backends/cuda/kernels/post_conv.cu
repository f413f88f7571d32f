// gdn_post_conv and its pieces. One kernel with three roles by block range: normalised
// (or copied) q/k rows, one 32-lane warp per row so the canonical sum of squares is the
// lane butterfly; the v copy; and the gating. The pieces launch the same kernel with only
// their role, so the fused op equals their composition by construction.
#include "common.cuh"
#include "launch.hpp"

namespace vt::cuda::kern {
namespace {

constexpr int kWarps = vt::ops::geometry::RowGeometry{}.rows_per_block;
constexpr int kThreads = vt::ops::geometry::RowGeometry{}.block;
static_assert(kThreads == 32 * kWarps, "one 32-lane warp per row");
constexpr int kMaxPerLane = 8;  // D <= 256

// Lane l's partial sum of squares over elements l, l+32, ... (increasing), combined by
// p[l] = p[l] + p[l+s] for l < s, s = 16..1: parity.md's order. Every lane gets the total.
__device__ __forceinline__ float row_sum_sq(float p, int lane) {
#pragma unroll
  for (int s = 16; s >= 1; s /= 2) {
    const float other = __shfl_down_sync(0xffffffffu, p, s);
    if (lane < s) p = p + other;
  }
  return __shfl_sync(0xffffffffu, p, 0);
}

__device__ __forceinline__ float inverse_norm(float sum_sq, float eps) {
  const float sum = sum_sq + eps;
  const float root = sqrtf(sum);
  return 1.0f / root;
}

// One row: x * (1 / sqrt(sum_sq + eps)), or a plain copy. Rows up to 256 stay in registers;
// longer ones are read twice.
__device__ __forceinline__ void l2_row(const char* in, int in_dtype, int64_t in_step, char* out, int out_dtype,
                                       int64_t out_step, int64_t d, float eps, int normalise, int lane) {
  if (d > 32 * kMaxPerLane) {
    float p = 0.0f;
    for (int64_t i = lane; i < d; i += 32) {
      const float x = load(in_dtype, in + i * in_step);
      p = fmaf(x, x, p);
    }
    const float scale = normalise ? inverse_norm(row_sum_sq(p, lane), eps) : 1.0f;
    for (int64_t i = lane; i < d; i += 32) {
      const float x = load(in_dtype, in + i * in_step);
      store(out_dtype, out + i * out_step, normalise ? x * scale : x);
    }
    return;
  }
  float x[kMaxPerLane];
  float p = 0.0f;
#pragma unroll
  for (int m = 0; m < kMaxPerLane; ++m) {
    const int64_t i = lane + 32 * m;
    x[m] = i < d ? load(in_dtype, in + i * in_step) : 0.0f;
    if (i < d) p = fmaf(x[m], x[m], p);
  }
  const float scale = normalise ? inverse_norm(row_sum_sq(p, lane), eps) : 1.0f;
#pragma unroll
  for (int m = 0; m < kMaxPerLane; ++m) {
    const int64_t i = lane + 32 * m;
    if (i < d) store(out_dtype, out + i * out_step, normalise ? x[m] * scale : x[m]);
  }
}

struct PostConvParams {
  // rows: q/k of the split (rows_per_token = 2*Hk), or l2norm's [outer, inner, D]
  View conv_out, q, k, v, a, b, A_log, dt_bias, g, beta;
  View l2_in, l2_out;        // l2norm op only
  int64_t T, Hk, Hv, Dk, Dv;
  int64_t l2_outer, l2_inner, l2_dim;
  float eps;
  int normalise;
  int64_t row_blocks, v_blocks, gate_blocks;  // role ranges, in blocks
  int l2_op;                  // rows come from l2_in/l2_out
  int l2_rank3;
};

__device__ void role_rows(const PostConvParams& p, int64_t block) {
  const int lane = threadIdx.x & 31;
  const int64_t r = block * kWarps + (threadIdx.x >> 5);
  if (p.l2_op) {
    if (r >= p.l2_outer * p.l2_inner) return;
    const int64_t i = r / p.l2_inner, j = r % p.l2_inner;
    const bool three = p.l2_rank3 != 0;
    const char* in = three ? p.l2_in.base + i * p.l2_in.s0 + j * p.l2_in.s1 : p.l2_in.base + j * p.l2_in.s0;
    char* out = three ? p.l2_out.base + i * p.l2_out.s0 + j * p.l2_out.s1 : p.l2_out.base + j * p.l2_out.s0;
    const int64_t in_step = three ? p.l2_in.s2 : p.l2_in.s1, out_step = three ? p.l2_out.s2 : p.l2_out.s1;
    l2_row(in, p.l2_in.dtype, in_step, out, p.l2_out.dtype, out_step, p.l2_dim, p.eps, 1, lane);
    return;
  }
  if (r >= p.T * 2 * p.Hk) return;
  const int64_t t = r / (2 * p.Hk), h = r % (2 * p.Hk);
  const View& dst = h < p.Hk ? p.q : p.k;
  const int64_t hh = h < p.Hk ? h : h - p.Hk;
  const char* in = p.conv_out.base + t * p.conv_out.s0 + h * p.Dk * p.conv_out.s1;
  char* out = dst.base + t * dst.s0 + hh * dst.s1;
  l2_row(in, p.conv_out.dtype, p.conv_out.s1, out, dst.dtype, dst.s2, p.Dk, p.eps, p.normalise, lane);
}

__device__ void role_v(const PostConvParams& p, int64_t block) {
  const int64_t e = block * kThreads + threadIdx.x;
  const int64_t per_token = p.Hv * p.Dv;
  if (e >= p.T * per_token) return;
  const int64_t t = e / per_token, j = e % per_token, h = j / p.Dv, d = j % p.Dv;
  const float x = load(p.conv_out.dtype, p.conv_out.base + t * p.conv_out.s0 + (2 * p.Hk * p.Dk + j) * p.conv_out.s1);
  store(p.v.dtype, p.v.base + t * p.v.s0 + h * p.v.s1 + d * p.v.s2, x);
}

// g = -(exp(A_log) * softplus(a + dt_bias)), beta = sigmoid(b): the reference's order.
__device__ void role_gate(const PostConvParams& p, int64_t block) {
  const int64_t e = block * kThreads + threadIdx.x;
  if (e >= p.T * p.Hv) return;
  const int64_t t = e / p.Hv, h = e % p.Hv;
  const float u = load(p.a.dtype, p.a.base + t * p.a.s0 + h * p.a.s1) + load(VT_DTYPE_F32, p.dt_bias.base + h * p.dt_bias.s0);
  const float sp = vt::math::softplus(u);
  const float ex = vt::math::exp(load(VT_DTYPE_F32, p.A_log.base + h * p.A_log.s0));
  store(VT_DTYPE_F32, p.g.base + t * p.g.s0 + h * p.g.s1, -(ex * sp));
  const float bv = load(p.b.dtype, p.b.base + t * p.b.s0 + h * p.b.s1);
  store(VT_DTYPE_F32, p.beta.base + t * p.beta.s0 + h * p.beta.s1, vt::math::sigmoid_fast(bv));
}

__global__ void __launch_bounds__(kThreads) post_conv_kernel(const PostConvParams p) {
  int64_t block = blockIdx.x;
  if (block < p.row_blocks) return role_rows(p, block);
  block -= p.row_blocks;
  if (block < p.v_blocks) return role_v(p, block);
  block -= p.v_blocks;
  if (block < p.gate_blocks) role_gate(p, block);
}

vt_status launch(const PostConvParams& p, cudaStream_t stream, const char* op) {
  const int64_t blocks = p.row_blocks + p.v_blocks + p.gate_blocks;
  if (blocks == 0) return VT_OK;
  if (blocks > 0x7fffffff) return launch_error("post-conv: grid too large");
  post_conv_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(p);
  return launch_status(op);
}

int64_t blocks_for(int64_t items, int64_t per_block) { return (items + per_block - 1) / per_block; }

}  // namespace

vt_status launch_post_conv(const vt_gdn_post_conv_args& a, cudaStream_t stream) {
  PostConvParams p{};
  p.conv_out = view_of(a.conv_out);
  p.q = view_of(a.q_out);
  p.k = view_of(a.k_out);
  p.v = view_of(a.v_out);
  p.a = view_of(a.a);
  p.b = view_of(a.b);
  p.A_log = view_of(a.A_log);
  p.dt_bias = view_of(a.dt_bias);
  p.g = view_of(a.g_out);
  p.beta = view_of(a.beta_out);
  p.T = a.num_tokens;
  p.Hk = a.key_heads;
  p.Hv = a.value_heads;
  p.Dk = a.key_dim;
  p.Dv = a.value_dim;
  p.eps = a.eps;
  p.normalise = a.l2norm != 0;
  p.row_blocks = blocks_for(p.T * 2 * p.Hk, kWarps);
  p.v_blocks = blocks_for(p.T * p.Hv * p.Dv, kThreads);
  p.gate_blocks = blocks_for(p.T * p.Hv, kThreads);
  return launch(p, stream, "gdn_post_conv");
}

vt_status launch_split(const vt_gdn_split_args& a, cudaStream_t stream) {
  PostConvParams p{};
  p.conv_out = view_of(a.conv_out);
  p.q = view_of(a.q_out);
  p.k = view_of(a.k_out);
  p.v = view_of(a.v_out);
  p.T = a.num_tokens;
  p.Hk = a.key_heads;
  p.Hv = a.value_heads;
  p.Dk = a.key_dim;
  p.Dv = a.value_dim;
  p.normalise = 0;
  p.row_blocks = blocks_for(p.T * 2 * p.Hk, kWarps);
  p.v_blocks = blocks_for(p.T * p.Hv * p.Dv, kThreads);
  return launch(p, stream, "gdn_split");
}

vt_status launch_gating(const vt_gdn_gating_args& a, cudaStream_t stream) {
  PostConvParams p{};
  p.a = view_of(a.a);
  p.b = view_of(a.b);
  p.A_log = view_of(a.A_log);
  p.dt_bias = view_of(a.dt_bias);
  p.g = view_of(a.g_out);
  p.beta = view_of(a.beta_out);
  p.T = a.num_tokens;
  p.Hv = a.value_heads;
  p.gate_blocks = blocks_for(p.T * p.Hv, kThreads);
  return launch(p, stream, "gdn_gating");
}

vt_status launch_l2norm(const vt_l2norm_args& a, cudaStream_t stream) {
  PostConvParams p{};
  p.l2_op = 1;
  p.l2_rank3 = a.x.rank == 3;
  p.l2_in = view_of(a.x);
  p.l2_out = view_of(a.out);
  p.l2_outer = a.outer;
  p.l2_inner = a.inner;
  p.l2_dim = a.dim;
  p.eps = a.eps;
  p.row_blocks = blocks_for(a.outer * a.inner, kWarps);
  return launch(p, stream, "l2norm");
}

}  // namespace vt::cuda::kern
