#include "vt/opcheck/case_memory.hpp"

#include <cstring>

#include "vt/error.hpp"

namespace vt::opcheck {

uint64_t TensorSlot::element_offset(const Index& index) const {
  int64_t e = 0;
  for (size_t d = 0; d < rank(); ++d) e += index[d] * strides[d];
  return offset + static_cast<uint64_t>(e) * dtype_size(dtype);
}

std::string TensorSlot::element_name(const Index& index) const {
  std::string s = name + "[";
  for (size_t d = 0; d < rank(); ++d) s += (d ? ", " : "") + std::to_string(index[d]);
  return s + "]";
}

int CaseMemory::add(std::string name, Role role, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
                    int64_t lead) {
  if (shape.empty() || shape.size() > VT_MAX_RANK) throw Error(Status::invalid_argument, name + ": rank 1..4 only");
  if (strides.empty()) {
    strides.assign(shape.size(), 1);
    for (size_t d = shape.size() - 1; d-- > 0;) strides[d] = strides[d + 1] * shape[d + 1];
  }
  int64_t span = 0;  // elements the view can reach, plus one
  bool empty = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    span += (shape[d] - 1) * strides[d];
    empty = empty || shape[d] == 0;
  }
  span = empty ? 0 : span + 1;
  const uint64_t size = dtype_size(dtype);
  TensorSlot s{std::move(name), role, dtype, std::move(shape), std::move(strides), 0, 0};
  s.offset = kGuardBytes + static_cast<uint64_t>(lead) * size;
  s.bytes = s.offset + static_cast<uint64_t>(span) * size + kGuardBytes;
  slots_.push_back(std::move(s));
  images_.emplace_back(slots_.back().bytes, kGuardByte);
  const int id = count() - 1;
  if (role == Role::output)
    for_each(id, [&](const Index&, uint64_t at) { std::memset(images_.back().data() + at, kPoisonByte, size); });
  return id;
}

int CaseMemory::find(std::string_view name) const {
  for (int id = 0; id < count(); ++id)
    if (slot(id).name == name) return id;
  throw Error(Status::not_found, "case memory: no tensor named " + std::string(name));
}

void CaseMemory::store(int id, uint64_t byte_offset, float value) {
  uint8_t* p = images_[static_cast<size_t>(id)].data() + byte_offset;
  switch (slot(id).dtype) {
    case DType::f16:
    case DType::bf16: {
      const uint16_t h = slot(id).dtype == DType::f16 ? f32_to_f16_bits(value) : f32_to_bf16_bits(value);
      std::memcpy(p, &h, sizeof h);
      return;
    }
    case DType::f32: std::memcpy(p, &value, sizeof value); return;
    default: throw Error(Status::invalid_argument, slot(id).name + ": not a float tensor");
  }
}

float CaseMemory::load(DType dtype, const uint8_t* p) {
  if (dtype == DType::f16 || dtype == DType::bf16) {
    uint16_t h;
    std::memcpy(&h, p, sizeof h);
    return dtype == DType::f16 ? f16_bits_to_f32(h) : bf16_bits_to_f32(h);
  }
  float f;
  std::memcpy(&f, p, sizeof f);
  return f;
}

void CaseMemory::set_ints(int id, std::span<const int32_t> values) {
  const TensorSlot& s = slot(id);
  if (s.shape.size() != 1 || static_cast<size_t>(s.shape[0]) != values.size())
    throw Error(Status::invalid_argument, s.name + ": " + std::to_string(values.size()) + " values for its shape");
  Image& image = images_[static_cast<size_t>(id)];
  for (size_t i = 0; i < values.size(); ++i) {
    uint8_t* p = image.data() + s.offset + i * dtype_size(s.dtype) * static_cast<uint64_t>(s.strides[0]);
    if (s.dtype == DType::u8) {
      *p = static_cast<uint8_t>(values[i]);
    } else if (s.dtype == DType::i32) {
      std::memcpy(p, &values[i], sizeof values[i]);
    } else {
      throw Error(Status::invalid_argument, s.name + ": not an integer tensor");
    }
  }
}

void CaseMemory::take_float_contents(const CaseMemory& donor) {
  if (donor.count() != count())
    throw Error(Status::invalid_argument, "take_float_contents: the donor has " + std::to_string(donor.count()) +
                                              " tensors, this memory " + std::to_string(count()));
  for (size_t i = 0; i < slots_.size(); ++i) {
    const TensorSlot &a = slots_[i], &b = donor.slots_[i];
    if (a.name != b.name || a.dtype != b.dtype || a.shape != b.shape || a.strides != b.strides ||
        a.offset != b.offset || a.bytes != b.bytes)
      throw Error(Status::invalid_argument,
                  "take_float_contents: tensor " + a.name + " is laid out differently in the donor");
    if (a.dtype == DType::f32 || a.dtype == DType::f16 || a.dtype == DType::bf16) images_[i] = donor.images_[i];
  }
}

void CaseMemory::allocate(const Device& device) {
  buffers_.clear();
  for (const TensorSlot& s : slots_) buffers_.push_back(device.alloc(s.bytes));
}

void CaseMemory::upload(Queue& queue) {
  for (size_t i = 0; i < buffers_.size(); ++i) queue.upload(buffers_[i], 0, images_[i].data(), images_[i].size());
  queue.sync();
}

Images CaseMemory::download(Queue& queue) const {
  Images out;
  for (size_t i = 0; i < buffers_.size(); ++i) {
    out.emplace_back(images_[i].size());
    queue.download(out.back().data(), buffers_[i], 0, out.back().size());
  }
  queue.sync();
  return out;
}

void CaseMemory::fill_device(Queue& queue, int id, uint8_t value) {
  const TensorSlot& s = slot(id);
  queue.fill(buffers_.at(static_cast<size_t>(id)), s.offset, value, s.bytes - kGuardBytes - s.offset);
}

void CaseMemory::copy_device(Queue& queue, int dst, const CaseMemory& from, int src) {
  const TensorSlot &d = slot(dst), &s = from.slot(src);
  if (d.dtype != s.dtype || d.shape != s.shape || d.strides != s.strides)
    throw Error(Status::invalid_argument,
                "copy_device: " + s.name + " and " + d.name + " differ in dtype, shape or strides");
  queue.copy(buffers_.at(static_cast<size_t>(dst)), d.offset, from.buffers_.at(static_cast<size_t>(src)), s.offset,
             s.bytes - kGuardBytes - s.offset);
}

TensorView CaseMemory::view(int id) const {
  const TensorSlot& s = slot(id);
  const Buffer& b = buffers_.at(static_cast<size_t>(id));
  const auto& n = s.shape;
  const auto& st = s.strides;
  switch (n.size()) {
    case 1: return TensorView::strided(b, s.dtype, {n[0]}, {st[0]}, s.offset);
    case 2: return TensorView::strided(b, s.dtype, {n[0], n[1]}, {st[0], st[1]}, s.offset);
    case 3: return TensorView::strided(b, s.dtype, {n[0], n[1], n[2]}, {st[0], st[1], st[2]}, s.offset);
    default: return TensorView::strided(b, s.dtype, {n[0], n[1], n[2], n[3]}, {st[0], st[1], st[2], st[3]}, s.offset);
  }
}

void CaseMemory::rebind_to_host(vt_tensor& tensor, Images& images) const {
  if (tensor.mem == nullptr) return;  // an absent optional tensor
  for (size_t i = 0; i < buffers_.size(); ++i) {
    if (buffers_[i].handle() == tensor.mem) {
      tensor.mem = reinterpret_cast<vt_mem>(images[i].data());
      return;
    }
  }
  throw Error(Status::internal, "rebind_to_host: a tensor outside the case's buffers");
}

}  // namespace vt::opcheck
