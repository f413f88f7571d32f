#include "checker.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "vt/error.hpp"

namespace vt::ops::detail {

std::string shape_text(const TensorView& t) {
  std::string s = "[";
  for (uint32_t d = 0; d < t.rank(); ++d) s += (d ? ", " : "") + std::to_string(t.size(d));
  return s + "]";
}

void Checker::fail(std::string_view arg, const std::string& rule) const {
  throw Error(Status::invalid_argument, std::string(op_) + ": " + std::string(arg) + ": " + rule);
}

std::string Checker::placement(const Device& d) const {
  if (!d.valid()) return "no device";
  if (d.name() == device_.name() && !(d == device_)) return d.name() + " of another vt::Runtime";
  return d.name();
}

void Checker::need(const TensorView& t, std::string_view arg, std::initializer_list<uint32_t> ranks) const {
  if (!t.present()) fail(arg, "is required");
  if (!(t.device() == device_)) fail(arg, "is on " + placement(t.device()) + ", the queue is on " + device_.name());
  if (std::find(ranks.begin(), ranks.end(), t.rank()) == ranks.end()) {
    std::string want;
    for (uint32_t r : ranks) want += (want.empty() ? "" : " or ") + std::to_string(r);
    fail(arg, "rank " + std::to_string(t.rank()) + ", expected " + want);
  }
}

bool Checker::optional(const TensorView& t, std::string_view arg, std::initializer_list<uint32_t> ranks) const {
  if (!t.present()) return false;
  need(t, arg, ranks);
  return true;
}

void Checker::dtype_in(const TensorView& t, std::string_view arg, std::initializer_list<DType> allowed) const {
  if (std::find(allowed.begin(), allowed.end(), t.dtype()) != allowed.end()) return;
  std::string want;
  for (DType d : allowed) want += (want.empty() ? "" : ", ") + std::string(dtype_name(d));
  fail(arg, "dtype " + std::string(dtype_name(t.dtype())) + " not accepted (expected " + want + ")");
}

void Checker::dtype_f32_or(const TensorView& t, std::string_view arg, DType other, std::string_view other_name) const {
  if (t.dtype() == DType::f32 || t.dtype() == other) return;
  fail(arg, "dtype " + std::string(dtype_name(t.dtype())) + " must be f32 or " + std::string(other_name) +
                "'s dtype (" + std::string(dtype_name(other)) + ")");
}

void Checker::extent(const TensorView& t, std::string_view arg, uint32_t dim, int64_t expected,
                     std::string_view what) const {
  if (t.size(dim) != expected)
    fail(arg, "shape " + shape_text(t) + ": dim " + std::to_string(dim) + " is " + std::to_string(t.size(dim)) +
                  ", expected " + std::string(what) + " = " + std::to_string(expected));
}

void Checker::row_major(const TensorView& t, std::string_view arg) const {
  const uint32_t r = t.rank();
  if (r == 0 || t.numel() == 0) return;
  if (t.stride(r - 1) != 1) fail(arg, "innermost stride is " + std::to_string(t.stride(r - 1)) + ", must be 1");
  // span: elements one index of dim d covers below it. Dims of extent 1 add nothing, so
  // they can neither hide nor cause an overlap.
  int64_t span = 1;
  for (uint32_t d = r - 1; d-- > 0;) {
    span += (t.size(d + 1) - 1) * t.stride(d + 1);
    if (t.size(d) <= 1) continue;
    if (t.stride(d) < span)
      fail(arg, "stride " + std::to_string(t.stride(d)) + " of dim " + std::to_string(d) + " is below the inner span " +
                    std::to_string(span) + " (rows would overlap)");
  }
}

void Checker::non_aliasing(const TensorView& t, std::string_view arg) const {
  if (t.numel() <= 1) return;
  std::array<uint32_t, VT_MAX_RANK> dims{};
  uint32_t n = 0;
  for (uint32_t d = 0; d < t.rank(); ++d)
    if (t.size(d) > 1) dims[n++] = d;
  for (uint32_t i = 1; i < n; ++i)  // insertion sort by stride: at most four dims
    for (uint32_t j = i; j > 0 && t.stride(dims[j]) < t.stride(dims[j - 1]); --j) std::swap(dims[j], dims[j - 1]);
  int64_t span = 1;  // elements covered by the dims taken so far
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t d = dims[i];
    if (t.stride(d) < span)
      fail(arg, "strides make elements alias (dim " + std::to_string(d) + " stride " + std::to_string(t.stride(d)) +
                    " < " + std::to_string(span) + ")");
    span = t.stride(d) * t.size(d);
  }
}

void Checker::no_overlap(const TensorView& out, std::string_view out_arg, const TensorView& in,
                         std::string_view in_arg) const {
  if (out.overlaps(in)) fail(out_arg, "overlaps " + std::string(in_arg) + " in memory");
}

}  // namespace vt::ops::detail
