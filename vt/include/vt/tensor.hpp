// Tensor views: a strided window (rank <= 4, 64-bit shapes and element strides) into a
// device buffer. A view does not own memory; the buffer must outlive it.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "vt/dtype.hpp"
#include "vt/export.hpp"
#include "vt/plugin_abi.h"

namespace vt {

class Buffer;
struct TensorViewBuilder;
class Device;
namespace detail {
struct DeviceRecord;
}

class VT_API TensorView {
 public:
  TensorView() = default;  // an absent optional tensor
  // A contiguous row-major view starting offset_bytes into the buffer.
  static TensorView contiguous(const Buffer& buffer, DType dtype, std::initializer_list<int64_t> shape,
                               uint64_t offset_bytes = 0);
  // A view with explicit element strides (same rank as shape).
  static TensorView strided(const Buffer& buffer, DType dtype, std::initializer_list<int64_t> shape,
                            std::initializer_list<int64_t> strides, uint64_t offset_bytes = 0);

  bool present() const { return raw_.mem != nullptr || device_ != nullptr; }
  DType dtype() const { return static_cast<DType>(raw_.dtype); }
  uint32_t rank() const { return raw_.rank; }
  int64_t size(uint32_t dim) const { return raw_.shape[dim]; }
  int64_t stride(uint32_t dim) const { return raw_.strides[dim]; }
  int64_t numel() const;
  bool is_contiguous() const;
  // The byte range [first, last) this view can touch, relative to the buffer start.
  uint64_t first_byte() const { return raw_.offset; }
  uint64_t end_byte() const;
  uint64_t buffer_bytes() const { return buffer_bytes_; }
  Device device() const;
  bool same_memory(const TensorView& other) const { return raw_.mem == other.raw_.mem; }
  bool overlaps(const TensorView& other) const;
  std::string describe() const;  // "bf16[4, 8] strides [8, 1]"

  const vt_tensor& raw() const { return raw_; }

 private:
  friend struct TensorViewBuilder;
  vt_tensor raw_{};
  uint64_t buffer_bytes_ = 0;
  const detail::DeviceRecord* device_ = nullptr;
};

}  // namespace vt
