// causal_conv1d_update: one thread per (sequence, channel). The state row is read once into
// registers, the tokens run in order (each output from x at x's precision), and the rolled
// state is stored once, rounded to the state's dtype.
#include "common.hpp"
#include "launch.hpp"

namespace vt::rocm::kern {
namespace {

namespace geo = vt::ops::geometry;

struct ConvUpdateParams {
  View x, w, bias, out, state;
  const int32_t* slots;  // null: sequence b uses slot b
  int64_t L, C, S;
  int64_t x_seq, x_tok, out_seq, out_tok;  // byte strides
  int silu;
};

template <int K>
__global__ void __launch_bounds__(geo::kBlockThreads) conv_update_kernel(const ConvUpdateParams p) {
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
  char* state = p.state.base + slot * p.state.s0 + c * p.state.s1;
  float win[K];
#pragma unroll
  for (int j = 0; j < W; ++j) win[j] = load(p.state.dtype, state + j * p.state.s2);
  const char* x = p.x.base + b * p.x_seq + c * dtype_bytes(p.x.dtype);
  char* out = p.out.base + b * p.out_seq + c * dtype_bytes(p.out.dtype);
  for (int64_t t = 0; t < p.L; ++t) {
    // In place, out[t] is x[t]: this thread alone reads it, here, before writing it below.
    win[W] = load(p.x.dtype, x + t * p.x_tok);
    float acc = bias;
#pragma unroll
    for (int j = 0; j < K; ++j) acc = fmaf(w[j], win[j], acc);
    store_activated(p.out.dtype, out + t * p.out_tok, acc, p.silu);
#pragma unroll
    for (int j = 0; j < W; ++j) win[j] = win[j + 1];
  }
#pragma unroll
  for (int j = 0; j < W; ++j) store(p.state.dtype, state + j * p.state.s2, win[j]);
}

}  // namespace

vt_status launch_conv_update(const vt_causal_conv1d_update_args& a, hipStream_t stream) {
  // One channel a thread: this backend has no four-channel kernel (channels_in_words off).
  const geo::ConvUpdateGeometry g = geo::conv_update_geometry(geo::ConvUpdateShape{a.batch, a.channels, false});
  if (g.grid_x == 0 || g.grid_y == 0) return VT_OK;
  if (!grid_fits(g.grid_x, g.grid_y, g.block))
    return launch_error("causal_conv1d_update: more than 65535 sequences in one call");
  ConvUpdateParams p{};
  p.x = view_of(a.x);
  p.w = view_of(a.weight);
  p.bias = view_of(a.bias);
  p.out = view_of(a.out);
  p.state = view_of(a.conv_state);
  p.slots = reinterpret_cast<const int32_t*>(view_of(a.state_indices).base);
  p.L = a.tokens_per_seq;
  p.C = a.channels;
  p.S = a.num_slots;
  p.x_seq = a.x_seq_stride * dtype_bytes(a.x.dtype);
  p.x_tok = a.x_tok_stride * dtype_bytes(a.x.dtype);
  p.out_seq = a.out_seq_stride * dtype_bytes(a.out.dtype);
  p.out_tok = a.out_tok_stride * dtype_bytes(a.out.dtype);
  p.silu = a.activation == VT_ACTIVATION_SILU;
  const dim3 grid(static_cast<unsigned>(g.grid_x), static_cast<unsigned>(g.grid_y));
  const dim3 block(static_cast<unsigned>(g.block));
  switch (a.width) {
    case 2: hipLaunchKernelGGL(conv_update_kernel<2>, grid, block, 0, stream, p); break;
    case 3: hipLaunchKernelGGL(conv_update_kernel<3>, grid, block, 0, stream, p); break;
    case 4: hipLaunchKernelGGL(conv_update_kernel<4>, grid, block, 0, stream, p); break;
    case 5: hipLaunchKernelGGL(conv_update_kernel<5>, grid, block, 0, stream, p); break;
    case 6: hipLaunchKernelGGL(conv_update_kernel<6>, grid, block, 0, stream, p); break;
    case 7: hipLaunchKernelGGL(conv_update_kernel<7>, grid, block, 0, stream, p); break;
    case 8: hipLaunchKernelGGL(conv_update_kernel<8>, grid, block, 0, stream, p); break;
    default: return launch_error("causal_conv1d_update: K outside 2..8");
  }
  return launch_status("causal_conv1d_update");
}

}  // namespace vt::rocm::kern
