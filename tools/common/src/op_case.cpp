#include "vt/opcheck/op_case.hpp"

#include "vt/error.hpp"

namespace vt::opcheck {

void OpCase::bind(Queue& queue) {
  device_ = queue.device();
  memory_.allocate(device_);
  memory_.upload(queue);
  build_call(queue);
}

const Images& OpCase::expected() {
  if (!expected_) {
    if (!device_.valid()) throw Error(Status::invalid_argument, name_ + ": expected() before bind()");
    Images host = memory_.initial();
    run_reference(host);
    expected_ = std::move(host);
  }
  return *expected_;
}

void OpCase::feed(std::string_view input, OpCase& from, std::string_view output) {
  const int dst = memory_.find(input), src = from.memory_.find(output);
  const TensorSlot& s = from.memory_.slot(src);
  if (s.shape != memory_.slot(dst).shape)
    throw Error(Status::invalid_argument, name_ + ": cannot feed " + std::string(input) + " from " + from.name() +
                                              "'s " + std::string(output) + " of another shape");
  const Image& values = from.expected()[static_cast<size_t>(src)];
  memory_.fill(dst, [&](const Index& i) { return CaseMemory::load(s.dtype, values.data() + s.element_offset(i)); });
  expected_.reset();
}

void OpCase::refill_from(const OpCase& donor) {
  memory_.take_float_contents(donor.memory_);
  expected_.reset();
}

void OpCase::copy_from(Queue& queue, std::string_view input, const OpCase& from, std::string_view output) {
  memory_.copy_device(queue, memory_.find(input), from.memory_, from.memory_.find(output));
}

void check_reference_status(const OpCase& c, vt_status status) {
  if (status != VT_OK)
    throw Error(static_cast<Status>(status),
                c.name() + ": the scalar reference failed with status " + std::to_string(status));
}

}  // namespace vt::opcheck
