#include "validation_fixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ops_test {
namespace {

vt::Knobs cpu_only(bool deep) {
  vt::Knobs k;
  k.plugins = std::vector<std::string>{VT_CPU_PLUGIN};
  k.deep_validate = deep;
  return k;
}

// Bytes a view can touch from the buffer start, sized with at least one element so that an
// empty view still gets a real buffer.
uint64_t bytes_for(vt::DType t, std::initializer_list<int64_t> shape, std::initializer_list<int64_t> strides,
                   uint64_t offset) {
  int64_t last = 0;
  auto st = strides.begin();
  for (int64_t s : shape) last += (std::max<int64_t>(s, 1) - 1) * *st++;
  return offset + static_cast<uint64_t>(last + 1) * vt::dtype_size(t);
}

std::vector<int64_t> row_major_strides(std::initializer_list<int64_t> shape) {
  std::vector<int64_t> st(shape.size());
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    st[d] = stride;
    stride *= std::max<int64_t>(shape.begin()[d], 1);
  }
  return st;
}

}  // namespace

// Built once per process: loading the plugin per test would dominate the suite's time.
vt::Runtime& runtime() {
  static vt::Runtime rt(cpu_only(false));
  rt.load();
  return rt;
}

vt::Runtime& deep_runtime() {
  static vt::Runtime rt(cpu_only(true));
  rt.load();
  return rt;
}

vt::Runtime& other_runtime() {
  static vt::Runtime rt(cpu_only(false));
  rt.load();
  return rt;
}

std::string first_provider(vt_op_id op) {
  const auto chain = runtime().selection(op, device());
  return chain.empty() ? "" : chain.front();
}

Arena::Arena(vt::Device device) : device_(device) {}

vt::Queue& Arena::queue_for(const vt::Device& on) {
  for (auto& [d, q] : queues_)
    if (d == on) return q;
  queues_.emplace_back(on, on.create_queue());
  return queues_.back().second;
}

vt::Buffer& Arena::add(const vt::Device& on, uint64_t bytes) {
  buffers_.push_back(std::make_unique<vt::Buffer>(on.alloc(bytes)));
  vt::Buffer& b = *buffers_.back();
  queue_for(on).fill(b, 0, kPoison, bytes);
  queue_for(on).sync();
  return b;
}

vt::TensorView Arena::tensor(vt::DType t, std::initializer_list<int64_t> shape) { return tensor_on(device_, t, shape); }

vt::TensorView Arena::tensor_on(const vt::Device& on, vt::DType t, std::initializer_list<int64_t> shape) {
  const std::vector<int64_t> st = row_major_strides(shape);
  const uint64_t bytes =
      static_cast<uint64_t>(st.empty() ? 1 : st[0] * std::max<int64_t>(shape.begin()[0], 1)) * vt::dtype_size(t);
  return vt::TensorView::contiguous(add(on, bytes), t, shape);
}

vt::TensorView Arena::strided(vt::DType t, std::initializer_list<int64_t> shape, std::initializer_list<int64_t> strides,
                              uint64_t offset_bytes) {
  vt::Buffer& b = add(device_, bytes_for(t, shape, strides, offset_bytes));
  return vt::TensorView::strided(b, t, shape, strides, offset_bytes);
}

vt::TensorView Arena::alias(const vt::TensorView& base, vt::DType t, std::initializer_list<int64_t> shape,
                            std::initializer_list<int64_t> strides, uint64_t offset_bytes) {
  for (auto& b : buffers_)
    if (b->handle() == base.raw().mem) return vt::TensorView::strided(*b, t, shape, strides, offset_bytes);
  throw std::logic_error("alias: base is not in this arena");
}

void Arena::write(const vt::TensorView& t, const void* data, uint64_t bytes) {
  for (auto& b : buffers_)
    if (b->handle() == t.raw().mem) {
      queue_for(b->device()).upload(*b, t.first_byte(), data, bytes);
      queue_for(b->device()).sync();
      return;
    }
  throw std::logic_error("write: tensor is not in this arena");
}

vt::TensorView Arena::i32(const std::vector<int32_t>& values) {
  const auto t = tensor(vt::DType::i32, {static_cast<int64_t>(values.size())});
  write(t, values.data(), values.size() * sizeof(int32_t));
  return t;
}

vt::TensorView Arena::u8(const std::vector<uint8_t>& values) {
  const auto t = tensor(vt::DType::u8, {static_cast<int64_t>(values.size())});
  write(t, values.data(), values.size());
  return t;
}

std::vector<std::vector<uint8_t>> Arena::snapshot() {
  std::vector<std::vector<uint8_t>> all;
  for (auto& b : buffers_) {
    all.emplace_back(b->size());
    queue_for(b->device()).download(all.back().data(), *b, 0, b->size());
  }
  for (auto& [d, q] : queues_) q.sync();
  return all;
}

namespace {

void expect_rejected_impl(Arena& arena, const std::function<void()>& call, const std::string& text, bool exact) {
  const auto before = arena.snapshot();
  try {
    call();
    ADD_FAILURE() << "the call was accepted; expected the error: " << text;
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), vt::Status::invalid_argument) << e.what();
    if (exact) EXPECT_EQ(std::string(e.what()), text);
    else EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
  EXPECT_TRUE(arena.snapshot() == before) << "a rejected call changed memory";
}

}  // namespace

void expect_rejected(Arena& arena, const std::function<void()>& call, const std::string& message) {
  expect_rejected_impl(arena, call, message, true);
}

void expect_rejected_with(Arena& arena, const std::function<void()>& call, const std::string& part) {
  expect_rejected_impl(arena, call, part, false);
}

}  // namespace ops_test
