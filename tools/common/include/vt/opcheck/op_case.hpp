// One op case: seeded inputs in guarded case memory, a call through the public API on the
// device under test, and the scalar reference's answer on host copies of the same bytes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "vt/device.hpp"
#include "vt/opcheck/case_memory.hpp"
#include "vt/plugin_abi.h"

namespace vt::opcheck {

class OpCase {
 public:
  OpCase(std::string name, vt_op_id op, uint64_t seed) : name_(std::move(name)), op_(op), seed_(seed) {}
  virtual ~OpCase() = default;
  OpCase(const OpCase&) = delete;
  OpCase& operator=(const OpCase&) = delete;

  const std::string& name() const { return name_; }
  vt_op_id op() const { return op_; }
  uint64_t seed() const { return seed_; }
  const std::string& shape() const { return shape_; }  // dims, dtypes and options in one line
  const CaseMemory& memory() const { return memory_; }

  // Chains cases: input `input` takes the values `from`'s reference wrote to `output` (same
  // shape; converted to the input's dtype). Call before bind().
  void feed(std::string_view input, OpCase& from, std::string_view output);

  // Allocates the buffers on the queue's device, uploads the initial images and builds the
  // call (uploading a chunk plan when the case has one).
  void bind(Queue& queue);
  // Restores the initial images on the bound device.
  void reset(Queue& queue) { memory_.upload(queue); }
  // Fresh values in the same tensors: the float tensors (inputs, state; outputs poisoned)
  // take `donor`'s initial images, a case of the same parameters built from another seed.
  // Integer tensors (lengths, slots, flags) keep theirs, since the bound call may hold host
  // copies of them. expected() follows; reset() puts the new images into the bound buffers,
  // so a call captured on them sees the new values.
  void refill_from(const OpCase& donor);
  // Device-side counterpart of feed(), enqueued on `queue`: `from`'s output tensor (bound on
  // the same device) copied into this case's input tensor (same dtype, shape and strides).
  void copy_from(Queue& queue, std::string_view input, const OpCase& from, std::string_view output);
  // Enqueued on `queue`: a bound tensor's bytes overwritten with the poison pattern.
  void poison(Queue& queue, std::string_view name) {
    memory_.fill_device(queue, memory_.find(name), CaseMemory::kPoisonByte);
  }
  // Runs the op through the public API on the bound device; returns the provider's name.
  virtual std::string_view run(Queue& queue) = 0;
  Images download(Queue& queue) const { return memory_.download(queue); }

  // The scalar reference's result on host copies of the initial images, computed once.
  // Needs bind(): the arguments are validated exactly as the device call validates them.
  const Images& expected();

  // Bytes that must move at the floor of performance.md (each input read once, each output
  // written once), for GB/s.
  virtual uint64_t floor_bytes() const = 0;

 protected:
  virtual void build_call(Queue& queue) = 0;
  virtual void run_reference(Images& host) const = 0;

  CaseMemory memory_;
  std::string shape_;
  Device device_;

 private:
  std::string name_;
  vt_op_id op_;
  uint64_t seed_;
  std::optional<Images> expected_;
};

// Throws vt::Error naming the case when the reference returns a failure status.
void check_reference_status(const OpCase& c, vt_status status);

}  // namespace vt::opcheck
