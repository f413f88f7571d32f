// The scalar reference of every GDN op: the definition of the answer (parity.md). Each call
// takes validated arguments (ops.md section 6) whose tensors are host-addressable, runs on
// the calling thread and returns VT_OK; it never writes outside a tensor, even when device
// metadata (offsets, slots) is inconsistent.
#pragma once
#include "vt/ops/gdn_args.h"

namespace vt::reference {

vt_status causal_conv1d_fwd(const vt_causal_conv1d_fwd_args& args);
// VT_STATUS_OUT_OF_MEMORY only if the per-sequence token buffer cannot be allocated.
vt_status causal_conv1d_update(const vt_causal_conv1d_update_args& args);
vt_status gdn_post_conv(const vt_gdn_post_conv_args& args);
vt_status l2norm(const vt_l2norm_args& args);
vt_status gdn_gating(const vt_gdn_gating_args& args);
vt_status gdn_split(const vt_gdn_split_args& args);

}  // namespace vt::reference
