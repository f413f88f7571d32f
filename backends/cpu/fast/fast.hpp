// The CPU fast provider: every GDN op split into tasks run by oneTBB, on kernels vectorised
// for the CPU's widest variant (cpu_features.hpp), giving the scalar reference's bits.
#pragma once
#include "cpu_features.hpp"
#include "vt/ops/gdn_args.h"

namespace vt::cpu::fast {

// Where a call runs: the kernel variant, and the host whose knobs cap the threads.
struct Context {
  Isa isa;
  const vt_host_api* host;
};

// The variant a provider runs: the detected one, never above `ceiling`. Says which at
// debug level through the host's log, once per host.
Context context(const vt_host_api* host, Isa ceiling);

vt_status causal_conv1d_fwd(const vt_causal_conv1d_fwd_args& args, const Context& ctx);
vt_status causal_conv1d_update(const vt_causal_conv1d_update_args& args, const Context& ctx);
vt_status gdn_post_conv(const vt_gdn_post_conv_args& args, const Context& ctx);
vt_status l2norm(const vt_l2norm_args& args, const Context& ctx);
vt_status gdn_gating(const vt_gdn_gating_args& args, const Context& ctx);
vt_status gdn_split(const vt_gdn_split_args& args, const Context& ctx);

}  // namespace vt::cpu::fast
