// The plugin's op providers: each maps the validated arguments onto one shader's parameter
// block and bindings and enqueues one dispatch, with no host synchronisation. A shape beyond
// what one dispatch can address (32-bit element indices, one storage-buffer binding per
// tensor) is declined with the reason.
#include <cstdint>

#include "vk_backend.hpp"
#include "vt/ops/gdn_args.h"
#include "vt/ops/launch_geometry.hpp"

namespace vt::vulkan {
namespace {

namespace geo = vt::ops::geometry;
static_assert(VT_CONV_GROUP == geo::kBlockThreads, "the conv shaders use launch_geometry.hpp's block size");
static_assert(VT_ROWS_GROUP == 32 * VT_ROWS_PER_GROUP, "32 invocations per row");
static_assert(VT_DT_F32 == VT_DTYPE_F32 && VT_DT_F16 == VT_DTYPE_F16 && VT_DT_BF16 == VT_DTYPE_BF16 &&
                  VT_DT_I32 == VT_DTYPE_I32 && VT_DT_U8 == VT_DTYPE_U8,
              "shader dtype codes are vt_dtype");

vt_status decline(const char* provider, const std::string& why) {
  return fail(VT_STATUS_DECLINED, std::string(provider) + ": " + why);
}

// Binds tensors one after another; the first that does not fit stops the rest.
struct Binder {
  const Device& d;
  DispatchDesc& desc;
  std::string why;
  void operator()(const vt_tensor& t, uint32_t binding, TensorRef& ref) {
    if (why.empty()) bind_tensor(d, t, binding, &ref, &desc, &why);
  }
};

bool fits_i32(int64_t v) { return v >= 0 && v <= INT32_MAX; }
bool fits_u32(uint64_t v) { return v <= UINT32_MAX; }
uint64_t groups_of(uint64_t items, uint64_t per_group) { return (items + per_group - 1) / per_group; }

vt_status run(vt_queue q, Shader shader, int32_t specialisation, DispatchDesc& desc, const void* params,
              uint32_t bytes) {
  if (const vt_status s = pipeline(*q->device, shader, specialisation, &desc.pipeline); s != VT_OK) return s;
  desc.params = params;
  desc.params_bytes = bytes;
  return dispatch(q, desc);
}

vt_status conv_fwd(const vt_op_call* call) {
  constexpr const char* kName = "vulkan.conv_fwd";
  const auto& a = *static_cast<const vt_causal_conv1d_fwd_args*>(call->args);
  Device& d = *call->queue->device;
  if (!fits_i32(a.num_tokens) || !fits_i32(a.channels) || !fits_i32(a.num_seqs + 1))
    return decline(kName, "more than 2^31 tokens, channels or sequences");
  geo::ConvFwdShape shape;
  shape.tokens = a.num_tokens;
  shape.channels = a.channels;
  shape.seqs = a.num_seqs;
  shape.width = static_cast<int32_t>(a.width);
  shape.x_elem_bytes = a.x.dtype == VT_DTYPE_F32 ? 4 : 2;
  if (a.plan) {
    shape.has_plan = true;
    shape.plan_items = a.plan->n_items;
    shape.plan_chunk = a.plan->chunk_size;
  }
  geo::ConvSwitches sw =
      geo::conv_switches([call](const char* name, int64_t* v) { return vt_host_knob_int(call->host, name, v) != 0; });
  if (sw.exact_chunks < 0) sw.exact_chunks = 1;  // measured faster with the plan here
  sw.reg = 1;  // one kernel, one channel per invocation: the CUDA variants do not apply
  sw.channel_tile = 0;
  const geo::ConvFwdGeometry g = geo::conv_fwd_geometry(shape, sw);
  if (g.grid_x == 0 || g.grid_y == 0) return VT_OK;
  if (!fits_u32(static_cast<uint64_t>(g.grid_y))) return decline(kName, "more than 2^32 programs");
  const bool use_plan = g.mapping == geo::ConvMapping::plan_items;

  ConvFwdParams p{};
  DispatchDesc desc;
  Binder bind{d, desc, {}};
  bind(a.x, 1, p.x);
  bind(a.weight, 2, p.weight);
  bind(a.bias, 3, p.bias);
  bind(a.out, 4, p.dst);
  bind(a.conv_state, 5, p.state);
  bind(a.state_indices, 6, p.slots);
  bind(a.has_initial_state, 7, p.initial);
  bind(a.query_start_loc, 8, p.qsl);
  if (use_plan) bind(a.plan->items, 9, p.plan);
  if (!bind.why.empty()) return decline(kName, bind.why);
  p.tokens = static_cast<int32_t>(a.num_tokens);
  p.channels = static_cast<int32_t>(a.channels);
  p.seqs = static_cast<int32_t>(a.num_seqs);
  p.slots_count = static_cast<int32_t>(a.num_slots < INT32_MAX ? a.num_slots : INT32_MAX);
  p.chunk = static_cast<int32_t>(g.chunk);
  p.programs = static_cast<uint32_t>(g.grid_y);
  p.flags = (a.activation == VT_ACTIVATION_SILU ? VT_CONV_SILU : 0u) | (a.bias.mem ? VT_CONV_BIAS : 0u) |
            (a.conv_state.mem && a.state_indices.mem ? VT_CONV_STATEFUL : 0u) |
            (a.has_initial_state.mem ? VT_CONV_INITIAL : 0u) | (use_plan ? VT_CONV_PLAN : 0u);
  desc.groups_x = static_cast<uint32_t>(g.grid_x);
  desc.groups_y = static_cast<uint64_t>(g.grid_y);
  return run(call->queue, Shader::conv_fwd, static_cast<int32_t>(a.width), desc, &p, sizeof p);
}

vt_status conv_update(const vt_op_call* call) {
  constexpr const char* kName = "vulkan.conv_update";
  const auto& a = *static_cast<const vt_causal_conv1d_update_args*>(call->args);
  Device& d = *call->queue->device;
  if (a.batch == 0 || a.channels == 0) return VT_OK;
  if (!fits_i32(a.batch) || !fits_i32(a.tokens_per_seq) || !fits_i32(a.channels))
    return decline(kName, "more than 2^31 sequences, tokens or channels");
  ConvUpdateParams p{};
  DispatchDesc desc;
  Binder bind{d, desc, {}};
  bind(a.x, 1, p.x);
  bind(a.weight, 2, p.weight);
  bind(a.bias, 3, p.bias);
  bind(a.out, 4, p.dst);
  bind(a.conv_state, 5, p.state);
  bind(a.state_indices, 6, p.slots);
  if (!bind.why.empty()) return decline(kName, bind.why);
  // Within a binding every reachable element index fits 32 bits, and so does each stride.
  p.x_seq = static_cast<uint32_t>(a.x_seq_stride);
  p.x_tok = static_cast<uint32_t>(a.x_tok_stride);
  p.out_seq = static_cast<uint32_t>(a.out_seq_stride);
  p.out_tok = static_cast<uint32_t>(a.out_tok_stride);
  p.batch = static_cast<int32_t>(a.batch);
  p.tokens = static_cast<int32_t>(a.tokens_per_seq);
  p.channels = static_cast<int32_t>(a.channels);
  p.slots_count = static_cast<int32_t>(a.num_slots < INT32_MAX ? a.num_slots : INT32_MAX);
  p.flags = (a.activation == VT_ACTIVATION_SILU ? VT_CONV_SILU : 0u) | (a.bias.mem ? VT_CONV_BIAS : 0u) |
            (a.state_indices.mem ? VT_CONV_SLOTS : 0u);
  desc.groups_x = static_cast<uint32_t>(groups_of(static_cast<uint64_t>(a.channels), VT_CONV_GROUP));
  desc.groups_y = static_cast<uint64_t>(a.batch);
  return run(call->queue, Shader::conv_update, static_cast<int32_t>(a.width), desc, &p, sizeof p);
}

// ---- the row shader's roles ----

struct RowsCall {
  RowsParams p{};
  DispatchDesc desc;
  Binder bind;
  uint64_t rows = 0, v_count = 0, gate_count = 0;
  bool normalise = false;
  explicit RowsCall(const Device& d) : bind{d, desc, {}} {}
};

// q/k rows (normalised or copied) and the v copy of a [T, C] conv output.
void split_roles(RowsCall& c, const vt_tensor& conv_out, const vt_tensor& q, const vt_tensor& k, const vt_tensor& v,
                 int64_t T, int64_t Hk, int64_t Hv, int64_t Dk, int64_t Dv, bool normalise, float eps) {
  RowsParams& p = c.p;
  c.bind(conv_out, 1, p.in_);
  c.bind(q, 2, p.out_a);
  c.bind(k, 3, p.out_b);
  c.bind(v, 4, p.v);
  p.in_.s1 = static_cast<uint32_t>(Dk);  // row j of a token starts j * Dk into it
  c.rows = static_cast<uint64_t>(T * 2 * Hk);
  p.inner = static_cast<uint32_t>(2 * Hk);
  p.split = static_cast<uint32_t>(Hk);
  p.dim = static_cast<uint32_t>(Dk);
  c.normalise = normalise;
  p.eps = eps;
  c.v_count = static_cast<uint64_t>(T * Hv * Dv);
  p.v_per_token = static_cast<uint32_t>(Hv * Dv);
  p.v_dim = static_cast<uint32_t>(Dv);
  p.v_column = static_cast<uint32_t>(2 * Hk * Dk);
}

void gate_roles(RowsCall& c, const vt_tensor& a, const vt_tensor& b, const vt_tensor& A_log, const vt_tensor& dt_bias,
                const vt_tensor& g, const vt_tensor& beta, int64_t T, int64_t Hv) {
  RowsParams& p = c.p;
  c.bind(a, 5, p.a);
  c.bind(b, 6, p.b);
  c.bind(A_log, 7, p.a_log);
  c.bind(dt_bias, 8, p.dt_bias);
  c.bind(g, 9, p.g);
  c.bind(beta, 10, p.beta);
  c.gate_count = static_cast<uint64_t>(T * Hv);
  p.heads = static_cast<uint32_t>(Hv);
}

vt_status run_rows(const vt_op_call* call, const char* name, RowsCall& c) {
  if (!c.bind.why.empty()) return decline(name, c.bind.why);
  const uint64_t row_groups = groups_of(c.rows, VT_ROWS_PER_GROUP);
  const uint64_t v_groups = groups_of(c.v_count, VT_ROWS_GROUP);
  const uint64_t gate_groups = groups_of(c.gate_count, VT_ROWS_GROUP);
  const uint64_t total = row_groups + v_groups + gate_groups;
  if (!fits_u32(c.rows) || !fits_u32(c.v_count) || !fits_u32(c.gate_count) || !fits_u32(total))
    return decline(name, "more than 2^32 rows or elements in one call");
  if (total == 0) return VT_OK;
  c.p.rows = static_cast<uint32_t>(c.rows);
  c.p.v_count = static_cast<uint32_t>(c.v_count);
  c.p.gate_count = static_cast<uint32_t>(c.gate_count);
  c.p.row_groups = static_cast<uint32_t>(row_groups);
  c.p.v_groups = static_cast<uint32_t>(v_groups);
  c.p.gate_groups = static_cast<uint32_t>(gate_groups);
  grid_1d(*call->queue->device, total, &c.desc);
  // One pipeline per set of roles: the pieces leave out the math of the others.
  const int32_t roles = (c.rows ? VT_ROLE_ROWS : 0) | (c.v_count ? VT_ROLE_V : 0) | (c.gate_count ? VT_ROLE_GATES : 0) |
                        (c.normalise ? VT_ROLE_NORMALISE : 0);
  return run(call->queue, Shader::rows, roles, c.desc, &c.p, sizeof c.p);
}

vt_status post_conv(const vt_op_call* call) {
  const auto& a = *static_cast<const vt_gdn_post_conv_args*>(call->args);
  RowsCall c(*call->queue->device);
  split_roles(c, a.conv_out, a.q_out, a.k_out, a.v_out, a.num_tokens, a.key_heads, a.value_heads, a.key_dim,
              a.value_dim, a.l2norm != 0, a.eps);
  gate_roles(c, a.a, a.b, a.A_log, a.dt_bias, a.g_out, a.beta_out, a.num_tokens, a.value_heads);
  return run_rows(call, "vulkan.post_conv", c);
}

vt_status split(const vt_op_call* call) {
  const auto& a = *static_cast<const vt_gdn_split_args*>(call->args);
  RowsCall c(*call->queue->device);
  split_roles(c, a.conv_out, a.q_out, a.k_out, a.v_out, a.num_tokens, a.key_heads, a.value_heads, a.key_dim,
              a.value_dim, false, 0.0f);
  return run_rows(call, "vulkan.split", c);
}

vt_status gating(const vt_op_call* call) {
  const auto& a = *static_cast<const vt_gdn_gating_args*>(call->args);
  RowsCall c(*call->queue->device);
  gate_roles(c, a.a, a.b, a.A_log, a.dt_bias, a.g_out, a.beta_out, a.num_tokens, a.value_heads);
  return run_rows(call, "vulkan.gating", c);
}

// Rows of [outer, inner, D] (rank 3) or [R, D] (rank 2, outer = 1), all written to out.
vt_status l2norm(const vt_op_call* call) {
  const auto& a = *static_cast<const vt_l2norm_args*>(call->args);
  RowsCall c(*call->queue->device);
  RowsParams& p = c.p;
  c.bind(a.x, 1, p.in_);
  c.bind(a.out, 2, p.out_a);
  if (a.x.rank == 2) {
    p.in_ = {p.in_.off, 0, p.in_.s0, 0, p.in_.dtype};
    p.out_a = {p.out_a.off, 0, p.out_a.s0, 0, p.out_a.dtype};
  }
  c.rows = static_cast<uint64_t>(a.outer * a.inner);
  p.inner = static_cast<uint32_t>(a.inner);
  p.split = static_cast<uint32_t>(a.inner);
  p.dim = static_cast<uint32_t>(a.dim);
  c.normalise = true;
  p.eps = a.eps;
  return run_rows(call, "vulkan.l2norm", c);
}

constexpr int32_t kNative = 100;

// The conv's one switch (vt_provider_desc::knobs): its host table answers no other. The other
// providers have no variants.
const char* const kConvFwdKnobs[] = {geo::kConvExactChunksKnob, nullptr};

const vt_provider_desc kProviders[] = {
    {sizeof(vt_provider_desc), VT_OP_CAUSAL_CONV1D_FWD, "vulkan.conv_fwd", kNative, nullptr, conv_fwd, kConvFwdKnobs},
    {sizeof(vt_provider_desc), VT_OP_CAUSAL_CONV1D_UPDATE, "vulkan.conv_update", kNative, nullptr, conv_update,
     nullptr},
    {sizeof(vt_provider_desc), VT_OP_GDN_POST_CONV, "vulkan.post_conv", kNative, nullptr, post_conv, nullptr},
    {sizeof(vt_provider_desc), VT_OP_L2NORM, "vulkan.l2norm", kNative, nullptr, l2norm, nullptr},
    {sizeof(vt_provider_desc), VT_OP_GDN_GATING, "vulkan.gating", kNative, nullptr, gating, nullptr},
    {sizeof(vt_provider_desc), VT_OP_GDN_SPLIT, "vulkan.split", kNative, nullptr, split, nullptr},
};

}  // namespace

const vt_provider_desc* providers(uint32_t* count) {
  *count = sizeof kProviders / sizeof kProviders[0];
  return kProviders;
}

}  // namespace vt::vulkan
