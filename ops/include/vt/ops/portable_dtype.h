// Exact conversions between f32 and the 16-bit float types, shared by host code and device
// kernels (docs: spec/parity.md). Narrowing rounds to nearest even and keeps a NaN a NaN;
// widening is exact. The results are the bits vt/dtype.hpp gives, NaN payloads included
// (tests/math checks every 16-bit pattern and a sweep of f32 inputs).
//
// Only integer operations, exact bit casts and one exact product, so every compiler gives
// the same bits. A backend that needs extra qualifiers defines VT_MATH_FN before the first
// include, as for portable_math.h.

#ifndef VT_OPS_PORTABLE_DTYPE_H
#define VT_OPS_PORTABLE_DTYPE_H

#include <stdint.h>

#include "vt/ops/portable_math.h"

namespace vt::math {

// bf16 is the top half of an f32: round the dropped half to nearest even, NaN made quiet.
VT_MATH_FN uint16_t f32_to_bf16(float f) {
  const uint32_t u = bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
  return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

VT_MATH_FN float bf16_to_f32(uint16_t h) { return from_bits(static_cast<uint32_t>(h) << 16); }

// IEEE binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
VT_MATH_FN uint16_t f32_to_f16(float f) {
  const uint32_t u = bits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));  // NaN, quiet
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to infinity (or is one)
  if (abs < 0x38800000u) {
    // A subnormal result or zero: q = abs_value * 2^24 rounded to an integer.
    if (abs < 0x33000000u) return sign;  // below half the smallest subnormal
    const uint32_t exp = abs >> 23;      // biased, 102..112
    const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - exp;   // 14..24 bits dropped
    uint32_t q = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u))) ++q;
    return static_cast<uint16_t>(sign | q);
  }
  // Normal: rebias the exponent (127 -> 15), round the 13 dropped bits to nearest even; a
  // carry out of the mantissa moves into the exponent, as it should.
  uint32_t v = abs - 0x38000000u;
  v += 0xfffu + ((v >> 13) & 1u);
  return static_cast<uint16_t>(sign | (v >> 13));
}

VT_MATH_FN float f16_to_f32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0x1fu) return from_bits(sign | 0x7f800000u | (mant << 13));  // infinity, NaN with its payload
  if (exp != 0u) return from_bits(sign | ((exp + 112u) << 23) | (mant << 13));
  // Zero or subnormal: mant * 2^-24, exact in f32 (an integer below 2^10 times a power of two).
  const float magnitude = static_cast<float>(mant) * 0x1p-24f;
  return from_bits(sign | bits(magnitude));
}

}  // namespace vt::math

#endif  // VT_OPS_PORTABLE_DTYPE_H
