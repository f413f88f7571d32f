// The op providers of the CPU plugin, in one table: the scalar reference at priority 0, the
// fast provider (fast/) above it, and the fast provider's baseline variant below it, which
// runs only when asked for by disabling the other two (it proves both variants agree).
#include "cpu_backend.hpp"
#include "fast/fast.hpp"
#include "fast/threading.hpp"
#include "vt/ops/gdn_args.h"
#include "vt/reference/reference.hpp"

namespace vt::cpu {
namespace {

// The call's args point at the op's struct: the core dispatched by op id.
template <class Args, vt_status (*Fn)(const Args&)>
vt_status run(const vt_op_call* call) {
  return Fn(*static_cast<const Args*>(call->args));
}

template <class Args, vt_status (*Fn)(const Args&, const fast::Context&), fast::Isa Ceiling>
vt_status run_fast(const vt_op_call* call) {
  return Fn(*static_cast<const Args*>(call->args), fast::context(call->host, Ceiling));
}

// The knob the fast provider honours (vt_provider_desc::knobs); the reference reads none.
const char* const kFastKnobs[] = {fast::kThreadsKnob, nullptr};

constexpr vt_provider_desc reference(vt_op_id op, vt_status (*fn)(const vt_op_call*)) {
  return {sizeof(vt_provider_desc), op, "reference", 0, nullptr, fn, nullptr};
}

constexpr vt_provider_desc fast(vt_op_id op, vt_status (*fn)(const vt_op_call*)) {
  return {sizeof(vt_provider_desc), op, "fast", 10, nullptr, fn, kFastKnobs};
}

constexpr vt_provider_desc fast_baseline(vt_op_id op, vt_status (*fn)(const vt_op_call*)) {
  return {sizeof(vt_provider_desc), op, "fast.baseline", -10, nullptr, fn, kFastKnobs};
}

using FwdArgs = vt_causal_conv1d_fwd_args;
using UpdateArgs = vt_causal_conv1d_update_args;
using PostConvArgs = vt_gdn_post_conv_args;
using L2NormArgs = vt_l2norm_args;
using GatingArgs = vt_gdn_gating_args;
using SplitArgs = vt_gdn_split_args;
constexpr fast::Isa kBest = fast::Isa::avx2;  // the detected variant, up to the widest built
constexpr fast::Isa kBaseline = fast::Isa::baseline;

const vt_provider_desc kProviders[] = {
    reference(VT_OP_CAUSAL_CONV1D_FWD, run<FwdArgs, vt::reference::causal_conv1d_fwd>),
    reference(VT_OP_CAUSAL_CONV1D_UPDATE, run<UpdateArgs, vt::reference::causal_conv1d_update>),
    reference(VT_OP_GDN_POST_CONV, run<PostConvArgs, vt::reference::gdn_post_conv>),
    reference(VT_OP_L2NORM, run<L2NormArgs, vt::reference::l2norm>),
    reference(VT_OP_GDN_GATING, run<GatingArgs, vt::reference::gdn_gating>),
    reference(VT_OP_GDN_SPLIT, run<SplitArgs, vt::reference::gdn_split>),

    fast(VT_OP_CAUSAL_CONV1D_FWD, run_fast<FwdArgs, fast::causal_conv1d_fwd, kBest>),
    fast(VT_OP_CAUSAL_CONV1D_UPDATE, run_fast<UpdateArgs, fast::causal_conv1d_update, kBest>),
    fast(VT_OP_GDN_POST_CONV, run_fast<PostConvArgs, fast::gdn_post_conv, kBest>),
    fast(VT_OP_L2NORM, run_fast<L2NormArgs, fast::l2norm, kBest>),
    fast(VT_OP_GDN_GATING, run_fast<GatingArgs, fast::gdn_gating, kBest>),
    fast(VT_OP_GDN_SPLIT, run_fast<SplitArgs, fast::gdn_split, kBest>),

    fast_baseline(VT_OP_CAUSAL_CONV1D_FWD, run_fast<FwdArgs, fast::causal_conv1d_fwd, kBaseline>),
    fast_baseline(VT_OP_CAUSAL_CONV1D_UPDATE, run_fast<UpdateArgs, fast::causal_conv1d_update, kBaseline>),
    fast_baseline(VT_OP_GDN_POST_CONV, run_fast<PostConvArgs, fast::gdn_post_conv, kBaseline>),
    fast_baseline(VT_OP_L2NORM, run_fast<L2NormArgs, fast::l2norm, kBaseline>),
    fast_baseline(VT_OP_GDN_GATING, run_fast<GatingArgs, fast::gdn_gating, kBaseline>),
    fast_baseline(VT_OP_GDN_SPLIT, run_fast<SplitArgs, fast::gdn_split, kBaseline>),
};

}  // namespace

const vt_provider_desc* providers(uint32_t* count) {
  *count = static_cast<uint32_t>(sizeof kProviders / sizeof kProviders[0]);
  return kProviders;
}

}  // namespace vt::cpu
