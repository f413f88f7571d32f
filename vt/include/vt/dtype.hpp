// Element types and the exact conversions between f32 and the 16-bit float types.
// Narrowing rounds to nearest even and keeps NaN a NaN; widening is exact.
#pragma once
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

#include "vt/plugin_abi.h"

namespace vt {

enum class DType : uint32_t {
  f32 = VT_DTYPE_F32,
  f16 = VT_DTYPE_F16,
  bf16 = VT_DTYPE_BF16,
  i32 = VT_DTYPE_I32,
  u8 = VT_DTYPE_U8,
};

constexpr uint32_t dtype_size(DType t) {
  switch (t) {
    case DType::f32: case DType::i32: return 4;
    case DType::f16: case DType::bf16: return 2;
    case DType::u8: return 1;
  }
  return 0;
}

constexpr std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::f32: return "f32";
    case DType::f16: return "f16";
    case DType::bf16: return "bf16";
    case DType::i32: return "i32";
    case DType::u8: return "u8";
  }
  return "?";
}

constexpr std::optional<DType> dtype_from_name(std::string_view s) {
  for (DType t : {DType::f32, DType::f16, DType::bf16, DType::i32, DType::u8})
    if (dtype_name(t) == s) return t;
  if (s == "bool") return DType::u8;
  return std::nullopt;
}

constexpr bool dtype_is_valid(uint32_t raw) { return raw <= VT_DTYPE_U8; }

// bf16 is the top half of an f32.
constexpr uint16_t f32_to_bf16_bits(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);  // quiet NaN
  const uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>((u + rounding) >> 16);
}

constexpr float bf16_bits_to_f32(uint16_t h) { return std::bit_cast<float>(uint32_t{h} << 16); }

// IEEE binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
constexpr uint16_t f32_to_f16_bits(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const uint32_t abs = u & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));  // NaN
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf (or is inf)
  if (abs < 0x38800000u) {
    // Result is subnormal or zero: value = m * 2^-24 with m = round(abs_value * 2^24).
    if (abs < 0x33000000u) return sign;  // below half the smallest subnormal: rounds to zero
    const uint32_t exp = abs >> 23;               // biased, 102..112
    const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126u - exp;            // 14..24: bits dropped
    uint32_t q = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u))) ++q;
    return static_cast<uint16_t>(sign | q);
  }
  // Normal: rebias exponent (127 -> 15) and round the 13 dropped bits to nearest even.
  uint32_t v = abs - 0x38000000u;
  v += 0xfffu + ((v >> 13) & 1u);
  return static_cast<uint16_t>(sign | (v >> 13));
}

constexpr float f16_bits_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1fu) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
  if (mant == 0) return std::bit_cast<float>(sign);
  uint32_t e = 113;  // normalise the subnormal
  while ((mant & 0x400u) == 0) { mant <<= 1; --e; }
  return std::bit_cast<float>(sign | (e << 23) | ((mant & 0x3ffu) << 13));
}

}  // namespace vt
