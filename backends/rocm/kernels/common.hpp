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

// SiLU narrowed to a 16-bit type by a rounding test (portable_dtype.h): the hardware's exp2
// and reciprocal estimates give an approximation s, and s's narrowing is kept where it must
// equal silu(x)'s; vt::math::silu_fast serves the rest (about 0.15% of bf16 results, 8 times
// as many f16 ones) and |x| > kSiluFastMax. tests/backends/rocm checks every x on the device.
//
// The slack (portable_dtype.h) with these estimates: AMD's v_exp_f32 and v_rcp_f32 are
// within 1 ulp (LLVM's AMDGPUUsage; AMD's ISA text for v_rcp_f32), which gives 31 steps;
// NVIDIA's ex2.approx (2 ulp) and rcp.approx (1 ulp), 33. Their arguments and results are
// normal here, except a subnormal exp2 argument from a tiny x, which flushes to 0: 2^0 is
// its rounded value anyway.
using vt::math::kSiluFastMax;
using vt::math::kSiluSlack;

#if defined(VT_HIP_ON_CUDA)
__device__ __forceinline__ float exp2_estimate(float t) {
  float e;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(t));
  return e;
}
__device__ __forceinline__ float rcp_estimate(float d) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));
  return r;
}
#else
// clang 15 (Debian's ROCm 5.2) has no builtin for v_exp_f32; llvm.exp2 lowers to it only in
// older LLVMs, so the instruction is named where the builtin is missing.
__device__ __forceinline__ float exp2_estimate(float t) {
#if __has_builtin(__builtin_amdgcn_exp2f)
  return __builtin_amdgcn_exp2f(t);
#else
  float e;
  asm("v_exp_f32 %0, %1" : "=v"(e) : "v"(t));
  return e;
#endif
}
__device__ __forceinline__ float rcp_estimate(float d) { return __builtin_amdgcn_rcpf(d); }
#endif

// The approximation, for |x| <= kSiluFastMax.
__device__ __forceinline__ float silu_estimate(float x) {
  return x * rcp_estimate(1.0f + exp2_estimate(x * -0x1.715476p+0f));
}

// Out of line, so that kernels keep one copy of the exact path (HIP's __noinline__ is empty).
template <Elem E>
__device__ __attribute__((noinline)) uint16_t silu_narrow_exact(float x) {
  return ElemTraits<E>::narrow(vt::math::silu_fast(x));
}

template <Elem E>
__device__ __forceinline__ bool narrow_if_clear(float s, uint32_t slack, uint16_t* out) {
  static_assert(E != Elem::f32, "a 16-bit type");
  return E == Elem::bf16 ? vt::math::bf16_if_clear(s, slack, out) : vt::math::f16_if_clear(s, slack, out);
}

// Equal to ElemTraits<E>::narrow(vt::math::silu(x)) for every x.
template <Elem E>
__device__ __forceinline__ uint16_t silu_narrow(float x) {
  uint16_t out;
  if (fabsf(x) <= kSiluFastMax && narrow_if_clear<E>(silu_estimate(x), kSiluSlack, &out)) return out;  // NaN fails
  return silu_narrow_exact<E>(x);
}

// acc, or SiLU of it, as an element of type E.
template <Elem E>
__device__ __forceinline__ typename ElemTraits<E>::raw activated(float acc, bool silu) {
  if constexpr (E == Elem::f32) {
    return silu ? vt::math::silu_fast(acc) : acc;  // silu_fast equals silu bit for bit
  } else {
    return silu ? silu_narrow<E>(acc) : ElemTraits<E>::narrow(acc);
  }
}

// Stores acc, or SiLU of it, as `dtype`: the value the reference's rounding gives.
__device__ __forceinline__ void store_activated(int dtype, char* p, float acc, bool silu) {
  if (dtype == VT_DTYPE_BF16) {
    *reinterpret_cast<uint16_t*>(p) = activated<Elem::bf16>(acc, silu);
  } else if (dtype == VT_DTYPE_F16) {
    *reinterpret_cast<uint16_t*>(p) = activated<Elem::f16>(acc, silu);
  } else {
    *reinterpret_cast<float*>(p) = activated<Elem::f32>(acc, silu);
  }
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
