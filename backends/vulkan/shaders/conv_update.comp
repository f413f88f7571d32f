// causal_conv1d_update: one invocation per (sequence, channel). The state row stays in
// registers; tokens run in order, each output computed from x at its own precision (an
// in-place call reads x[t] before out[t], the same element, is written), and the rolled
// state is stored once, rounded to the state's dtype.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"
#include "math.glsl"
#include "conv_common.glsl"

layout(set = 0, binding = VT_PARAMS_BINDING, std430) readonly buffer ParamBlock { ConvUpdateParams P; };
VT_TENSOR(X, 1)
VT_TENSOR(Weight, 2)
VT_TENSOR(Bias, 3)
VT_TENSOR(Out, 4)
VT_TENSOR(State, 5)
VT_TENSOR(Slots, 6)

void main() {
  const int W = K - 1;
  uint c = gl_WorkGroupID.x * VT_CONV_GROUP + gl_LocalInvocationID.x;
  uint b = pc.base_y + gl_WorkGroupID.y;
  if (c >= uint(P.channels) || b >= uint(P.batch)) return;
  int slot = (P.flags & VT_CONV_SLOTS) != 0u ? int(Slots_w[P.slots.off + b * P.slots.s0]) : int(b);
  if (slot < 0 || slot >= P.slots_count) return;  // padding or outside the cache: nothing written
  float w[VT_CONV_MAX_WIDTH];
  for (int j = 0; j < K; ++j) w[j] = VT_LOAD(Weight, P.weight.off + c * P.weight.s0 + uint(j) * P.weight.s1, P.weight.dtype);
  float bias = (P.flags & VT_CONV_BIAS) != 0u ? VT_LOAD(Bias, P.bias.off + c * P.bias.s0, P.bias.dtype) : 0.0;
  uint srow = P.state.off + uint(slot) * P.state.s0 + c * P.state.s1;
  float win[VT_CONV_MAX_WIDTH];
  for (int j = 0; j < W; ++j) win[j] = VT_LOAD(State, srow + uint(j) * P.state.s2, P.state.dtype);
  bool silu = (P.flags & VT_CONV_SILU) != 0u;
  for (int t = 0; t < P.tokens; ++t) {
    win[W] = VT_LOAD(X, P.x.off + b * P.x_seq + uint(t) * P.x_tok + c, P.x.dtype);
    float o = conv_step(w, win, bias, silu);
    VT_STORE(Out, P.dst.off + b * P.out_seq + uint(t) * P.out_tok + c, P.dst.dtype, o);
    for (int j = 0; j < W; ++j) win[j] = win[j + 1];
  }
  for (int j = 0; j < W; ++j) VT_STORE(State, srow + uint(j) * P.state.s2, P.state.dtype, win[j]);
}
