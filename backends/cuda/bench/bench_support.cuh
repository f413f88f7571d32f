// What the CUDA benches share: a CUDA call's status checked, and the median time per launch
// from device events. Only the CUDA runtime, so that each bench still builds with a bare nvcc.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace vt::cuda::bench {

// On an error, says which call failed and exits: 77 (skipped) where there is no driver, only
// the stub library or no device, as the plugin reads them; 1 otherwise.
inline void check(const char* tool, cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s: %s\n", tool, what, cudaGetErrorString(e));
  const bool absent = e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorStubLibrary;
  std::exit(absent ? 77 : 1);
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
  std::nth_element(us.begin(), us.begin() + us.size() / 2, us.end());
  return us[us.size() / 2];
}

}  // namespace vt::cuda::bench
