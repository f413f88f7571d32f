// What the CUDA benches share: a CUDA call's status checked, and the median time per launch
// from device events. Only the CUDA runtime, so that each bench still builds with a bare nvcc.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "../kernels/early_start.hpp"

namespace vt::cuda::bench {

// On an error, says which call failed and exits: 77 (skipped) where there is no driver, only
// the stub library or no device, as the plugin reads them; 1 otherwise.
inline void check(const char* tool, cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s: %s\n", tool, what, cudaGetErrorString(e));
  const bool absent = e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorStubLibrary;
  std::exit(absent ? 77 : 1);
}

// The median of samples (the upper of the middle two for an even count).
inline double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// `warmups` calls of body, then `samples` calls each between two events on stream s: the
// median sample over `launches`, the launches one body call makes, in microseconds.
template <class Body>
double median_us_per_launch(const char* tool, int launches, int warmups, int samples, cudaStream_t s, Body body) {
  cudaEvent_t a, b;
  check(tool, cudaEventCreate(&a), "cudaEventCreate");
  check(tool, cudaEventCreate(&b), "cudaEventCreate");
  for (int i = 0; i < warmups; ++i) body();
  check(tool, cudaStreamSynchronize(s), "cudaStreamSynchronize");
  std::vector<double> us;
  for (int i = 0; i < samples; ++i) {
    check(tool, cudaEventRecord(a, s), "cudaEventRecord");
    body();
    check(tool, cudaEventRecord(b, s), "cudaEventRecord");
    check(tool, cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    check(tool, cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    us.push_back(ms * 1e3 / launches);
  }
  check(tool, cudaEventDestroy(a), "cudaEventDestroy");
  check(tool, cudaEventDestroy(b), "cudaEventDestroy");
  return median(std::move(us));
}

// The device-to-device copy bandwidth that is vt-bench's 100% (tools/vt-bench/timing.cpp),
// in GB/s of bytes read plus written: 1 GiB copied on s, after a quarter of a second of such
// copies (an idle GPU starts at a low clock), the median of 9 samples of 4 copies.
inline double copy_bandwidth_gbs(const char* tool, cudaStream_t s) {
  const size_t big = size_t{1} << 30;
  void *a = nullptr, *b = nullptr;
  check(tool, cudaMalloc(&a, big), "cudaMalloc");
  check(tool, cudaMalloc(&b, big), "cudaMalloc");
  check(tool, cudaMemset(a, 0x3c, big), "cudaMemset");
  const auto begin = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count() < 0.25) {
    check(tool, cudaMemcpyAsync(b, a, big, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync");
    check(tool, cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  const double us = median_us_per_launch(tool, 4, 1, 9, s, [&] {
    for (int i = 0; i < 4; ++i) check(tool, cudaMemcpyAsync(b, a, big, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync");
  });
  check(tool, cudaFree(a), "cudaFree");
  check(tool, cudaFree(b), "cudaFree");
  return 2.0 * static_cast<double>(big) / (us * 1e-6) / 1e9;
}

using kern::after_prior_grids;  // the start of every backend kernel, for the kernels that stand in for them

// kernel<<<grid, block, 0, s>>>(args...) with the early start the backend uses on sm_90
// (kern::launch_kernel in kernels/launch.hpp).
template <class... Params, class... Args>
void launch_early(const char* tool, void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t s, Args... args) {
  cudaLaunchAttribute early;
  const cudaLaunchConfig_t cfg = kern::launch_config(grid, block, 0, s, true, &early);
  check(tool, cudaLaunchKernelEx(&cfg, kernel, args...), "cudaLaunchKernelEx");
}

// The median time of one node of a graph, as vt-bench times a short call: node(i) enqueues
// node i of `nodes` on s under capture, and each sample times `replays` replays of the graph.
template <class Node>
double graph_us_per_node(const char* tool, int nodes, int replays, int warmups, int samples, cudaStream_t s,
                         Node node) {
  cudaGraph_t g;
  cudaGraphExec_t ge;
  check(tool, cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  for (int i = 0; i < nodes; ++i) node(i);
  check(tool, cudaStreamEndCapture(s, &g), "cudaStreamEndCapture");
  check(tool, cudaGraphInstantiate(&ge, g, 0), "cudaGraphInstantiate");
  const double us = median_us_per_launch(tool, replays * nodes, warmups, samples, s, [&] {
    for (int r = 0; r < replays; ++r) check(tool, cudaGraphLaunch(ge, s), "cudaGraphLaunch");
  });
  check(tool, cudaGraphExecDestroy(ge), "cudaGraphExecDestroy");
  check(tool, cudaGraphDestroy(g), "cudaGraphDestroy");
  return us;
}

// Adds to *count the 16-byte words where a and b differ (a bench's byte check).
static __global__ void count_mismatches_kernel(const uint4* a, const uint4* b, int64_t n, unsigned long long* count) {
  unsigned long long local = 0;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const uint4 x = a[i], y = b[i];
    local += (x.x != y.x) | (x.y != y.y) | (x.z != y.z) | (x.w != y.w);
  }
  if (local) atomicAdd(count, local);
}

// n pseudo-random words for a bench's input (not zeros: some memory systems compress them).
// Static, as count_mismatches_kernel: each bench is one translation unit, with its own copy.
static __global__ void fill_words_kernel(uint32_t* p, int64_t n, uint32_t seed) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    uint32_t h = static_cast<uint32_t>(i) * 0x9e3779b9u ^ seed;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    p[i] = h;
  }
}

}  // namespace vt::cuda::bench
