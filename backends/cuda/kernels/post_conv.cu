// gdn_post_conv and its pieces, in two schedules (launch_geometry.hpp). per_token: one block
// per token: its q and k rows, its v row, its gates. The q/k rows go in 16-byte chunks, a few
// lanes a row, when they start on 16-byte boundaries, else one warp a row, lane l reading
// elements l, l+32, ...; both form parity.md's 32 partial sums of squares and combine them in
// its order. token_tile: a block of four warps per 16 tokens of one row slot. Split and gating
// launch the same kernels with only their part; every path gives the reference's bits, so
// the fused op equals the composition.
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

// R rows of d <= 256 elements, row r at in + r * in_row (out likewise), `rows` of them real:
// all their loads are issued before the first reduction. Each row: the canonical sum of
// squares, then x * (1 / sqrt(sum_sq + eps)), or a plain copy.
template <int R>
__device__ __forceinline__ void l2_rows(const char* in, int64_t in_row, int in_dtype, int64_t in_step, char* out,
                                        int64_t out_row, int out_dtype, int64_t out_step, int rows, int64_t d,
                                        float eps, int normalise, int lane) {
  float x[R][kMaxPerLane];
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int m = 0; m < kMaxPerLane; ++m) {
      const int64_t i = lane + 32 * m;
      x[r][m] = (r < rows && i < d) ? load(in_dtype, in + r * in_row + i * in_step) : 0.0f;
    }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if (r >= rows) break;
    float p = 0.0f;
#pragma unroll
    for (int m = 0; m < kMaxPerLane; ++m)
      if (lane + 32 * m < d) p = fmaf(x[r][m], x[r][m], p);
    const float scale = normalise ? inverse_norm(row_sum_sq(p, lane), eps) : 1.0f;
#pragma unroll
    for (int m = 0; m < kMaxPerLane; ++m) {
      const int64_t i = lane + 32 * m;
      if (i < d) store(out_dtype, out + r * out_row + i * out_step, normalise ? x[r][m] * scale : x[r][m]);
    }
  }
}

// One row: x * (1 / sqrt(sum_sq + eps)), or a plain copy. Rows up to 256 stay in registers
// (l2_rows); longer ones are read twice.
__device__ __forceinline__ void l2_row(const char* in, int in_dtype, int64_t in_step, char* out, int out_dtype,
                                       int64_t out_step, int64_t d, float eps, int normalise, int lane) {
  if (d <= 32 * kMaxPerLane) {
    l2_rows<1>(in, 0, in_dtype, in_step, out, 0, out_dtype, out_step, 1, d, eps, normalise, lane);
    return;
  }
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
}

struct PostConvParams {
  View conv_out, q, k, v, a, b, A_log, dt_bias, g, beta;
  int64_t Hk, Hv, Dk, Dv;
  float eps;
  int normalise;  // q and k rows: normalised, or copied
  int split;      // write q, k, v
  int gate;       // write g, beta
  int v_bulk;     // v rows are dense and share conv_out's dtype: copy 16-byte words
  int qk_chunks;  // conv_out, q and k rows start on 16-byte boundaries: chunked q/k rows
  int64_t T;
};

// Element j of token t's v head h; with `words` set, 16-byte word j of it instead (the
// caller checked v_bulk and that the head is a whole number of words).
__device__ __forceinline__ void copy_v_part(const PostConvParams& p, int64_t t, int64_t h, int64_t j, bool words) {
  const char* vin = p.conv_out.base + t * p.conv_out.s0 + (2 * p.Hk * p.Dk + h * p.Dv) * p.conv_out.s1;
  char* vout = p.v.base + t * p.v.s0 + h * p.v.s1;
  if (words) reinterpret_cast<uint4*>(vout)[j] = __ldg(reinterpret_cast<const uint4*>(vin) + j);
  else store(p.v.dtype, vout + j * p.v.s2, load(p.conv_out.dtype, vin + j * p.conv_out.s1));
}

// g = -(exp(A_log) * softplus(a + dt_bias)), beta = sigmoid(b): the reference's order.
__device__ __forceinline__ void gate_head(const PostConvParams& p, int64_t t, int64_t h) {
  const float u =
      load(p.a.dtype, p.a.base + t * p.a.s0 + h * p.a.s1) + load(VT_DTYPE_F32, p.dt_bias.base + h * p.dt_bias.s0);
  const float sp = vt::math::softplus(u);
  const float ex = vt::math::exp(load(VT_DTYPE_F32, p.A_log.base + h * p.A_log.s0));
  store(VT_DTYPE_F32, p.g.base + t * p.g.s0 + h * p.g.s1, -(ex * sp));
  const float bv = load(p.b.dtype, p.b.base + t * p.b.s0 + h * p.b.s1);
  store(VT_DTYPE_F32, p.beta.base + t * p.beta.s0 + h * p.beta.s1, sigmoid_exact(bv));  // == sigmoid
}

// Compile-time element access for the per-token kernel: inputs through the read-only path.
template <Elem E>
__device__ __forceinline__ float load_elem(const char* p) {
  return load_packet<E, 1>(p).get(0);
}
template <Elem E>
__device__ __forceinline__ void store_elem(char* p, float v) {
  *reinterpret_cast<typename ElemTraits<E>::raw*>(p) = ElemTraits<E>::narrow(v);
}

// R rows of one warp, row r at in + r * in_row and out_of(r), `rows` of them real, d <= 32 M
// elements each of type X, written as Q: all R * M loads are issued before the first
// reduction. Each row: the canonical sum of squares, then x * (1 / sqrt(sum_sq + eps)), or a
// plain copy.
template <Elem X, Elem Q, int R, int M, class OutRow>
__device__ __forceinline__ void l2_group(const char* in, int64_t in_row, int rows, int64_t d, const OutRow& out_of,
                                         float eps, int normalise, int lane) {
  float x[R][M];
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int m = 0; m < M; ++m) {
      const int64_t i = lane + 32 * m;
      x[r][m] =
          (r < rows && i < d) ? load_elem<X>(in + r * in_row + i * int64_t{sizeof(typename ElemTraits<X>::raw)}) : 0.0f;
    }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if (r >= rows) break;
    float p = 0.0f;
#pragma unroll
    for (int m = 0; m < M; ++m)
      if (lane + 32 * m < d) p = fmaf(x[r][m], x[r][m], p);
    const float scale = normalise ? inverse_norm(row_sum_sq(p, lane), eps) : 1.0f;
    char* out = out_of(r);
#pragma unroll
    for (int m = 0; m < M; ++m) {
      const int64_t i = lane + 32 * m;
      if (i < d)
        store_elem<Q>(out + i * int64_t{sizeof(typename ElemTraits<Q>::raw)}, normalise ? x[r][m] * scale : x[r][m]);
    }
  }
}

// Where q/k row h (q heads, then k heads) of token t goes.
__device__ __forceinline__ char* qk_out(const PostConvParams& p, int64_t t, int64_t h) {
  return h < p.Hk ? p.q.base + t * p.q.s0 + h * p.q.s1 : p.k.base + t * p.k.s0 + (h - p.Hk) * p.k.s1;
}

// A row read in 16-byte chunks of E elements of X, G = 32 / E lanes to a row. Lane j loads
// chunks j, j + G, j + 2G, ... (up to M): elements E j + i + 32 m, which are all the terms of
// the canonical partial sums l = E j + i (parity.md), in their order. The partials combine
// in the canonical tree, p[l] = p[l] + p[l+s] for s = 16..1: the steps s >= E across lanes
// (lane j takes lane j + s/E's), the rest inside the row's first lane. Every lane of the warp
// calls this (the shuffles span the warp); `real` says whether this lane's row exists.
template <Elem X, Elem Q, int M>
__device__ __forceinline__ void l2_chunked_row(const char* in, char* out, bool real, int64_t d, float eps,
                                               int normalise, int lane) {
  constexpr int E = 16 / sizeof(typename ElemTraits<X>::raw);
  constexpr int G = 32 / E;
  constexpr int kOutPerWord = 16 / sizeof(typename ElemTraits<Q>::raw);
  const int j = lane % G;
  const int64_t chunks = real ? d / E : 0;
  Packet<X, E> c[M];
#pragma unroll
  for (int m = 0; m < M; ++m)
    if (j + G * m < chunks) c[m] = load_packet<X, E>(in + (j + G * m) * 16);
  float part[E];
#pragma unroll
  for (int i = 0; i < E; ++i) part[i] = 0.0f;
#pragma unroll
  for (int m = 0; m < M; ++m)
    if (j + G * m < chunks)
#pragma unroll
      for (int i = 0; i < E; ++i) part[i] = fmaf(c[m].get(i), c[m].get(i), part[i]);
  float scale = 1.0f;
  if (normalise) {
#pragma unroll
    for (int s = 16; s >= E; s /= 2)
#pragma unroll
      for (int i = 0; i < E; ++i) {
        const float other = __shfl_down_sync(0xffffffffu, part[i], s / E);
        if (j < s / E) part[i] = part[i] + other;
      }
#pragma unroll
    for (int s = E / 2; s >= 1; s /= 2)
#pragma unroll
      for (int i = 0; i < s; ++i) part[i] = part[i] + part[i + s];
    scale = inverse_norm(__shfl_sync(0xffffffffu, part[0], lane - j), eps);
  }
#pragma unroll
  for (int m = 0; m < M; ++m) {
    if (j + G * m >= chunks) continue;
    char* o = out + (j + G * m) * E * int64_t{sizeof(typename ElemTraits<Q>::raw)};
#pragma unroll
    for (int h = 0; h < E / kOutPerWord; ++h) {
      Packet<Q, kOutPerWord> pk;
#pragma unroll
      for (int i = 0; i < kOutPerWord; ++i) {
        const float x = c[m].get(h * kOutPerWord + i);
        pk.set(i, normalise ? x * scale : x);
      }
      store_packet(o + 16 * h, pk);
    }
  }
}

// Token t's v row, copied in a per-token kernel: its first VW words a thread
// are loaded up front (16-byte words, when v_bulk) so that they are in flight with the q/k
// rows; finish() stores them and copies the rest.
template <int VW>
struct VRowCopy {
  uint4 w[VW];
  const uint4* in;
  uint4* out;
  int64_t words;

  __device__ __forceinline__ void start(const PostConvParams& p, int64_t t, int64_t xb) {
    in = reinterpret_cast<const uint4*>(p.conv_out.base + t * p.conv_out.s0 + 2 * p.Hk * p.Dk * xb);
    out = reinterpret_cast<uint4*>(p.v.base + t * p.v.s0);
    words = p.split && p.v_bulk ? p.Hv * p.Dv * xb / 16 : 0;
#pragma unroll
    for (int u = 0; u < VW; ++u) {
      const int64_t j = threadIdx.x + u * kThreads;
      if (j < words) w[u] = __ldg(in + j);
    }
  }

  __device__ __forceinline__ void finish(const PostConvParams& p, int64_t t) const {
    if (!p.split) return;
    if (!p.v_bulk) {
      for (int64_t i = threadIdx.x; i < p.Hv * p.Dv; i += kThreads) copy_v_part(p, t, i / p.Dv, i % p.Dv, false);
      return;
    }
#pragma unroll
    for (int u = 0; u < VW; ++u) {
      const int64_t j = threadIdx.x + u * kThreads;
      if (j < words) out[j] = w[u];
    }
    for (int64_t j = threadIdx.x + VW * kThreads; j < words; j += kThreads) out[j] = __ldg(in + j);
  }
};

// One block per token, for q/k rows not on 16-byte boundaries. Its loads go out together
// before anything waits: a first run of v words, then each warp's q/k rows (rows warp, warp +
// kWarps, ... up to R of them, R * M = kQkElemsPerLane elements a lane); then the v words are
// stored and the gates computed. M: Dk <= 32 M. X: conv_out's type, Q: q/k/v's. Innermost
// strides are 1 (validated).
constexpr int kQkElemsPerLane = 16;

template <Elem X, Elem Q, int M>
__global__ void __launch_bounds__(kThreads, 4) post_conv_kernel(const PostConvParams p) {
  after_prior_grids();
  constexpr int R = kQkElemsPerLane / M;
  const int64_t t = blockIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t xb = sizeof(typename ElemTraits<X>::raw);
  VRowCopy<4> v;
  v.start(p, t, xb);
  if (p.split) {
    const char* row = p.conv_out.base + t * p.conv_out.s0;
    const int64_t qk_rows = 2 * p.Hk;
    for (int64_t r0 = warp; r0 < qk_rows; r0 += R * kWarps) {
      const int64_t left = (qk_rows - r0 + kWarps - 1) / kWarps;
      const int rows = static_cast<int>(left < R ? left : R);
      auto out_of = [&](int r) { return qk_out(p, t, r0 + int64_t{r} * kWarps); };
      l2_group<X, Q, R, M>(row + r0 * p.Dk * xb, kWarps * p.Dk * xb, rows, p.Dk, out_of, p.eps, p.normalise, lane);
    }
  }
  v.finish(p, t);
  if (p.gate)
    for (int64_t h = threadIdx.x; h < p.Hv; h += kThreads) gate_head(p, t, h);
}

// One block per token, the q/k rows in 16-byte chunks (l2_chunked_row), for rows that start
// on 16-byte boundaries. Every thread first issues its v words' loads; the first pass of q/k
// rows goes to the first threads (whole warps), and the threads left over compute the gates
// meanwhile, so the gates' arithmetic overlaps the rows' loads instead of following them.
// VW: v words a thread loads up front, the row's share (launch_per_token_as); holding two
// leaves room for a fourth block an SM at Dk <= 128.
template <Elem X, Elem Q, int M, int VW>
__global__ void __launch_bounds__(kThreads, M > 4     ? 2
                                            : VW <= 2 ? 4
                                                      : 3) post_conv_chunked_kernel(const PostConvParams p) {
  after_prior_grids();
  constexpr int G = 32 * sizeof(typename ElemTraits<X>::raw) / 16;  // lanes a row
  constexpr int kRowsPerPass = kThreads / G;
  const int64_t t = blockIdx.x;
  const int lane = threadIdx.x & 31;
  const int64_t xb = sizeof(typename ElemTraits<X>::raw);
  const int64_t qk_rows = p.split ? 2 * p.Hk : 0;
  const int64_t first_rows = qk_rows < kRowsPerPass ? qk_rows : kRowsPerPass;
  const int64_t row_threads = (first_rows * G + 31) / 32 * 32;  // whole warps
  const char* row = p.conv_out.base + t * p.conv_out.s0;
  auto pass = [&](int64_t r0) {  // rows r0 .. r0 + kRowsPerPass - 1, row r0 + threadIdx.x / G here
    const int64_t r = r0 + threadIdx.x / G;
    const bool real = r < qk_rows;
    l2_chunked_row<X, Q, M>(row + (real ? r : 0) * p.Dk * xb, real ? qk_out(p, t, r) : nullptr, real, p.Dk, p.eps,
                            p.normalise, lane);
  };

  VRowCopy<VW> v;
  v.start(p, t, xb);

  if (threadIdx.x < row_threads) pass(0);
  else if (p.gate)
    for (int64_t h = threadIdx.x - row_threads; h < p.Hv; h += kThreads - row_threads) gate_head(p, t, h);
  for (int64_t r0 = kRowsPerPass; r0 < qk_rows; r0 += kRowsPerPass)
    if (r0 + threadIdx.x / 32 * (32 / G) < qk_rows) pass(r0);  // a warp with some real rows
  if (p.gate && row_threads == kThreads)
    for (int64_t h = threadIdx.x; h < p.Hv; h += kThreads) gate_head(p, t, h);

  v.finish(p, t);
}

// A block of four warps owns tokens [16 x, 16 x + 16) of row slot y: q/k head y < 2 Hk (each
// warp four tokens, their loads in flight together), v head y - 2 Hk, or the gates (the
// last slot).
__global__ void __launch_bounds__(32 * vt::ops::geometry::kTileWarps) post_conv_tile_kernel(const PostConvParams p) {
  after_prior_grids();
  constexpr int kTokens = vt::ops::geometry::kTileTokens;
  constexpr int kPerWarp = kTokens / vt::ops::geometry::kTileWarps;
  constexpr int kBlock = 32 * vt::ops::geometry::kTileWarps;
  const int64_t t0 = static_cast<int64_t>(blockIdx.x) * kTokens;
  const int64_t tiles = p.T - t0 < kTokens ? p.T - t0 : kTokens;
  const int64_t slot = blockIdx.y;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int64_t qk_slots = p.split ? 2 * p.Hk : 0, v_slots = p.split ? p.Hv : 0;
  if (slot < qk_slots) {
    const View& dst = slot < p.Hk ? p.q : p.k;
    const int64_t h = slot < p.Hk ? slot : slot - p.Hk;
    const int64_t t = t0 + warp * kPerWarp;
    const int rows = static_cast<int>(tiles - warp * kPerWarp < kPerWarp ? tiles - warp * kPerWarp : kPerWarp);
    if (rows <= 0) return;
    const char* in = p.conv_out.base + t * p.conv_out.s0 + slot * p.Dk * p.conv_out.s1;
    char* out = dst.base + t * dst.s0 + h * dst.s1;
    if (p.Dk <= 32 * kMaxPerLane) {
      l2_rows<kPerWarp>(in, p.conv_out.s0, p.conv_out.dtype, p.conv_out.s1, out, dst.s0, dst.dtype, dst.s2, rows, p.Dk,
                        p.eps, p.normalise, lane);
    } else {
      for (int r = 0; r < rows; ++r)
        l2_row(in + r * p.conv_out.s0, p.conv_out.dtype, p.conv_out.s1, out + r * dst.s0, dst.dtype, dst.s2, p.Dk,
               p.eps, p.normalise, lane);
    }
  } else if (slot < qk_slots + v_slots) {
    const int64_t h = slot - qk_slots;
    const bool words = p.v_bulk && (p.Dv * p.conv_out.s1) % 16 == 0;
    const int64_t per = words ? p.Dv * p.conv_out.s1 / 16 : p.Dv;
    for (int64_t i = threadIdx.x; i < tiles * per; i += kBlock) copy_v_part(p, t0 + i / per, h, i % per, words);
  } else {
    for (int64_t i = threadIdx.x; i < tiles * p.Hv; i += kBlock) gate_head(p, t0 + i / p.Hv, i % p.Hv);
  }
}

// l2norm's rows [outer, inner, D] (rank 2 is [1, R, D]), one warp each.
struct L2Params {
  View in, out;
  int64_t outer, inner, dim;
  float eps;
  int rank3;
};

__global__ void __launch_bounds__(kThreads) l2norm_kernel(const L2Params p) {
  after_prior_grids();
  const int lane = threadIdx.x & 31;
  const int64_t r = static_cast<int64_t>(blockIdx.x) * kWarps + (threadIdx.x >> 5);
  if (r >= p.outer * p.inner) return;
  const int64_t i = r / p.inner, j = r % p.inner;
  const char* in = p.rank3 ? p.in.base + i * p.in.s0 + j * p.in.s1 : p.in.base + j * p.in.s0;
  char* out = p.rank3 ? p.out.base + i * p.out.s0 + j * p.out.s1 : p.out.base + j * p.out.s0;
  l2_row(in, p.in.dtype, p.rank3 ? p.in.s2 : p.in.s1, out, p.out.dtype, p.rank3 ? p.out.s2 : p.out.s1, p.dim, p.eps, 1,
         lane);
}

template <Elem X, Elem Q>
void launch_per_token_as(const PostConvParams& p, const dim3& grid, const Stream& stream) {
  const bool short_rows = p.Dk <= 32 * 4;
  const bool two_v_words = p.Hv * p.Dv * int64_t{sizeof(typename ElemTraits<X>::raw)} <= 2 * 16 * kThreads;
  if (p.qk_chunks && short_rows && two_v_words)
    launch_kernel(post_conv_chunked_kernel<X, Q, 4, 2>, grid, kThreads, 0, stream, p);
  else if (p.qk_chunks && short_rows) launch_kernel(post_conv_chunked_kernel<X, Q, 4, 4>, grid, kThreads, 0, stream, p);
  else if (p.qk_chunks) launch_kernel(post_conv_chunked_kernel<X, Q, 8, 4>, grid, kThreads, 0, stream, p);
  else if (short_rows) launch_kernel(post_conv_kernel<X, Q, 4>, grid, kThreads, 0, stream, p);
  else launch_kernel(post_conv_kernel<X, Q, 8>, grid, kThreads, 0, stream, p);
}

// q, k and v are f32 or conv_out's type; without the split (gating only) neither matters.
template <Elem X>
void launch_per_token_from(const PostConvParams& p, const dim3& grid, const Stream& stream) {
  if (p.split && p.q.dtype == VT_DTYPE_F32) launch_per_token_as<X, Elem::f32>(p, grid, stream);
  else launch_per_token_as<X, X>(p, grid, stream);
}

void launch_per_token(const PostConvParams& p, const dim3& grid, const Stream& stream) {
  const int x = p.split ? p.conv_out.dtype : VT_DTYPE_BF16;
  if (x == VT_DTYPE_F32) launch_per_token_from<Elem::f32>(p, grid, stream);
  else if (x == VT_DTYPE_F16) launch_per_token_from<Elem::f16>(p, grid, stream);
  else launch_per_token_from<Elem::bf16>(p, grid, stream);
}

vt_status launch(PostConvParams p, int64_t tokens, const vt::ops::geometry::PostConvSwitches& sw, const Stream& stream,
                 const char* op) {
  namespace geo = vt::ops::geometry;
  p.T = tokens;
  const int64_t slots = (p.split ? 2 * p.Hk + p.Hv : 0) + (p.gate ? 1 : 0);
  const geo::PostConvGeometry g = geo::post_conv_geometry(tokens, slots, sw);
  if (g.grid_x == 0) return VT_OK;
  if (g.grid_x > 0x7fffffff || g.grid_y > 0xffff) return launch_error("post-conv: grid too large");
  const dim3 grid(static_cast<unsigned>(g.grid_x), static_cast<unsigned>(g.grid_y));
  if (g.variant == geo::PostConvVariant::token_tile)
    launch_kernel(post_conv_tile_kernel, grid, static_cast<unsigned>(g.block), 0, stream, p);
  else launch_per_token(p, grid, stream);
  return launch_status(op);
}

// v rows can be copied as 16-byte words when both sides are dense, aligned and of one dtype.
int v_bulk(const View& conv_out, const View& v, int64_t hv, int64_t dv) {
  const int64_t e = dtype_bytes(conv_out.dtype);
  const bool dense = conv_out.s1 == e && v.s2 == e && v.s1 == dv * e;
  const bool aligned = reinterpret_cast<uintptr_t>(conv_out.base) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(v.base) % 16 == 0 && conv_out.s0 % 16 == 0 && v.s0 % 16 == 0 &&
                       (hv * dv * e) % 16 == 0;
  // The v block starts 2*Hk*Dk elements into the row; Dk is a multiple of 8, so 16 bytes
  // for 16-bit types and a multiple of 32 for f32.
  return dense && aligned && conv_out.dtype == v.dtype;
}

// q/k rows can be read and written in 16-byte chunks when every row starts on a 16-byte
// boundary (Dk is a multiple of 8, so a row is a whole number of chunks).
int qk_chunks(const View& conv_out, const View& q, const View& k) {
  auto on16 = [](const View& v, bool two_strides) {
    return reinterpret_cast<uintptr_t>(v.base) % 16 == 0 && v.s0 % 16 == 0 && (!two_strides || v.s1 % 16 == 0);
  };
  return on16(conv_out, false) && on16(q, true) && on16(k, true);
}

// The split part shared by gdn_post_conv and gdn_split: q and k copied (normalise is off
// until a caller turns it on), v copied.
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
  p.qk_chunks = qk_chunks(p.conv_out, p.q, p.k);
  return p;
}

}  // namespace

vt_status launch_post_conv(const vt_gdn_post_conv_args& a, const vt::ops::geometry::PostConvSwitches& sw,
                           const Stream& stream) {
  PostConvParams p =
      split_params(a.conv_out, a.q_out, a.k_out, a.v_out, a.key_heads, a.value_heads, a.key_dim, a.value_dim);
  p.a = view_of(a.a);
  p.b = view_of(a.b);
  p.A_log = view_of(a.A_log);
  p.dt_bias = view_of(a.dt_bias);
  p.g = view_of(a.g_out);
  p.beta = view_of(a.beta_out);
  p.eps = a.eps;
  p.normalise = a.l2norm != 0;
  p.gate = 1;
  return launch(p, a.num_tokens, sw, stream, "gdn_post_conv");
}

vt_status launch_split(const vt_gdn_split_args& a, const vt::ops::geometry::PostConvSwitches& sw,
                       const Stream& stream) {
  const PostConvParams p =
      split_params(a.conv_out, a.q_out, a.k_out, a.v_out, a.key_heads, a.value_heads, a.key_dim, a.value_dim);
  return launch(p, a.num_tokens, sw, stream, "gdn_split");
}

vt_status launch_gating(const vt_gdn_gating_args& a, const vt::ops::geometry::PostConvSwitches& sw,
                        const Stream& stream) {
  PostConvParams p{};
  p.a = view_of(a.a);
  p.b = view_of(a.b);
  p.A_log = view_of(a.A_log);
  p.dt_bias = view_of(a.dt_bias);
  p.g = view_of(a.g_out);
  p.beta = view_of(a.beta_out);
  p.Hv = a.value_heads;
  p.gate = 1;
  return launch(p, a.num_tokens, sw, stream, "gdn_gating");
}

vt_status launch_l2norm(const vt_l2norm_args& a, const Stream& stream) {
  L2Params p{};
  p.in = view_of(a.x);
  p.out = view_of(a.out);
  p.outer = a.outer;
  p.inner = a.inner;
  p.dim = a.dim;
  p.eps = a.eps;
  p.rank3 = a.x.rank == 3;
  const int64_t blocks = (a.outer * a.inner + kWarps - 1) / kWarps;
  if (blocks == 0) return VT_OK;
  if (blocks > 0x7fffffff) return launch_error("l2norm: too many rows");
  launch_kernel(l2norm_kernel, static_cast<unsigned>(blocks), kThreads, 0, stream, p);
  return launch_status("l2norm");
}

}  // namespace vt::cuda::kern
