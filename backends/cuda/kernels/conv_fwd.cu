// causal_conv1d_fwd: one program per (sequence, run of tokens) x channel group; each thread
// keeps its channels' K-1 previous inputs in registers. The arithmetic is the reference's:
// acc = bias, then acc = fma(w[j], input[t-(K-1)+j], acc) oldest first, then SiLU.
#include "common.cuh"
#include "launch.hpp"

namespace vt::cuda::kern {
namespace {

struct ConvFwdParams {
  View x, w, bias, out, state, his;
  const int32_t* slots;  // null: stateless
  const int32_t* qsl;
  const int32_t* plan;   // pairs (sequence, first token); null: sequence_chunks mapping
  int64_t T, C, N, S, chunk;
  int silu;
  int vector_store;
};

template <Elem E, int Vec>
struct alignas(sizeof(typename ElemTraits<E>::raw) * Vec) Packet {
  typename ElemTraits<E>::raw v[Vec];
};

template <Elem E, int Vec>
__device__ __forceinline__ void load_vec(const char* p, float* out) {
  const Packet<E, Vec> pk = *reinterpret_cast<const Packet<E, Vec>*>(p);
#pragma unroll
  for (int i = 0; i < Vec; ++i) out[i] = ElemTraits<E>::widen(pk.v[i]);
}

template <Elem E, int Vec>
__device__ __forceinline__ void store_vec(char* p, const float* in) {
  Packet<E, Vec> pk;
#pragma unroll
  for (int i = 0; i < Vec; ++i) pk.v[i] = ElemTraits<E>::narrow(in[i]);
  *reinterpret_cast<Packet<E, Vec>*>(p) = pk;
}

__device__ __forceinline__ int32_t clamp_token(int32_t v, int64_t T) {
  return v < 0 ? 0 : (v > T ? static_cast<int32_t>(T) : v);
}

// Tokens [first, last) (local to sequence n) for channels c0..c0+Vec-1.
template <int K, Elem X, int Vec>
__device__ void run_segment(const ConvFwdParams& p, int64_t n, int64_t first, int64_t last, int64_t c0) {
  constexpr int W = K - 1;
  constexpr int kXBytes = sizeof(typename ElemTraits<X>::raw);
  const int64_t begin = clamp_token(p.qsl[n], p.T);
  const int64_t end = clamp_token(p.qsl[n + 1], p.T);
  const int64_t L = end > begin ? end - begin : 0;
  if (last > L) last = L;
  if (first >= last) return;
  int64_t slot = -1;
  bool initial = false;
  if (p.slots) {
    slot = p.slots[n];
    if (slot < 0 || slot >= p.S) return;  // padding, or a slot outside the cache: untouched
    initial = p.his.base && load_int(p.his.dtype, p.his.base + n * p.his.s0) != 0;
  }
  const int nc = static_cast<int>(p.C - c0 < Vec ? p.C - c0 : Vec);  // channels this thread owns
  auto load_x = [&](int64_t token, float* v) {
    const char* row = p.x.base + (begin + token) * p.x.s0 + c0 * kXBytes;
    if constexpr (Vec > 1) {
      load_vec<X, Vec>(row, v);
    } else {
      v[0] = ElemTraits<X>::widen(*reinterpret_cast<const typename ElemTraits<X>::raw*>(row));
    }
  };
  auto state_at = [&](int k, int col) {
    return p.state.base + slot * p.state.s0 + (c0 + k) * p.state.s1 + col * p.state.s2;
  };

  float w[Vec][K], b[Vec];
#pragma unroll
  for (int i = 0; i < Vec; ++i) {
    const int64_t c = c0 + (i < nc ? i : 0);
#pragma unroll
    for (int j = 0; j < K; ++j) w[i][j] = load(p.w.dtype, p.w.base + c * p.w.s0 + j * p.w.s1);
    b[i] = p.bias.base ? load(p.bias.dtype, p.bias.base + c * p.bias.s0) : 0.0f;
  }

  // The left context of `first`: x, the old state, or zeros.
  float win[Vec][K];
#pragma unroll
  for (int j = 0; j < W; ++j) {
    const int64_t i = first - W + j;
    float v[Vec];
    if (i >= 0) {
      load_x(i, v);
    } else {
#pragma unroll
      for (int k = 0; k < Vec; ++k) v[k] = (initial && k < nc) ? load(p.state.dtype, state_at(k, static_cast<int>(W + i))) : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < Vec; ++k) win[k][j] = v[k];
  }

#pragma unroll 4
  for (int64_t t = first; t < last; ++t) {
    float xv[Vec], o[Vec];
    load_x(t, xv);
#pragma unroll
    for (int k = 0; k < Vec; ++k) {
      win[k][W] = xv[k];
      float acc = b[k];
#pragma unroll
      for (int j = 0; j < K; ++j) acc = fmaf(w[k][j], win[k][j], acc);
      o[k] = p.silu ? vt::math::silu_fast(acc) : acc;  // equal to silu bit for bit
#pragma unroll
      for (int j = 0; j < W; ++j) win[k][j] = win[k][j + 1];
    }
    char* orow = p.out.base + (begin + t) * p.out.s0;
    if (Vec > 1 && p.vector_store) {
      store_vec<X, Vec>(orow + c0 * kXBytes, o);
    } else {
      const int ob = dtype_bytes(p.out.dtype);
#pragma unroll
      for (int k = 0; k < Vec; ++k)
        if (k < nc) store(p.out.dtype, orow + (c0 + k) * ob, o[k]);
    }
  }

  if (slot >= 0 && first == 0) {
    // The rolled state: the last W of [old context | the sequence's tokens]. Column j takes
    // old column L + j when the sequence is shorter than W; columns are written in
    // increasing order, so that one is still unwritten when it is read.
#pragma unroll
    for (int j = 0; j < W; ++j) {
      const int64_t i = L - W + j;
      float v[Vec];
      if (i >= 0) {
        load_x(i, v);
      } else {
#pragma unroll
        for (int k = 0; k < Vec; ++k) v[k] = (initial && k < nc) ? load(p.state.dtype, state_at(k, static_cast<int>(W + i))) : 0.0f;
      }
#pragma unroll
      for (int k = 0; k < Vec; ++k)
        if (k < nc) store(p.state.dtype, state_at(k, j), v[k]);
    }
  }
}

template <int K, Elem X, int Vec>
__global__ void __launch_bounds__(vt::ops::geometry::kBlockThreads) conv_fwd_kernel(const ConvFwdParams p) {
  // Programs along tokens on x (up to 2^31-1 of them), channel blocks on y.
  const int64_t c0 = (static_cast<int64_t>(blockIdx.y) * blockDim.x + threadIdx.x) * Vec;
  if (c0 >= p.C) return;
  const int64_t k = blockIdx.x;
  int64_t n, first;
  if (p.plan) {
    n = p.plan[2 * k];
    first = p.plan[2 * k + 1];
    if (n < 0 || n >= p.N) return;
  } else {
    const int32_t* qsl = p.qsl;
    vt::ops::geometry::sequence_chunk_of(k, [qsl](int64_t i) { return int64_t{qsl[i]}; }, p.N, p.T, p.chunk, &n, &first);
  }
  run_segment<K, X, Vec>(p, n, first, first + p.chunk, c0);
}

template <int K, Elem X>
void launch_typed(const ConvFwdParams& p, const vt::ops::geometry::ConvFwdGeometry& g, cudaStream_t s) {
  constexpr int kVec = vt::ops::geometry::kMaxVectorBytes / sizeof(typename ElemTraits<X>::raw);
  const dim3 grid(static_cast<unsigned>(g.grid_y), static_cast<unsigned>(g.grid_x));
  const dim3 block(static_cast<unsigned>(g.block));
  if (g.vec == kVec) conv_fwd_kernel<K, X, kVec><<<grid, block, 0, s>>>(p);
  else conv_fwd_kernel<K, X, 1><<<grid, block, 0, s>>>(p);
}

template <int K>
void launch_width(const ConvFwdParams& p, const vt::ops::geometry::ConvFwdGeometry& g, int x_dtype, cudaStream_t s) {
  if (x_dtype == VT_DTYPE_F32) launch_typed<K, Elem::f32>(p, g, s);
  else if (x_dtype == VT_DTYPE_F16) launch_typed<K, Elem::f16>(p, g, s);
  else launch_typed<K, Elem::bf16>(p, g, s);
}

}  // namespace

vt_status launch_conv_fwd(const vt_causal_conv1d_fwd_args& a, const vt::ops::geometry::ConvSwitches& sw,
                          cudaStream_t stream, vt::ops::geometry::ConvFwdGeometry* used) {
  namespace geo = vt::ops::geometry;
  const int xb = dtype_bytes(a.x.dtype);
  const View x = view_of(a.x), out = view_of(a.out);
  geo::ConvFwdShape shape;
  shape.tokens = a.num_tokens;
  shape.channels = a.channels;
  shape.seqs = a.num_seqs;
  shape.width = static_cast<int32_t>(a.width);
  shape.x_elem_bytes = xb;
  shape.x_vector_aligned = reinterpret_cast<uintptr_t>(x.base) % 16 == 0 && x.s0 % 16 == 0;
  shape.out_vector_aligned = reinterpret_cast<uintptr_t>(out.base) % 16 == 0 && out.s0 % 16 == 0;
  shape.out_same_dtype = a.out.dtype == a.x.dtype;
  if (a.plan) {
    shape.has_plan = true;
    shape.plan_items = a.plan->n_items;
    shape.plan_chunk = a.plan->chunk_size;
  }
  const geo::ConvFwdGeometry g = geo::conv_fwd_geometry(shape, sw);
  if (used) *used = g;
  if (g.grid_x == 0 || g.grid_y == 0) return VT_OK;
  if (g.grid_y > 0x7fffffff || g.grid_x > 0xffff) return launch_error("causal_conv1d_fwd: grid too large");

  ConvFwdParams p{};
  p.x = x;
  p.w = view_of(a.weight);
  p.bias = view_of(a.bias);
  p.out = out;
  p.state = view_of(a.conv_state);
  p.his = view_of(a.has_initial_state);
  p.slots = reinterpret_cast<const int32_t*>(view_of(a.state_indices).base);
  p.qsl = reinterpret_cast<const int32_t*>(view_of(a.query_start_loc).base);
  p.plan = g.mapping == geo::ConvMapping::plan_items ? reinterpret_cast<const int32_t*>(view_of(a.plan->items).base) : nullptr;
  p.T = a.num_tokens;
  p.C = a.channels;
  p.N = a.num_seqs;
  p.S = a.num_slots;
  p.chunk = g.chunk;
  p.silu = a.activation == VT_ACTIVATION_SILU;
  p.vector_store = g.vector_store;
  switch (a.width) {
    case 2: launch_width<2>(p, g, a.x.dtype, stream); break;
    case 3: launch_width<3>(p, g, a.x.dtype, stream); break;
    case 4: launch_width<4>(p, g, a.x.dtype, stream); break;
    case 5: launch_width<5>(p, g, a.x.dtype, stream); break;
    case 6: launch_width<6>(p, g, a.x.dtype, stream); break;
    case 7: launch_width<7>(p, g, a.x.dtype, stream); break;
    case 8: launch_width<8>(p, g, a.x.dtype, stream); break;
    default: return launch_error("causal_conv1d_fwd: K outside 2..8");
  }
  return launch_status("causal_conv1d_fwd");
}

}  // namespace vt::cuda::kern
