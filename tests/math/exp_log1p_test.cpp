// exp and log1p against long double references: a strided sweep of every binade, dense
// sweeps where the algorithms switch regime, and the special values.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <iostream>
#include <limits>
#include <vector>

#include "math_checks.hpp"

namespace vt::math::test {
namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kMinSub = std::numeric_limits<float>::denorm_min();

void report(const char* what, const Worst& w) {
  std::cout << what << ": " << w.count << " inputs, max " << w.distance << " ulp from correctly rounded at "
            << hex(w.distance_input) << ", max error " << w.error << " ulp at " << hex(w.error_input) << "\n";
}

std::vector<BitRange> exp_ranges() {
  std::vector<BitRange> r;
  for (bool neg : {false, true}) {
    r.push_back(magnitudes(0x1p-30f, 104.0f, 31, neg));  // every binade that matters, 1 in 31
    r.push_back(magnitudes(kMinSub, 0x1p-30f, 4099, neg));
    r.push_back(magnitudes(104.0f, FLT_MAX, 65537, neg));
  }
  r.push_back(magnitudes(86.0f, 89.5f, 1, false));  // around overflow
  r.push_back(magnitudes(85.0f, 104.0f, 1, true));  // subnormal results and the underflow to zero
  r.push_back(magnitudes(0.3f, 0.4f, 1, false));    // first step of the reduction, k = 1
  r.push_back(magnitudes(0.3f, 0.4f, 1, true));
  return r;
}

TEST(PortableExp, SweepWithinOneUlp) {
  const Worst w = sweep(exp_ranges(), check_exp);
  report("exp", w);
  EXPECT_EQ(w.failures, 0u) << "first failure at " << hex(w.first_failure);
  EXPECT_LE(w.distance, kExpBound);
  EXPECT_GT(w.count, 20000000u);
}

TEST(PortableExp, SpecialValues) {
  EXPECT_EQ(bits(vt::math::exp(0.0f)), bits(1.0f));
  EXPECT_EQ(bits(vt::math::exp(-0.0f)), bits(1.0f));
  EXPECT_EQ(bits(vt::math::exp(kInf)), bits(kInf));
  EXPECT_EQ(bits(vt::math::exp(-kInf)), bits(0.0f));
  EXPECT_TRUE(is_nan(vt::math::exp(kNaN)));
  EXPECT_TRUE(is_nan(vt::math::exp(-kNaN)));
  EXPECT_EQ(bits(vt::math::exp(FLT_MAX)), bits(kInf));
  EXPECT_EQ(bits(vt::math::exp(-FLT_MAX)), bits(0.0f));
  EXPECT_EQ(bits(vt::math::exp(kMinSub)), bits(1.0f));
  EXPECT_EQ(bits(vt::math::exp(-kMinSub)), bits(1.0f));
  EXPECT_EQ(bits(vt::math::exp(1.0f)), bits(static_cast<float>(std::exp(1.0L))));
  // The largest finite result and the first overflow.
  const float x_max = 0x1.62e42ep+6f;  // 88.72283
  EXPECT_TRUE(std::isfinite(vt::math::exp(x_max)));
  EXPECT_EQ(bits(vt::math::exp(std::nextafter(x_max, kInf))), bits(kInf));
  // Gradual underflow: e^x near 2^-149 is a subnormal, not zero.
  EXPECT_EQ(bits(vt::math::exp(-103.0f)), bits(static_cast<float>(std::exp(-103.0L))));
  EXPECT_GT(vt::math::exp(-103.0f), 0.0f);
  EXPECT_LT(vt::math::exp(-90.0f), 0x1p-126f);
}

std::vector<BitRange> log1p_ranges() {
  std::vector<BitRange> r;
  r.push_back(magnitudes(kMinSub, std::nextafter(1.0f, 0.0f), 127, true));  // (-1, 0)
  r.push_back(magnitudes(kMinSub, FLT_MAX, 127, false));                    // (0, FLT_MAX]
  r.push_back(magnitudes(0.99f, std::nextafter(1.0f, 0.0f), 1, true));      // close to -1
  // Where 1 + x crosses 0.75 * 2^k or 1.5 * 2^k, and where the reduction changes form.
  for (int k = -24; k <= 127; ++k) {
    for (double edge : {0.75, 1.5}) {
      const double x = std::ldexp(edge, k) - 1.0;
      if (x > -1.0 && x < FLT_MAX) r.push_back(around(static_cast<float>(x), 1u << 10));
    }
  }
  r.push_back(around(0x1.8p24f, 1u << 16));
  return r;
}

TEST(PortableLog1p, SweepWithinTwoUlp) {
  const Worst w = sweep(log1p_ranges(), check_log1p);
  report("log1p", w);
  EXPECT_EQ(w.failures, 0u) << "first failure at " << hex(w.first_failure);
  EXPECT_LE(w.distance, kLog1pBound);
  EXPECT_GT(w.count, 20000000u);
}

TEST(PortableLog1p, TinyInputsReturnThemselves) {
  const std::vector<BitRange> tiny = {magnitudes(kMinSub, 0x1p-25f, 1009, false),
                                      magnitudes(kMinSub, 0x1p-25f, 1009, true)};
  const Worst w = sweep(tiny, [](float x, Worst& wo) { wo.add(x, 0.0, 0, bits(vt::math::log1p(x)) != bits(x)); });
  EXPECT_EQ(w.failures, 0u) << "first failure at " << hex(w.first_failure);
}

TEST(PortableLog1p, SpecialValues) {
  EXPECT_EQ(bits(vt::math::log1p(0.0f)), bits(0.0f));
  EXPECT_EQ(bits(vt::math::log1p(-0.0f)), bits(-0.0f));
  EXPECT_EQ(bits(vt::math::log1p(-1.0f)), bits(-kInf));
  EXPECT_EQ(bits(vt::math::log1p(kInf)), bits(kInf));
  EXPECT_TRUE(is_nan(vt::math::log1p(kNaN)));
  EXPECT_TRUE(is_nan(vt::math::log1p(std::nextafter(-1.0f, -2.0f))));
  EXPECT_TRUE(is_nan(vt::math::log1p(-2.0f)));
  EXPECT_TRUE(is_nan(vt::math::log1p(-kInf)));
  EXPECT_TRUE(is_nan(vt::math::log1p(-FLT_MAX)));
  EXPECT_TRUE(std::isfinite(vt::math::log1p(FLT_MAX)));
  EXPECT_LE(ulp_distance(vt::math::log1p(FLT_MAX), static_cast<float>(std::log1p(static_cast<long double>(FLT_MAX)))),
            kLog1pBound);
  EXPECT_LE(ulp_distance(vt::math::log1p(std::nextafter(-1.0f, 0.0f)),
                         static_cast<float>(std::log1p(static_cast<long double>(std::nextafter(-1.0f, 0.0f))))),
            kLog1pBound);
}

// The helpers the reference and backends use to compare results.
TEST(PortableMathHelpers, BitsAndUlpDistance) {
  EXPECT_EQ(bits(1.0f), 0x3f800000u);
  EXPECT_EQ(from_bits(0xbf800000u), -1.0f);
  EXPECT_EQ(ulp_distance(0.0f, -0.0f), 0u);
  EXPECT_EQ(ulp_distance(kMinSub, -kMinSub), 2u);
  EXPECT_EQ(ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)), 1u);
  EXPECT_EQ(ulp_distance(std::nextafter(1.0f, 0.0f), std::nextafter(1.0f, 2.0f)), 2u);
  EXPECT_EQ(ulp_distance(FLT_MAX, kInf), 1u);
  EXPECT_EQ(ulp_distance(-kInf, kInf), 0xff000000u);
  EXPECT_EQ(ulp_distance(kNaN, kNaN), 0u);
  EXPECT_EQ(ulp_distance(kNaN, 1.0f), 0xffffffffu);
  EXPECT_EQ(ulp_distance(-2.0f, 2.0f), 2 * (bits(2.0f)));
}

}  // namespace
}  // namespace vt::math::test
