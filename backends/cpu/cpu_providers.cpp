// The op providers of the CPU plugin, in one table. Each op's providers are added here as
// they exist (the scalar reference first, faster ones above it by priority).
#include "cpu_backend.hpp"
#include "vt/ops/gdn_args.h"
#include "vt/reference/reference.hpp"

namespace vt::cpu {
namespace {

// The call's args point at the op's struct: the core dispatched by op id.
template <class Args, vt_status (*Fn)(const Args&)>
vt_status run(const vt_op_call* call) {
  return Fn(*static_cast<const Args*>(call->args));
}

constexpr vt_provider_desc reference(vt_op_id op, vt_status (*fn)(const vt_op_call*)) {
  return {sizeof(vt_provider_desc), op, "reference", 0, nullptr, fn};
}

const vt_provider_desc kProviders[] = {
    reference(VT_OP_CAUSAL_CONV1D_FWD, run<vt_causal_conv1d_fwd_args, vt::reference::causal_conv1d_fwd>),
    reference(VT_OP_CAUSAL_CONV1D_UPDATE, run<vt_causal_conv1d_update_args, vt::reference::causal_conv1d_update>),
    reference(VT_OP_GDN_POST_CONV, run<vt_gdn_post_conv_args, vt::reference::gdn_post_conv>),
    reference(VT_OP_L2NORM, run<vt_l2norm_args, vt::reference::l2norm>),
    reference(VT_OP_GDN_GATING, run<vt_gdn_gating_args, vt::reference::gdn_gating>),
    reference(VT_OP_GDN_SPLIT, run<vt_gdn_split_args, vt::reference::gdn_split>),
};

}  // namespace

const vt_provider_desc* providers(uint32_t* count) {
  *count = static_cast<uint32_t>(sizeof kProviders / sizeof kProviders[0]);
  return kProviders;
}

}  // namespace vt::cpu
