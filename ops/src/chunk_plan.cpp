// The exact chunk list of a prefill step (ops.md section 3).
#include "checker.hpp"
#include "metadata.hpp"
#include "vt/error.hpp"
#include "vt/ops/gdn.hpp"

namespace vt::ops {

ConvChunkPlan ConvChunkPlan::build(std::span<const int32_t> qsl, int32_t chunk_size) {
  const detail::Checker c("make_conv_chunk_plan", Device());
  if (chunk_size < 1) c.fail("chunk_size", std::to_string(chunk_size) + " must be at least 1");
  if (qsl.empty()) c.fail("query_start_loc", "has no elements, needs N+1 >= 1");
  const int64_t N = static_cast<int64_t>(qsl.size()) - 1;
  detail::check_query_start_loc(c, qsl, N, qsl.back());
  ConvChunkPlan plan;
  plan.num_seqs_ = N;
  plan.num_tokens_ = qsl.back();
  plan.chunk_size_ = chunk_size;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t t = 0; t < qsl[n + 1] - qsl[n]; t += chunk_size) {
      plan.items_.push_back(static_cast<int32_t>(n));
      plan.items_.push_back(static_cast<int32_t>(t));
    }
  return plan;
}

void ConvChunkPlan::upload(Queue& queue) {
  if (uploaded_) {
    if (device_ == queue.device()) return;
    throw Error(Status::invalid_argument, "make_conv_chunk_plan: chunk_plan: already uploaded to " + device_.name() +
                                              "; build one plan per device");
  }
  device_ = queue.device();
  const uint64_t bytes = items_.size() * sizeof(int32_t);
  buffer_ = device_.alloc(bytes);
  queue.upload(buffer_, 0, items_.data(), bytes);
  queue.sync();  // once per step, before any layer uses it; items_ stays the host copy
  raw_.items = items_.empty() ? vt_tensor{} : TensorView::contiguous(buffer_, DType::i32, {size(), 2}).raw();
  raw_.n_items = size();
  raw_.num_seqs = num_seqs_;
  raw_.num_tokens = num_tokens_;
  raw_.chunk_size = chunk_size_;
  uploaded_ = true;
}

const vt_conv_chunk_plan& ConvChunkPlan::raw() const {
  if (!uploaded_) throw Error(Status::invalid_argument, "chunk_plan: not uploaded to a device");
  return raw_;
}

}  // namespace vt::ops
