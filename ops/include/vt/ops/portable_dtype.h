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
    const uint32_t shift = 126u - exp;  // 14..24 bits dropped
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

// Narrowing an approximation (a rounding test). Let v be an f32 value known only through an
// approximation s of the same sign whose bits lie within `slack` steps of v's. When no
// rounding boundary of the narrow type lies within `slack` steps of s, v narrows to the same
// bits as s, and these functions return them; otherwise they return false and leave *out
// alone, and the caller computes v exactly. Kernels use this to narrow a cheap approximation
// of a function whose exact f32 value is expensive (SiLU), and pay for the exact value only
// near a boundary: about (2 slack + 1) / 2^16 of bf16 results, 2^3 times as many for f16.
// Requires slack < 2^12.

// bf16's boundaries are the f32 values whose low 16 bits are 0x8000 (ties, including the one
// to infinity). bf16_if_clear_bounded is for an s the caller knows to be at most 0x1p127 in
// magnitude (SiLU's estimate for |x| <= 16, say), which leaves out a test; bf16_if_clear
// takes any s and declines one above 0x7f7f0000 in magnitude, infinite or NaN.
//
// Both work on the test word t = bits(s) + 0x8000 + slack: its low half is at most 2 slack
// exactly when s's low half lies within slack of the tie 0x8000, and otherwise adding the
// slack carries nothing out of the low half, so t's high half is s's round-to-nearest
// narrowing (not a tie). Kernels that narrow two values at once test both words and take
// both high halves with one byte permutation.
VT_MATH_FN uint32_t bf16_test_word(float s, uint32_t slack) { return bits(s) + 0x8000u + slack; }
VT_MATH_FN bool bf16_word_clear(uint32_t t, uint32_t slack) { return (t & 0xffffu) > 2u * slack; }
VT_MATH_FN bool bf16_if_clear_bounded(float s, uint32_t slack, uint16_t* out) {
  const uint32_t t = bf16_test_word(s, slack);
  if (!bf16_word_clear(t, slack)) return false;
  *out = static_cast<uint16_t>(t >> 16);
  return true;
}
VT_MATH_FN bool bf16_if_clear(float s, uint32_t slack, uint16_t* out) {
  return (bits(s) & 0x7fffffffu) <= 0x7f7f0000u && bf16_if_clear_bounded(s, slack, out);
}

// SiLU narrowed by this test, as the GPU backends compute it: s = x * rcp(1 + exp2(x *
// -log2(e))) from the hardware's exp2 and reciprocal estimates, for |x| <= kSiluFastMax.
// kSiluSlack bounds how many f32 steps s and silu(x) lie apart there. Relative errors, in
// units of 2^-24 of the exact x / (1 + e^-x) (a step exceeds 2^-24 of its value):
//   s: rounding x * -log2(e) (and log2(e) to f32) moves the exponent by at most
//      16 log2(e) (1 + 2^-2.1) units, 19.6 of e^-x; exp2: 2 per ulp of its error; the sum
//      1 + e: 1; the reciprocal: 2 per ulp; the product x * r: 1.
//   silu(x): its exp within 1 ulp of the correctly rounded one: 3; 1 + e: 1; the division: 1.
// That is 26.6 plus twice the two estimates' errors in ulp, so 48 holds while those add up
// to at most 10 ulp; each backend states its estimates' errors where it defines them, and a
// backend whose estimates are tighter may take a slack nearer its own bound (CUDA: 33, in
// backends/cuda/kernels/common.cuh), since a smaller slack sends fewer results on to the
// exact path.
inline constexpr uint32_t kSiluSlack = 48;
inline constexpr float kSiluFastMax = 16.0f;

// f16's boundaries, in its normal range [2^-14, 2^15], are the f32 values whose low 13 bits
// are 0x1000; below kF16MinNormalBits (2^-14) its grid is coarser, and an s there is
// declined. f16_near_tie says whether the bits u lie within slack steps of a boundary.
// f16_if_clear and the GPU kernels that narrow two values at once both test with these.
inline constexpr uint32_t kF16MinNormalBits = 0x38800000u;
VT_MATH_FN bool f16_near_tie(uint32_t u, uint32_t slack) { return ((u & 0x1fffu) - (0x1000u - slack)) <= 2u * slack; }

// f16 for s and v in f16's normal range.
VT_MATH_FN bool f16_if_clear(float s, uint32_t slack, uint16_t* out) {
  const uint32_t u = bits(s);
  const uint32_t abs = u & 0x7fffffffu;
  if (abs - (kF16MinNormalBits + slack) > 0x47000000u - kF16MinNormalBits - 2u * slack) return false;
  if (f16_near_tie(u, slack)) return false;
  *out = static_cast<uint16_t>(((u >> 16) & 0x8000u) | ((abs - 0x38000000u + 0x1000u) >> 13));
  return true;
}

}  // namespace vt::math

#endif  // VT_OPS_PORTABLE_DTYPE_H
