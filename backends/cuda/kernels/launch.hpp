// Host-side entry points of the kernels, one per op; each takes validated arguments and
// the switches, enqueues on `stream` and never synchronises or allocates.
#pragma once
#include <cuda_runtime.h>

#include <utility>

#include "vt/ops/gdn_args.h"
#include "vt/ops/launch_geometry.hpp"
#include "early_start.hpp"

namespace vt::cuda::kern {

// Where the kernels of a call go. early: each kernel may be scheduled while the kernel before
// it in the stream drains (programmatic dependent launch, sm_90), so its launch and its
// blocks' start overlap that kernel's last wave; every kernel here waits for the grids before
// it to finish and flush before it touches memory (after_prior_grids, early_start.hpp), so the
// order of results is the stream's.
struct Stream {
  cudaStream_t stream;
  bool early;
};

// kernel<<<grid, block, shared, s.stream>>>(args...), with the early start where s asks for
// it. A launch error is read by launch_status, as after <<<>>>: the runtime keeps it as the
// thread's last error.
template <class... Params, class... Args>
void launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared, const Stream& s, Args&&... args) {
  cudaLaunchAttribute early;
  const cudaLaunchConfig_t cfg = launch_config(grid, block, shared, s.stream, s.early, &early);
  static_cast<void>(cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...));
}

// bulk_copies: the device has sm_90's bulk copy engine (ConvFwdShape::bulk_copies).
vt_status launch_conv_fwd(const vt_causal_conv1d_fwd_args& args, const vt::ops::geometry::ConvSwitches& switches,
                          bool bulk_copies, const Stream& stream);
// device: the stream's device (the four-channel kernel's state hint depends on how many of its
// blocks that device runs at once).
vt_status launch_conv_update(const vt_causal_conv1d_update_args& args, const vt::ops::geometry::ConvSwitches& switches,
                             int device, const Stream& stream);
vt_status launch_post_conv(const vt_gdn_post_conv_args& args, const vt::ops::geometry::PostConvSwitches& switches,
                           const Stream& stream);
vt_status launch_l2norm(const vt_l2norm_args& args, const Stream& stream);
vt_status launch_gating(const vt_gdn_gating_args& args, const vt::ops::geometry::PostConvSwitches& switches,
                        const Stream& stream);
vt_status launch_split(const vt_gdn_split_args& args, const vt::ops::geometry::PostConvSwitches& switches,
                       const Stream& stream);

// The status of the launch just made (configuration errors surface here, not later).
vt_status launch_status(const char* op);
vt_status launch_error(const char* message);

}  // namespace vt::cuda::kern
