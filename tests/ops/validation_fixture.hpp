// Shared pieces of the op validation tests: CPU-only runtimes, poisoned buffers, and the
// check that a rejected call names its rule and wrote nothing.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "vt/ops/gdn.hpp"
#include "vt/vt.hpp"

namespace ops_test {

vt::Runtime& runtime();        // the CPU plugin alone
vt::Runtime& deep_runtime();   // the same with deep validation on
vt::Runtime& other_runtime();  // a second runtime: its cpu:0 is another device
inline vt::Device device() { return runtime().device("cpu:0"); }
inline vt::Device other_device() { return other_runtime().device("cpu:0"); }

// The provider a call of `op` on device() would run first, or "" while the CPU plugin has none.
std::string first_provider(vt_op_id op);
inline bool has_provider(vt_op_id op) { return !first_provider(op).empty(); }

constexpr uint8_t kPoison = 0xA5;

// Owns every buffer of one test; each is filled with kPoison when allocated.
class Arena {
 public:
  explicit Arena(vt::Device device = ops_test::device());

  vt::Queue& queue() { return queue_for(device_); }
  vt::Device device() const { return device_; }

  // A tensor in a buffer of its own, sized to fit; tensor_on puts it on another device.
  vt::TensorView tensor(vt::DType t, std::initializer_list<int64_t> shape);
  vt::TensorView strided(vt::DType t, std::initializer_list<int64_t> shape, std::initializer_list<int64_t> strides,
                         uint64_t offset_bytes = 0);
  vt::TensorView tensor_on(const vt::Device& on, vt::DType t, std::initializer_list<int64_t> shape);
  // Another view into the buffer that holds `base`.
  vt::TensorView alias(const vt::TensorView& base, vt::DType t, std::initializer_list<int64_t> shape,
                       std::initializer_list<int64_t> strides, uint64_t offset_bytes);
  // A 1-D tensor holding `values`.
  vt::TensorView i32(const std::vector<int32_t>& values);
  vt::TensorView u8(const std::vector<uint8_t>& values);
  void write(const vt::TensorView& t, const void* data, uint64_t bytes);

  // The bytes of every buffer, in allocation order.
  std::vector<std::vector<uint8_t>> snapshot();

 private:
  vt::Buffer& add(const vt::Device& on, uint64_t bytes);
  vt::Queue& queue_for(const vt::Device& on);

  vt::Device device_;
  std::vector<std::unique_ptr<vt::Buffer>> buffers_;
  std::vector<std::pair<vt::Device, vt::Queue>> queues_;
};

// Runs `call`, which must throw vt::Error(invalid_argument) with exactly `message` (or, for
// expect_rejected_with, a message containing `part`), leaving every buffer of `arena` as it was.
void expect_rejected(Arena& arena, const std::function<void()>& call, const std::string& message);
void expect_rejected_with(Arena& arena, const std::function<void()>& call, const std::string& part);

}  // namespace ops_test
