// Element access on host-addressable tensors: t.mem is the host address of the buffer, so
// element [i0, i1, ...] lives at (char*)mem + offset + sum(i[d] * strides[d]) * dtype size.
// Float loads widen f32, f16 and bf16 exactly; float stores round to nearest even.
#pragma once
#include <cstdint>
#include <cstring>

#include "vt/dtype.hpp"
#include "vt/plugin_abi.h"

namespace vt::reference {

inline int64_t element_size(vt_dtype dtype) { return dtype_size(static_cast<DType>(dtype)); }

// Address of an element; pass one index per leading dimension used.
template <class... Index>
char* element(const vt_tensor& t, Index... idx) {
  int64_t e = 0;
  uint32_t d = 0;
  ((e += static_cast<int64_t>(idx) * t.strides[d++]), ...);
  return reinterpret_cast<char*>(t.mem) + t.offset + e * element_size(t.dtype);
}

inline float load_float(vt_dtype dtype, const char* p) {
  switch (dtype) {
    case VT_DTYPE_F16:
    case VT_DTYPE_BF16: {
      uint16_t h;
      std::memcpy(&h, p, sizeof h);
      return dtype == VT_DTYPE_F16 ? f16_bits_to_f32(h) : bf16_bits_to_f32(h);
    }
    default: {
      float f;
      std::memcpy(&f, p, sizeof f);
      return f;
    }
  }
}

inline void store_float(vt_dtype dtype, char* p, float v) {
  switch (dtype) {
    case VT_DTYPE_F16:
    case VT_DTYPE_BF16: {
      const uint16_t h = dtype == VT_DTYPE_F16 ? f32_to_f16_bits(v) : f32_to_bf16_bits(v);
      std::memcpy(p, &h, sizeof h);
      return;
    }
    default: std::memcpy(p, &v, sizeof v); return;
  }
}

// Integer metadata (indices, offsets, flags): i32 or u8.
inline int32_t load_int(vt_dtype dtype, const char* p) {
  if (dtype == VT_DTYPE_U8) return static_cast<uint8_t>(*p);
  int32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class... Index>
float load_float(const vt_tensor& t, Index... idx) {
  return load_float(t.dtype, element(t, idx...));
}

template <class... Index>
void store_float(const vt_tensor& t, float v, Index... idx) {
  store_float(t.dtype, element(t, idx...), v);
}

template <class... Index>
int32_t load_int(const vt_tensor& t, Index... idx) {
  return load_int(t.dtype, element(t, idx...));
}

inline bool present(const vt_tensor& t) { return t.mem != nullptr; }

}  // namespace vt::reference
