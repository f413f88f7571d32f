// causal_conv1d_fwd and causal_conv1d_update: validation (ops.md sections 1, 2, 6) and dispatch.
#include <vector>

#include "checker.hpp"
#include "metadata.hpp"
#include "vt/error.hpp"
#include "vt/ops/gdn.hpp"
#include "vt/runtime.hpp"

namespace vt::ops {
namespace {

using detail::Checker;

constexpr std::initializer_list<DType> kActivationTypes = {DType::f32, DType::f16, DType::bf16};

// weight [C, K] and bias [C]: shared by both conv ops.
int64_t check_weight_and_bias(const Checker& c, const TensorView& weight, const TensorView& bias, DType x_dtype,
                              int64_t channels) {
  c.need(weight, "weight", {2});
  c.dtype_f32_or(weight, "weight", x_dtype, "x");
  c.extent(weight, "weight", 0, channels, "C");
  const int64_t k = weight.size(1);
  if (k < VT_CONV_MIN_WIDTH || k > VT_CONV_MAX_WIDTH)
    c.fail("weight", "shape " + detail::shape_text(weight) + ": K=" + std::to_string(k) + " outside " +
                         std::to_string(VT_CONV_MIN_WIDTH) + ".." + std::to_string(VT_CONV_MAX_WIDTH));
  c.row_major(weight, "weight");
  if (c.optional(bias, "bias", {1})) {
    if (bias.dtype() != weight.dtype())
      c.fail("bias", "dtype " + std::string(dtype_name(bias.dtype())) + " must equal weight's dtype (" +
                         std::string(dtype_name(weight.dtype())) + ")");
    c.extent(bias, "bias", 0, channels, "C");
    c.row_major(bias, "bias");
  }
  return k;
}

// conv_state [S, C, W] with any non-aliasing strides.
int64_t check_state(const Checker& c, const TensorView& state, DType x_dtype, int64_t channels, int64_t width) {
  c.need(state, "conv_state", {3});
  c.dtype_f32_or(state, "conv_state", x_dtype, "x");
  c.extent(state, "conv_state", 1, channels, "C");
  c.extent(state, "conv_state", 2, width - 1, "W = K-1");
  c.non_aliasing(state, "conv_state");
  return state.size(0);
}

void check_index_vector(const Checker& c, const TensorView& t, std::string_view arg, int64_t count,
                        std::string_view count_name, std::initializer_list<DType> dtypes) {
  c.need(t, arg, {1});
  c.dtype_in(t, arg, dtypes);
  c.extent(t, arg, 0, count, count_name);
  c.row_major(t, arg);
}

// Deep validation: the device's index values, read back (a host synchronisation; debug only).
std::vector<int32_t> download_i32(Queue& q, const TensorView& t) {
  std::vector<int32_t> v(static_cast<size_t>(t.numel()));
  q.download(v.data(), t);
  q.sync();
  return v;
}

bool deep_validation(const Queue& q) { return q.device().runtime().knobs().deep_validate; }

}  // namespace

vt_causal_conv1d_fwd_args validate(const CausalConv1dFwd& a, const Device& device) {
  const Checker c("causal_conv1d_fwd", device);
  c.need(a.x, "x", {2});
  c.dtype_in(a.x, "x", kActivationTypes);
  c.row_major(a.x, "x");
  const int64_t T = a.x.size(0), C = a.x.size(1);
  const DType xt = a.x.dtype();
  const int64_t K = check_weight_and_bias(c, a.weight, a.bias, xt, C);

  c.need(a.out, "out", {2});
  c.dtype_f32_or(a.out, "out", xt, "x");
  c.extent(a.out, "out", 0, T, "T");
  c.extent(a.out, "out", 1, C, "C");
  c.row_major(a.out, "out");

  c.need(a.query_start_loc, "query_start_loc", {1});
  if (a.query_start_loc.size(0) < 1) c.fail("query_start_loc", "has no elements, needs N+1 >= 1");
  const int64_t N = a.query_start_loc.size(0) - 1;
  check_index_vector(c, a.query_start_loc, "query_start_loc", N + 1, "N+1", {DType::i32});

  const bool stateful = a.conv_state.present();
  if (stateful != a.state_indices.present())
    c.fail(stateful ? "state_indices" : "conv_state",
           "conv_state and state_indices come together: both present, or both absent for a stateless prefill");
  int64_t S = 0;
  if (stateful) {
    S = check_state(c, a.conv_state, xt, C, K);
    check_index_vector(c, a.state_indices, "state_indices", N, "N", {DType::i32});
  }
  if (a.has_initial_state.present()) {
    if (!stateful) c.fail("has_initial_state", "given in a stateless call (no conv_state)");
    check_index_vector(c, a.has_initial_state, "has_initial_state", N, "N", {DType::u8, DType::i32});
  }

  const TensorView* inputs[] = {&a.x, &a.weight, &a.bias, &a.query_start_loc, &a.state_indices, &a.has_initial_state};
  const std::string_view input_names[] = {
      "x", "weight", "bias", "query_start_loc", "state_indices", "has_initial_state"};
  for (size_t i = 0; i < std::size(inputs); ++i) {
    c.no_overlap(a.out, "out", *inputs[i], input_names[i]);
    if (stateful) c.no_overlap(a.conv_state, "conv_state", *inputs[i], input_names[i]);
  }
  if (stateful) c.no_overlap(a.out, "out", a.conv_state, "conv_state");

  vt_causal_conv1d_fwd_args r{};
  r.struct_size = sizeof r;
  if (a.plan) {
    if (!a.plan->uploaded()) c.fail("chunk_plan", "is not uploaded to a device (call upload(queue) once per step)");
    if (!(a.plan->device() == device))
      c.fail("chunk_plan", "was uploaded to " + c.placement(a.plan->device()) + ", the queue is on " + device.name());
    if (a.plan->num_seqs() != N)
      c.fail("chunk_plan",
             "built for N=" + std::to_string(a.plan->num_seqs()) + ", the call has N=" + std::to_string(N));
    if (a.plan->num_tokens() != T)
      c.fail("chunk_plan",
             "built for T=" + std::to_string(a.plan->num_tokens()) + ", the call has T=" + std::to_string(T));
    r.plan = &a.plan->raw();
  }
  if (!a.host_query_start_loc.empty()) detail::check_query_start_loc(c, a.host_query_start_loc, N, T);
  if (!a.host_state_indices.empty()) {
    if (!stateful) c.fail("state_indices", "host copy given in a stateless call");
    detail::check_state_indices(c, a.host_state_indices, N, S);
  }

  r.x = a.x.raw();
  r.weight = a.weight.raw();
  r.bias = a.bias.raw();
  r.out = a.out.raw();
  r.conv_state = a.conv_state.raw();
  r.state_indices = a.state_indices.raw();
  r.has_initial_state = a.has_initial_state.raw();
  r.query_start_loc = a.query_start_loc.raw();
  r.activation = static_cast<vt_activation>(a.activation);
  r.num_tokens = T;
  r.channels = C;
  r.width = K;
  r.num_seqs = N;
  r.num_slots = S;
  return r;
}

vt_causal_conv1d_update_args validate(const CausalConv1dUpdate& a, const Device& device) {
  const Checker c("causal_conv1d_update", device);
  c.need(a.x, "x", {2, 3});
  c.dtype_in(a.x, "x", kActivationTypes);
  c.row_major(a.x, "x");
  const bool multi = a.x.rank() == 3;
  const int64_t B = a.x.size(0), L = multi ? a.x.size(1) : 1, C = a.x.size(a.x.rank() - 1);
  if (L < 1) c.fail("x", "shape " + detail::shape_text(a.x) + ": L=0, each sequence needs at least one token");
  const DType xt = a.x.dtype();
  const int64_t K = check_weight_and_bias(c, a.weight, a.bias, xt, C);

  c.need(a.out, "out", {a.x.rank()});
  c.dtype_f32_or(a.out, "out", xt, "x");
  for (uint32_t d = 0; d < a.x.rank(); ++d) c.extent(a.out, "out", d, a.x.size(d), "x's extent");
  c.row_major(a.out, "out");
  const bool in_place =
      a.out.same_memory(a.x) && a.out.first_byte() == a.x.first_byte() && a.out.dtype() == a.x.dtype() && [&] {
        for (uint32_t d = 0; d < a.x.rank(); ++d)
          if (a.out.stride(d) != a.x.stride(d)) return false;
        return true;
      }();
  if (!in_place) c.no_overlap(a.out, "out", a.x, "x (only an exact in-place call may share x's memory)");

  const int64_t S = check_state(c, a.conv_state, xt, C, K);
  if (c.optional(a.state_indices, "state_indices", {1})) {
    check_index_vector(c, a.state_indices, "state_indices", B, "B", {DType::i32});
  } else if (S < B) {
    c.fail("conv_state",
           "S=" + std::to_string(S) + " < B=" + std::to_string(B) + " without state_indices (sequence b uses slot b)");
  }
  if (!a.host_state_indices.empty()) {
    if (!a.state_indices.present()) c.fail("state_indices", "host copy given but the tensor is absent");
    detail::check_state_indices(c, a.host_state_indices, B, S);
  }
  const TensorView* inputs[] = {&a.weight, &a.bias, &a.state_indices};
  const std::string_view input_names[] = {"weight", "bias", "state_indices"};
  for (size_t i = 0; i < std::size(inputs); ++i) {
    c.no_overlap(a.out, "out", *inputs[i], input_names[i]);
    c.no_overlap(a.conv_state, "conv_state", *inputs[i], input_names[i]);
  }
  c.no_overlap(a.conv_state, "conv_state", a.x, "x");
  c.no_overlap(a.out, "out", a.conv_state, "conv_state");

  vt_causal_conv1d_update_args r{};
  r.struct_size = sizeof r;
  r.x = a.x.raw();
  r.weight = a.weight.raw();
  r.bias = a.bias.raw();
  r.out = a.out.raw();
  r.conv_state = a.conv_state.raw();
  r.state_indices = a.state_indices.raw();
  r.activation = static_cast<vt_activation>(a.activation);
  r.batch = B;
  r.tokens_per_seq = L;
  r.channels = C;
  r.width = K;
  r.num_slots = S;
  r.x_seq_stride = a.x.stride(0);
  r.x_tok_stride = multi ? a.x.stride(1) : 0;
  r.out_seq_stride = a.out.stride(0);
  r.out_tok_stride = multi ? a.out.stride(1) : 0;
  return r;
}

std::string_view causal_conv1d_fwd(Queue& queue, const CausalConv1dFwd& args) {
  const vt_causal_conv1d_fwd_args r = validate(args, queue.device());
  if (deep_validation(queue)) {
    const Checker c("causal_conv1d_fwd (deep validation)", queue.device());
    detail::check_query_start_loc(c, download_i32(queue, args.query_start_loc), r.num_seqs, r.num_tokens);
    if (args.state_indices.present())
      detail::check_state_indices(c, download_i32(queue, args.state_indices), r.num_seqs, r.num_slots);
  }
  return queue.run_op(VT_OP_CAUSAL_CONV1D_FWD, &r);
}

std::string_view causal_conv1d_update(Queue& queue, const CausalConv1dUpdate& args) {
  const vt_causal_conv1d_update_args r = validate(args, queue.device());
  if (deep_validation(queue) && args.state_indices.present()) {
    const Checker c("causal_conv1d_update (deep validation)", queue.device());
    detail::check_state_indices(c, download_i32(queue, args.state_indices), r.batch, r.num_slots);
  }
  return queue.run_op(VT_OP_CAUSAL_CONV1D_UPDATE, &r);
}

}  // namespace vt::ops
