// Per-input checks of the portable math against references, shared by the CI sweeps and the
// exhaustive run. The reference is the double libm result (within an ulp of double) unless
// rounding it to f32 could depend on that error, or it is not a normal f32; then long double,
// whose 64-bit significand makes rounding to f32 correct except in cases far rarer than any
// seen here.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>

#include "math_sweep.hpp"

namespace vt::math::test {

constexpr uint32_t kExpBound = 1;    // ulp, against the correctly rounded result
constexpr uint32_t kLog1pBound = 2;  // ulp

inline bool is_nan(float x) { return x != x; }

// Records |got - exact| / ulp(cr) and the integer distance to cr; a failure when the distance
// exceeds `bound`, when NaN-ness differs, or when exactly one of got and cr is infinite
// (one ulp past FLT_MAX is not an acceptable overflow).
inline void grade(float x, float got, long double exact, uint32_t bound, Worst& w) {
  const float cr = static_cast<float>(exact);
  if (is_nan(cr) || is_nan(got)) {
    w.add(x, 0.0, 0, is_nan(cr) != is_nan(got));
    return;
  }
  if (std::isinf(cr) || std::isinf(got)) {
    w.add(x, 0.0, 0, got != cr);
    return;
  }
  const uint32_t dist = ulp_distance(got, cr);
  const double err = static_cast<double>(std::fabs(static_cast<long double>(got) - exact)) / ulp_of(cr);
  w.add(x, err, dist, dist > bound);
}

// True when rounding r to f32 could go either way under an error of a few double ulps.
inline bool double_is_not_enough(double r) {
  const double a = std::fabs(r);
  if (!(a >= 0x1p-126 && a <= static_cast<double>(FLT_MAX))) return true;
  const float f = static_cast<float>(a);
  const double below = (static_cast<double>(std::nextafter(f, 0.0f)) + static_cast<double>(f)) / 2;
  const double above = (static_cast<double>(f) + static_cast<double>(std::nextafter(f, 2 * f))) / 2;
  return std::fabs(a - below) < a * 0x1p-40 || std::fabs(a - above) < a * 0x1p-40;
}

inline long double exp_reference(float x) {
  // Half of all inputs lie here, where libm is slowest and the answer is known.
  if (x > 89.0f) return HUGE_VALL;  // e^89 > FLT_MAX
  if (x < -104.0f) return 0.0L;     // e^-104 < 2^-150
  const double r = std::exp(static_cast<double>(x));
  return double_is_not_enough(r) ? std::exp(static_cast<long double>(x)) : r;
}

inline long double log1p_reference(float x) {
  const double r = std::log1p(static_cast<double>(x));
  return double_is_not_enough(r) ? std::log1p(static_cast<long double>(x)) : r;
}

inline void check_exp(float x, Worst& w) { grade(x, vt::math::exp(x), exp_reference(x), kExpBound, w); }

inline void check_log1p(float x, Worst& w) {
  if (x < -1.0f) {  // log1pl gives NaN here too; skip the libm call
    const float got = vt::math::log1p(x);
    w.add(x, 0.0, 0, !is_nan(got));
    return;
  }
  grade(x, vt::math::log1p(x), log1p_reference(x), kLog1pBound, w);
}

// Same bits, with NaN matching any NaN.
inline bool same(float a, float b) { return bits(a) == bits(b) || (is_nan(a) && is_nan(b)); }

// sigmoid_fast and silu_fast against the IEEE-division definitions.
inline void check_fast_composites(float x, Worst& w) {
  const bool ok =
      same(vt::math::sigmoid_fast(x), vt::math::sigmoid(x)) && same(vt::math::silu_fast(x), vt::math::silu(x));
  w.add(x, 0.0, 0, !ok);
}

}  // namespace vt::math::test
