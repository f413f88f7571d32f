// f32 <-> bf16/f16 conversions against an independent oracle: the nearest representable
// value found by search over every finite 16-bit pattern, ties to the even pattern.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "vt/dtype.hpp"

namespace {

struct Grid {
  std::vector<double> values;      // every finite non-negative value, ascending
  std::vector<uint16_t> patterns;  // its bit pattern
  double overflow;                 // inputs at or above this round to infinity
};

Grid make_grid(float (*decode)(uint16_t), uint16_t inf_pattern) {
  Grid g;
  for (uint32_t h = 0; h < inf_pattern; ++h) {
    g.values.push_back(decode(static_cast<uint16_t>(h)));
    g.patterns.push_back(static_cast<uint16_t>(h));
  }
  const double max = g.values.back();
  const double ulp = max - g.values[g.values.size() - 2];
  g.overflow = max + ulp / 2;  // the tie at max + ulp/2 goes to the even pattern: infinity
  return g;
}

uint16_t oracle(const Grid& g, float f, uint16_t inf_pattern) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(f));
  if (a >= g.overflow) return static_cast<uint16_t>(sign | inf_pattern);
  const auto it = std::lower_bound(g.values.begin(), g.values.end(), a);
  if (it == g.values.end()) return static_cast<uint16_t>(sign | g.patterns.back());  // above max, below overflow
  const size_t hi = static_cast<size_t>(it - g.values.begin());
  if (g.values[hi] == a) return static_cast<uint16_t>(sign | g.patterns[hi]);
  const size_t lo = hi - 1;
  const double dlo = a - g.values[lo], dhi = g.values[hi] - a;
  size_t pick = dlo < dhi ? lo : dhi < dlo ? hi : ((g.patterns[lo] & 1) ? hi : lo);
  return static_cast<uint16_t>(sign | g.patterns[pick]);
}

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

template <typename Narrow, typename Widen>
void check_all(Narrow narrow, Widen widen, uint16_t inf_pattern) {
  const Grid g = make_grid(widen, inf_pattern);
  // Every 16-bit pattern widens exactly and narrows back to itself (NaNs stay NaN).
  for (uint32_t h = 0; h < 65536; ++h) {
    const float f = widen(static_cast<uint16_t>(h));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(widen(narrow(f)))) << std::hex << h;
      continue;
    }
    ASSERT_EQ(narrow(f), h) << std::hex << h;
  }
  // Midpoints between neighbours (the ties) and their f32 neighbours on both sides.
  for (size_t i = 0; i + 1 < g.values.size(); ++i) {
    const float mid = static_cast<float>((g.values[i] + g.values[i + 1]) / 2);
    for (float f : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)})
      for (float s : {f, -f}) ASSERT_EQ(narrow(s), oracle(g, s, inf_pattern)) << std::hex << bits(s);
  }
  // A sweep over all f32 patterns with a stride that visits every exponent and many mantissas.
  for (uint64_t u = 0; u <= 0xffffffffull; u += 4093) {
    const float f = std::bit_cast<float>(static_cast<uint32_t>(u));
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(widen(narrow(f))));
      continue;
    }
    ASSERT_EQ(narrow(f), oracle(g, f, inf_pattern)) << std::hex << bits(f);
  }
}

// Widening against the definition of binary16: (-1)^s * 2^(e-15) * 1.m, or 2^-14 * 0.m.
TEST(DType, F16WidensToItsValue) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    const float f = vt::f16_bits_to_f32(static_cast<uint16_t>(h));
    if (e == 0x1f) {
      EXPECT_TRUE(m ? std::isnan(f) : std::isinf(f)) << std::hex << h;
      if (m) {
        EXPECT_EQ((bits(f) >> 13) & 0x3ffu, m) << "NaN payload of " << std::hex << h;
      }
    } else {
      const double v = e ? std::ldexp(1024.0 + m, static_cast<int>(e) - 25) : std::ldexp(static_cast<double>(m), -24);
      ASSERT_EQ(static_cast<double>(f), (h & 0x8000u) ? -v : v) << std::hex << h;
    }
    EXPECT_EQ(std::signbit(f), (h & 0x8000u) != 0) << std::hex << h;
  }
}

TEST(DType, Bf16RoundsToNearestEven) { check_all(vt::f32_to_bf16_bits, vt::bf16_bits_to_f32, 0x7f80); }

TEST(DType, F16RoundsToNearestEven) { check_all(vt::f32_to_f16_bits, vt::f16_bits_to_f32, 0x7c00); }

TEST(DType, SpecialValues) {
  EXPECT_EQ(vt::f32_to_bf16_bits(INFINITY), 0x7f80);
  EXPECT_EQ(vt::f32_to_bf16_bits(-INFINITY), 0xff80);
  EXPECT_EQ(vt::f32_to_f16_bits(INFINITY), 0x7c00);
  EXPECT_EQ(vt::f32_to_f16_bits(-0.0f), 0x8000);
  EXPECT_EQ(vt::f32_to_f16_bits(65504.0f), 0x7bff);
  EXPECT_EQ(vt::f32_to_f16_bits(65520.0f), 0x7c00);          // the tie above the maximum
  EXPECT_EQ(vt::f32_to_f16_bits(std::ldexp(1.0f, -24)), 1);  // smallest subnormal
  EXPECT_EQ(vt::f32_to_f16_bits(std::ldexp(1.0f, -25)), 0);  // its half: tie to even zero
  // A NaN whose payload sits only in the low bits must not become infinity.
  const float low_nan = std::bit_cast<float>(0x7f800001u);
  EXPECT_TRUE(std::isnan(vt::bf16_bits_to_f32(vt::f32_to_bf16_bits(low_nan))));
  EXPECT_TRUE(std::isnan(vt::f16_bits_to_f32(vt::f32_to_f16_bits(low_nan))));
}

TEST(DType, NamesAndSizes) {
  EXPECT_EQ(vt::dtype_size(vt::DType::bf16), 2u);
  EXPECT_EQ(vt::dtype_size(vt::DType::u8), 1u);
  EXPECT_EQ(vt::dtype_from_name("bool"), vt::DType::u8);
  EXPECT_EQ(vt::dtype_from_name("f16"), vt::DType::f16);
  EXPECT_FALSE(vt::dtype_from_name("f64").has_value());
  EXPECT_FALSE(vt::dtype_is_valid(17));
}

}  // namespace
