// ops/include/vt/ops/portable_dtype.h, the conversions device kernels use, against the host's
// vt/dtype.hpp (itself checked against a search oracle in tests/core): the same bits for all
// 2^16 patterns of each 16-bit type and for a large sweep of f32 inputs with NaNs,
// infinities, subnormals and every rounding midpoint (and its neighbours) of both types.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "vt/dtype.hpp"
#include "vt/ops/portable_dtype.h"

namespace vt::math::test {
namespace {

uint32_t f32_bits(float f) { return vt::math::bits(f); }

// Every 16-bit pattern widens to the same f32 bits.
TEST(PortableDtype, WideningMatchesOnEvery16BitPattern) {
  uint32_t f16_mismatch = 0, bf16_mismatch = 0, first_f16 = 0x10000u, first_bf16 = 0x10000u;
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    const auto p = static_cast<uint16_t>(h);
    if (f32_bits(vt::math::f16_to_f32(p)) != f32_bits(vt::f16_bits_to_f32(p)) && f16_mismatch++ == 0) first_f16 = h;
    if (f32_bits(vt::math::bf16_to_f32(p)) != f32_bits(vt::bf16_bits_to_f32(p)) && bf16_mismatch++ == 0) first_bf16 = h;
  }
  EXPECT_EQ(f16_mismatch, 0u) << "first at 0x" << std::hex << first_f16;
  EXPECT_EQ(bf16_mismatch, 0u) << "first at 0x" << std::hex << first_bf16;
}

// The f32 inputs of the narrowing sweep, as bit patterns.
std::vector<uint32_t> narrowing_inputs() {
  std::vector<uint32_t> in;
  // A walk over all 2^32 patterns (both signs, NaN payloads, subnormals, infinities).
  for (uint64_t u = 0; u <= 0xffffffffu; u += 251u) in.push_back(static_cast<uint32_t>(u));
  // Every f32 subnormal with a small stride, and the specials exactly.
  for (uint32_t u = 0; u < 0x00800000u; u += 7u) in.push_back(u);
  for (uint32_t u : {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7f800001u, 0x7fc00000u, 0x7fffffffu,
                     0xffc00000u, 0xff800001u, 0x7f7fffffu, 0x00000001u, 0x00800000u})
    in.push_back(u);
  // For every 16-bit value: the f32 midpoint to its successor and the two neighbours of that
  // midpoint, both signs. Ties must go to the even pattern.
  for (uint32_t h = 0; h < 0x7c00u; ++h) {  // f16, finite non-negative
    const float lo = vt::f16_bits_to_f32(static_cast<uint16_t>(h));
    const float hi = h + 1 == 0x7c00u ? 65536.0f : vt::f16_bits_to_f32(static_cast<uint16_t>(h + 1));
    const uint32_t mid = f32_bits(lo + (hi - lo) * 0.5f);  // exact: a 12-bit significand
    for (uint32_t m : {mid - 1u, mid, mid + 1u}) {
      in.push_back(m);
      in.push_back(m | 0x80000000u);
    }
  }
  for (uint32_t h = 0; h < 0x7f80u; ++h) {  // bf16: the midpoint has the low half 0x8000
    const uint32_t mid = (h << 16) | 0x8000u;
    for (uint32_t m : {mid - 1u, mid, mid + 1u}) {
      in.push_back(m);
      in.push_back(m | 0x80000000u);
    }
  }
  // The f16 subnormal and underflow boundaries, densely.
  for (uint32_t base : {0x33000000u, 0x38800000u, 0x477ff000u})
    for (uint32_t d = 0; d < 4096u; ++d) {
      in.push_back(base - 2048u + d);
      in.push_back((base - 2048u + d) | 0x80000000u);
    }
  return in;
}

template <class Under, class Reference>
void expect_same_narrowing(const char* what, Under under, Reference reference) {
  uint64_t mismatches = 0;
  uint32_t first = 0;
  const std::vector<uint32_t> in = narrowing_inputs();
  for (uint32_t u : in) {
    const float f = vt::math::from_bits(u);
    if (under(f) != reference(f) && mismatches++ == 0) first = u;
  }
  EXPECT_EQ(mismatches, 0u) << what << ": first at f32 bits 0x" << std::hex << first << " of " << std::dec
                            << in.size() << " inputs";
}

TEST(PortableDtype, NarrowingMatchesOverTheSweep) {
  expect_same_narrowing("f16", vt::math::f32_to_f16, vt::f32_to_f16_bits);
  expect_same_narrowing("bf16", vt::math::f32_to_bf16, vt::f32_to_bf16_bits);
}

// A round trip through each type is the identity on every non-NaN pattern.
TEST(PortableDtype, NarrowingInvertsWidening) {
  for (uint32_t h = 0; h <= 0xffffu; ++h) {
    const auto p = static_cast<uint16_t>(h);
    if ((h & 0x7c00u) != 0x7c00u || (h & 0x3ffu) == 0u) {
      ASSERT_EQ(vt::math::f32_to_f16(vt::math::f16_to_f32(p)), p) << std::hex << h;
    }
    if ((h & 0x7f80u) != 0x7f80u || (h & 0x7fu) == 0u) {
      ASSERT_EQ(vt::math::f32_to_bf16(vt::math::bf16_to_f32(p)), p) << std::hex << h;
    }
  }
}

// The sweep reaches the ties: rounding them away from zero instead of to even is caught.
TEST(PortableDtype, SweepCatchesWrongTieBreaking) {
  const auto half_away = [](float f) {
    const uint32_t u = vt::math::bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);
    return static_cast<uint16_t>((u + 0x8000u) >> 16);
  };
  uint64_t differ = 0;
  for (uint32_t u : narrowing_inputs()) {
    const float f = vt::math::from_bits(u);
    differ += half_away(f) != vt::f32_to_bf16_bits(f);
  }
  EXPECT_GT(differ, 30000u);  // about half of the 2 * 0x7f80 bf16 ties
}

}  // namespace
}  // namespace vt::math::test
