// causal_conv1d_fwd. A program is one (sequence, run of tokens) by a block of channel groups
// (vt/ops/launch_geometry.hpp decides which); a thread owns `Vec` adjacent channels and slides their window of K inputs
// through the run in registers. Per output: acc = bias, acc = fma(w[j], input[t-(K-1)+j], acc) oldest first, then SiLU,
// exactly the reference. Only the program holding a sequence's first token reads the old state, and it writes the
// rolled state too, so the write-back is race-free.
#include "common.hpp"
#include "launch.hpp"

namespace vt::rocm::kern {
namespace {

namespace geo = vt::ops::geometry;

struct ConvFwdParams {
  View x, w, bias, out, state, his;
  const int32_t* slots;  // null: stateless
  const int32_t* qsl;
  const int32_t* plan;  // pairs (sequence, first token); null: the sequence_chunks mapping
  int64_t T, C, N, S, chunk;
  int silu;
  int vector_store;  // out written `Vec` elements at a time
};

// `Vec` elements of one type in one aligned load or store.
template <Elem E, int Vec>
struct alignas(sizeof(typename ElemTraits<E>::raw) * Vec) Packet {
  typename ElemTraits<E>::raw v[Vec];
};

template <Elem E, int Vec>
__device__ __forceinline__ void load_row(const char* p, float* out) {
  if constexpr (Vec == 1) {
    out[0] = ElemTraits<E>::widen(*reinterpret_cast<const typename ElemTraits<E>::raw*>(p));
  } else {
    const Packet<E, Vec> pk = *reinterpret_cast<const Packet<E, Vec>*>(p);
#pragma unroll
    for (int i = 0; i < Vec; ++i) out[i] = ElemTraits<E>::widen(pk.v[i]);
  }
}

template <Elem E, int Vec>
__device__ __forceinline__ void store_row(char* p, const float* acc, bool silu) {
  Packet<E, Vec> pk;
#pragma unroll
  for (int i = 0; i < Vec; ++i) pk.v[i] = activated<E>(acc[i], silu);
  *reinterpret_cast<Packet<E, Vec>*>(p) = pk;
}

// One thread's work: local tokens [first, last) of sequence n, channels c0 .. c0+Vec-1.
template <int K, Elem X, int Vec>
__device__ void conv_run(const ConvFwdParams& p, int64_t n, int64_t first, int64_t last, int64_t c0) {
  constexpr int W = K - 1;
  constexpr int kXBytes = sizeof(typename ElemTraits<X>::raw);
  // Token ranges are clamped to [0, T): inconsistent metadata never sends a write outside.
  const int64_t begin = geo::clamp_token(p.qsl[n], p.T);
  const int64_t end = geo::clamp_token(p.qsl[n + 1], p.T);
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
  const int owned = static_cast<int>(p.C - c0 < Vec ? p.C - c0 : Vec);

  auto x_at = [&](int64_t token, float* v) { load_row<X, Vec>(p.x.base + (begin + token) * p.x.s0 + c0 * kXBytes, v); };
  auto state_at = [&](int k, int64_t col) {
    return p.state.base + slot * p.state.s0 + (c0 + k) * p.state.s1 + col * p.state.s2;
  };
  // Input i of the sequence (local index, i >= -W): x, or the old state, or zero.
  auto input_at = [&](int64_t i, float* v) {
    if (i >= 0) {
      x_at(i, v);
      return;
    }
#pragma unroll
    for (int k = 0; k < Vec; ++k) v[k] = (initial && k < owned) ? load(p.state.dtype, state_at(k, W + i)) : 0.0f;
  };

  float w[Vec][K], bias[Vec];
#pragma unroll
  for (int k = 0; k < Vec; ++k) {
    const int64_t c = c0 + (k < owned ? k : 0);  // lanes past C repeat a real channel, never stored
#pragma unroll
    for (int j = 0; j < K; ++j) w[k][j] = load(p.w.dtype, p.w.base + c * p.w.s0 + j * p.w.s1);
    bias[k] = p.bias.base ? load(p.bias.dtype, p.bias.base + c * p.bias.s0) : 0.0f;
  }

  float win[Vec][K];  // win[k][0..W-1]: the W inputs before the current token
#pragma unroll
  for (int j = 0; j < W; ++j) {
    float v[Vec];
    input_at(first - W + j, v);
#pragma unroll
    for (int k = 0; k < Vec; ++k) win[k][j] = v[k];
  }

  const int out_bytes = dtype_bytes(p.out.dtype);
  for (int64_t t = first; t < last; ++t) {
    float xv[Vec], acc[Vec];
    x_at(t, xv);
#pragma unroll
    for (int k = 0; k < Vec; ++k) {
      win[k][W] = xv[k];
      acc[k] = bias[k];
#pragma unroll
      for (int j = 0; j < K; ++j) acc[k] = fmaf(w[k][j], win[k][j], acc[k]);
#pragma unroll
      for (int j = 0; j < W; ++j) win[k][j] = win[k][j + 1];
    }
    // SiLU, if asked for, is applied as each value is stored (common.hpp: activated).
    char* orow = p.out.base + (begin + t) * p.out.s0;
    if (Vec > 1 && p.vector_store) {
      store_row<X, Vec>(orow + c0 * kXBytes, acc, p.silu);
    } else {
#pragma unroll
      for (int k = 0; k < Vec; ++k)
        if (k < owned) store_activated(p.out.dtype, orow + (c0 + k) * out_bytes, acc[k], p.silu);
    }
  }

  if (slot >= 0 && first == 0) {
    // The rolled state: the last W inputs of [old context | tokens]. When L < W, column j
    // reads old column L + j > j, which the increasing column order has not written yet.
#pragma unroll
    for (int j = 0; j < W; ++j) {
      float v[Vec];
      input_at(L - W + j, v);
#pragma unroll
      for (int k = 0; k < Vec; ++k)
        if (k < owned) store(p.state.dtype, state_at(k, j), v[k]);
    }
  }
}

template <int K, Elem X, int Vec>
__global__ void __launch_bounds__(geo::kBlockThreads) conv_fwd_kernel(const ConvFwdParams p) {
  // Programs along tokens on x, channel blocks on y.
  const int64_t c0 = (static_cast<int64_t>(blockIdx.y) * blockDim.x + threadIdx.x) * Vec;
  if (c0 >= p.C) return;
  const int64_t item = blockIdx.x;
  int64_t n = 0, first = 0;
  if (p.plan) {
    n = p.plan[2 * item];
    first = p.plan[2 * item + 1];
    if (n < 0 || n >= p.N) return;
  } else {
    const int32_t* qsl = p.qsl;
    geo::sequence_chunk_of(
        item, [qsl](int64_t i) { return int64_t{qsl[i]}; }, p.N, p.T, p.chunk, &n, &first);
  }
  conv_run<K, X, Vec>(p, n, first, first + p.chunk, c0);
}

// The geometry's channels per thread: a full 16-byte vector, a pair of 16-bit values, or one.
template <int K, Elem X>
bool launch_typed(const ConvFwdParams& p, const geo::ConvFwdGeometry& g, hipStream_t stream) {
  constexpr int kVec = geo::kMaxVectorBytes / sizeof(typename ElemTraits<X>::raw);
  const dim3 grid(static_cast<unsigned>(g.grid_y), static_cast<unsigned>(g.grid_x));
  const dim3 block(static_cast<unsigned>(g.block));
  if (g.vec == kVec) {
    hipLaunchKernelGGL((conv_fwd_kernel<K, X, kVec>), grid, block, 0, stream, p);
  } else if (g.vec == 1) {
    hipLaunchKernelGGL((conv_fwd_kernel<K, X, 1>), grid, block, 0, stream, p);
  } else if constexpr (X != Elem::f32) {
    if (g.vec != 2) return false;
    hipLaunchKernelGGL((conv_fwd_kernel<K, X, 2>), grid, block, 0, stream, p);
  } else {
    return false;
  }
  return true;
}

template <int K>
bool launch_width(const ConvFwdParams& p, const geo::ConvFwdGeometry& g, int x_dtype, hipStream_t stream) {
  if (x_dtype == VT_DTYPE_F32) return launch_typed<K, Elem::f32>(p, g, stream);
  if (x_dtype == VT_DTYPE_F16) return launch_typed<K, Elem::f16>(p, g, stream);
  return launch_typed<K, Elem::bf16>(p, g, stream);
}

bool aligned16(const View& v) { return reinterpret_cast<uintptr_t>(v.base) % 16 == 0 && v.s0 % 16 == 0; }

}  // namespace

vt_status launch_conv_fwd(const vt_causal_conv1d_fwd_args& a, const geo::ConvSwitches& sw, hipStream_t stream) {
  const View x = view_of(a.x), out = view_of(a.out);
  geo::ConvFwdShape shape;
  shape.tokens = a.num_tokens;
  shape.channels = a.channels;
  shape.seqs = a.num_seqs;
  shape.width = static_cast<int32_t>(a.width);
  shape.x_elem_bytes = dtype_bytes(a.x.dtype);
  shape.x_vector_aligned = aligned16(x);
  shape.out_vector_aligned = aligned16(out);
  shape.out_same_dtype = a.out.dtype == a.x.dtype;
  if (a.plan) {
    shape.has_plan = true;
    shape.plan_items = a.plan->n_items;
    shape.plan_chunk = a.plan->chunk_size;
  }
  const geo::ConvFwdGeometry g = geo::conv_fwd_geometry(shape, sw);
  if (g.grid_x == 0 || g.grid_y == 0) return VT_OK;
  if (!grid_fits(g.grid_y, g.grid_x, g.block)) return launch_error("causal_conv1d_fwd: grid too large");

  ConvFwdParams p{};
  p.x = x;
  p.w = view_of(a.weight);
  p.bias = view_of(a.bias);
  p.out = out;
  p.state = view_of(a.conv_state);
  p.his = view_of(a.has_initial_state);
  p.slots = reinterpret_cast<const int32_t*>(view_of(a.state_indices).base);
  p.qsl = reinterpret_cast<const int32_t*>(view_of(a.query_start_loc).base);
  p.plan = g.mapping == geo::ConvMapping::plan_items ? reinterpret_cast<const int32_t*>(view_of(a.plan->items).base)
                                                     : nullptr;
  p.T = a.num_tokens;
  p.C = a.channels;
  p.N = a.num_seqs;
  p.S = a.num_slots;
  p.chunk = g.chunk;
  p.silu = a.activation == VT_ACTIVATION_SILU;
  p.vector_store = g.vector_store;
  bool launched = false;
  switch (a.width) {
    case 2: launched = launch_width<2>(p, g, a.x.dtype, stream); break;
    case 3: launched = launch_width<3>(p, g, a.x.dtype, stream); break;
    case 4: launched = launch_width<4>(p, g, a.x.dtype, stream); break;
    case 5: launched = launch_width<5>(p, g, a.x.dtype, stream); break;
    case 6: launched = launch_width<6>(p, g, a.x.dtype, stream); break;
    case 7: launched = launch_width<7>(p, g, a.x.dtype, stream); break;
    case 8: launched = launch_width<8>(p, g, a.x.dtype, stream); break;
    default: return launch_error("causal_conv1d_fwd: K outside 2..8");
  }
  if (!launched) return launch_error("causal_conv1d_fwd: no kernel for the geometry's channels per thread");
  return launch_status("causal_conv1d_fwd");
}

}  // namespace vt::rocm::kern
