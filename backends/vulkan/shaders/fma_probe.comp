// result[i] = fma(a[i], b[i], c[i]): the start-up probe of the device's fma, kept apart from
// math_probe.comp so that it compiles in a moment.
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

void main() {
  uint i = (pc.base_y + gl_WorkGroupID.y) * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
  if (i >= P.count) return;
  float r = vt_fma(uintBitsToFloat(A_w[P.a.off + i]), uintBitsToFloat(B_w[P.b.off + i]), uintBitsToFloat(C_w[P.c.off + i]));
  Out_w[P.result.off + i] = floatBitsToUint(r);
}
