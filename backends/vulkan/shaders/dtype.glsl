// Tensor access by run-time dtype and the exact f32 <-> f16/bf16 conversions, written with
// integer operations only and step for step as vt/dtype.hpp, so NaN payloads match too.
// Each tensor binding is declared twice: as 32-bit words (f32, i32, and u8 by byte
// extraction) and as 16-bit halves (f16, bf16; needs storageBuffer16BitAccess).
#ifndef VT_VULKAN_DTYPE_GLSL
#define VT_VULKAN_DTYPE_GLSL

#extension GL_EXT_shader_16bit_storage : require

#include "params.h"

#define VT_TENSOR(name, bind)                                                      \
  layout(set = 0, binding = bind, std430) buffer name##_words { uint name##_w[]; }; \
  layout(set = 0, binding = bind, std430) buffer name##_halves { uint16_t name##_h[]; };

float vt_bf16_to_f32(uint h) { return uintBitsToFloat(h << 16); }

uint vt_f32_to_bf16(float f) {
  uint u = floatBitsToUint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x0040u;  // quiet NaN
  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}

float vt_f16_to_f32(uint h) {
  uint sign = (h & 0x8000u) << 16;
  uint e = (h >> 10) & 0x1fu;
  uint mant = h & 0x3ffu;
  if (e == 0x1fu) return uintBitsToFloat(sign | 0x7f800000u | (mant << 13));
  if (e != 0u) return uintBitsToFloat(sign | ((e + 112u) << 23) | (mant << 13));
  if (mant == 0u) return uintBitsToFloat(sign);
  uint shift = uint(10 - findMSB(mant));  // normalise the subnormal
  mant <<= shift;
  return uintBitsToFloat(sign | ((113u - shift) << 23) | ((mant & 0x3ffu) << 13));
}

uint vt_f32_to_f16(float f) {
  uint u = floatBitsToUint(f);
  uint sign = (u >> 16) & 0x8000u;
  uint a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return sign | 0x7e00u | ((a >> 13) & 0x3ffu);  // NaN
  if (a >= 0x477ff000u) return sign | 0x7c00u;                          // rounds to inf
  if (a < 0x38800000u) {
    // Subnormal or zero: m = round(|f| * 2^24) to nearest even.
    if (a < 0x33000000u) return sign;
    uint e = a >> 23;
    uint mant = (a & 0x7fffffu) | 0x800000u;
    uint shift = 126u - e;
    uint q = mant >> shift;
    uint rem = mant & ((1u << shift) - 1u);
    uint half_ulp = 1u << (shift - 1u);
    if (rem > half_ulp || (rem == half_ulp && (q & 1u) != 0u)) q += 1u;
    return sign | q;
  }
  uint v = a - 0x38000000u;
  v += 0xfffu + ((v >> 13) & 1u);
  return sign | (v >> 13);
}

float vt_widen16(uint h, uint dtype) { return dtype == VT_DT_BF16 ? vt_bf16_to_f32(h) : vt_f16_to_f32(h); }
uint vt_narrow16(float f, uint dtype) { return dtype == VT_DT_BF16 ? vt_f32_to_bf16(f) : vt_f32_to_f16(f); }

// Element e (relative to the binding) of a float tensor of dtype dt, widened to f32.
#define VT_LOAD(name, e, dt) \
  ((dt) == VT_DT_F32 ? uintBitsToFloat(name##_w[e]) : vt_widen16(uint(name##_h[e]), (dt)))

// Stores v rounded to dtype dt.
#define VT_STORE(name, e, dt, v)                                 \
  {                                                              \
    if ((dt) == VT_DT_F32) {                                     \
      name##_w[e] = floatBitsToUint(v);                          \
    } else {                                                     \
      name##_h[e] = uint16_t(vt_narrow16((v), (dt)));            \
    }                                                            \
  }

// Integer metadata: i32, or u8 (bool) read from its word, so no 8-bit storage is needed.
#define VT_LOAD_INT(name, e, dt) \
  ((dt) == VT_DT_U8 ? int((name##_w[(e) >> 2] >> (((e) & 3u) * 8u)) & 0xffu) : int(name##_w[e]))

#endif
