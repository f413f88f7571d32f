// causal_conv1d_update: one thread per (sequence, channel). The state row lives in
// registers; tokens are processed in order, each output from x at its own precision, and
// the rolled state is stored once, rounded to the state's dtype. Two variants
// (launch_geometry.hpp): a kernel per width, and one generic kernel for any K.
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

template <int K>
__global__ void __launch_bounds__(vt::ops::geometry::kBlockThreads) conv_update_kernel(const ConvUpdateParams p) {
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

// Generic: K known only at run time. The window is a register array of the largest width,
// addressed with compile-time indices under run-time guards so that it never goes to memory.
constexpr int kMaxWidth = 8;

__global__ void __launch_bounds__(vt::ops::geometry::kBlockThreads) conv_update_generic_kernel(const ConvUpdateParams p,
                                                                                               int K) {
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

}  // namespace

vt_status launch_conv_update(const vt_causal_conv1d_update_args& a, const vt::ops::geometry::ConvSwitches& sw,
                             cudaStream_t stream) {
  const auto g = vt::ops::geometry::conv_update_geometry(a.batch, a.channels, sw);
  if (g.grid_x == 0 || g.grid_y == 0) return VT_OK;
  if (g.grid_y > 0xffff) return launch_error("causal_conv1d_update: more than 65535 sequences in one call");
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
  const dim3 grid(static_cast<unsigned>(g.grid_x), static_cast<unsigned>(g.grid_y)), block(static_cast<unsigned>(g.block));
  if (a.width < 2 || a.width > kMaxWidth) return launch_error("causal_conv1d_update: K outside 2..8");
  if (g.variant == vt::ops::geometry::ConvUpdateVariant::generic) {
    conv_update_generic_kernel<<<grid, block, 0, stream>>>(p, static_cast<int>(a.width));
    return launch_status("causal_conv1d_update");
  }
  switch (a.width) {
    case 2: conv_update_kernel<2><<<grid, block, 0, stream>>>(p); break;
    case 3: conv_update_kernel<3><<<grid, block, 0, stream>>>(p); break;
    case 4: conv_update_kernel<4><<<grid, block, 0, stream>>>(p); break;
    case 5: conv_update_kernel<5><<<grid, block, 0, stream>>>(p); break;
    case 6: conv_update_kernel<6><<<grid, block, 0, stream>>>(p); break;
    case 7: conv_update_kernel<7><<<grid, block, 0, stream>>>(p); break;
    case 8: conv_update_kernel<8><<<grid, block, 0, stream>>>(p); break;
    default: return launch_error("causal_conv1d_update: K outside 2..8");
  }
  return launch_status("causal_conv1d_update");
}

}  // namespace vt::cuda::kern
