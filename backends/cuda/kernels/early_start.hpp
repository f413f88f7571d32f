// The early start (programmatic dependent launch, sm_90) in one place: the launch
// configuration that allows it and the wait every kernel begins with. Only the CUDA runtime,
// so that the benches (backends/cuda/bench), which build with a bare nvcc, include it too.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace vt::cuda::kern {

// The configuration of kernel<<<grid, block, shared, stream>>>, with the early start where
// `early` asks for it: the kernel may then be scheduled while the one before it in the stream
// drains, so its launch and its blocks' start overlap that kernel's last wave. `attr` holds
// the attribute and must outlive the launch.
inline cudaLaunchConfig_t launch_config(dim3 grid, dim3 block, size_t shared, cudaStream_t stream, bool early,
                                        cudaLaunchAttribute* attr) {
  *attr = cudaLaunchAttribute{};
  attr->id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr->val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = shared;
  cfg.stream = stream;
  cfg.attrs = early ? attr : nullptr;
  cfg.numAttrs = early ? 1 : 0;
  return cfg;
}

#ifdef __CUDACC__
// The first statement of every kernel: lets the next kernel in the stream be scheduled, then
// waits until every grid before this one has finished and its writes are visible. Launched
// without the early start, both return at once; before sm_90 they are left out (the early
// start needs sm_90).
__device__ __forceinline__ void after_prior_grids() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
#endif

}  // namespace vt::cuda::kern
