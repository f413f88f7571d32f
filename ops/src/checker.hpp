// Shared argument checks of the GDN ops. Every failure throws vt::Error(invalid_argument)
// with "<op>: <argument>: <rule>".
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "vt/device.hpp"
#include "vt/dtype.hpp"
#include "vt/tensor.hpp"

namespace vt::ops::detail {

class Checker {
 public:
  // `op` must outlive the checker: the callers pass string literals.
  Checker(std::string_view op, const Device& device) : op_(op), device_(device) {}

  [[noreturn]] void fail(std::string_view arg, const std::string& rule) const;

  // A required tensor: present, on the device, of one of `ranks`.
  void need(const TensorView& t, std::string_view arg, std::initializer_list<uint32_t> ranks) const;
  // An optional tensor: when present, as need().
  bool optional(const TensorView& t, std::string_view arg, std::initializer_list<uint32_t> ranks) const;
  void dtype_in(const TensorView& t, std::string_view arg, std::initializer_list<DType> allowed) const;
  // f32 or the given dtype, the ops.md rule for most outputs and weights.
  void dtype_f32_or(const TensorView& t, std::string_view arg, DType other, std::string_view other_name) const;
  void extent(const TensorView& t, std::string_view arg, uint32_t dim, int64_t expected, std::string_view what) const;
  // Row-major with the innermost stride 1 and outer strides at least the inner span (row
  // views into wider rows are fine; aliasing rows are not).
  void row_major(const TensorView& t, std::string_view arg) const;
  // Any strides, but no two elements at the same address (the state cache).
  void non_aliasing(const TensorView& t, std::string_view arg) const;
  void no_overlap(const TensorView& out, std::string_view out_arg, const TensorView& in, std::string_view in_arg) const;

  // Where `d` is, said so that it reads differently from the queue's device whenever the two
  // differ: a device of another vt::Runtime has the same name, so it says so.
  std::string placement(const Device& d) const;

 private:
  std::string_view op_;  // not a std::string: a call that passes would pay its allocation
  Device device_;
};

std::string shape_text(const TensorView& t);

// A tensor and its argument name, for checks written as loops. The name is a string_view
// built from the literal at compile time (a const char* would be measured on every call).
using NamedTensor = std::pair<const TensorView*, std::string_view>;

}  // namespace vt::ops::detail
