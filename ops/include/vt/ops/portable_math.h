// Portable f32 math shared by the scalar reference and every backend (docs: spec/parity.md).
//
// Every result here is defined bit for bit by the code below: only fmaf, +, -, *, / (IEEE,
// correctly rounded), comparisons and exact bit manipulation, so any compiler that honours
// IEEE single precision without contraction produces the same bits. Compile host code with
// -ffp-contract=off; device compilers need the equivalent (no fused a*b+c behind the code's
// back, IEEE division, no fast-math, no flush of subnormals to zero).
//
// A backend that needs extra qualifiers on these functions defines VT_MATH_FN before the
// first include, for example to mark them callable from both host and device code.
//
// Accuracy (tests/math): exp within 1 ulp of the correctly rounded result and log1p within
// 2 ulp, both over all f32 inputs; div_ge1 is correctly rounded (equal to IEEE n / d).

#ifndef VT_OPS_PORTABLE_MATH_H
#define VT_OPS_PORTABLE_MATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef VT_MATH_FN
#define VT_MATH_FN inline
#endif
// The rarely taken exact slow path of div_ge1. A device compiler that inlines everything can
// define this as a non-inlined function, so that kernels calling div_ge1 many times stay small.
#ifndef VT_MATH_COLD_FN
#define VT_MATH_COLD_FN VT_MATH_FN
#endif

namespace vt::math {

VT_MATH_FN uint32_t bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

VT_MATH_FN float from_bits(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

// Steps from a to b along the ordered floats (+0 and -0 are one point); two NaNs are 0 apart,
// a NaN and a number UINT32_MAX.
VT_MATH_FN uint32_t ulp_distance(float a, float b) {
  const uint32_t ua = bits(a), ub = bits(b);
  const bool nan_a = (ua & 0x7fffffffu) > 0x7f800000u;
  const bool nan_b = (ub & 0x7fffffffu) > 0x7f800000u;
  if (nan_a || nan_b) return nan_a == nan_b ? 0u : 0xffffffffu;
  // Map sign-magnitude onto a line where adjacent floats differ by one: negatives below zero.
  const uint32_t oa = (ua & 0x80000000u) ? 0x80000000u - (ua & 0x7fffffffu) : 0x80000000u + ua;
  const uint32_t ob = (ub & 0x80000000u) ? 0x80000000u - (ub & 0x7fffffffu) : 0x80000000u + ub;
  return oa > ob ? oa - ob : ob - oa;
}

// e^x. Cody-Waite reduction x = k ln2 + r with |r| <= ln2/2, e^r by a degree-6 minimax
// polynomial, 2^k applied as two normal factors so that a subnormal result is rounded once.
VT_MATH_FN float exp(float x) {
  // e^89 overflows and e^-104 rounds to zero; clamping keeps k in [-150, 128]. NaN passes.
  x = x > 89.0f ? 89.0f : x;
  x = x < -104.0f ? -104.0f : x;
  // t = 1.5 * 2^23 + k with k the integer nearest x / ln2: the low bits of t hold k.
  const float shift = 0x1.8p23f;
  const float t = fmaf(x, 0x1.715476p+0f, shift);
  const float k = t - shift;
  // ln2_hi * k is exact inside the fma and x - k ln2_hi is representable, so r is rounded once.
  float r = fmaf(k, -0x1.62e430p-1f, x);
  r = fmaf(k, 0x1.05c610p-29f, r);
  // e^r = 1 + r + r^2 q(r); the leading terms are added last, where their rounding is smallest.
  float q = 0x1.6a243ep-10f;
  q = fmaf(q, r, 0x1.1239dcp-7f);
  q = fmaf(q, r, 0x1.5558f2p-5f);
  q = fmaf(q, r, 0x1.555492p-3f);
  q = fmaf(q, r, 0x1.fffffcp-2f);
  float p = fmaf(q, r, 1.0f);
  p = fmaf(p, r, 1.0f);
  // 2^k = 2^k1 * 2^k2 with k1, k2 in [-75, 64]: p * 2^k1 is exact, the second product rounds.
  const uint32_t m = bits(t) - bits(shift) + 150u;  // k + 150, in [0, 278]
  const uint32_t m1 = m >> 1;
  const float s1 = from_bits((m1 + 52u) << 23);
  const float s2 = from_bits((m - m1 + 52u) << 23);
  return p * s1 * s2;
}

// log(1 + x). 1 + x = 2^k (1 + f) with 1 + f in [0.75, 1.5); log1p(f) = f + f^2 q(f) with a
// degree-10 minimax polynomial, plus k ln2 in two parts.
VT_MATH_FN float log1p(float x) {
  const float inf = from_bits(0x7f800000u);
  if (!(x > -1.0f && x < inf)) {
    if (x == -1.0f) return -inf;
    if (x == inf || x != x) return x;
    return from_bits(0x7fc00000u);  // x < -1
  }
  // u = 1 + x is rounded, but it only selects k; f is computed from x itself.
  const float u = 1.0f + x;
  const uint32_t e = (bits(u) + 0x00400000u) >> 23;  // k + 127
  // f = x 2^-k - (1 - 2^-k) is exact for |k| <= 24 (Sterbenz: the two terms are within a
  // factor of two, and 1 - 2^-k is representable). Negating (1 - s) keeps f = -0 for x = -0.
  const uint32_t e_near = e > 151u ? 151u : e;
  const float s = from_bits((254u - e_near) << 23);  // 2^-k
  const float f_near = fmaf(x, s, -(1.0f - s));
  // For k > 24 (x above 1.5 * 2^24) the rounding of u moves the result by far less than an ulp.
  const float f_far = from_bits(bits(u) - ((e - 127u) << 23)) - 1.0f;
  const float f = e > 151u ? f_far : f_near;
  float q = -0x1.6fe650p-5f;
  q = fmaf(q, f, 0x1.abf6b8p-4f);
  q = fmaf(q, f, -0x1.0d9002p-3f);
  q = fmaf(q, f, 0x1.2897b6p-3f);
  q = fmaf(q, f, -0x1.54f23ep-3f);
  q = fmaf(q, f, 0x1.99685ap-3f);
  q = fmaf(q, f, -0x1.000024p-2f);
  q = fmaf(q, f, 0x1.5555a6p-2f);
  q = fmaf(q, f, -0x1.000000p-1f);
  const float p = fmaf(f, f * q, f);  // keeps the sign of zero and returns tiny f unchanged
  const float kf = static_cast<float>(static_cast<int32_t>(e) - 127);
  const float with_k = fmaf(kf, 0x1.62e430p-1f, fmaf(kf, -0x1.05c610p-29f, p));
  return e == 127u ? p : with_k;
}

// The composite functions of the contract, each operation rounded to f32 in this order.
VT_MATH_FN float sigmoid(float x) { return 1.0f / (1.0f + vt::math::exp(-x)); }
VT_MATH_FN float silu(float x) { return x / (1.0f + vt::math::exp(-x)); }
VT_MATH_FN float softplus(float x) { return x > 20.0f ? x : vt::math::log1p(vt::math::exp(x)); }

// ---------------------------------------------------------------------------------------------
// Correctly rounded n / d for d in [1, +inf] (sigmoid's and silu's 1 + e^-x), from a cheap
// reciprocal seed refined by fused multiply-adds.
//
// Seed contract: div_ge1_seeded(n, d, y0) returns exactly IEEE n / d for every y0 > 0 with
// |d * y0 - 1| <= 2^-23 (one ulp of 1/d: a hardware reciprocal estimate qualifies). The seed
// only matters on the fast path (1 <= d < 2^124, 2^-90 <= |n| < inf, |n| / d >= 2^-124);
// everything else takes an exact slow path that needs no seed.
//
// Why the fast path is exact (RN: round to nearest even; D: d scaled into [1, 2); ulp: the
// spacing of floats at n / d; m: a midpoint between two adjacent floats):
//  1. One Newton step y = RN(y0 + y0 e), e = RN(1 - d y0), gives y = RN((1/d)(1 + rho)) with
//     |rho| <= 2^-46 + 2^-47 + 2^-70 < 7 * 2^-48. So y = RN(1/d) unless a midpoint mu of the
//     grid of 1/d lies within |rho| / d of it, i.e. |1 - D mu| = i 2^-48 with integer i <= 6.
//  2. The last step q2 = RN(q1 - (d q1 - n) y) rounds the wrong way only if a midpoint m lies
//     between n / d and its argument, which misses n / d by |n / d - q1| |1 - d y|. As n - d m
//     is a nonzero multiple of 2^-24 ulp d / D, |n / d - m| >= 2^-24 ulp / D, while
//     |n / d - q1| <= ulp / 2 + |n / d - m|; so q2 is right when
//     |1 - d y| / (1 - |1 - d y|) < 2^-23 / D. With y = RN(1/d), |1 - d y| <= D 2^-25 and
//     that holds for every D <= 2 - 2^-23. With the other neighbour of mu,
//     |1 - d y| = D 2^-25 + i 2^-48 and it holds when i < 2j - 1, where D = 2 - j 2^-23; only
//     j <= 3 needs a look: j = 2 has no midpoint near 1/D, j = 3 has i = 9, and j = 1 (an
//     all-ones significand) has i = 1. There 1/d lies 2^-49 (scaled) above a midpoint, a
//     Newton step can land on either side for any seed, and RN(1/d) is the successor of a
//     power of two: its lowest bit is set explicitly.
//  3. q0 = RN(n y) is within 2 ulp, so q1 = RN(q0 - RN(d q0 - n) y) is within
//     1/2 + 2^-22 ulp; then d q1 - n is exact and step 2 applies.
// tests/math checks this against IEEE division with every seed the bound admits.

// A seed that meets the contract on the fast path: within 5.1% from the bits, then one
// cubically convergent step and one Newton step give |d y - 1| <= 2^-23.6.
VT_MATH_FN float recip_seed(float d) {
  float y = from_bits(0x7ef311c3u - bits(d));
  float e = fmaf(-d, y, 1.0f);
  y = fmaf(y, fmaf(e, e, e), y);
  e = fmaf(-d, y, 1.0f);
  return fmaf(y, e, y);
}

namespace detail {

// RN(1/d) from a seed within 2^-23 (step 1 above, with the all-ones fix of step 2).
VT_MATH_FN float recip_refine(float d, float y0) {
  const float e = fmaf(-d, y0, 1.0f);
  const float y = fmaf(y0, e, y0);
  const uint32_t all_ones = ((bits(d) & 0x7fffffu) + 1u) >> 23;
  return from_bits(bits(y) | all_ones);
}

// Within 1/2 + 2^-22 ulp of n / d (step 3).
VT_MATH_FN float quotient_faithful(float n, float d, float y) {
  const float q0 = n * y;
  return fmaf(-fmaf(d, q0, -n), y, q0);
}

// RN(n / d) from a faithful quotient (step 2). The residual is negated so that n = -0 gives -0.
VT_MATH_FN float quotient_round(float n, float d, float y, float q1) { return fmaf(-fmaf(d, q1, -n), y, q1); }

// Everything off the fast path: NaN, infinities, zeros, tiny |n|, d >= 2^124 and quotients
// near or below the normal range. The quotient of the significands is rounded as on the fast
// path and scaled back; a subnormal result is rounded to its coarser grid with exact midpoint
// tests, since there n / d can be a midpoint exactly.
VT_MATH_COLD_FN float div_ge1_slow(float n, float d) {
  if (n != n || d != d) return n + d;
  const float inf = from_bits(0x7f800000u);
  if (d == inf) return n * 0.0f;  // +-0, or NaN for an infinite n
  const uint32_t sign = bits(n) & 0x80000000u;
  float a = from_bits(bits(n) & 0x7fffffffu);
  if (a == inf || a == 0.0f) return n;
  // a = A 2^ea and d = D 2^ed with A, D in [1, 2); a subnormal a is normalised first.
  int32_t ea = 0;
  if (a < 0x1p-126f) {
    a *= 0x1p64f;
    ea = -64;
  }
  ea += static_cast<int32_t>(bits(a) >> 23) - 127;
  const int32_t ed = static_cast<int32_t>(bits(d) >> 23) - 127;
  const float A = from_bits((bits(a) & 0x7fffffu) | 0x3f800000u);
  const float D = from_bits((bits(d) & 0x7fffffu) | 0x3f800000u);
  const int32_t E = ea - ed;  // n / d = (A / D) 2^E
  const float y = recip_refine(D, recip_seed(D));
  const float q = quotient_round(A, D, y, quotient_faithful(A, D, y));  // RN(A / D), in [1/2, 2]
  if (static_cast<int32_t>(bits(q) >> 23) + E >= 1) {
    return from_bits((bits(q) + (static_cast<uint32_t>(E) << 23)) | sign);
  }
  // Subnormal or zero: round Q = (A / D) 2^S = |n / d| 2^149 to an integer, the result's bits.
  const int32_t S = E + 149;
  if (S < -1) return from_bits(sign);  // |n / d| < 2^-150
  const float scale = from_bits(static_cast<uint32_t>(S + 127) << 23);
  const float As = A * scale;  // Q = As / D, exactly
  const float big = 0x1p23f;
  float c = (q * scale + big) - big;  // an integer within 1 of Q
  // Signs of As - D (c +- 1/2), exact because rounding keeps the sign of a nonzero value.
  const float above = fmaf(-D, c + 0.5f, As);
  const float below = fmaf(-D, c - 0.5f, As);
  const bool c_odd = (bits(c + big) & 1u) != 0u;
  if (above > 0.0f || (above == 0.0f && c_odd)) {
    c += 1.0f;
  } else if (below < 0.0f || (below == 0.0f && c_odd)) {
    c -= 1.0f;
  }
  return from_bits((bits(c + big) - bits(big)) | sign);
}

}  // namespace detail

VT_MATH_FN float div_ge1_seeded(float n, float d, float y0) {
  const uint32_t ua = bits(n) & 0x7fffffffu;
  const uint32_t ud = bits(d) & 0x7fffffffu;
  // d < 2^124, 2^-90 <= |n| < inf, and exponent(|n|) - exponent(d) >= -123.
  const bool fast = ud < 0x7d800000u && ua - 0x12800000u < 0x6d000000u && ua + 0x3d800000u >= ud;
  if (!fast) return detail::div_ge1_slow(n, d);
  const float y = detail::recip_refine(d, y0);
  return detail::quotient_round(n, d, y, detail::quotient_faithful(n, d, y));
}

VT_MATH_FN float div_ge1(float n, float d) { return div_ge1_seeded(n, d, recip_seed(d)); }

// Equal to sigmoid and silu bit for bit.
VT_MATH_FN float sigmoid_fast(float x) { return div_ge1(1.0f, 1.0f + vt::math::exp(-x)); }
VT_MATH_FN float silu_fast(float x) { return div_ge1(x, 1.0f + vt::math::exp(-x)); }

}  // namespace vt::math

#endif  // VT_OPS_PORTABLE_MATH_H
