// Rows of elements to and from f32 work buffers, converted exactly as element.hpp's
// load_float and store_float convert (called with a constant dtype, their switch folds away
// and the contiguous loops vectorise). `stride` is in elements; 1 is the contiguous case.
#pragma once
#include <cstdint>

#include "variant.hpp"
#include "vt/reference/element.hpp"

VT_FAST_BEGIN

template <vt_dtype D>
inline constexpr int64_t kSize = D == VT_DTYPE_F32 ? 4 : 2;

template <vt_dtype D>
void widen_as(const char* src, int64_t stride, int64_t n, float* __restrict dst) {
  if (stride == 1) {
    for (int64_t i = 0; i < n; ++i) dst[i] = reference::load_float(D, src + i * kSize<D>);
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = reference::load_float(D, src + i * stride * kSize<D>);
  }
}

template <vt_dtype D>
void narrow_as(const float* __restrict src, int64_t n, char* dst, int64_t stride) {
  if (stride == 1) {
    for (int64_t i = 0; i < n; ++i) reference::store_float(D, dst + i * kSize<D>, src[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) reference::store_float(D, dst + i * stride * kSize<D>, src[i]);
  }
}

// dst[i] = the element at src + i * stride, as f32.
inline void widen(vt_dtype dtype, const char* src, int64_t stride, int64_t n, float* __restrict dst) {
  switch (dtype) {
    case VT_DTYPE_F16: return widen_as<VT_DTYPE_F16>(src, stride, n, dst);
    case VT_DTYPE_BF16: return widen_as<VT_DTYPE_BF16>(src, stride, n, dst);
    default: return widen_as<VT_DTYPE_F32>(src, stride, n, dst);
  }
}

// The element at dst + i * stride = src[i], rounded to dtype.
inline void narrow(vt_dtype dtype, const float* __restrict src, int64_t n, char* dst, int64_t stride) {
  switch (dtype) {
    case VT_DTYPE_F16: return narrow_as<VT_DTYPE_F16>(src, n, dst, stride);
    case VT_DTYPE_BF16: return narrow_as<VT_DTYPE_BF16>(src, n, dst, stride);
    default: return narrow_as<VT_DTYPE_F32>(src, n, dst, stride);
  }
}

VT_FAST_END
