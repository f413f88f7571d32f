// The GDN ops through the public API: argument structs with tensor views, the chunk-plan
// builder, and one call per op that validates every rule of ops.md section 6 (throwing
// vt::Error naming op, argument and rule, before anything is written) and then dispatches
// through the registry. Each call returns the name of the provider that ran.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "vt/device.hpp"
#include "vt/export.hpp"
#include "vt/ops/gdn_args.h"
#include "vt/tensor.hpp"

namespace vt::ops {

enum class Activation { none = VT_ACTIVATION_NONE, silu = VT_ACTIVATION_SILU };

// The exact (sequence, first token) chunk list of a prefill step, built once on the host
// from query_start_loc and uploaded once; every layer's causal_conv1d_fwd reuses it.
class VT_API ConvChunkPlan {
 public:
  // Throws vt::Error when query_start_loc is not a valid prefix sum or chunk_size < 1.
  static ConvChunkPlan build(std::span<const int32_t> query_start_loc, int32_t chunk_size = VT_CONV_DEFAULT_CHUNK);

  int64_t num_seqs() const { return num_seqs_; }
  int64_t num_tokens() const { return num_tokens_; }
  int32_t chunk_size() const { return chunk_size_; }
  int64_t size() const { return static_cast<int64_t>(items_.size() / 2); }
  const std::vector<int32_t>& items() const { return items_; }  // host copy, pairs

  // Copies the items to the queue's device (once; the plan then lives on that device).
  void upload(Queue& queue);
  bool uploaded() const { return uploaded_; }
  Device device() const { return device_; }
  // The ABI view of the uploaded plan; throws if not uploaded.
  const vt_conv_chunk_plan& raw() const;

 private:
  std::vector<int32_t> items_;
  int64_t num_seqs_ = 0, num_tokens_ = 0;
  int32_t chunk_size_ = VT_CONV_DEFAULT_CHUNK;
  Buffer buffer_;
  Device device_;
  bool uploaded_ = false;
  vt_conv_chunk_plan raw_{};
};

inline ConvChunkPlan make_conv_chunk_plan(std::span<const int32_t> query_start_loc,
                                          int32_t chunk_size = VT_CONV_DEFAULT_CHUNK) {
  return ConvChunkPlan::build(query_start_loc, chunk_size);
}

struct CausalConv1dFwd {
  TensorView x, weight, bias, out, conv_state, state_indices, has_initial_state, query_start_loc;
  Activation activation = Activation::none;
  const ConvChunkPlan* plan = nullptr;
  // Optional host copies of device metadata; when given they are checked (monotonic
  // offsets, slot ranges, duplicate slots) without touching the device.
  std::span<const int32_t> host_query_start_loc, host_state_indices;
};

struct CausalConv1dUpdate {
  TensorView x, weight, bias, out, conv_state, state_indices;
  Activation activation = Activation::none;
  std::span<const int32_t> host_state_indices;
};

struct GdnPostConv {
  TensorView conv_out, a, b, A_log, dt_bias, q_out, k_out, v_out, g_out, beta_out;
  bool l2norm = true;
  float eps = 1e-6f;
};

struct L2Norm {
  TensorView x, out;
  float eps = 1e-6f;
};

struct GdnGating {
  TensorView a, b, A_log, dt_bias, g_out, beta_out;
};

struct GdnSplit {
  TensorView conv_out, q_out, k_out, v_out;
};

VT_API std::string_view causal_conv1d_fwd(Queue& queue, const CausalConv1dFwd& args);
VT_API std::string_view causal_conv1d_update(Queue& queue, const CausalConv1dUpdate& args);
VT_API std::string_view gdn_post_conv(Queue& queue, const GdnPostConv& args);
VT_API std::string_view l2norm(Queue& queue, const L2Norm& args);
VT_API std::string_view gdn_gating(Queue& queue, const GdnGating& args);
VT_API std::string_view gdn_split(Queue& queue, const GdnSplit& args);

// Validation alone (for tests and fuzzing): the ABI struct a provider would get, or a
// thrown vt::Error. `device` is the queue's device. Deep checks download device metadata
// and need a queue, so they are not part of these.
VT_API vt_causal_conv1d_fwd_args validate(const CausalConv1dFwd& args, const Device& device);
VT_API vt_causal_conv1d_update_args validate(const CausalConv1dUpdate& args, const Device& device);
VT_API vt_gdn_post_conv_args validate(const GdnPostConv& args, const Device& device);
VT_API vt_l2norm_args validate(const L2Norm& args, const Device& device);
VT_API vt_gdn_gating_args validate(const GdnGating& args, const Device& device);
VT_API vt_gdn_split_args validate(const GdnSplit& args, const Device& device);

}  // namespace vt::ops
