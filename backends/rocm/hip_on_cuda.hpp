// The HIP calls and kernel-language names this backend uses, mapped onto the CUDA runtime,
// so that nvcc builds the same HIP sources into a plugin that runs on an NVIDIA GPU (the
// kernels are then tested and measured on real hardware). Debian's NVIDIA-platform HIP
// headers do not build with CUDA 13, hence this header. It maps only what the backend uses:
// a new HIP call in the backend fails the via-CUDA build until it gets its line here.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdio.h>

#include <utility>

// Types.
using hipError_t = cudaError_t;
using hipStream_t = cudaStream_t;
using hipEvent_t = cudaEvent_t;
using hipGraph_t = cudaGraph_t;
using hipGraphExec_t = cudaGraphExec_t;
using hipMemcpyKind = cudaMemcpyKind;
using hipStreamCaptureMode = cudaStreamCaptureMode;

// Values.
inline constexpr hipError_t hipSuccess = cudaSuccess;
inline constexpr hipError_t hipErrorNoDevice = cudaErrorNoDevice;
inline constexpr hipError_t hipErrorOutOfMemory = cudaErrorMemoryAllocation;
inline constexpr unsigned int hipStreamNonBlocking = cudaStreamNonBlocking;
inline constexpr hipStreamCaptureMode hipStreamCaptureModeThreadLocal = cudaStreamCaptureModeThreadLocal;
inline constexpr hipMemcpyKind hipMemcpyHostToDevice = cudaMemcpyHostToDevice;
inline constexpr hipMemcpyKind hipMemcpyDeviceToHost = cudaMemcpyDeviceToHost;
inline constexpr hipMemcpyKind hipMemcpyDeviceToDevice = cudaMemcpyDeviceToDevice;
inline constexpr unsigned int hipHostMallocPortable = cudaHostAllocPortable;

// The device properties the backend reads; gcnArchName carries the compute capability.
struct hipDeviceProp_t {
  char name[256];
  char gcnArchName[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int warpSize;
  int major, minor;
  int multiProcessorCount;
  int integrated;
};

inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* out, int device) {
  cudaDeviceProp p{};
  const cudaError_t err = cudaGetDeviceProperties(&p, device);
  if (err != cudaSuccess) return err;
  *out = hipDeviceProp_t{};
  snprintf(out->name, sizeof out->name, "%s", p.name);
  snprintf(out->gcnArchName, sizeof out->gcnArchName, "sm_%d%d", p.major, p.minor);
  out->totalGlobalMem = p.totalGlobalMem;
  out->sharedMemPerBlock = p.sharedMemPerBlock;
  out->warpSize = p.warpSize;
  out->major = p.major;
  out->minor = p.minor;
  out->multiProcessorCount = p.multiProcessorCount;
  out->integrated = p.integrated;
  return cudaSuccess;
}

// Runtime calls, one to one.
inline hipError_t hipGetDeviceCount(int* count) { return cudaGetDeviceCount(count); }
inline hipError_t hipGetDevice(int* device) { return cudaGetDevice(device); }
inline hipError_t hipSetDevice(int device) { return cudaSetDevice(device); }
inline hipError_t hipGetLastError() { return cudaGetLastError(); }
inline const char* hipGetErrorName(hipError_t err) { return cudaGetErrorName(err); }
inline const char* hipGetErrorString(hipError_t err) { return cudaGetErrorString(err); }
inline hipError_t hipMalloc(void** p, size_t bytes) { return cudaMalloc(p, bytes); }
inline hipError_t hipFree(void* p) { return cudaFree(p); }
inline hipError_t hipHostMalloc(void** p, size_t bytes, unsigned int flags) { return cudaHostAlloc(p, bytes, flags); }
inline hipError_t hipHostFree(void* p) { return cudaFreeHost(p); }
inline hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t s) {
  return cudaMemsetAsync(dst, value, bytes, s);
}
inline hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t s) {
  return cudaMemcpyAsync(dst, src, bytes, kind, s);
}
inline hipError_t hipStreamCreateWithFlags(hipStream_t* s, unsigned int flags) {
  return cudaStreamCreateWithFlags(s, flags);
}
inline hipError_t hipStreamDestroy(hipStream_t s) { return cudaStreamDestroy(s); }
inline hipError_t hipStreamSynchronize(hipStream_t s) { return cudaStreamSynchronize(s); }
inline hipError_t hipStreamWaitEvent(hipStream_t s, hipEvent_t e, unsigned int flags) {
  return cudaStreamWaitEvent(s, e, flags);
}
inline hipError_t hipEventCreate(hipEvent_t* e) { return cudaEventCreate(e); }
inline hipError_t hipEventDestroy(hipEvent_t e) { return cudaEventDestroy(e); }
inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t s) { return cudaEventRecord(e, s); }
inline hipError_t hipEventSynchronize(hipEvent_t e) { return cudaEventSynchronize(e); }
inline hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t end) {
  return cudaEventElapsedTime(ms, start, end);
}
inline hipError_t hipStreamBeginCapture(hipStream_t s, hipStreamCaptureMode mode) {
  return cudaStreamBeginCapture(s, mode);
}
inline hipError_t hipStreamEndCapture(hipStream_t s, hipGraph_t* g) { return cudaStreamEndCapture(s, g); }
inline hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec, hipGraph_t g, unsigned long long flags) {
  return cudaGraphInstantiateWithFlags(exec, g, flags);
}
inline hipError_t hipGraphDestroy(hipGraph_t g) { return cudaGraphDestroy(g); }
inline hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t s) { return cudaGraphLaunch(exec, s); }
inline hipError_t hipGraphExecDestroy(hipGraphExec_t exec) { return cudaGraphExecDestroy(exec); }

#if defined(__CUDACC__)
// Kernel launch: a function pointer to a __global__ function launches with <<<>>>, so a
// template kernel passes through the macro without its commas splitting the arguments.
template <class... Params, class... Args>
inline void vt_hip_launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared, hipStream_t stream,
                          Args&&... args) {
  kernel<<<grid, block, shared, stream>>>(std::forward<Args>(args)...);
}
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...) \
  vt_hip_launch(kernel, grid, block, shared, stream, __VA_ARGS__)

// HIP's width-limited shuffles. Macros, because CUDA's host pass still declares its old
// unsynchronised __shfl_down with this very signature; the callers keep all 32 lanes of a
// warp converged, as the _sync forms require.
#define __shfl_down(v, delta, width) __shfl_down_sync(0xffffffffu, (v), (delta), (width))
#define __shfl(v, src_lane, width) __shfl_sync(0xffffffffu, (v), (src_lane), (width))
#endif
