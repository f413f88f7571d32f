// The reference for performance.md's "within 2 us of an empty kernel launch": an empty
// kernel timed the way vt-bench times a short op call (tools/vt-bench/timing.cpp), by
// events around back-to-back launches and by replays of a graph with one node per call.
// Prints the median per launch of each, in microseconds. Then the host side: the time a
// launch call takes on the host, the part of vt-bench --host-overhead's whole call that is
// the CUDA runtime's rather than vt's; and that time with 4, 8 and 16 host threads launching
// at once, a stream each, as vt-bench --host-overhead --threads calls, so that a launch cost
// that grows with threads can be told apart as the runtime's or vt's.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <utility>
#include <vector>

#include "bench_support.cuh"

namespace {

__global__ void empty_kernel() {}

// An empty kernel as the backend's kernels begin under the early start (kern::Stream, common.cuh).
__global__ void empty_early_kernel() { vt::cuda::bench::after_prior_grids(); }

constexpr const char* kTool = "cuda_empty_launch";
void check(cudaError_t e, const char* what) { vt::cuda::bench::check(kTool, e, what); }
using vt::cuda::bench::median;

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

// Samples of the host time of one `launch(s)` call, timed as vt-bench --host-overhead times a
// whole op call (tools/vt-bench/host_overhead.cpp): 8 calls a sample, the stream drained
// between samples, 51 samples. `ready` runs after the warm-up, before the first sample.
template <class Launch, class Ready>
std::vector<double> host_samples(Launch launch, cudaStream_t s, Ready ready) {
  constexpr int kPerSample = 8, kSamples = 51;
  for (int i = 0; i < kPerSample; ++i) launch(s);
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  ready();
  std::vector<double> us;
  for (int i = 0; i < kSamples; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < kPerSample; ++k) launch(s);
    const auto t1 = std::chrono::steady_clock::now();
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kPerSample);
  }
  return us;
}

template <class Launch>
double host_us_per_launch(Launch launch, cudaStream_t s) {
  return median(host_samples(launch, s, [] {}));
}

// The median of host_samples pooled over `threads` host threads, each on a stream of its
// own, released together once every one has warmed up (as vt-bench --threads releases its).
template <class Launch>
double threaded_host_us_per_launch(int threads, Launch launch) {
  std::atomic<int> waiting{threads};
  std::vector<std::vector<double>> samples(static_cast<size_t>(threads));
  auto body = [&](int t) {
    cudaStream_t s;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    samples[static_cast<size_t>(t)] = host_samples(launch, s, [&] {
      waiting.fetch_sub(1);
      while (waiting.load() > 0) std::this_thread::yield();
    });
    check(cudaStreamDestroy(s), "cudaStreamDestroy");
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(body, t);
  body(0);
  for (std::thread& t : pool) t.join();
  std::vector<double> all;
  for (const auto& v : samples) all.insert(all.end(), v.begin(), v.end());
  return median(std::move(all));
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
  // Each launch fills its configuration, as the backend's launch_kernel does.
  auto launch_on = [](cudaStream_t q) {
    vt::cuda::bench::launch_early(kTool, empty_early_kernel, dim3(1), dim3(32), q);
  };
  if (major >= 9) {
    constexpr int kNodes = 16;
    auto launch = [&] { launch_on(s); };
    const double replay = graph_us_per_launch(kNodes, kReplays, launch, s);
    std::printf("empty kernel, early start, graph of %d nodes replayed %d times: %.2f us per launch\n", kNodes,
                kReplays, replay);
    const double host = host_us_per_launch(launch_on, s);
    std::printf("empty kernel, early start, host time of one cudaLaunchKernelEx: %.3f us\n", host);
  }
  auto plain = [](cudaStream_t q) { empty_kernel<<<1, 32, 0, q>>>(); };
  const double host = host_us_per_launch(plain, s);
  std::printf("empty kernel, host time of one <<<>>> launch: %.3f us\n", host);
  // The backend's launch (the early start where the card has it) from several threads at once.
  for (int threads : {1, 4, 8, 16}) {
    const double us =
        major >= 9 ? threaded_host_us_per_launch(threads, launch_on) : threaded_host_us_per_launch(threads, plain);
    std::printf("empty kernel, %s, %d host thread(s) at once, a stream each: host time of one launch %.3f us\n",
                major >= 9 ? "early start" : "<<<>>>", threads, us);
  }
  cudaStreamDestroy(s);
  return 0;
}
