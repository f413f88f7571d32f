// The CUDA plugin's op providers: each runs the op's kernel on the call's stream, with no
// host synchronisation or allocation, so every call can be captured into a graph.
#include "cuda_backend.hpp"
#include "kernels/launch.hpp"

namespace vt::cuda {
namespace {

// The variant switches of performance.md, as the host parsed them (strictly: a misspelt value
// was warned about and never reaches a plugin). Unset switches keep the geometry's defaults.
auto host_knobs(const vt_op_call* call) {
  return [call](const char* name, int64_t* v) { return vt_host_knob_int(call->host, name, v) != 0; };
}

vt::ops::geometry::ConvSwitches conv_switches(const vt_op_call* call) {
  return vt::ops::geometry::conv_switches(host_knobs(call));
}

vt::ops::geometry::PostConvSwitches post_conv_switches(const vt_op_call* call) {
  return vt::ops::geometry::post_conv_switches(host_knobs(call));
}

vt_status prepare(const vt_op_call* call) { return use_device(call->queue->device); }

constexpr char kEarlyLaunchKnob[] = "VT_EARLY_LAUNCH";

// The call's stream, with the early start (kern::Stream) where the device has it and
// VT_EARLY_LAUNCH does not turn it off.
kern::Stream stream_of(const vt_op_call* call) {
  int64_t early = 1;
  host_knobs(call)(kEarlyLaunchKnob, &early);
  return {call->queue->stream, call->queue->early_launch && early != 0};
}

vt_status conv_fwd(const vt_op_call* call) {
  if (const vt_status s = prepare(call); s != VT_OK) return s;
  return kern::launch_conv_fwd(*static_cast<const vt_causal_conv1d_fwd_args*>(call->args), conv_switches(call),
                               call->queue->bulk_copies, stream_of(call));
}

vt_status conv_update(const vt_op_call* call) {
  if (const vt_status s = prepare(call); s != VT_OK) return s;
  return kern::launch_conv_update(*static_cast<const vt_causal_conv1d_update_args*>(call->args), conv_switches(call),
                                  call->queue->device, stream_of(call));
}

vt_status post_conv(const vt_op_call* call) {
  if (const vt_status s = prepare(call); s != VT_OK) return s;
  return kern::launch_post_conv(*static_cast<const vt_gdn_post_conv_args*>(call->args), post_conv_switches(call),
                                stream_of(call));
}

vt_status l2norm(const vt_op_call* call) {
  if (const vt_status s = prepare(call); s != VT_OK) return s;
  return kern::launch_l2norm(*static_cast<const vt_l2norm_args*>(call->args), stream_of(call));
}

vt_status gating(const vt_op_call* call) {
  if (const vt_status s = prepare(call); s != VT_OK) return s;
  return kern::launch_gating(*static_cast<const vt_gdn_gating_args*>(call->args), post_conv_switches(call),
                             stream_of(call));
}

vt_status split(const vt_op_call* call) {
  if (const vt_status s = prepare(call); s != VT_OK) return s;
  return kern::launch_split(*static_cast<const vt_gdn_split_args*>(call->args), post_conv_switches(call),
                            stream_of(call));
}

constexpr int32_t kNative = 100;

// The knobs each provider honours (vt_provider_desc::knobs): its host table answers no other.
namespace geo = vt::ops::geometry;
const char* const kConvFwdKnobs[] = {
    geo::kConvExactChunksKnob, geo::kConvRegKnob,    geo::kConvChannelTileKnob, geo::kConvStageXKnob,
    geo::kConvOneSequenceKnob, geo::kConvGuidedKnob, kEarlyLaunchKnob,          nullptr};
const char* const kConvUpdateKnobs[] = {geo::kConvRegKnob, kEarlyLaunchKnob, nullptr};
// Split and gating run post-conv's kernels with their part (kernels/post_conv.cu).
const char* const kPostConvKnobs[] = {geo::kPostConvTokenTileKnob, kEarlyLaunchKnob, nullptr};
const char* const kL2NormKnobs[] = {kEarlyLaunchKnob, nullptr};

const vt_provider_desc kProviders[] = {
    {sizeof(vt_provider_desc), VT_OP_CAUSAL_CONV1D_FWD, "cuda.conv_fwd", kNative, nullptr, conv_fwd, kConvFwdKnobs},
    {sizeof(vt_provider_desc), VT_OP_CAUSAL_CONV1D_UPDATE, "cuda.conv_update", kNative, nullptr, conv_update,
     kConvUpdateKnobs},
    {sizeof(vt_provider_desc), VT_OP_GDN_POST_CONV, "cuda.post_conv", kNative, nullptr, post_conv, kPostConvKnobs},
    {sizeof(vt_provider_desc), VT_OP_L2NORM, "cuda.l2norm", kNative, nullptr, l2norm, kL2NormKnobs},
    {sizeof(vt_provider_desc), VT_OP_GDN_GATING, "cuda.gating", kNative, nullptr, gating, kPostConvKnobs},
    {sizeof(vt_provider_desc), VT_OP_GDN_SPLIT, "cuda.split", kNative, nullptr, split, kPostConvKnobs},
};

}  // namespace

const vt_provider_desc* providers(uint32_t* count) {
  *count = sizeof kProviders / sizeof kProviders[0];
  return kProviders;
}

}  // namespace vt::cuda
