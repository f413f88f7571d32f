// The reference for performance.md's "within 2 us of an empty kernel launch": an empty
// kernel timed the way vt-bench times a short op call (tools/vt-bench/timing.cpp), by
// events around back-to-back launches and by replays of a graph with one node per call.
// Prints the median per launch of each, in microseconds. Then the host side: the time a
// launch call takes on the host, the part of vt-bench --host-overhead's whole call that is
// the CUDA runtime's rather than vt's.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>

#include "bench_support.cuh"

namespace {

__global__ void empty_kernel() {}

// An empty kernel as the backend's kernels begin under the early start (kern::Stream, common.cuh).
__global__ void empty_early_kernel() { vt::cuda::bench::after_prior_grids(); }

constexpr const char* kTool = "cuda_empty_launch";
void check(cudaError_t e, const char* what) { vt::cuda::bench::check(kTool, e, what); }

// 20 warm-up calls of body, then 101 samples.
template <class Body>
double median_us_per(int launches, Body body, cudaStream_t s) {
  return vt::cuda::bench::median_us_per_launch(kTool, launches, 20, 101, s, body);
}

// One launch a node, `nodes` nodes captured into a graph, and the median per launch of its
// replays (vt-bench's graphs hold one node per input copy and are replayed 20 times a sample).
template <class Launch>
double graph_us_per_launch(int nodes, int replays, Launch launch, cudaStream_t s) {
  return vt::cuda::bench::graph_us_per_node(kTool, nodes, replays, 20, 101, s, [&](int) { launch(); });
}

// The host time of one `launch` call, timed as vt-bench --host-overhead times a whole op
// call (tools/vt-bench/host_overhead.cpp): 8 calls a sample, the stream drained between
// samples, the median of 51.
template <class Launch>
double host_us_per_launch(Launch launch, cudaStream_t s) {
  constexpr int kPerSample = 8, kSamples = 51;
  for (int i = 0; i < kPerSample; ++i) launch();
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  std::vector<double> us;
  for (int i = 0; i < kSamples; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < kPerSample; ++k) launch();
    const auto t1 = std::chrono::steady_clock::now();
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kPerSample);
  }
  std::nth_element(us.begin(), us.begin() + us.size() / 2, us.end());
  return us[us.size() / 2];
}

}  // namespace

int main() {
  int n = 0;
  check(cudaGetDeviceCount(&n), "cudaGetDeviceCount");
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  constexpr int kPerSample = 4;  // vt-bench's fewest calls per event sample
  const double events = median_us_per(
      kPerSample,
      [&] {
        for (int i = 0; i < kPerSample; ++i) empty_kernel<<<1, 32, 0, s>>>();
      },
      s);
  std::printf("empty kernel, %d launches between two events: %.2f us per launch\n", kPerSample, events);
  constexpr int kReplays = 20;
  for (int nodes : {1, 8, 16, 32}) {
    const double replay = graph_us_per_launch(
        nodes, kReplays, [&] { empty_kernel<<<1, 32, 0, s>>>(); }, s);
    std::printf("empty kernel, graph of %d node(s) replayed %d times: %.2f us per launch\n", nodes, kReplays, replay);
  }
  // The same graph of 16, each launch allowed to start while the one before it drains (the
  // backend's default on sm_90, VT_EARLY_LAUNCH).
  int major = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), "cudaDeviceGetAttribute");
  if (major >= 9) {
    constexpr int kNodes = 16;
    // Each launch fills its configuration, as the backend's launch_kernel does.
    auto launch = [&] { vt::cuda::bench::launch_early(kTool, empty_early_kernel, dim3(1), dim3(32), s); };
    const double replay = graph_us_per_launch(kNodes, kReplays, launch, s);
    std::printf("empty kernel, early start, graph of %d nodes replayed %d times: %.2f us per launch\n", kNodes,
                kReplays, replay);
    const double host = host_us_per_launch(launch, s);
    std::printf("empty kernel, early start, host time of one cudaLaunchKernelEx: %.3f us\n", host);
  }
  const double host = host_us_per_launch([&] { empty_kernel<<<1, 32, 0, s>>>(); }, s);
  std::printf("empty kernel, host time of one <<<>>> launch: %.3f us\n", host);
  cudaStreamDestroy(s);
  return 0;
}
