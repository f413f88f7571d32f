// Device helpers shared by the kernels: tensor views, element loads and stores by dtype
// (through the portable conversions, so the bits are the host's), and the portable math
// compiled for host and device. Nothing here assumes a wavefront size.
#pragma once
#include <stdint.h>

#include "../hip_api.hpp"

#define VT_MATH_FN __host__ __device__ __forceinline__
#define VT_GEOMETRY_FN __host__ __device__ inline
#include "vt/ops/launch_geometry.hpp"
#include "vt/ops/portable_dtype.h"
#include "vt/ops/portable_math.h"
#include "vt/plugin_abi.h"

namespace vt::rocm::kern {

// Element types known at compile time, for the hot loads and stores.
enum class Elem { f32 = VT_DTYPE_F32, f16 = VT_DTYPE_F16, bf16 = VT_DTYPE_BF16 };

template <Elem E>
struct ElemTraits;
template <>
struct ElemTraits<Elem::f32> {
  using raw = float;
  static __device__ __forceinline__ float widen(float v) { return v; }
  static __device__ __forceinline__ float narrow(float v) { return v; }
};
template <>
struct ElemTraits<Elem::f16> {
  using raw = uint16_t;
  static __device__ __forceinline__ float widen(uint16_t v) { return vt::math::f16_to_f32(v); }
  static __device__ __forceinline__ uint16_t narrow(float v) { return vt::math::f32_to_f16(v); }
};
template <>
struct ElemTraits<Elem::bf16> {
  using raw = uint16_t;
  static __device__ __forceinline__ float widen(uint16_t v) { return vt::math::bf16_to_f32(v); }
  static __device__ __forceinline__ uint16_t narrow(float v) { return vt::math::f32_to_bf16(v); }
};

// Element types known only at run time (weights, state, the post-conv outputs).
__device__ __forceinline__ float load(int dtype, const char* p) {
  if (dtype == VT_DTYPE_F32) return *reinterpret_cast<const float*>(p);
  const uint16_t h = *reinterpret_cast<const uint16_t*>(p);
  return dtype == VT_DTYPE_BF16 ? vt::math::bf16_to_f32(h) : vt::math::f16_to_f32(h);
}

__device__ __forceinline__ void store(int dtype, char* p, float v) {
  if (dtype == VT_DTYPE_F32) {
    *reinterpret_cast<float*>(p) = v;
  } else {
    *reinterpret_cast<uint16_t*>(p) = dtype == VT_DTYPE_BF16 ? vt::math::f32_to_bf16(v) : vt::math::f32_to_f16(v);
  }
}

__device__ __forceinline__ int32_t load_int(int dtype, const char* p) {
  return dtype == VT_DTYPE_U8 ? int32_t{*reinterpret_cast<const uint8_t*>(p)} : *reinterpret_cast<const int32_t*>(p);
}

__host__ __device__ __forceinline__ int dtype_bytes(int dtype) {
  return dtype == VT_DTYPE_F32 || dtype == VT_DTYPE_I32 ? 4 : dtype == VT_DTYPE_U8 ? 1 : 2;
}

// Sixteen bytes moved as one load and one store.
struct alignas(16) Word16 {
  uint32_t w[4];
};

// A tensor's base address and strides in bytes, as kernels want them.
struct View {
  char* base;
  int64_t s0, s1, s2;  // byte strides of dims 0..2
  int dtype;
};

inline View view_of(const vt_tensor& t) {
  View v{};
  if (!t.mem) return v;
  const int64_t e = dtype_bytes(t.dtype);
  v.base = reinterpret_cast<char*>(t.mem) + t.offset;
  v.s0 = t.rank > 0 ? t.strides[0] * e : 0;
  v.s1 = t.rank > 1 ? t.strides[1] * e : 0;
  v.s2 = t.rank > 2 ? t.strides[2] * e : 0;
  v.dtype = t.dtype;
  return v;
}

// HIP limits every grid dimension times the block size to 2^32 - 1 threads; CUDA's limits are
// wider on x and the same on y, so one check serves both builds.
constexpr bool grid_fits(int64_t blocks_x, int64_t blocks_y, int32_t block) {
  return blocks_x * block <= 0xffffffffLL && blocks_y <= 0xffff;
}

}  // namespace vt::rocm::kern
