// sigmoid, silu and softplus: the contract's formulas bit for bit, their accuracy against
// long double, and the special values.
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

std::vector<BitRange> composite_ranges(uint32_t stride) {
  std::vector<BitRange> r;
  for (bool neg : {false, true}) {
    r.push_back(magnitudes(0x1p-30f, 120.0f, stride, neg));
    r.push_back(magnitudes(kMinSub, 0x1p-30f, 40009, neg));
    r.push_back(magnitudes(120.0f, kInf, 65537, neg));
  }
  r.push_back(around(20.0f, 4096));  // softplus threshold
  r.push_back({0x7f800001u, 0x7fffffffu, 0x100001u});
  r.push_back({0xff800001u, 0xffffffffu, 0x100001u});
  return r;
}

// The contract defines the bits by these expressions, each operation rounded to f32.
TEST(PortableComposites, EqualTheContractFormulas) {
  const Worst w = sweep(composite_ranges(29), [](float x, Worst& wo) {
    const float e_neg = vt::math::exp(-x);
    const float sig = 1.0f / (1.0f + e_neg);
    const float si = x / (1.0f + e_neg);
    const float sp = x > 20.0f ? x : vt::math::log1p(vt::math::exp(x));
    const bool ok = same(vt::math::sigmoid(x), sig) && same(vt::math::silu(x), si) && same(vt::math::softplus(x), sp);
    wo.add(x, 0.0, 0, !ok);
  });
  EXPECT_EQ(w.failures, 0u) << "first failure at " << hex(w.first_failure);
}

long double sigmoid_ld(long double x) { return 1.0L / (1.0L + std::exp(-x)); }
long double softplus_ld(long double x) { return x > 20.0L ? x : std::log1p(std::exp(x)); }

// Not part of the contract, which fixes the formulas; recorded so a change in exp or log1p
// that degrades them shows up. Bounds are the measured worst cases rounded up.
TEST(PortableComposites, AccuracyAgainstLongDouble) {
  const auto ranges = composite_ranges(101);
  // Below -88.72, e^-x overflows and the formulas give 0 and -0 where the exact values are
  // still subnormal; those inputs are the formula's, not exp's, and are left out.
  const Worst sig = sweep(ranges, [](float x, Worst& w) {
    const long double xl = x;
    if (x < -88.72f) return;
    grade(x, vt::math::sigmoid(x), sigmoid_ld(xl), 3, w);
  });
  const Worst si = sweep(ranges, [](float x, Worst& w) {
    const long double xl = x;
    if (x < -88.72f) return;
    grade(x, vt::math::silu(x), xl * sigmoid_ld(xl), 3, w);
  });
  const Worst sp = sweep(ranges, [](float x, Worst& w) {
    const long double xl = x;
    grade(x, vt::math::softplus(x), softplus_ld(xl), 3, w);
  });
  for (const auto& [name, w] : {std::pair{"sigmoid", &sig}, std::pair{"silu", &si}, std::pair{"softplus", &sp}}) {
    std::cout << name << ": " << w->count << " inputs, max " << w->distance << " ulp at " << hex(w->distance_input)
              << ", max error " << w->error << " ulp\n";
    EXPECT_EQ(w->failures, 0u) << name << " first failure at " << hex(w->first_failure);
  }
}

TEST(PortableComposites, SpecialValues) {
  EXPECT_EQ(bits(vt::math::sigmoid(-kInf)), bits(0.0f));
  EXPECT_EQ(bits(vt::math::sigmoid(kInf)), bits(1.0f));
  EXPECT_EQ(bits(vt::math::sigmoid(0.0f)), bits(0.5f));
  EXPECT_TRUE(is_nan(vt::math::sigmoid(kNaN)));
  EXPECT_TRUE(is_nan(vt::math::silu(-kInf)));  // -inf / inf, kept as the formula says
  EXPECT_EQ(bits(vt::math::silu(kInf)), bits(kInf));
  EXPECT_EQ(bits(vt::math::silu(-0.0f)), bits(-0.0f));
  EXPECT_EQ(bits(vt::math::silu(-200.0f)), bits(-0.0f));
  EXPECT_TRUE(is_nan(vt::math::silu(kNaN)));
  EXPECT_EQ(bits(vt::math::softplus(-kInf)), bits(0.0f));
  EXPECT_EQ(bits(vt::math::softplus(kInf)), bits(kInf));
  EXPECT_TRUE(is_nan(vt::math::softplus(kNaN)));
  // The threshold: 20 itself takes the log1p branch, the next float returns x.
  EXPECT_EQ(bits(vt::math::softplus(20.0f)), bits(vt::math::log1p(vt::math::exp(20.0f))));
  const float above = std::nextafter(20.0f, kInf);  // 20.000002
  EXPECT_EQ(bits(vt::math::softplus(above)), bits(above));
  // A subnormal e^x passes through log1p unchanged.
  EXPECT_EQ(bits(vt::math::softplus(-100.0f)), bits(vt::math::exp(-100.0f)));
  // The fast variants on the same values.
  for (float x : {-kInf, kInf, kNaN, 0.0f, -0.0f, -200.0f, -88.5f, 20.0f, -kMinSub}) {
    EXPECT_TRUE(same(vt::math::sigmoid_fast(x), vt::math::sigmoid(x))) << hex(x);
    EXPECT_TRUE(same(vt::math::silu_fast(x), vt::math::silu(x))) << hex(x);
  }
}

}  // namespace
}  // namespace vt::math::test
