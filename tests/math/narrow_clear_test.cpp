// The rounding test of portable_dtype.h (bf16_if_clear, f16_if_clear): whenever it narrows an
// approximation s, every f32 value of the same sign within `slack` steps of s narrows to the
// same bits (f32_to_bf16, f32_to_f16 give them), and it declines only near a boundary.
// Narrowing is monotone in the magnitude's bits, so checking the two ends of the window
// [s - slack, s + slack] covers every value in it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>

#include "vt/ops/portable_dtype.h"

namespace vt::math::test {
namespace {

using NarrowFn = uint16_t (*)(float);
using ClearFn = bool (*)(float, uint32_t, uint16_t*);

struct Tally {
  uint64_t checked = 0, clear = 0, wrong = 0;
  uint32_t first_wrong = 0;
};

// s's bits u; the window's ends keep s's sign (the magnitude stops at zero).
void check_one(uint32_t u, uint32_t slack, NarrowFn narrow, ClearFn clear, Tally& t) {
  const uint32_t sign = u & 0x80000000u, abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return;  // NaN: not an approximation of anything
  constexpr uint16_t kUntouched = 0x5a5a;
  uint16_t got = kUntouched;
  ++t.checked;
  if (!clear(from_bits(u), slack, &got)) {
    if (got != kUntouched && t.wrong++ == 0) t.first_wrong = u;  // declined but wrote
    return;
  }
  ++t.clear;
  const uint32_t lo = abs > slack ? abs - slack : 0u;
  const uint32_t hi = abs + slack;
  const bool ok = got == narrow(from_bits(u)) && got == narrow(from_bits(sign | lo)) && hi <= 0x7f800000u &&
                  got == narrow(from_bits(sign | hi));
  if (!ok && t.wrong++ == 0) t.first_wrong = u;
}

// Every high half with every low half that can matter (both ends of the range, around the
// bf16 and f16 boundaries) and a seeded random sample of the rest.
Tally sweep(uint32_t slack, NarrowFn narrow, ClearFn clear, uint32_t seed) {
  std::mt19937 rng(seed);
  Tally t;
  for (uint32_t high = 0; high < 0x10000u; ++high) {
    auto low = [&](uint32_t l) { check_one((high << 16) | (l & 0xffffu), slack, narrow, clear, t); };
    for (uint32_t d = 0; d <= 2 * slack + 2; ++d) {
      low(d);
      low(0xffffu - d);
      low(0x8000u - slack - 1 + d);                                               // bf16's tie and around it
      for (uint32_t q = 0; q < 8; ++q) low((q << 13) + 0x1000u - slack - 1 + d);  // f16's ties
    }
    for (int r = 0; r < 16; ++r) low(static_cast<uint32_t>(rng()));
  }
  return t;
}

class NarrowClear : public testing::TestWithParam<uint32_t> {};

TEST_P(NarrowClear, Bf16AgreesWithEveryValueInTheWindow) {
  const uint32_t slack = GetParam(), seed = 0x6e61u + slack;
  std::cout << "seed " << seed << ", slack " << slack << "\n";
  const Tally t = sweep(slack, f32_to_bf16, bf16_if_clear, seed);
  EXPECT_EQ(t.wrong, 0u) << "first at bits 0x" << std::hex << t.first_wrong;
  EXPECT_GT(t.clear, t.checked / 2) << "declines far more than near boundaries";
}

TEST_P(NarrowClear, F16AgreesWithEveryValueInTheWindow) {
  const uint32_t slack = GetParam(), seed = 0x6631u + slack;
  std::cout << "seed " << seed << ", slack " << slack << "\n";
  const Tally t = sweep(slack, f32_to_f16, f16_if_clear, seed);
  EXPECT_EQ(t.wrong, 0u) << "first at bits 0x" << std::hex << t.first_wrong;
  EXPECT_GT(t.clear, 0u);
}

INSTANTIATE_TEST_SUITE_P(Slacks, NarrowClear, testing::Values(0u, 1u, 48u, 200u));

// Below its bound the bounded bf16 test gives the full one's answer and bits: every sign and
// exponent up to 0x1p127, with the low halves around the tie and a few others.
TEST(NarrowClear, Bf16BoundedAgreesWithFullBelowItsBound) {
  const uint32_t slack = 48;
  uint32_t compared = 0;
  for (uint32_t hi = 0; hi <= 0x7f00u; ++hi) {
    for (uint32_t low : {0x0000u, 0x1234u, 0x7fceu, 0x7fcfu, 0x7fd0u, 0x8000u, 0x8030u, 0x8031u, 0xffffu}) {
      for (uint32_t sign : {0u, 0x80000000u}) {
        const uint32_t u = sign | hi << 16 | low;
        if ((u & 0x7fffffffu) > 0x7f000000u) continue;
        uint16_t full = 0xdead, bounded = 0xdead;
        const bool a = bf16_if_clear(from_bits(u), slack, &full);
        const bool b = bf16_if_clear_bounded(from_bits(u), slack, &bounded);
        ASSERT_EQ(a, b) << "bits 0x" << std::hex << u;
        ASSERT_EQ(full, bounded) << "bits 0x" << std::hex << u;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 500000u);
}

// How often each declines in its valid range: only within the slack of a boundary.
TEST(NarrowClearRate, DeclinesOnlyNearBoundaries) {
  uint16_t out = 0;
  uint32_t bf16_declined = 0, f16_declined = 0;
  const uint32_t slack = 48;
  for (uint32_t low = 0; low < 0x10000u; ++low) {
    bf16_declined += !bf16_if_clear(from_bits(0x3fc00000u | low), slack, &out);  // in [1.5, 1.5 + 2^-7)
    f16_declined += !f16_if_clear(from_bits(0x3fc00000u | low), slack, &out);
  }
  EXPECT_EQ(bf16_declined, 2 * slack + 1);
  EXPECT_EQ(f16_declined, 8 * (2 * slack + 1));
  // Outside f16's normal range, and for non-finite or huge values, both go exact.
  EXPECT_FALSE(f16_if_clear(0x1p-15f, slack, &out));
  EXPECT_FALSE(f16_if_clear(0x1.8p15f, slack, &out));
  EXPECT_FALSE(bf16_if_clear(from_bits(0x7f800000u), slack, &out));
  EXPECT_FALSE(bf16_if_clear(from_bits(0x7f7f0001u), slack, &out));
}

}  // namespace
}  // namespace vt::math::test
