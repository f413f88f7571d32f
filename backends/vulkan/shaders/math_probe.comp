// result[i] = fn(a[i], b[i], c[i]) on f32 bit patterns: the unit tests of this folder's shader
// math against the CPU's portable math.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "dtype.glsl"
#include "math.glsl"

layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint base_y; } pc;
layout(set = 0, binding = VT_PARAMS_BINDING, std430) readonly buffer ParamBlock { MathParams P; };
VT_TENSOR(A, 1)
VT_TENSOR(B, 2)
VT_TENSOR(C, 3)
VT_TENSOR(Out, 4)

float eval(uint fn, float a, float b, float c) {
  precise float r;
  switch (fn) {
    case VT_MATH_FMA: r = vt_fma(a, b, c); break;
    case VT_MATH_EXP: r = vt_exp(a); break;
    case VT_MATH_LOG1P: r = vt_log1p(a); break;
    case VT_MATH_DIV_GE1: r = vt_div_ge1(a, b); break;
    case VT_MATH_RECIP: r = vt_recip(a); break;
    case VT_MATH_SQRT: r = vt_sqrt(a); break;
    case VT_MATH_SIGMOID: r = vt_sigmoid(a); break;
    case VT_MATH_SILU: r = vt_silu(a); break;
    case VT_MATH_SOFTPLUS: r = vt_softplus(a); break;
    case VT_MATH_TO_F16: r = uintBitsToFloat(vt_f32_to_f16(a)); break;
    case VT_MATH_TO_BF16: r = uintBitsToFloat(vt_f32_to_bf16(a)); break;
    case VT_MATH_FROM_F16: r = vt_f16_to_f32(floatBitsToUint(a) & 0xffffu); break;
    case VT_MATH_FROM_BF16: r = vt_bf16_to_f32(floatBitsToUint(a) & 0xffffu); break;
    case VT_MATH_MUL: r = a * b; break;
    case VT_MATH_ADD: r = a + b; break;
    default: r = uintBitsToFloat(0x7fc00000u); break;
  }
  return r;
}

void main() {
  uint i = (pc.base_y + gl_WorkGroupID.y) * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
  if (i >= P.count) return;
  float a = uintBitsToFloat(A_w[P.a.off + i]);
  float b = uintBitsToFloat(B_w[P.b.off + i]);
  float c = uintBitsToFloat(C_w[P.c.off + i]);
  Out_w[P.result.off + i] = floatBitsToUint(eval(P.fn, a, b, c));
}
