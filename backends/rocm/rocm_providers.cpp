// The ROCm plugin's op providers: each runs its kernel on the call's stream with no host
// synchronisation or allocation, so every call can be captured into a graph.
#include "kernels/launch.hpp"
#include "rocm_backend.hpp"

namespace vt::rocm {
namespace {

// The conv switches as the host parsed them; the geometry they give picks the channels per
// thread and the mapping of this backend's one conv kernel.
vt::ops::geometry::ConvSwitches conv_switches(const vt_op_call* call) {
  return vt::ops::geometry::conv_switches(
      [call](const char* name, int64_t* v) { return vt_host_knob_int(call->host, name, v) != 0; });
}

template <class Args>
const Args& args_of(const vt_op_call* call) {
  return *static_cast<const Args*>(call->args);
}

vt_status conv_fwd(const vt_op_call* call) {
  if (const vt_status s = use_device(call->queue->device); s != VT_OK) return s;
  return kern::launch_conv_fwd(args_of<vt_causal_conv1d_fwd_args>(call), conv_switches(call), call->queue->stream);
}

vt_status conv_update(const vt_op_call* call) {
  if (const vt_status s = use_device(call->queue->device); s != VT_OK) return s;
  return kern::launch_conv_update(args_of<vt_causal_conv1d_update_args>(call), call->queue->stream);
}

vt_status post_conv(const vt_op_call* call) {
  if (const vt_status s = use_device(call->queue->device); s != VT_OK) return s;
  return kern::launch_post_conv(args_of<vt_gdn_post_conv_args>(call), call->queue->stream);
}

vt_status l2norm(const vt_op_call* call) {
  if (const vt_status s = use_device(call->queue->device); s != VT_OK) return s;
  return kern::launch_l2norm(args_of<vt_l2norm_args>(call), call->queue->stream);
}

vt_status gating(const vt_op_call* call) {
  if (const vt_status s = use_device(call->queue->device); s != VT_OK) return s;
  return kern::launch_gating(args_of<vt_gdn_gating_args>(call), call->queue->stream);
}

vt_status split(const vt_op_call* call) {
  if (const vt_status s = use_device(call->queue->device); s != VT_OK) return s;
  return kern::launch_split(args_of<vt_gdn_split_args>(call), call->queue->stream);
}

constexpr int32_t kNative = 100;

// The knobs the conv honours (vt_provider_desc::knobs): the geometry's mapping, channels per
// thread and kernel; its host table answers no other. The other providers have no variants.
namespace geo = vt::ops::geometry;
const char* const kConvFwdKnobs[] = {geo::kConvExactChunksKnob, geo::kConvRegKnob, geo::kConvChannelTileKnob, nullptr};

const vt_provider_desc kProviders[] = {
    {sizeof(vt_provider_desc), VT_OP_CAUSAL_CONV1D_FWD, "rocm.conv_fwd", kNative, nullptr, conv_fwd, kConvFwdKnobs},
    {sizeof(vt_provider_desc), VT_OP_CAUSAL_CONV1D_UPDATE, "rocm.conv_update", kNative, nullptr, conv_update, nullptr},
    {sizeof(vt_provider_desc), VT_OP_GDN_POST_CONV, "rocm.post_conv", kNative, nullptr, post_conv, nullptr},
    {sizeof(vt_provider_desc), VT_OP_L2NORM, "rocm.l2norm", kNative, nullptr, l2norm, nullptr},
    {sizeof(vt_provider_desc), VT_OP_GDN_GATING, "rocm.gating", kNative, nullptr, gating, nullptr},
    {sizeof(vt_provider_desc), VT_OP_GDN_SPLIT, "rocm.split", kNative, nullptr, split, nullptr},
};

}  // namespace

const vt_provider_desc* providers(uint32_t* count) {
  *count = sizeof kProviders / sizeof kProviders[0];
  return kProviders;
}

}  // namespace vt::rocm
