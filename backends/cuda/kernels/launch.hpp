// Host-side entry points of the kernels, one per op; each takes validated arguments and
// the switches, enqueues on `stream` and never synchronises or allocates.
#pragma once
#include <cuda_runtime.h>

#include "vt/ops/gdn_args.h"
#include "vt/ops/launch_geometry.hpp"

namespace vt::cuda::kern {

// bulk_copies: the device has sm_90's bulk copy engine (ConvFwdShape::bulk_copies).
vt_status launch_conv_fwd(const vt_causal_conv1d_fwd_args& args, const vt::ops::geometry::ConvSwitches& switches,
                          bool bulk_copies, cudaStream_t stream);
vt_status launch_conv_update(const vt_causal_conv1d_update_args& args, const vt::ops::geometry::ConvSwitches& switches,
                             cudaStream_t stream);
vt_status launch_post_conv(const vt_gdn_post_conv_args& args, const vt::ops::geometry::PostConvSwitches& switches,
                           cudaStream_t stream);
vt_status launch_l2norm(const vt_l2norm_args& args, cudaStream_t stream);
vt_status launch_gating(const vt_gdn_gating_args& args, const vt::ops::geometry::PostConvSwitches& switches,
                        cudaStream_t stream);
vt_status launch_split(const vt_gdn_split_args& args, const vt::ops::geometry::PostConvSwitches& switches,
                       cudaStream_t stream);

// The status of the launch just made (configuration errors surface here, not later).
vt_status launch_status(const char* op);
vt_status launch_error(const char* message);

}  // namespace vt::cuda::kern
