// gdn_post_conv and its pieces. One block per token: its q and k rows, one 32-lane group per
// row so the canonical sum of squares (parity.md) is a butterfly over the group; its v row;
// its gates. Split and gating launch the same kernel with only their part, so the fused op
// equals the composition by construction; l2norm runs the same row function on its rows.
//
// Groups are 32 lanes whatever the wavefront: shuffles are width 32, so a wave64 (CDNA)
// holds two independent groups and a wave32 (RDNA) one. Control flow is uniform per group.
#include "common.hpp"
#include "launch.hpp"

namespace vt::rocm::kern {
namespace {

namespace geo = vt::ops::geometry;

constexpr int kGroupLanes = 32;
constexpr int kGroups = geo::RowGeometry{}.rows_per_block;
constexpr int kThreads = geo::RowGeometry{}.block;
static_assert(kThreads == kGroupLanes * kGroups, "one 32-lane group per row");
constexpr int kMaxPerLane = 8;  // rows up to 256 stay in registers

// Lane l holds partial l (elements l, l+32, ..., accumulated in increasing order). Combined by
// p[l] = p[l] + p[l+s] for l < s, s = 16, 8, 4, 2, 1; every lane gets p[0].
__device__ __forceinline__ float group_sum_sq(float partial, int lane) {
#pragma unroll
  for (unsigned s = kGroupLanes / 2; s >= 1; s /= 2) {
    const float other = __shfl_down(partial, s, kGroupLanes);
    if (lane < static_cast<int>(s)) partial = partial + other;
  }
  return __shfl(partial, 0, kGroupLanes);
}

// 1 / sqrt(sum_sq + eps), each step rounded as IEEE (the build asks for correctly rounded
// division and square root).
__device__ __forceinline__ float inverse_norm(float sum_sq, float eps) {
  const float root = sqrtf(sum_sq + eps);
  return 1.0f / root;
}

// One row of length d: x * inverse_norm, or a plain copy. Rows up to 256 are read once into
// registers; longer ones are read twice.
__device__ __forceinline__ void l2_row(const char* in, int in_dtype, int64_t in_step, char* out, int out_dtype,
                                       int64_t out_step, int64_t d, float eps, int normalise, int lane) {
  if (d > kGroupLanes * kMaxPerLane) {
    float partial = 0.0f;
    for (int64_t i = lane; i < d; i += kGroupLanes) {
      const float x = load(in_dtype, in + i * in_step);
      partial = fmaf(x, x, partial);
    }
    const float scale = normalise ? inverse_norm(group_sum_sq(partial, lane), eps) : 1.0f;
    for (int64_t i = lane; i < d; i += kGroupLanes) {
      const float x = load(in_dtype, in + i * in_step);
      store(out_dtype, out + i * out_step, normalise ? x * scale : x);
    }
    return;
  }
  float x[kMaxPerLane];
  float partial = 0.0f;
#pragma unroll
  for (int m = 0; m < kMaxPerLane; ++m) {
    const int64_t i = lane + kGroupLanes * m;
    x[m] = i < d ? load(in_dtype, in + i * in_step) : 0.0f;
    if (i < d) partial = fmaf(x[m], x[m], partial);
  }
  const float scale = normalise ? inverse_norm(group_sum_sq(partial, lane), eps) : 1.0f;
#pragma unroll
  for (int m = 0; m < kMaxPerLane; ++m) {
    const int64_t i = lane + kGroupLanes * m;
    if (i < d) store(out_dtype, out + i * out_step, normalise ? x[m] * scale : x[m]);
  }
}

struct PostConvParams {
  View conv_out, q, k, v, a, b, A_log, dt_bias, g, beta;
  int64_t Hk, Hv, Dk, Dv;
  float eps;
  int normalise;  // q and k rows: normalised, or copied
  int split;      // write q, k, v
  int gate;       // write g, beta
  int v_bulk;     // v rows are dense and share conv_out's dtype: copy 16-byte words
};

// g = -(exp(A_log) * softplus(a + dt_bias)), beta = sigmoid(b): the reference's order.
__device__ __forceinline__ void gate_head(const PostConvParams& p, int64_t t, int64_t h) {
  const float u =
      load(p.a.dtype, p.a.base + t * p.a.s0 + h * p.a.s1) + load(VT_DTYPE_F32, p.dt_bias.base + h * p.dt_bias.s0);
  const float sp = vt::math::softplus(u);
  const float ex = vt::math::exp(load(VT_DTYPE_F32, p.A_log.base + h * p.A_log.s0));
  store(VT_DTYPE_F32, p.g.base + t * p.g.s0 + h * p.g.s1, -(ex * sp));
  const float bv = load(p.b.dtype, p.b.base + t * p.b.s0 + h * p.b.s1);
  store(VT_DTYPE_F32, p.beta.base + t * p.beta.s0 + h * p.beta.s1, vt::math::sigmoid_fast(bv));  // equals sigmoid
}

__global__ void __launch_bounds__(kThreads) post_conv_kernel(const PostConvParams p) {
  const int64_t t = blockIdx.x;
  const int lane = static_cast<int>(threadIdx.x) % kGroupLanes;
  const int group = static_cast<int>(threadIdx.x) / kGroupLanes;
  if (p.split) {
    const char* row = p.conv_out.base + t * p.conv_out.s0;
    for (int64_t r = group; r < 2 * p.Hk; r += kGroups) {  // q rows, then k rows
      const View& dst = r < p.Hk ? p.q : p.k;
      const int64_t h = r < p.Hk ? r : r - p.Hk;
      l2_row(row + r * p.Dk * p.conv_out.s1, p.conv_out.dtype, p.conv_out.s1, dst.base + t * dst.s0 + h * dst.s1,
             dst.dtype, dst.s2, p.Dk, p.eps, p.normalise, lane);
    }
    const char* vin = row + 2 * p.Hk * p.Dk * p.conv_out.s1;
    char* vout = p.v.base + t * p.v.s0;
    if (p.v_bulk) {
      const int64_t words = p.Hv * p.Dv * p.conv_out.s1 / 16;
      for (int64_t i = threadIdx.x; i < words; i += kThreads)
        reinterpret_cast<Word16*>(vout)[i] = reinterpret_cast<const Word16*>(vin)[i];
    } else {
      for (int64_t h = 0; h < p.Hv; ++h)
        for (int64_t d = threadIdx.x; d < p.Dv; d += kThreads)
          store(p.v.dtype, vout + h * p.v.s1 + d * p.v.s2,
                load(p.conv_out.dtype, vin + (h * p.Dv + d) * p.conv_out.s1));
    }
  }
  if (p.gate)
    for (int64_t h = threadIdx.x; h < p.Hv; h += kThreads) gate_head(p, t, h);
}

// l2norm's rows as [outer, inner, D] (rank 2 is [1, R, D]), one group each.
struct L2Params {
  View in, out;
  int64_t outer, inner, dim;
  float eps;
  int rank3;
};

__global__ void __launch_bounds__(kThreads) l2norm_kernel(const L2Params p) {
  const int lane = static_cast<int>(threadIdx.x) % kGroupLanes;
  const int64_t r = static_cast<int64_t>(blockIdx.x) * kGroups + static_cast<int64_t>(threadIdx.x) / kGroupLanes;
  if (r >= p.outer * p.inner) return;  // uniform within a group
  const int64_t i = r / p.inner, j = r % p.inner;
  const char* in = p.rank3 ? p.in.base + i * p.in.s0 + j * p.in.s1 : p.in.base + j * p.in.s0;
  char* out = p.rank3 ? p.out.base + i * p.out.s0 + j * p.out.s1 : p.out.base + j * p.out.s0;
  l2_row(in, p.in.dtype, p.rank3 ? p.in.s2 : p.in.s1, out, p.out.dtype, p.rank3 ? p.out.s2 : p.out.s1, p.dim, p.eps, 1,
         lane);
}

vt_status launch(const PostConvParams& p, int64_t tokens, hipStream_t stream, const char* op) {
  if (tokens == 0) return VT_OK;
  if (!grid_fits(tokens, 1, kThreads)) return launch_error("post-conv: more than 2^24 tokens in one call");
  hipLaunchKernelGGL(post_conv_kernel, dim3(static_cast<unsigned>(tokens)), dim3(kThreads), 0, stream, p);
  return launch_status(op);
}

// v rows can move as 16-byte words when both sides are dense, aligned and of one dtype. The
// v block starts 2*Hk*Dk elements into the row and Dk is a multiple of 8: 16 bytes or more.
int v_bulk(const View& conv_out, const View& v, int64_t hv, int64_t dv) {
  const int64_t e = dtype_bytes(conv_out.dtype);
  const bool dense = conv_out.s1 == e && v.s2 == e && v.s1 == dv * e;
  const bool aligned = reinterpret_cast<uintptr_t>(conv_out.base) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(v.base) % 16 == 0 && conv_out.s0 % 16 == 0 && v.s0 % 16 == 0 &&
                       (hv * dv * e) % 16 == 0;
  return dense && aligned && conv_out.dtype == v.dtype;
}

// The split part shared by gdn_post_conv and gdn_split: q and k copied unless the caller
// turns normalising on, v copied.
PostConvParams split_params(const vt_tensor& conv_out, const vt_tensor& q, const vt_tensor& k, const vt_tensor& v,
                            int64_t hk, int64_t hv, int64_t dk, int64_t dv) {
  PostConvParams p{};
  p.conv_out = view_of(conv_out);
  p.q = view_of(q);
  p.k = view_of(k);
  p.v = view_of(v);
  p.Hk = hk;
  p.Hv = hv;
  p.Dk = dk;
  p.Dv = dv;
  p.split = 1;
  p.v_bulk = v_bulk(p.conv_out, p.v, hv, dv);
  return p;
}

// The gating part shared by gdn_post_conv and gdn_gating.
void set_gates(PostConvParams& p, const vt_tensor& a, const vt_tensor& b, const vt_tensor& A_log,
               const vt_tensor& dt_bias, const vt_tensor& g, const vt_tensor& beta, int64_t hv) {
  p.a = view_of(a);
  p.b = view_of(b);
  p.A_log = view_of(A_log);
  p.dt_bias = view_of(dt_bias);
  p.g = view_of(g);
  p.beta = view_of(beta);
  p.Hv = hv;
  p.gate = 1;
}

}  // namespace

vt_status launch_post_conv(const vt_gdn_post_conv_args& a, hipStream_t stream) {
  PostConvParams p =
      split_params(a.conv_out, a.q_out, a.k_out, a.v_out, a.key_heads, a.value_heads, a.key_dim, a.value_dim);
  set_gates(p, a.a, a.b, a.A_log, a.dt_bias, a.g_out, a.beta_out, a.value_heads);
  p.eps = a.eps;
  p.normalise = a.l2norm != 0;
  return launch(p, a.num_tokens, stream, "gdn_post_conv");
}

vt_status launch_split(const vt_gdn_split_args& a, hipStream_t stream) {
  const PostConvParams p =
      split_params(a.conv_out, a.q_out, a.k_out, a.v_out, a.key_heads, a.value_heads, a.key_dim, a.value_dim);
  return launch(p, a.num_tokens, stream, "gdn_split");
}

vt_status launch_gating(const vt_gdn_gating_args& a, hipStream_t stream) {
  PostConvParams p{};
  set_gates(p, a.a, a.b, a.A_log, a.dt_bias, a.g_out, a.beta_out, a.value_heads);
  return launch(p, a.num_tokens, stream, "gdn_gating");
}

vt_status launch_l2norm(const vt_l2norm_args& a, hipStream_t stream) {
  L2Params p{};
  p.in = view_of(a.x);
  p.out = view_of(a.out);
  p.outer = a.outer;
  p.inner = a.inner;
  p.dim = a.dim;
  p.eps = a.eps;
  p.rank3 = a.x.rank == 3;
  const geo::RowGeometry g = geo::row_geometry(a.outer * a.inner);
  if (g.grid == 0) return VT_OK;
  if (!grid_fits(g.grid, 1, g.block)) return launch_error("l2norm: more than 2^27 rows in one call");
  hipLaunchKernelGGL(l2norm_kernel, dim3(static_cast<unsigned>(g.grid)), dim3(static_cast<unsigned>(g.block)), 0,
                     stream, p);
  return launch_status("l2norm");
}

}  // namespace vt::rocm::kern
