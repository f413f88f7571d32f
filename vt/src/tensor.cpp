#include "vt/tensor.hpp"

#include <string>

#include "runtime_impl.hpp"
#include "vt/device.hpp"
#include "vt/error.hpp"

namespace vt {
// Access to the private fields for the two factories only.
struct TensorViewBuilder {
  static TensorView build(const Buffer& buffer, DType dtype, const int64_t* shape, const int64_t* strides,
                          uint32_t rank, uint64_t offset_bytes) {
    TensorView v;
    v.raw_.mem = buffer.handle();
    v.raw_.offset = offset_bytes;
    v.raw_.dtype = static_cast<vt_dtype>(dtype);
    v.raw_.rank = rank;
    for (uint32_t i = 0; i < rank; ++i) {
      v.raw_.shape[i] = shape[i];
      v.raw_.strides[i] = strides[i];
    }
    v.buffer_bytes_ = buffer.size();
    v.device_ = buffer.device().record();
    return v;
  }
};

namespace {

TensorView make(const Buffer& buffer, DType dtype, std::initializer_list<int64_t> shape,
                std::initializer_list<int64_t> strides, uint64_t offset_bytes, bool contiguous) {
  const auto rank = static_cast<uint32_t>(shape.size());
  if (rank > VT_MAX_RANK)
    throw Error(Status::invalid_argument,
                "tensor view: rank " + std::to_string(rank) + " > " + std::to_string(VT_MAX_RANK));
  if (!contiguous && strides.size() != shape.size())
    throw Error(Status::invalid_argument,
                "tensor view: " + std::to_string(strides.size()) + " strides for rank " + std::to_string(rank));
  if (!buffer.device().valid()) throw Error(Status::invalid_argument, "tensor view: the buffer is empty or moved-from");
  int64_t sh[VT_MAX_RANK] = {}, st[VT_MAX_RANK] = {};
  uint32_t i = 0;
  for (int64_t s : shape) {
    if (s < 0)
      throw Error(Status::invalid_argument,
                  "tensor view: negative extent " + std::to_string(s) + " in dim " + std::to_string(i));
    sh[i++] = s;
  }
  const auto overflow = [&] {
    return Error(Status::invalid_argument, "tensor view: its extents and strides overflow 64-bit byte offsets");
  };
  if (contiguous) {
    int64_t stride = 1;
    for (uint32_t d = rank; d-- > 0;) {
      st[d] = stride;
      if (__builtin_mul_overflow(stride, sh[d], &stride)) throw overflow();
    }
  } else {
    i = 0;
    for (int64_t s : strides) {
      if (s < 0)
        throw Error(Status::invalid_argument,
                    "tensor view: negative stride " + std::to_string(s) + " in dim " + std::to_string(i));
      st[i++] = s;
    }
  }
  if (offset_bytes % dtype_size(dtype) != 0)
    throw Error(Status::invalid_argument, "tensor view: offset " + std::to_string(offset_bytes) +
                                              " is not a multiple of the " + std::string(dtype_name(dtype)) +
                                              " element size");
  // The element count and the last byte must fit 64 bits before end_byte() may be trusted.
  int64_t count = 1;
  uint64_t last = 0;
  for (uint32_t d = 0; d < rank; ++d) {
    uint64_t term = 0;
    if (__builtin_mul_overflow(count, sh[d], &count)) throw overflow();
    if (sh[d] > 0 && (__builtin_mul_overflow(static_cast<uint64_t>(sh[d] - 1), static_cast<uint64_t>(st[d]), &term) ||
                      __builtin_add_overflow(last, term, &last)))
      throw overflow();
  }
  uint64_t end = 0;
  if (count > 0 && (__builtin_add_overflow(last, uint64_t{1}, &end) ||
                    __builtin_mul_overflow(end, uint64_t{dtype_size(dtype)}, &end) ||
                    __builtin_add_overflow(end, offset_bytes, &end)))
    throw overflow();
  TensorView v = TensorViewBuilder::build(buffer, dtype, sh, st, rank, offset_bytes);
  if (v.end_byte() > buffer.size())
    throw Error(Status::invalid_argument,
                "tensor view: " + v.describe() + " at offset " + std::to_string(offset_bytes) + " reaches byte " +
                    std::to_string(v.end_byte()) + " of a " + std::to_string(buffer.size()) + "-byte buffer");
  return v;
}

}  // namespace

TensorView TensorView::contiguous(const Buffer& buffer, DType dtype, std::initializer_list<int64_t> shape,
                                  uint64_t offset_bytes) {
  return make(buffer, dtype, shape, {}, offset_bytes, true);
}

TensorView TensorView::strided(const Buffer& buffer, DType dtype, std::initializer_list<int64_t> shape,
                               std::initializer_list<int64_t> strides, uint64_t offset_bytes) {
  return make(buffer, dtype, shape, strides, offset_bytes, false);
}

int64_t TensorView::numel() const {
  int64_t n = 1;
  for (uint32_t d = 0; d < raw_.rank; ++d) n *= raw_.shape[d];
  return n;
}

bool TensorView::is_contiguous() const {
  int64_t expect = 1;
  for (uint32_t d = raw_.rank; d-- > 0;) {
    if (raw_.shape[d] != 1 && raw_.strides[d] != expect) return false;
    expect *= raw_.shape[d];
  }
  return true;
}

uint64_t TensorView::end_byte() const {
  if (numel() == 0) return raw_.offset;
  uint64_t last = 0;
  for (uint32_t d = 0; d < raw_.rank; ++d)
    last += static_cast<uint64_t>(raw_.shape[d] - 1) * static_cast<uint64_t>(raw_.strides[d]);
  return raw_.offset + (last + 1) * dtype_size(dtype());
}

bool TensorView::overlaps(const TensorView& other) const {
  if (!present() || !other.present() || !same_memory(other)) return false;
  if (numel() == 0 || other.numel() == 0) return false;
  return first_byte() < other.end_byte() && other.first_byte() < end_byte();
}

Device TensorView::device() const { return Device(device_); }

std::string TensorView::describe() const {
  std::string s(dtype_name(dtype()));
  s += "[";
  for (uint32_t d = 0; d < raw_.rank; ++d) s += (d ? ", " : "") + std::to_string(raw_.shape[d]);
  s += "] strides [";
  for (uint32_t d = 0; d < raw_.rank; ++d) s += (d ? ", " : "") + std::to_string(raw_.strides[d]);
  return s + "]";
}

}  // namespace vt
