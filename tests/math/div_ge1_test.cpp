// div_ge1 against IEEE division, bit for bit: random pairs over every binade, every divisor
// of one binade, the quotients nearest a rounding midpoint, exact subnormal ties, every seed
// the contract admits; and sigmoid_fast / silu_fast against sigmoid / silu.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <thread>
#include <vector>

#include "div_cases.hpp"
#include "math_checks.hpp"

namespace vt::math::test {
namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kMinSub = std::numeric_limits<float>::denorm_min();
const float kAllOnes = std::nextafter(2.0f, 0.0f);  // 2 - 2^-23

// Counts mismatches against IEEE n / d and remembers the first one.
struct DivCheck {
  std::atomic<uint64_t> count{0};
  std::atomic<uint64_t> failures{0};
  std::atomic<bool> reported{false};

  void expect(float n, float d, float got) {
    ++count;
    const float want = n / d;
    if (same(got, want)) return;
    ++failures;
    if (!reported.exchange(true)) {
      ADD_FAILURE() << "div_ge1(" << hex(n) << ", " << hex(d) << ") = " << hex(got) << ", IEEE gives " << hex(want);
    }
  }
  void expect(float n, float d) { expect(n, d, div_ge1(n, d)); }
};

// Runs body(worker_index, worker_count) on every hardware thread.
template <class Body>
void parallel(Body body) {
  const unsigned workers = worker_count();
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w) threads.emplace_back(body, w, workers);
  for (std::thread& t : threads) t.join();
}

float random_divisor(SplitMix64& rng) {
  const uint32_t r = rng.below(100);
  const uint32_t mant = rng.next32() & 0x7fffffu;
  if (r < 60) return from_bits(((127u + rng.below(128)) << 23) | mant);       // [1, FLT_MAX]
  if (r < 80) return from_bits(0x3f800000u | mant);                           // [1, 2)
  if (r < 85) return from_bits(((127u + rng.below(128)) << 23) | 0x7fffffu);  // all-ones significand
  if (r < 90) return from_bits(0x3f800000u + rng.below(64));                  // just above 1
  if (r < 94) return from_bits(((127u + 120u + rng.below(8)) << 23) | mant);  // around the fast-path edge
  if (r < 97) return kInf;
  if (r < 98) return FLT_MAX;
  if (r < 99) return kNaN;
  return 1.0f;
}

float random_numerator(SplitMix64& rng, float d) {
  const uint32_t r = rng.below(100);
  const uint32_t sign = rng.next32() & 0x80000000u;
  const uint32_t mant = rng.next32() & 0x7fffffu;
  if (r < 35) return from_bits(rng.next32());  // anything, NaN and infinities included
  if (r < 70) {
    // Quotient exponent spread over [-160, +10] around d's, so results cross the subnormal range.
    const int32_t ed = static_cast<int32_t>((bits(d) >> 23) & 0xffu);
    int32_t e = ed - 160 + static_cast<int32_t>(rng.below(171));
    e = e < 0 ? 0 : (e > 254 ? 254 : e);
    return from_bits(sign | (static_cast<uint32_t>(e) << 23) | mant);
  }
  if (r < 80) return from_bits(sign | (rng.next32() & 0x007fffffu));  // subnormal
  if (r < 85) return from_bits(sign | 0x7f000000u | mant);            // near FLT_MAX
  if (r < 90) return from_bits(sign | ((0x3f000000u + (rng.below(4) << 23)) | mant));
  const float specials[] = {0.0f, -0.0f, kInf, -kInf, kNaN, FLT_MAX, -FLT_MAX, kMinSub, 1.0f, -1.0f};
  return specials[rng.below(10)];
}

}  // namespace

void run_div_random_pairs(uint64_t pairs) {
  DivCheck check;
  const uint64_t per_worker = pairs / worker_count();
  parallel([&](unsigned w, unsigned) {
    SplitMix64 rng(0x5eed0000u + w);
    for (uint64_t i = 0; i < per_worker; ++i) {
      const float d = random_divisor(rng);
      check.expect(random_numerator(rng, d), d);
    }
  });
  std::cout << "div_ge1: " << check.count << " random pairs, " << check.failures << " mismatches\n";
  EXPECT_EQ(check.failures, 0u);
}

namespace {

TEST(DivGe1, RandomPairsMatchIeee) { run_div_random_pairs(16000000); }

TEST(DivGe1, EveryDivisorInOneBinade) {
  DivCheck check;
  // Two numerators on the fast path, one with a subnormal quotient, and 1/d subnormal.
  const float numerators[] = {1.0f, -3.7f, FLT_MAX, 0x1.8p-130f};
  const uint32_t first = bits(1.0f), count = 1u << 23;
  parallel([&](unsigned w, unsigned workers) {
    for (uint32_t i = w; i < count; i += workers) {
      const float d = from_bits(first + i);
      for (float n : numerators) check.expect(n, d);
      check.expect(1.0f, d * 0x1p126f);
    }
  });
  EXPECT_EQ(check.failures, 0u);
}

// Divisor/numerator scalings applied to each hard case: fast path, d beyond the fast path,
// tiny n, and quotients in the subnormal range.
const int kScales[][2] = {{0, 0}, {-60, 40}, {60, 126}, {-120, 20}, {-100, 50}};

}  // namespace

void run_div_hard_cases(bool all_divisors) {
  const std::vector<int> ts =
      all_divisors ? std::vector<int>{1, -1, 3, -3, 5, -5, 7, -7} : std::vector<int>{1, -1, 3, -3};
  const uint32_t stride = all_divisors ? 1u : 7u;  // over odd significands
  DivCheck check;
  std::atomic<uint64_t> cases{0};
  parallel([&](unsigned w, unsigned workers) {
    std::vector<float> ns;
    for (uint32_t D = 0x800001u + 2u * stride * w; D < 0x1000000u; D += 2u * stride * workers) {
      const float d = std::ldexp(static_cast<float>(D), -23);
      ns.clear();
      hard_numerators(d, ts, ns);
      cases += ns.size();
      for (float n : ns) {
        for (const auto& s : kScales) {
          const float n_scaled = std::ldexp(n, s[0]), d_scaled = std::ldexp(d, s[1]);
          check.expect(n_scaled, d_scaled);
          check.expect(-n_scaled, d_scaled);
        }
      }
    }
  });
  std::cout << "div_ge1: " << cases << " hard cases, " << check.count << " divisions, " << check.failures
            << " mismatches\n";
  EXPECT_GT(cases.load(), 500000u);
  EXPECT_EQ(check.failures, 0u);
}

namespace {

TEST(DivGe1, QuotientsNearestToMidpoints) { run_div_hard_cases(false); }

// The hard cases have teeth: a plain Newton step without the all-ones fix returns 1/2 for
// 1 / (2 - 2^-23) from the admissible seed 1/2, where IEEE gives 1/2 + 2^-24.
TEST(DivGe1, HardCasesCatchAMissingAllOnesFix) {
  auto naive = [](float n, float d, float y0) {
    const float y = fmaf(y0, fmaf(-d, y0, 1.0f), y0);
    const float q0 = n * y;
    const float q1 = fmaf(-fmaf(d, q0, -n), y, q0);
    return fmaf(-fmaf(d, q1, -n), y, q1);
  };
  std::vector<float> ns;
  hard_numerators(kAllOnes, {1, -1, 3, -3}, ns);
  ASSERT_FALSE(ns.empty());
  EXPECT_EQ(ns.front(), 1.0f);
  const std::vector<float> seeds = admissible_seeds(kAllOnes);
  ASSERT_NE(std::find(seeds.begin(), seeds.end(), 0.5f), seeds.end());
  EXPECT_NE(bits(naive(1.0f, kAllOnes, 0.5f)), bits(1.0f / kAllOnes));
  EXPECT_EQ(bits(div_ge1_seeded(1.0f, kAllOnes, 0.5f)), bits(1.0f / kAllOnes));
}

// The seed bound is nearly tight: at 1.5 times it, d = 2 - 3 * 2^-23 (where 1/d lies 9 units
// of 2^-48 from a midpoint) already gives a wrong quotient for one of its hard numerators.
TEST(DivGe1, SeedsBeyondTheBoundCanFail) {
  const float d = 0x1.fffffap+0f, n = 0x1.aaaaa6p+0f, y0 = 0x1.000006p-1f;
  const double seed_error = std::fabs(static_cast<double>(d) * static_cast<double>(y0) - 1.0);
  EXPECT_GT(seed_error, 1.49 * 0x1p-23);
  EXPECT_LT(seed_error, 1.5 * 0x1p-23);
  std::vector<float> ns;
  hard_numerators(d, {1, -1, 3, -3}, ns);
  EXPECT_NE(std::find(ns.begin(), ns.end(), n), ns.end());
  EXPECT_NE(bits(div_ge1_seeded(n, d, y0)), bits(n / d));
}

}  // namespace

void run_div_any_seed(bool all_divisors) {
  const std::vector<int> ts = {1, -1, 3, -3};
  const uint32_t stride = all_divisors ? 1u : 61u;
  DivCheck check;
  std::atomic<uint64_t> seeds_tried{0};
  parallel([&](unsigned w, unsigned workers) {
    SplitMix64 rng(0xabc0000u + w);
    std::vector<float> ns;
    for (uint32_t D = 0x800000u + stride * w; D < 0x1000000u; D += stride * workers) {
      const float d = std::ldexp(static_cast<float>(D), -23);
      ns.clear();
      if (D & 1u) hard_numerators(d, ts, ns);
      for (int i = 0; i < 4; ++i) ns.push_back(from_bits(0x3f800000u | (rng.next32() & 0x7fffffu)));
      ns.push_back(1.0f);
      const int k = static_cast<int>(rng.below(124));  // any exponent on the fast path
      const float dk = std::ldexp(d, k);
      // A second numerator at another exponent that keeps the quotient on the fast path.
      const int s_lo = k - 123 > -90 ? k - 123 : -90;
      const int s = s_lo + static_cast<int>(rng.below(static_cast<uint32_t>(127 - s_lo)));
      for (float y0 : admissible_seeds(dk)) {
        ++seeds_tried;
        for (float n : ns) {
          check.expect(n, dk, div_ge1_seeded(n, dk, y0));
          const float n2 = -std::ldexp(n, s);
          check.expect(n2, dk, div_ge1_seeded(n2, dk, y0));
        }
      }
    }
  });
  // The seed bound is one ulp of 1/d, so every divisor admits two to four seeds.
  std::cout << "div_ge1_seeded: " << seeds_tried << " seeds, " << check.count << " divisions, " << check.failures
            << " mismatches\n";
  EXPECT_GT(seeds_tried.load(), 2u * (0x800000u / stride));
  EXPECT_EQ(check.failures, 0u);
}

namespace {

TEST(DivGe1, AnySeedWithinTheBound) { run_div_any_seed(false); }

TEST(DivGe1, PortableSeedMeetsTheBound) {
  // The estimate is invariant under scaling d by powers of two, so one binade covers all d
  // whose reciprocal is normal.
  std::atomic<uint64_t> worst_bits{0};
  parallel([&](unsigned w, unsigned workers) {
    double worst = 0.0;
    for (uint32_t i = w; i < (1u << 23); i += workers) {
      const float d = from_bits(0x3f800000u + i);
      const double err = std::fabs(static_cast<double>(d) * static_cast<double>(recip_seed(d)) - 1.0);
      worst = err > worst ? err : worst;
    }
    uint64_t b = 0, cur = worst_bits.load();
    std::memcpy(&b, &worst, sizeof b);
    while (b > cur && !worst_bits.compare_exchange_weak(cur, b)) {
    }
  });
  double worst = 0.0;
  const uint64_t b = worst_bits.load();
  std::memcpy(&worst, &b, sizeof worst);
  std::cout << "recip_seed: max |d y0 - 1| over [1, 2) = 2^" << std::log2(worst) << "\n";
  EXPECT_LE(worst, 0x1p-23);
  for (float d : {0x1.234566p+100f, 0x1.fffffep+123f, 0x1.8p+60f}) {
    EXPECT_LE(std::fabs(static_cast<double>(d) * static_cast<double>(recip_seed(d)) - 1.0), 0x1p-23);
  }
}

TEST(DivGe1, ExactTiesAmongSubnormalResults) {
  // n = o (2i + 1) 2^(j-149) and d = 2 o 2^j give n / d = (i + 1/2) 2^-149, a midpoint of the
  // subnormal grid; the same pair scaled by 2^7 moves n into the normal range.
  DivCheck check;
  for (uint32_t o = 1; o < 64; o += 2) {
    for (uint32_t i = 0; i < 20000; i += 7) {
      const uint64_t k = uint64_t{o} * (2u * i + 1u);
      if (k >= (1u << 24)) break;
      for (int j = 0; j < 3; ++j) {
        const float n = std::ldexp(static_cast<float>(k), -149 + j);
        const float d = std::ldexp(static_cast<float>(2 * o), j);
        check.expect(n, d);
        check.expect(-n, d);
        check.expect(std::ldexp(n, 7), std::ldexp(d, 7));
      }
    }
  }
  EXPECT_GT(check.count.load(), 10000u);
  EXPECT_EQ(check.failures, 0u);
  EXPECT_EQ(bits(div_ge1(3 * kMinSub, 6.0f)), bits(0.0f));         // 1/2 ulp: to even, zero
  EXPECT_EQ(bits(div_ge1(9 * kMinSub, 6.0f)), bits(2 * kMinSub));  // 3/2 ulp: to even, two
}

TEST(DivGe1, SpecialValues) {
  DivCheck check;
  const float ns[] = {0.0f,     -0.0f,   kInf,     -kInf,     kNaN, -kNaN, FLT_MAX,
                      -FLT_MAX, kMinSub, -kMinSub, 0x1p-126f, 1.0f, -5.5f};
  const float ds[] = {1.0f,    0x1.000002p+0f, 0x1.000004p+0f, 2.0f,    kAllOnes, 3.0f,
                      0x1p64f, 0x1p124f,       0x1p126f,       FLT_MAX, kInf,     kNaN};
  for (float n : ns) {
    for (float d : ds) check.expect(n, d);
  }
  EXPECT_EQ(check.failures, 0u);
  EXPECT_EQ(bits(div_ge1(-0.0f, 3.0f)), bits(-0.0f));
  EXPECT_EQ(bits(div_ge1(-2.0f, kInf)), bits(-0.0f));
  EXPECT_TRUE(is_nan(div_ge1(kInf, kInf)));
  EXPECT_EQ(bits(div_ge1(-kInf, 7.0f)), bits(-kInf));
  // Near FLT_MAX with d just above 1 the quotient stays finite.
  EXPECT_EQ(bits(div_ge1(FLT_MAX, std::nextafter(1.0f, 2.0f))), bits(FLT_MAX / std::nextafter(1.0f, 2.0f)));
  EXPECT_EQ(bits(div_ge1(FLT_MAX, 1.0f)), bits(FLT_MAX));
}

TEST(FastComposites, MatchSigmoidAndSiluBitwise) {
  std::vector<BitRange> r;
  for (bool neg : {false, true}) {
    r.push_back(magnitudes(0x1p-40f, 104.0f, 43, neg));
    r.push_back(magnitudes(kMinSub, 0x1p-40f, 4099, neg));
    r.push_back(magnitudes(104.0f, kInf, 65537, neg));
  }
  r.push_back(magnitudes(40.0f, 104.0f, 1, true));  // huge 1 + e^-x and subnormal sigmoid
  r.push_back(magnitudes(15.0f, 18.0f, 1, false));  // 1 + e^-x rounds to 1
  r.push_back(around(0.0f, 1000));
  r.push_back(around(-0.0f, 1000));
  r.push_back({0x7f800001u, 0x7fffffffu, 0x100001u});  // NaNs
  const Worst w = sweep(r, check_fast_composites);
  std::cout << "sigmoid_fast / silu_fast: " << w.count << " inputs\n";
  EXPECT_EQ(w.failures, 0u) << "first failure at " << hex(w.first_failure);
  EXPECT_GT(w.count, 10000000u);
}

}  // namespace
}  // namespace vt::math::test
