// What the small cases' bytes cost as a plain copy, timed as vt-bench times those cases:
// how close to performance.md's small-case targets (T = 128 and 256 within 2 us of an empty
// launch, the update at B = 256 at 80% of copy) any kernel moving the same bytes can come.
//
// Each case copies `bytes` one way (and as many back), as the op reads and writes them. As in
// vt-bench (tools/vt-bench): up to 16 copies of the buffers, until they pass 256 MB, one
// graph node a copy, each node allowed to start while the one before it drains (the backend's
// early start), 20 replays a sample, the median of 21 samples per call. Kernels, each at
// several block sizes and 16-byte words a thread (all of a thread's loads before its
// stores):
//   plain    block i copies chunk i;
//   indexed  block i copies chunk perm[i], read from a table first, as the update reads its
//            slot before its state: what one dependent load costs a copy;
//   halo     (the conv cases) as plain, but each word's thread also loads the same word of
//            the W = 3 rows before it, as a width-4 conv reads its window: what re-reading
//            the halo (from L1 or L2) costs a copy of 16-byte rows;
//   empty    the same grid, no memory touched: what launching and retiring the blocks costs.
// Also a cudaMemcpyAsync node of the bytes, and the 1 GiB device-to-device copy that is
// vt-bench's 100%. Every kernel's output is checked byte for byte over poison first.
//
// Usage: cuda_small_copy [--check-only] [--case TEXT]
// --check-only: the byte checks only (the ctest); --case: only the cases whose name holds TEXT.
// Exit status: 0, 1 on a mismatch or a CUDA error, 2 on a bad argument or a --case that no
// case matches, 77 without a device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include "bench_support.cuh"

namespace {

constexpr const char* kTool = "cuda_small_copy";
void check(cudaError_t e, const char* what) { vt::cuda::bench::check(kTool, e, what); }

using vt::cuda::bench::after_prior_grids;

// Block b copies chunk perm ? perm[b] : b of U * blockDim.x words; with a Halo, each word's
// thread also loads the word Halo rows of row_words before it, down to 1 (none before row 0).
// `zero` is 0 but unknown to the compiler: folding every loaded word into it makes each store
// wait for all the thread's loads (left alone, ptxas moves a load down to its store and keeps
// few in flight).
template <int U, int Halo = 0>
__global__ void copy_kernel(const uint4* src, uint4* dst, int64_t n, const int32_t* perm, int64_t row_words,
                            uint32_t zero) {
  after_prior_grids();
  const int64_t chunk = perm ? perm[blockIdx.x] : blockIdx.x;
  const int64_t first = chunk * U * blockDim.x + threadIdx.x;
  uint4 v[U];
  uint32_t all = 0;
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const int64_t i = first + int64_t{u} * blockDim.x;
    v[u] = i < n ? src[i] : make_uint4(0, 0, 0, 0);
    all |= v[u].x;
#pragma unroll
    for (int h = 1; h <= Halo; ++h) {
      const int64_t j = i - h * row_words;
      if (j >= 0 && i < n) {
        const uint4 w = src[j];  // the whole word, as the conv loads it
        all |= w.x ^ w.y ^ w.z ^ w.w;
      }
    }
  }
  all &= zero;
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const int64_t i = first + int64_t{u} * blockDim.x;
    if (i < n) dst[i] = make_uint4(v[u].x ^ all, v[u].y, v[u].z, v[u].w);
  }
}

__global__ void empty_kernel() { after_prior_grids(); }

struct Case {
  const char* name;
  int64_t bytes;      // one way
  int64_t row_bytes;  // a token's row of x (the conv cases), else 0
};

// The bytes each case of vt-bench moves each way (C = 8192; bf16 x and out, f32 state of
// K - 1 = 3 columns): a prefill's x and out, and a decode sequence's x and out (16 KiB) with
// its state read and written (96 KiB).
constexpr Case kCases[] = {
    {"conv T=128", 128 * 16384, 16384}, {"conv T=256", 256 * 16384, 16384}, {"update B=1", 1 * 114688, 0},
    {"update B=64", 64 * 114688, 0},    {"update B=256", 256 * 114688, 0},  {"update B=512", 512 * 114688, 0},
};

struct Buffers {
  std::vector<uint4*> src, dst;
  int32_t* perm = nullptr;  // a permutation of the chunks (largest grid), shared by all copies
  int64_t words = 0;
};

// One early-start launch of kernel on s.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), unsigned blocks, unsigned threads, cudaStream_t s, Args... args) {
  vt::cuda::bench::launch_early(kTool, kernel, dim3(blocks), dim3(threads), s, args...);
}

// The median time of one call, `node(i)` enqueuing the call on copy i, by graph replay.
template <class Node>
double graph_us_per_call(int copies, Node node, cudaStream_t s) {
  return vt::cuda::bench::graph_us_per_node(kTool, copies, 20, 5, 21, s, node);
}

struct Run {
  bool check_only = false;
  const char* only_case = nullptr;  // --case
  double copy_gbs = 0;
  int failures = 0;
  cudaStream_t s{};
  unsigned long long* poison_count = nullptr;
};

void print_row(const Run& r, const Case& c, const char* kind, int threads, int words, int64_t blocks, double us,
               const char* output) {
  std::printf("%-13s %-8s %7d %5d %7lld", c.name, kind, threads, words, static_cast<long long>(blocks));
  if (us <= 0) {
    std::printf(" %9s %8s %7s  %s\n", "-", "-", "-", output);
  } else {
    const double gbs = 2.0 * static_cast<double>(c.bytes) / (us * 1e-6) / 1e9;
    std::printf(" %9.2f %8.1f %6.1f%%  %s\n", us, gbs, 100.0 * gbs / r.copy_gbs, output);
  }
  std::fflush(stdout);
}

template <int U>
void copy_configs(Run& r, const Case& c, Buffers& b, int threads) {
  const int64_t per_block = int64_t{U} * threads;
  const int64_t blocks = (b.words + per_block - 1) / per_block;
  enum Kind { plain, indexed, halo };
  for (Kind kind : {plain, indexed, halo}) {
    if (kind == halo && c.row_bytes == 0) continue;
    const int32_t* perm = nullptr;
    std::vector<int32_t> host;
    if (kind == indexed) {
      // A fixed shuffle of the chunks, as slots are an arbitrary map of sequences to rows.
      host.resize(static_cast<size_t>(blocks));
      for (int64_t i = 0; i < blocks; ++i) host[static_cast<size_t>(i)] = static_cast<int32_t>(i);
      uint32_t h = 0x2545f491u;
      for (int64_t i = blocks - 1; i > 0; --i) {
        h = h * 1664525u + 1013904223u;
        std::swap(host[static_cast<size_t>(i)], host[h % static_cast<uint32_t>(i + 1)]);
      }
      check(cudaMemcpy(b.perm, host.data(), host.size() * sizeof(int32_t), cudaMemcpyHostToDevice), "cudaMemcpy");
      perm = b.perm;
    }
    auto node = [&](int i) {
      const auto* src = static_cast<const uint4*>(b.src[static_cast<size_t>(i)]);
      uint4* dst = b.dst[static_cast<size_t>(i)];
      if (kind == halo) {
        launch(copy_kernel<U, 3>, static_cast<unsigned>(blocks), static_cast<unsigned>(threads), r.s, src, dst, b.words,
               perm, c.row_bytes / 16, 0u);
      } else {
        launch(copy_kernel<U>, static_cast<unsigned>(blocks), static_cast<unsigned>(threads), r.s, src, dst, b.words,
               perm, int64_t{0}, 0u);
      }
    };
    check(cudaMemsetAsync(b.dst[0], 0xa5, static_cast<size_t>(b.words) * 16, r.s), "cudaMemsetAsync");
    node(0);
    check(cudaMemsetAsync(r.poison_count, 0, sizeof *r.poison_count, r.s), "cudaMemsetAsync");
    vt::cuda::bench::count_mismatches_kernel<<<264, 256, 0, r.s>>>(b.src[0], b.dst[0], b.words, r.poison_count);
    unsigned long long bad = 0;
    check(cudaMemcpyAsync(&bad, r.poison_count, sizeof bad, cudaMemcpyDeviceToHost, r.s), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(r.s), "cudaStreamSynchronize");
    if (bad) ++r.failures;
    const double us = r.check_only || bad ? 0 : graph_us_per_call(static_cast<int>(b.src.size()), node, r.s);
    print_row(r, c,
              kind == plain     ? "plain"
              : kind == indexed ? "indexed"
                                : "halo",
              threads, U, blocks, us, bad ? "MISMATCH" : "exact");
  }
  if (!r.check_only) {
    const double us = graph_us_per_call(
        static_cast<int>(b.src.size()),
        [&](int) { launch(empty_kernel, static_cast<unsigned>(blocks), static_cast<unsigned>(threads), r.s); }, r.s);
    print_row(r, c, "empty", threads, U, blocks, us, "-");
  }
}

void run_case(Run& r, const Case& c) {
  Buffers b;
  b.words = c.bytes / 16;
  const double footprint = 2.0 * static_cast<double>(c.bytes);
  const int copies = r.check_only ? 1 : [&] {
    int n = 1;
    while (n < 16 && footprint * n < 256e6) ++n;
    return n;
  }();
  for (int i = 0; i < copies; ++i) {
    uint4 *src = nullptr, *dst = nullptr;
    check(cudaMalloc(&src, static_cast<size_t>(c.bytes)), "cudaMalloc");
    check(cudaMalloc(&dst, static_cast<size_t>(c.bytes)), "cudaMalloc");
    vt::cuda::bench::fill_words_kernel<<<264, 256, 0, r.s>>>(reinterpret_cast<uint32_t*>(src), b.words * 4,
                                                             0x5eedu + static_cast<uint32_t>(i));
    b.src.push_back(src);
    b.dst.push_back(dst);
  }
  check(cudaMalloc(&b.perm, static_cast<size_t>(b.words) * sizeof(int32_t)), "cudaMalloc");
  check(cudaStreamSynchronize(r.s), "fill");
  if (!r.check_only) {
    const double us = graph_us_per_call(
        copies,
        [&](int i) {
          check(cudaMemcpyAsync(b.dst[static_cast<size_t>(i)], b.src[static_cast<size_t>(i)],
                                static_cast<size_t>(c.bytes), cudaMemcpyDeviceToDevice, r.s),
                "cudaMemcpyAsync");
        },
        r.s);
    print_row(r, c, "memcpy", 0, 0, 0, us, "-");
  }
  for (int threads : {128, 256, 512, 1024}) {
    copy_configs<1>(r, c, b, threads);
    copy_configs<2>(r, c, b, threads);
    copy_configs<4>(r, c, b, threads);
    copy_configs<8>(r, c, b, threads);
  }
  for (size_t i = 0; i < b.src.size(); ++i) {
    check(cudaFree(b.src[i]), "cudaFree");
    check(cudaFree(b.dst[i]), "cudaFree");
  }
  check(cudaFree(b.perm), "cudaFree");
}

}  // namespace

int main(int argc, char** argv) {
  Run r;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--check-only") == 0) {
      r.check_only = true;
    } else if (std::strcmp(argv[i], "--case") == 0 && i + 1 < argc) {
      r.only_case = argv[++i];
    } else {
      std::fprintf(stderr, "usage: cuda_small_copy [--check-only] [--case TEXT]\n");
      return 2;
    }
  }
  auto chosen = [&](const Case& c) { return !r.only_case || std::strstr(c.name, r.only_case); };
  if (std::none_of(std::begin(kCases), std::end(kCases), chosen)) {
    std::fprintf(stderr, "cuda_small_copy: no case's name holds %s\n", r.only_case);
    return 2;
  }
  int n = 0;
  check(cudaGetDeviceCount(&n), "cudaGetDeviceCount");
  check(cudaStreamCreateWithFlags(&r.s, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaMalloc(&r.poison_count, sizeof *r.poison_count), "cudaMalloc");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  if (!r.check_only) r.copy_gbs = vt::cuda::bench::copy_bandwidth_gbs(kTool, r.s);
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  if (!r.check_only) std::printf("1 GiB device-to-device copy: %.1f GB/s (100%% below)\n", r.copy_gbs);
  std::printf("%-13s %-8s %7s %5s %7s %9s %8s %7s  %s\n", "case", "kind", "threads", "words", "blocks", "us/call",
              "GB/s", "%copy", "output");
  for (const Case& c : kCases)
    if (chosen(c)) run_case(r, c);
  check(cudaStreamDestroy(r.s), "cudaStreamDestroy");
  if (r.failures) std::printf("%d configuration(s) did not copy exactly\n", r.failures);
  return r.failures ? 1 : 0;
}
