// Element types and the exact conversions between f32 and the 16-bit float types.
// Narrowing rounds to nearest even and keeps NaN a NaN; widening is exact.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "vt/ops/portable_dtype.h"
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
    case DType::f32:
    case DType::i32: return 4;
    case DType::f16:
    case DType::bf16: return 2;
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

// The exact conversions (round to nearest even, NaN kept a NaN) are portable_dtype.h's, the
// same code device kernels compile, so host and device round alike by construction.
// tests/core checks them against a search oracle.
inline uint16_t f32_to_bf16_bits(float f) { return vt::math::f32_to_bf16(f); }
inline float bf16_bits_to_f32(uint16_t h) { return vt::math::bf16_to_f32(h); }
inline uint16_t f32_to_f16_bits(float f) { return vt::math::f32_to_f16(f); }
inline float f16_bits_to_f32(uint16_t h) { return vt::math::f16_to_f32(h); }

}  // namespace vt
