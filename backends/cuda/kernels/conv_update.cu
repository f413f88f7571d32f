// causal_conv1d_update: one thread per (sequence, channel). The state row lives in
// registers; tokens are processed in order, each output from x at its own precision, and
// the rolled state is stored once, rounded to the state's dtype. Two variants
// (launch_geometry.hpp): a kernel per width, and one generic kernel for any K.
#include <atomic>

#include "common.cuh"
#include "launch.hpp"

namespace vt::cuda::kern {
namespace {

struct ConvUpdateParams {
  View x, w, bias, out, state;
  const int32_t* slots;  // null: sequence b uses slot b
  int64_t B, L, C, S;
  int64_t x_seq, x_tok, out_seq, out_tok;  // byte strides
  int silu;
};

// The words kernel's state moves through shared memory where a warp's rows allow (below).
inline constexpr bool kUpdateStageState = true;

// Element e (a compile-time constant once unrolled) of a 16-byte word of four floats.
__device__ __forceinline__ float word_float(const uint4& w, int e) {
  return __uint_as_float(e == 0 ? w.x : e == 1 ? w.y : e == 2 ? w.z : w.w);
}
__device__ __forceinline__ void set_word_float(uint4& w, int e, float v) {
  const uint32_t u = __float_as_uint(v);
  if (e == 0) w.x = u;
  else if (e == 1) w.y = u;
  else if (e == 2) w.z = u;
  else w.w = u;
}

template <int K>
__global__ void __launch_bounds__(vt::ops::geometry::kBlockThreads) conv_update_kernel(const ConvUpdateParams p) {
  after_prior_grids();
  constexpr int W = K - 1;
  const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t b = blockIdx.y;
  if (c >= p.C) return;
  const int64_t slot = p.slots ? p.slots[b] : b;
  if (slot < 0 || slot >= p.S) return;  // padding or outside the cache: nothing written
  float w[K];
#pragma unroll
  for (int j = 0; j < K; ++j) w[j] = load(p.w.dtype, p.w.base + c * p.w.s0 + j * p.w.s1);
  const float bias = p.bias.base ? load(p.bias.dtype, p.bias.base + c * p.bias.s0) : 0.0f;
  char* st = p.state.base + slot * p.state.s0 + c * p.state.s1;
  float win[K];
#pragma unroll
  for (int j = 0; j < W; ++j) win[j] = load(p.state.dtype, st + j * p.state.s2);
  const int xb = dtype_bytes(p.x.dtype), ob = dtype_bytes(p.out.dtype);
  for (int64_t t = 0; t < p.L; ++t) {
    // In place, out[t] is x[t]: it is read here before being written below.
    win[W] = load(p.x.dtype, p.x.base + b * p.x_seq + t * p.x_tok + c * xb);
    float acc = bias;
#pragma unroll
    for (int j = 0; j < K; ++j) acc = fmaf(w[j], win[j], acc);
    store_activated(p.out.dtype, p.out.base + b * p.out_seq + t * p.out_tok + c * ob, acc, p.silu);
#pragma unroll
    for (int j = 0; j < W; ++j) win[j] = win[j + 1];
  }
#pragma unroll
  for (int j = 0; j < W; ++j) store(p.state.dtype, st + j * p.state.s2, win[j]);
}

// Per width, kUpdateVec = 4 channels a thread (launch_geometry.hpp says when): the four
// channels' f32 state rows, 4 W contiguous floats, move as W 16-byte words, x and out as one
// packet a token, the weights as K packets and the bias as one, and the element types are
// known at compile time. WF32: the weights and bias are f32, else of x's type.
// Where a warp's 32 state rows are one run of memory, it moves them with whole-warp 16-byte
// accesses (lane l takes word u * 32 + l) and hands them round through shared memory: loaded
// by their owners, each of a warp's W loads touched 32 sectors for 16 bytes of each. On the
// H200 (tenth session) this kernel was 1.12 times as fast as the one before it at B = 256
// and 1.26 at B = 64; taking two or four sequences a thread was slower than one.
// A block is kUpdateWordsSequences sequences over the same channels (launch_geometry.hpp).
// StateHint: the state's loads carry an L2 prefetch-size hint (ConvUpdateGeometry).
template <int K, Elem X, bool WF32, bool StateHint>
__global__ void __launch_bounds__(vt::ops::geometry::kUpdateWordsBlockThreads)
    conv_update_words_kernel(const ConvUpdateParams p) {
  after_prior_grids();
  constexpr int W = K - 1, V = vt::ops::geometry::kUpdateVec;
  using Pk = Packet<X, V>;
  constexpr Elem WE = WF32 ? Elem::f32 : X;
  const int64_t c0 = vt::ops::geometry::update_words_group(blockIdx.x, threadIdx.x) * V;
  const int64_t b = vt::ops::geometry::update_words_sequence(blockIdx.y, threadIdx.x);
  if (c0 >= p.C || b >= p.B) return;  // such a lane's warp is never staged (below)
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int64_t warp_c0 = c0 - lane * V;
  const bool staged = kUpdateStageState && warp_c0 + 32 * V <= p.C;  // the same for the whole warp

  // What needs no slot: the four channels' weights, 4 K elements in a row, as K packets of
  // four, the bias as one, and the first token. Plain loads for x, not the read-only path:
  // out may be x (each token is read before it is written). Written before the slot's test;
  // in SASS (sm_80, sm_90, every width and type, forty-fifth session's cuobjdump) ptxas
  // issues the bias and the first token with the slot's load, ahead of that test, and the
  // weights after it, with the state's. Before the block held two sequences it issued all of
  // them after the test, the first token's round trip after the slot's (docs/benchmarks.md).
  // A padding sequence reads its bias and first token, in bounds, and writes nothing.
  using Wk = Packet<WE, V>;
  Wk wpk[K], bpk;
  const char* wrow = p.w.base + c0 * (K * int64_t{sizeof(typename Wk::raw)});
#pragma unroll
  for (int q = 0; q < K; ++q) wpk[q] = load_packet<WE, V>(wrow + q * Wk::kBytes);
  if (p.bias.base) bpk = load_packet<WE, V>(p.bias.base + c0 * int64_t{sizeof(typename Wk::raw)});
  const int64_t eb = sizeof(typename Pk::raw);
  auto token = [&](int64_t t) { return *reinterpret_cast<const Pk*>(p.x.base + b * p.x_seq + t * p.x_tok + c0 * eb); };
  Pk first{};
  if (p.L > 0) first = token(0);

  const int64_t slot = p.slots ? p.slots[b] : b;
  if (slot < 0 || slot >= p.S) return;  // padding or outside the cache: nothing written (the whole block)
  // The thread's own words, or (staged) the warp's words lane, 32 + lane, ... (plain loads:
  // this kernel writes the state).
  uint4* st = reinterpret_cast<uint4*>(p.state.base + slot * p.state.s0 + (staged ? warp_c0 : c0) * (W * 4));
  uint4 raw[W];
#pragma unroll
  for (int u = 0; u < W; ++u) {
    const uint4* const word = st + (staged ? u * 32 + lane : u);
    if constexpr (StateHint) raw[u] = load_u128_l2_256(word);
    else raw[u] = *word;
  }
  __shared__ uint4 stage[kUpdateStageState ? vt::ops::geometry::kUpdateWordsBlockThreads * W : 1];
  uint4* const warp_stage = stage + (threadIdx.x - lane) * W;
  if (staged) {
#pragma unroll
    for (int u = 0; u < W; ++u) warp_stage[u * 32 + lane] = raw[u];
    __syncwarp();
#pragma unroll
    for (int u = 0; u < W; ++u) raw[u] = warp_stage[lane * W + u];
    __syncwarp();  // the store below reuses the buffer
  }
  float win[V][K], w[V][K], bias[V];
#pragma unroll
  for (int e = 0; e < V * W; ++e) win[e / W][e % W] = word_float(raw[e / 4], e % 4);
#pragma unroll
  for (int e = 0; e < V * K; ++e) w[e / K][e % K] = wpk[e / V].get(e % V);
#pragma unroll
  for (int i = 0; i < V; ++i) bias[i] = p.bias.base ? bpk.get(i) : 0.0f;

  for (int64_t t = 0; t < p.L; ++t) {
    const Pk in = t == 0 ? first : token(t);
    float acc[V];
    conv_token(win, w, bias, in, acc);
    Pk o;
    if constexpr (X == Elem::f32) {
#pragma unroll
      for (int i = 0; i < V; ++i) o.v[i] = p.silu ? silu_exact(acc[i]) : acc[i];
    } else if (p.silu) {
      // Straight to the exact path: a decode call is one token a thread, and waits for its
      // slowest lane, which the second estimate only lengthens (one-channel kernel at B = 1:
      // 2.65 against 2.56 us, sixteenth session).
      silu_narrow_packet<X, V, SiluRare::exact>(acc, o);
    } else {
#pragma unroll
      for (int i = 0; i < V; ++i) o.set(i, acc[i]);
    }
    *reinterpret_cast<Pk*>(p.out.base + b * p.out_seq + t * p.out_tok + c0 * eb) = o;
  }

#pragma unroll
  for (int e = 0; e < V * W; ++e) set_word_float(raw[e / 4], e % 4, win[e / W][e % W]);
  if (staged) {
#pragma unroll
    for (int u = 0; u < W; ++u) warp_stage[lane * W + u] = raw[u];
    __syncwarp();
#pragma unroll
    for (int u = 0; u < W; ++u) st[u * 32 + lane] = warp_stage[u * 32 + lane];
  } else {
#pragma unroll
    for (int u = 0; u < W; ++u) st[u] = raw[u];
  }
}

// Generic: K known only at run time. The window is a register array of the largest width,
// addressed with compile-time indices under run-time guards so that it never goes to memory.
constexpr int kMaxWidth = 8;

__global__ void __launch_bounds__(vt::ops::geometry::kBlockThreads)
    conv_update_generic_kernel(const ConvUpdateParams p, int K) {
  after_prior_grids();
  const int W = K - 1;
  const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t b = blockIdx.y;
  if (c >= p.C) return;
  const int64_t slot = p.slots ? p.slots[b] : b;
  if (slot < 0 || slot >= p.S) return;
  float w[kMaxWidth], win[kMaxWidth];
  char* st = p.state.base + slot * p.state.s0 + c * p.state.s1;
#pragma unroll
  for (int j = 0; j < kMaxWidth; ++j) {
    w[j] = j < K ? load(p.w.dtype, p.w.base + c * p.w.s0 + j * p.w.s1) : 0.0f;
    win[j] = j < W ? load(p.state.dtype, st + j * p.state.s2) : 0.0f;
  }
  const float bias = p.bias.base ? load(p.bias.dtype, p.bias.base + c * p.bias.s0) : 0.0f;
  const int xb = dtype_bytes(p.x.dtype), ob = dtype_bytes(p.out.dtype);
  for (int64_t t = 0; t < p.L; ++t) {
    const float xv = load(p.x.dtype, p.x.base + b * p.x_seq + t * p.x_tok + c * xb);
#pragma unroll
    for (int j = 0; j < kMaxWidth; ++j)
      if (j == W) win[j] = xv;
    float acc = bias;
#pragma unroll
    for (int j = 0; j < kMaxWidth; ++j)
      if (j < K) acc = fmaf(w[j], win[j], acc);
    store_activated(p.out.dtype, p.out.base + b * p.out_seq + t * p.out_tok + c * ob, acc, p.silu);
#pragma unroll
    for (int j = 0; j + 1 < kMaxWidth; ++j)
      if (j < W) win[j] = win[j + 1];
  }
#pragma unroll
  for (int j = 0; j < kMaxWidth; ++j)
    if (j < W) store(p.state.dtype, st + j * p.state.s2, win[j]);
}

// Whether the four-channel kernel can serve the call (ConvUpdateShape::channels_in_words).
bool channels_in_words(const vt_causal_conv1d_update_args& a) {
  const View x = view_of(a.x), out = view_of(a.out), st = view_of(a.conv_state);
  const int64_t pk = vt::ops::geometry::kUpdateVec * int64_t{dtype_bytes(a.x.dtype)};
  auto on = [](const void* base, int64_t bytes) { return reinterpret_cast<uintptr_t>(base) % bytes == 0; };
  const int64_t xe = dtype_bytes(a.x.dtype), oe = dtype_bytes(a.out.dtype);
  const bool io = a.out.dtype == a.x.dtype && on(x.base, pk) && on(out.base, pk) && (a.x_seq_stride * xe) % pk == 0 &&
                  (a.x_tok_stride * xe) % pk == 0 && (a.out_seq_stride * oe) % pk == 0 &&
                  (a.out_tok_stride * oe) % pk == 0;
  const int64_t W = a.width - 1;
  const bool state = f32_state_rows(st, W) && on(st.base, 16) && st.s0 % 16 == 0;
  // Weights with dense rows and the bias dense (its dtype is the weights'), on packet bounds.
  const int64_t we = dtype_bytes(a.weight.dtype), wpk = vt::ops::geometry::kUpdateVec * we;
  const bool weights = (a.weight.dtype == a.x.dtype || a.weight.dtype == VT_DTYPE_F32) &&
                       a.weight.strides[0] == a.width && on(view_of(a.weight).base, wpk) &&
                       (!a.bias.mem || (a.bias.strides[0] == 1 && on(view_of(a.bias).base, wpk)));
  return io && state && weights;
}

using WordsKernel = void (*)(ConvUpdateParams);

// Devices whose wave sizes are kept; a call on a higher ordinal asks the runtime each time.
inline constexpr int kWaveDevices = 64;

// The four-channel kernel for one width and set of types: its forms without and with the
// state hint, and the blocks of it each device runs at once (ConvUpdateShape::wave_blocks),
// 0 until asked. The counts are atomics of the instance, so that a call reads one without a
// lock and calls on other devices, threads or instances do not wait on each other.
struct WordsInstance {
  WordsKernel plain = nullptr, hinted = nullptr;
  std::atomic<int64_t>* waves = nullptr;
};

template <int K, Elem X, bool WF32>
WordsInstance words_instance_as() {
  static std::atomic<int64_t> waves[kWaveDevices];  // static storage: zero before any call
  return {conv_update_words_kernel<K, X, WF32, false>, conv_update_words_kernel<K, X, WF32, true>, waves};
}

template <int K>
WordsInstance words_instance_of_width(int x_dtype, bool wf32) {
  if (x_dtype == VT_DTYPE_F32) return words_instance_as<K, Elem::f32, true>();
  if (x_dtype == VT_DTYPE_F16)
    return wf32 ? words_instance_as<K, Elem::f16, true>() : words_instance_as<K, Elem::f16, false>();
  return wf32 ? words_instance_as<K, Elem::bf16, true>() : words_instance_as<K, Elem::bf16, false>();
}

// The four-channel kernel for a call's width and types; null kernels for K outside 2..8.
WordsInstance words_instance(int64_t width, int x_dtype, bool wf32) {
  switch (width) {
    case 2: return words_instance_of_width<2>(x_dtype, wf32);
    case 3: return words_instance_of_width<3>(x_dtype, wf32);
    case 4: return words_instance_of_width<4>(x_dtype, wf32);
    case 5: return words_instance_of_width<5>(x_dtype, wf32);
    case 6: return words_instance_of_width<6>(x_dtype, wf32);
    case 7: return words_instance_of_width<7>(x_dtype, wf32);
    case 8: return words_instance_of_width<8>(x_dtype, wf32);
    default: return {};
  }
}

// The blocks of `w` that `device` runs at once: its SMs times the blocks of it an SM holds,
// which its registers and shared memory decide (they vary with the width: ptxas gives sm_90's
// instances 44 to 94 registers a thread). Asked of the runtime once for each instance and
// device, then read from the instance; 0 where the runtime did not answer (no hint then;
// asked again on the next call). Two threads that both find it unknown both ask and store
// the same count.
int64_t wave_blocks(const WordsInstance& w, int device) {
  const bool kept = device >= 0 && device < kWaveDevices;
  if (kept) {
    const int64_t known = w.waves[device].load(std::memory_order_relaxed);
    if (known > 0) return known;
  }
  int per_sm = 0, sms = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, w.plain, vt::ops::geometry::kUpdateWordsBlockThreads, 0) !=
          cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());  // not the launch's error (launch_status reads the last one)
    return 0;
  }
  const int64_t blocks = static_cast<int64_t>(per_sm) * sms;
  if (kept) w.waves[device].store(blocks, std::memory_order_relaxed);
  return blocks;
}

}  // namespace

vt_status launch_conv_update(const vt_causal_conv1d_update_args& a, const vt::ops::geometry::ConvSwitches& sw,
                             int device, const Stream& stream) {
  namespace geo = vt::ops::geometry;
  const bool words = a.batch > 0 && a.channels > 0 && channels_in_words(a);
  const bool wf32 = a.weight.dtype == VT_DTYPE_F32;
  const WordsInstance instance = words ? words_instance(a.width, a.x.dtype, wf32) : WordsInstance{};
  const int64_t wave = instance.plain ? wave_blocks(instance, device) : 0;
  const auto g = geo::conv_update_geometry(geo::ConvUpdateShape{a.batch, a.channels, words, wave}, sw);
  if (g.grid_x == 0 || g.grid_y == 0) return VT_OK;
  if (g.grid_y > 0xffff)
    return launch_error("causal_conv1d_update: too many sequences in one call (more than 65535 blocks of them)");
  ConvUpdateParams p{};
  p.x = view_of(a.x);
  p.w = view_of(a.weight);
  p.bias = view_of(a.bias);
  p.out = view_of(a.out);
  p.state = view_of(a.conv_state);
  p.slots = reinterpret_cast<const int32_t*>(view_of(a.state_indices).base);
  p.B = a.batch;
  p.L = a.tokens_per_seq;
  p.C = a.channels;
  p.S = a.num_slots;
  p.x_seq = a.x_seq_stride * dtype_bytes(a.x.dtype);
  p.x_tok = a.x_tok_stride * dtype_bytes(a.x.dtype);
  p.out_seq = a.out_seq_stride * dtype_bytes(a.out.dtype);
  p.out_tok = a.out_tok_stride * dtype_bytes(a.out.dtype);
  p.silu = a.activation == VT_ACTIVATION_SILU;
  const dim3 grid(static_cast<unsigned>(g.grid_x), static_cast<unsigned>(g.grid_y)),
      block(static_cast<unsigned>(g.block));
  if (a.width < 2 || a.width > kMaxWidth) return launch_error("causal_conv1d_update: K outside 2..8");
  if (g.variant == geo::ConvUpdateVariant::generic) {
    launch_kernel(conv_update_generic_kernel, grid, block, 0, stream, p, static_cast<int>(a.width));
    return launch_status("causal_conv1d_update");
  }
  if (g.vec == geo::kUpdateVec) {
    const WordsKernel kernel = g.state_l2_hint ? instance.hinted : instance.plain;
    if (!kernel) return launch_error("causal_conv1d_update: K outside 2..8");
    launch_kernel(kernel, grid, block, 0, stream, p);
    return launch_status("causal_conv1d_update");
  }
  switch (a.width) {
    case 2: launch_kernel(conv_update_kernel<2>, grid, block, 0, stream, p); break;
    case 3: launch_kernel(conv_update_kernel<3>, grid, block, 0, stream, p); break;
    case 4: launch_kernel(conv_update_kernel<4>, grid, block, 0, stream, p); break;
    case 5: launch_kernel(conv_update_kernel<5>, grid, block, 0, stream, p); break;
    case 6: launch_kernel(conv_update_kernel<6>, grid, block, 0, stream, p); break;
    case 7: launch_kernel(conv_update_kernel<7>, grid, block, 0, stream, p); break;
    case 8: launch_kernel(conv_update_kernel<8>, grid, block, 0, stream, p); break;
    default: return launch_error("causal_conv1d_update: K outside 2..8");
  }
  return launch_status("causal_conv1d_update");
}

}  // namespace vt::cuda::kern
