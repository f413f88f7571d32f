// What both conv shaders share: the width K as a specialisation constant (one pipeline per
// K actually used, so the window loops unroll into registers), the parameter block type and
// the per-channel step, which is the reference's arithmetic:
// acc = bias, then acc = fma(w[j], window[j], acc) oldest input first, then SiLU if asked.
#ifndef VT_VULKAN_CONV_COMMON_GLSL
#define VT_VULKAN_CONV_COMMON_GLSL

layout(constant_id = 0) const int K = 4;
layout(local_size_x = VT_CONV_GROUP) in;
layout(push_constant) uniform Push { uint base_y; } pc;  // first program of this dispatch

float conv_step(float weights[VT_CONV_MAX_WIDTH], float window[VT_CONV_MAX_WIDTH], float bias, bool silu) {
  precise float acc = bias;
  for (int j = 0; j < K; ++j) acc = vt_fma(weights[j], window[j], acc);
  return silu ? vt_silu(acc) : acc;
}

#endif
