// The memory of one op case: one buffer per tensor, the tensor in the middle with guard
// bytes on both sides, kept as host images. The same images are uploaded to the device under
// test and handed to the scalar reference on the host, so the two runs start from identical
// bytes and their results compare byte for byte, guards and gaps included.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vt/device.hpp"
#include "vt/dtype.hpp"
#include "vt/tensor.hpp"

namespace vt::opcheck {

using Image = std::vector<uint8_t>;
using Images = std::vector<Image>;
using Index = std::array<int64_t, VT_MAX_RANK>;

// What the op does with a tensor: reads it, writes it (poisoned before the call), or both.
enum class Role { input, output, inout };

struct TensorSlot {
  std::string name;
  Role role = Role::input;
  DType dtype = DType::f32;
  std::vector<int64_t> shape, strides;  // element strides
  uint64_t offset = 0;                  // bytes from the buffer start to element [0, ...]
  uint64_t bytes = 0;                   // the whole buffer, guards included

  size_t rank() const { return shape.size() < VT_MAX_RANK ? shape.size() : VT_MAX_RANK; }
  uint64_t element_offset(const Index& index) const;
  std::string element_name(const Index& index) const;  // "out[3, 17]"
};

class CaseMemory {
 public:
  static constexpr uint64_t kGuardBytes = 64;
  static constexpr uint8_t kGuardByte = 0xa5;
  // All-ones is a NaN in f32, f16 and bf16, and no hardware's canonical NaN, so an element
  // left unwritten is told apart from a computed NaN.
  static constexpr uint8_t kPoisonByte = 0xff;

  // A buffer holding one view, row-major when `strides` is empty. `lead` elements of gap
  // precede element [0, ...] (a row view's column offset). Gaps and guards hold the guard
  // pattern; output elements are poisoned; input and inout elements are for the case to fill.
  int add(std::string name, Role role, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides = {},
          int64_t lead = 0);

  int count() const { return static_cast<int>(slots_.size()); }
  int find(std::string_view name) const;  // throws vt::Error when no slot has that name
  const TensorSlot& slot(int id) const { return slots_[static_cast<size_t>(id)]; }
  const Images& initial() const { return images_; }

  // Calls f(index, byte offset) for every element of a slot in row-major index order.
  template <class F>
  void for_each(int id, F&& f) const {
    const TensorSlot& s = slot(id);
    const size_t rank = s.rank();
    for (size_t d = 0; d < rank; ++d)
      if (s.shape[d] == 0) return;
    Index index{};
    for (;;) {  // an odometer over the index, last dimension fastest
      f(static_cast<const Index&>(index), s.element_offset(index));
      for (size_t d = rank;;) {
        if (d == 0) return;  // every dimension wrapped: done
        --d;
        if (++index[d] < s.shape[d]) break;
        index[d] = 0;
      }
    }
  }
  // Sets every element of a float slot to f(index), rounded to the slot's dtype.
  template <class F>
  void fill(int id, F&& f) {
    for_each(id, [&](const Index& index, uint64_t at) { store(id, at, f(index)); });
  }
  void store(int id, uint64_t byte_offset, float value);   // rounded to the slot's dtype
  void set_ints(int id, std::span<const int32_t> values);  // a 1-D i32 or u8 slot
  static float load(DType dtype, const uint8_t* p);

  // Replaces the images of the float tensors with `donor`'s, a memory of identical layout
  // (the same case parameters with another seed); integer tensors keep theirs. Outputs come
  // poisoned from the donor. Throws vt::Error when a tensor's layout differs.
  void take_float_contents(const CaseMemory& donor);

  // The device side: buffers on one device holding copies of the images.
  void allocate(const Device& device);
  void upload(Queue& queue);
  Images download(Queue& queue) const;
  // Enqueued on `queue`: every byte of tensor `id`'s view (first to last element, gaps
  // included) set to `value`.
  void fill_device(Queue& queue, int id, uint8_t value);
  // Enqueued on `queue`: tensor `src` of `from` (bound on the same device) copied into tensor
  // `dst`, which must have the same dtype, shape and strides.
  void copy_device(Queue& queue, int dst, const CaseMemory& from, int src);
  TensorView view(int id) const;
  // Points a validated argument's tensor at the same bytes in host images (for the reference).
  void rebind_to_host(vt_tensor& tensor, Images& images) const;

 private:
  std::vector<TensorSlot> slots_;
  Images images_;
  std::vector<Buffer> buffers_;
};

}  // namespace vt::opcheck
