// causal_conv1d_fwd: one program per (sequence, run of tokens) and channel, as the CUDA
// backend maps it (ops/include/vt/ops/launch_geometry.hpp). The program holding a sequence's
// first token is the only one that reads its old state, so it also writes the rolled state.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"
#include "math.glsl"
#include "conv_common.glsl"

layout(set = 0, binding = VT_PARAMS_BINDING, std430) readonly buffer ParamBlock { ConvFwdParams P; };
VT_TENSOR(X, 1)
VT_TENSOR(Weight, 2)
VT_TENSOR(Bias, 3)
VT_TENSOR(Out, 4)
VT_TENSOR(State, 5)
VT_TENSOR(Slots, 6)
VT_TENSOR(Initial, 7)
VT_TENSOR(Qsl, 8)
VT_TENSOR(Plan, 9)

int clamp_token(int v) { return clamp(v, 0, P.tokens); }
int qsl_at(int i) { return clamp_token(int(Qsl_w[P.qsl.off + uint(i) * P.qsl.s0])); }

// launch_geometry.hpp's sequence_chunk_of: program k serves the largest n with
// B_n = qsl[n] / chunk + n <= k, from local token (k - B_n) * chunk.
void sequence_chunk_of(int k, out int seq, out int first) {
  int lo = 0, hi = P.seqs - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (qsl_at(mid) / P.chunk + mid <= k) lo = mid;
    else hi = mid - 1;
  }
  seq = lo;
  first = (k - (qsl_at(lo) / P.chunk + lo)) * P.chunk;
}

float x_at(int token, uint c) { return VT_LOAD(X, P.x.off + uint(token) * P.x.s0 + c, P.x.dtype); }

// Tokens [first, last) of sequence n (local indices), channel c.
void run_segment(int n, int first, int last, uint c) {
  const int W = K - 1;
  int begin = qsl_at(n);
  int end = qsl_at(n + 1);
  int L = end > begin ? end - begin : 0;
  if (last > L) last = L;
  if (first < 0 || first >= last) return;
  int slot = -1;
  bool initial = false;
  if ((P.flags & VT_CONV_STATEFUL) != 0u) {
    slot = int(Slots_w[P.slots.off + uint(n) * P.slots.s0]);
    if (slot < 0 || slot >= P.slots_count) return;  // padding, or outside the cache: untouched
    initial = (P.flags & VT_CONV_INITIAL) != 0u &&
              VT_LOAD_INT(Initial, P.initial.off + uint(n) * P.initial.s0, P.initial.dtype) != 0;
  }
  float w[VT_CONV_MAX_WIDTH];
  for (int j = 0; j < K; ++j) w[j] = VT_LOAD(Weight, P.weight.off + c * P.weight.s0 + uint(j) * P.weight.s1, P.weight.dtype);
  float b = (P.flags & VT_CONV_BIAS) != 0u ? VT_LOAD(Bias, P.bias.off + c * P.bias.s0, P.bias.dtype) : 0.0;
  uint srow = P.state.off + uint(max(slot, 0)) * P.state.s0 + c * P.state.s1;

  // The left context of `first`: x, the old state, or zeros; kept for the roll.
  float win[VT_CONV_MAX_WIDTH];
  float old[VT_CONV_MAX_WIDTH];
  for (int j = 0; j < W; ++j) {
    int i = first - W + j;
    if (i >= 0) {
      win[j] = x_at(begin + i, c);
    } else {
      win[j] = initial ? VT_LOAD(State, srow + uint(W + i) * P.state.s2, P.state.dtype) : 0.0;
    }
    old[j] = win[j];
  }
  bool silu = (P.flags & VT_CONV_SILU) != 0u;
  for (int t = first; t < last; ++t) {
    win[W] = x_at(begin + t, c);
    float o = conv_step(w, win, b, silu);
    VT_STORE(Out, P.dst.off + uint(begin + t) * P.dst.s0 + c, P.dst.dtype, o);
    for (int j = 0; j < W; ++j) win[j] = win[j + 1];
  }
  if (slot >= 0 && first == 0) {
    // The rolled state: the last W of [old context | the sequence's tokens].
    for (int j = 0; j < W; ++j) {
      int i = L - W + j;
      float v = i >= 0 ? x_at(begin + i, c) : old[W + i];
      VT_STORE(State, srow + uint(j) * P.state.s2, P.state.dtype, v);
    }
  }
}

void main() {
  uint c = gl_WorkGroupID.x * VT_CONV_GROUP + gl_LocalInvocationID.x;
  uint k = pc.base_y + gl_WorkGroupID.y;
  if (c >= uint(P.channels) || k >= P.programs) return;
  int n, first;
  if ((P.flags & VT_CONV_PLAN) != 0u) {
    uint item = P.plan.off + k * P.plan.s0;
    n = int(Plan_w[item]);
    first = int(Plan_w[item + P.plan.s1]);
    if (n < 0 || n >= P.seqs) return;
  } else {
    sequence_chunk_of(int(k), n, first);
  }
  run_segment(n, first, first + P.chunk, c);
}
