// Inputs that stress a correctly rounded division: quotients closest to a rounding midpoint,
// exact midpoints among subnormal results, and every reciprocal seed the contract admits.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "vt/ops/portable_math.h"

namespace vt::math::test {

// Inverse of an odd number modulo 2^32 (Newton's iteration doubles the correct low bits).
inline uint32_t inverse_mod_2_32(uint32_t odd) {
  uint32_t x = odd;  // correct to 3 bits
  for (int i = 0; i < 4; ++i) x *= 2u - odd * x;
  return x;
}

// For d in [1, 2) with an odd significand D (d = D 2^-23), the numerators n in [1, 2) whose
// quotient n / d lies within |t| 2^-48 / d (quotient below 1) or |t| 2^-47 / d (quotient of
// 1 or more) of a midpoint between two floats, for each t in ts (odd, nonzero). These are
// the hardest cases: the residual n - d m at the midpoint m is t units of its smallest grid.
inline void hard_numerators(float d, const std::vector<int>& ts, std::vector<float>& out) {
  const uint64_t D = (bits(d) & 0x7fffffu) | 0x800000u;
  const uint32_t inv = inverse_mod_2_32(static_cast<uint32_t>(D));
  for (int t : ts) {
    const uint32_t neg_t_inv = static_cast<uint32_t>(-static_cast<int64_t>(t)) * inv;
    // Quotient in [1/2, 1): midpoints M 2^-25, n - d m = 2^-48 (A 2^25 - D M).
    {
      const uint64_t M = neg_t_inv & ((1u << 25) - 1u);
      const int64_t num = static_cast<int64_t>(D * M) + t;
      const int64_t A = num >> 25;
      if (num >= 0 && (num & ((1 << 25) - 1)) == 0 && A >= (1 << 23) && A < static_cast<int64_t>(D)) {
        out.push_back(std::ldexp(static_cast<float>(A), -23));
      }
    }
    // Quotient in [1, 2): midpoints M 2^-24 with M in [2^24, 2^25), n - d m = 2^-47 (A 2^24 - D M).
    {
      const uint64_t M = (neg_t_inv & ((1u << 24) - 1u)) + (1u << 24);
      const int64_t num = static_cast<int64_t>(D * M) + t;
      const int64_t A = num >> 24;
      if (num >= 0 && (num & ((1 << 24) - 1)) == 0 && A >= static_cast<int64_t>(D) && A < (1 << 24)) {
        out.push_back(std::ldexp(static_cast<float>(A), -23));
      }
    }
  }
}

// Every float y0 > 0 with |d y0 - 1| <= 2^-23, the seeds div_ge1_seeded must accept. The
// test is exact in double: d y0 has at most 48 significant bits and 1 - d y0 is exact.
inline std::vector<float> admissible_seeds(float d) {
  auto ok = [d](float y) { return std::fabs(static_cast<double>(d) * static_cast<double>(y) - 1.0) <= 0x1p-23; };
  std::vector<float> seeds;
  const float center = static_cast<float>(1.0 / static_cast<double>(d));
  for (float y = center; ok(y); y = std::nextafter(y, 0.0f)) seeds.push_back(y);
  for (float y = std::nextafter(center, 2.0f); ok(y); y = std::nextafter(y, 2.0f)) seeds.push_back(y);
  return seeds;
}

// Test bodies shared by the CI run (a sample) and the exhaustive run (every divisor of one
// binade); defined in div_ge1_test.cpp.
void run_div_random_pairs(uint64_t pairs);
void run_div_hard_cases(bool all_divisors);
void run_div_any_seed(bool all_divisors);

}  // namespace vt::math::test
