// What the conv prefill's memory access reaches as a plain copy, and which change of it
// reaches the copy bandwidth. The default conv kernel storing its inputs (no arithmetic)
// reached 77% of copy bandwidth at T = 16384 (docs/benchmarks.md, eleventh session), so its
// access pattern, not its math, caps it; this finds which part of the pattern does.
//
// A [rows, row_bytes] array is copied the way conv_fwd_window_kernel walks x and out: a block
// of 128 threads owns a strip of each row, every thread `lane` bytes of it; a program owns a
// run of `chunk` rows; the grid is strips (x) by programs (y, z). Swept: the lane width, and
// for the conv's 4-byte lanes the block's width too (256 and 512 threads); the
// rows a thread has in flight (depth), walked as the conv does or in two pipelined ways
// (Walk below; those only for 4-byte lanes, the conv's: with wider lanes ptxas interleaves a
// piped walk's loads and stores); the blocks resident on an SM (capped by reserved shared memory); the
// chunk; and the same strips brought into shared memory by the bulk copy engine (sm_90),
// `stages` buffers of `depth` rows each. The `spread`, `transp` and `stcs` rows take the
// conv's walk (4-byte lanes, 8 rows a batch) over program lengths from 32 to 688 rows, with
// the programs in another order (Order below) or the stores streaming (st.global.cs), to tell
// whether a long program is slow for its length or for where its neighbours are in memory
// (docs/benchmarks.md, thirty-eighth session). The SASS order of loads and stores was checked
// with cuobjdump for every kernel before those rows (not for theirs: no cuobjdump here). Every
// configuration's output is first checked byte for byte against its input, written over poison.
// The copy counts 2 x the array's bytes, as vt-bench's 1 GiB reference copy (100%) does.
//
// The `seqs` rows copy the 256 short sequences' pattern instead (vt-bench's
// conv_fwd/C8192/N256xL8-64): sequence lengths drawn from 8..64 (a fixed draw of their own,
// not vt-bench's), the rows packed one sequence after another, and a program for each
// (strip, sequence). A program reads its sequence's bounds and its slot (a shuffled table),
// then copies its rows of the strip and its slot's state for the strip's channels (f32, K - 1
// = 3 columns of each 16-bit channel: 6 bytes of state a byte of lane) from one state array
// to another: the bytes vt-bench counts for that case, each read and written once.
//
// Usage: cuda_strip_copy [--rows N] [--row-bytes N] [--check-only] [--only KEY] [--kind KIND]
// (a `seqs` row's chunk is 0: its programs are its sequences)
// --kind runs only the rows of one kind (memcpy, flat, batched, piped, rolling, staged, spread,
// transp, stcs, seqs).
// --check-only runs each configuration once on a small array and times nothing (the ctest).
// --only runs the one configuration whose row has KEY's fields (kind, chunk, threads, lane,
// depth, stages, blocks/SM, joined by '/', e.g. batched/128/128/4/8/0/8): its first launch is
// the byte check's, for a profiler's --launch-count 1. Exit status 2 if none has them.
// Exit status: 0, 1 on a mismatch or a CUDA error, 77 without a device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "../kernels/bulk_copy.cuh"
#include "../kernels/word.cuh"
#include "bench_support.cuh"

namespace {

constexpr int kThreads = 128;  // the conv's block (vt::ops::geometry::kBlockThreads)

using vt::cuda::kern::Word;
#if __CUDA_ARCH__ >= 900
using vt::cuda::kern::bulk_copy_to_shared;
using vt::cuda::kern::mbar_expect_bytes;
using vt::cuda::kern::mbar_init;
using vt::cuda::kern::mbar_init_fence;
using vt::cuda::kern::mbar_wait;
#endif

struct Shape {
  const char* src;
  char* dst;
  int64_t rows, row_bytes, chunk;
  uint32_t zero;  // 0, unknown to the compiler (below)
};

__device__ __forceinline__ int64_t program_index() { return blockIdx.y + static_cast<int64_t>(blockIdx.z) * gridDim.y; }

// Which program and strip a block of the batched walk takes. Launch: programs in launch order,
// a program's strips side by side (the conv's grid). Spread: the same grid, the programs
// permuted (launch index times a prime, modulo the programs), so that those resident at once
// are not neighbours a power-of-two stride apart. Transposed: programs along x, so that the
// blocks resident at once are many programs' first strips.
enum class Order { launch, spread, transposed };

template <Order O>
__device__ __forceinline__ int64_t ordered_program() {
  if constexpr (O == Order::transposed) return blockIdx.x;
  if constexpr (O == Order::spread) {
    const uint32_t raw = blockIdx.y + blockIdx.z * gridDim.y, programs = gridDim.y * gridDim.z;
    return static_cast<uint32_t>(static_cast<uint64_t>(raw) * (2654435761u % programs) % programs);
  }
  return program_index();
}
template <Order O>
__device__ __forceinline__ int64_t ordered_strip() {
  return O == Order::transposed ? blockIdx.y : blockIdx.x;
}

__device__ __forceinline__ uint32_t& first_word(uint32_t& v) { return v; }
__device__ __forceinline__ uint32_t& first_word(uint2& v) { return v.x; }
__device__ __forceinline__ uint32_t& first_word(uint4& v) { return v.x; }

// A batch's stores made to wait for all of its loads, as the conv's SiLU chain makes them:
// left alone, ptxas moved each read-only load down towards its store and kept about 4 in flight.
template <class L, int Depth, bool Streaming = false>
__device__ __forceinline__ void store_batch(char* dst, int64_t row_bytes, L (&v)[Depth], uint32_t zero) {
  uint32_t all = 0;
#pragma unroll
  for (int u = 0; u < Depth; ++u) all |= first_word(v[u]);
  all &= zero;
#pragma unroll
  for (int u = 0; u < Depth; ++u) {
    first_word(v[u]) ^= all;
    if constexpr (Streaming) __stcs(reinterpret_cast<L*>(dst + u * row_bytes), v[u]);
    else *reinterpret_cast<L*>(dst + u * row_bytes) = v[u];
  }
}

template <class L, int Depth>
__device__ __forceinline__ void load_batch(L (&v)[Depth], const char* src, int64_t row_bytes) {
#pragma unroll
  for (int u = 0; u < Depth; ++u) v[u] = __ldg(reinterpret_cast<const L*>(src + u * row_bytes));
}

// The batched walk (below) over rows [t, last) while a whole batch is left; returns the first
// row not copied.
template <class L, int Depth, bool Streaming = false>
__device__ __forceinline__ int64_t copy_batches(const char* src, char* dst, int64_t t, int64_t last, int64_t row_bytes,
                                                uint32_t zero) {
  for (; t + Depth <= last; t += Depth) {
    L v[Depth];
    load_batch(v, src + t * row_bytes, row_bytes);
    store_batch<L, Depth, Streaming>(dst + t * row_bytes, row_bytes, v, zero);
  }
  return t;
}
// Rows [t, last) one at a time: what a walk leaves.
template <class L>
__device__ __forceinline__ void copy_rows(const char* src, char* dst, int64_t t, int64_t last, int64_t row_bytes) {
  for (; t < last; ++t)
    *reinterpret_cast<L*>(dst + t * row_bytes) = __ldg(reinterpret_cast<const L*>(src + t * row_bytes));
}

// How a thread walks its rows in registers, `Depth` rows a batch. Batched (the conv's loop):
// a batch's loads, then its stores, then the next batch's loads. Piped: the next batch's
// loads issued before this batch's stores, so a batch is always in flight (twice the
// registers). Rolling: each row's register reloaded with the row a batch ahead as soon as
// its store is out, each store waiting for the loads before it, as a conv token waits for
// its window: about a batch in flight, in one batch's registers. Streamed: batched, the
// stores streaming (st.global.cs, first out of L2).
enum class Walk { batched, piped, rolling, streamed };

template <int LaneBytes, int Depth, Walk How, int Threads, Order O>
__global__ void __launch_bounds__(Threads) strip_copy_kernel(const Shape s) {
  using L = typename Word<LaneBytes>::type;
  const int64_t first = ordered_program<O>() * s.chunk;
  if (first >= s.rows) return;  // a spread grid's padding (z split)
  const int64_t last = first + s.chunk < s.rows ? first + s.chunk : s.rows;
  const int64_t col = (ordered_strip<O>() * Threads + threadIdx.x) * LaneBytes;
  const char* src = s.src + col;
  char* dst = s.dst + col;
  int64_t t = first;
  if constexpr (How == Walk::piped) {
    if (t + Depth <= last) {
      L cur[Depth];
      load_batch(cur, src + t * s.row_bytes, s.row_bytes);
      for (; t + 2 * Depth <= last; t += Depth) {
        L next[Depth];
        load_batch(next, src + (t + Depth) * s.row_bytes, s.row_bytes);
        store_batch(dst + t * s.row_bytes, s.row_bytes, cur, s.zero);
#pragma unroll
        for (int u = 0; u < Depth; ++u) cur[u] = next[u];
      }
      store_batch(dst + t * s.row_bytes, s.row_bytes, cur, s.zero);
      t += Depth;
    }
  } else if constexpr (How == Walk::rolling) {
    if (t + Depth <= last) {
      L v[Depth];
      load_batch(v, src + t * s.row_bytes, s.row_bytes);
      uint32_t chain = 0;
      auto put = [&](int64_t row, L o) {
        chain |= first_word(o);
        first_word(o) ^= chain & s.zero;
        *reinterpret_cast<L*>(dst + row * s.row_bytes) = o;
      };
      for (; t + 2 * Depth <= last; t += Depth) {
#pragma unroll
        for (int u = 0; u < Depth; ++u) {
          put(t + u, v[u]);
          // Its address waits for the rows stored so far, as the conv's reload waits for the
          // token's code: free, ptxas issued all reloads ahead of the stores (a piped walk).
          v[u] = __ldg(reinterpret_cast<const L*>(src + (t + Depth + u) * s.row_bytes + (chain & s.zero)));
        }
      }
#pragma unroll
      for (int u = 0; u < Depth; ++u) put(t + u, v[u]);
      t += Depth;
    }
  } else {
    t = copy_batches<L, Depth, How == Walk::streamed>(src, dst, t, last, s.row_bytes, s.zero);
  }
  copy_rows<L>(src, dst, t, last, s.row_bytes);
}

// The short sequences' pattern: program (strip x, sequence y) copies rows [qsl[y],
// qsl[y + 1]) of its strip as the batched walk does, and slot slots[y]'s state for the
// strip's channels, kStateWords 8-byte words a thread. The bounds and the slot load
// together; the state's loads wait for the slot, the rows' for the bounds, and the state is
// stored after the rows, as the conv rolls it after its tokens.
struct Sequences {
  const int32_t* qsl;    // [n + 1] row offsets
  const int32_t* slots;  // [n] a permutation of 0..n-1
  const char* state_src;
  char* state_dst;
  int64_t state_row_bytes;  // one slot's state
};

template <int LaneBytes, int Depth>
__global__ void __launch_bounds__(kThreads) sequence_copy_kernel(const Shape s, const Sequences q) {
  using L = typename Word<LaneBytes>::type;
  constexpr int kStateWords = 6 * LaneBytes / 8;  // 3 f32 columns of LaneBytes / 2 channels
  const int64_t n = blockIdx.y;
  const int64_t first = __ldg(q.qsl + n), last = __ldg(q.qsl + n + 1), slot = __ldg(q.slots + n);
  const int64_t col = (static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x) * LaneBytes;
  const int64_t state_col = col / LaneBytes * (kStateWords * 8);
  const uint2* st_src = reinterpret_cast<const uint2*>(q.state_src + slot * q.state_row_bytes + state_col);
  uint2 st[kStateWords];
#pragma unroll
  for (int u = 0; u < kStateWords; ++u) st[u] = __ldg(st_src + u);
  const int64_t t = copy_batches<L, Depth>(s.src + col, s.dst + col, first, last, s.row_bytes, s.zero);
  copy_rows<L>(s.src + col, s.dst + col, t, last, s.row_bytes);
  uint2* st_dst = reinterpret_cast<uint2*>(q.state_dst + slot * q.state_row_bytes + state_col);
#pragma unroll
  for (int u = 0; u < kStateWords; ++u) st_dst[u] = st[u];
}

// Bulk copies: warp 0 fills `stages` buffers of Depth rows of the block's strip (one row a
// lane), each completing on its own mbarrier; every thread stores its lane of each row from
// shared memory, and a buffer is refilled once the whole block is past it.
template <int LaneBytes, int Depth>
__global__ void __launch_bounds__(kThreads) staged_copy_kernel(const Shape s, int stages) {
#if __CUDA_ARCH__ >= 900
  using L = typename Word<LaneBytes>::type;
  constexpr int kStrip = kThreads * LaneBytes;
  extern __shared__ __align__(128) char smem[];  // [stages][Depth][kStrip], then the barriers
  uint64_t* bar = reinterpret_cast<uint64_t*>(smem + static_cast<size_t>(stages) * Depth * kStrip);
  const int64_t first = program_index() * s.chunk;
  const int64_t last = first + s.chunk < s.rows ? first + s.chunk : s.rows;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kStrip;
  const int64_t batches = (last - first + Depth - 1) / Depth;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const bool issuer = threadIdx.x < 32;
  if (threadIdx.x == 0) {
    for (int b = 0; b < stages; ++b) mbar_init(bar + b, 1);
    mbar_init_fence();
  }
  __syncthreads();
  auto fill = [&](int64_t b) {
    const int st = static_cast<int>(b % stages);
    const int64_t t0 = first + b * Depth;
    const int n = static_cast<int>(last - t0 < Depth ? last - t0 : Depth);
    if (lane == 0) mbar_expect_bytes(bar + st, static_cast<uint32_t>(n * kStrip));
    __syncwarp();
    for (int u = lane; u < n; u += 32)
      bulk_copy_to_shared(smem + (static_cast<size_t>(st) * Depth + u) * kStrip, s.src + (t0 + u) * s.row_bytes + col0,
                          kStrip, bar + st);
  };
  if (issuer)
    for (int64_t b = 0; b < batches && b < stages; ++b) fill(b);
  for (int64_t b = 0; b < batches; ++b) {
    const int st = static_cast<int>(b % stages);
    const int64_t t0 = first + b * Depth;
    const int n = static_cast<int>(last - t0 < Depth ? last - t0 : Depth);
    mbar_wait(bar + st, static_cast<uint32_t>((b / stages) & 1));
    const char* row = smem + static_cast<size_t>(st) * Depth * kStrip + threadIdx.x * LaneBytes;
    char* out = s.dst + t0 * s.row_bytes + col0 + threadIdx.x * LaneBytes;
#pragma unroll
    for (int u = 0; u < Depth; ++u)
      if (u < n) *reinterpret_cast<L*>(out + u * s.row_bytes) = *reinterpret_cast<const L*>(row + u * kStrip);
    __syncthreads();  // the buffer is free
    if (issuer && b + stages < batches) {
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // the reads above before the engine's writes
      fill(b + stages);
    }
  }
#else
  (void)s;
  (void)stages;
  __trap();  // launched only where the compute capability is 9 or more
#endif
}

// The copy engine's reference in kernel form: 16 bytes a thread, grid-stride.
__global__ void flat_copy_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, int64_t n) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    dst[i] = __ldg(src + i);
}

constexpr const char* kTool = "cuda_strip_copy";
void check(cudaError_t e, const char* what) { vt::cuda::bench::check(kTool, e, what); }

struct Device {
  int sms = 0, cc_major = 0, smem_per_sm = 0, smem_reserved = 0, smem_optin = 0;
};

// The median per launch of `launches` launches back to back, over 9 samples, after as many
// launches again.
template <class Body>
double median_us(int launches, Body body) {
  return vt::cuda::bench::median_us_per_launch(kTool, launches, 1, 9, cudaStream_t{}, [&] {
    for (int j = 0; j < launches; ++j) body();
  });
}

struct Run {
  bool check_only = false;
  std::string only;  // a configuration's key, or empty for all
  std::string kind;  // a kind of row, or empty for all
  int matched = 0;
  int launches = 10;
  double copy_gbs = 0;  // the 1 GiB copy, as vt-bench measures it
  int failures = 0;
  uint4* src = nullptr;
  uint4* dst = nullptr;
  unsigned long long* count = nullptr;
  Shape shape{};
  int64_t words16 = 0;  // the array in 16-byte words
};

// An array a configuration copies: n 16-byte words from src to dst.
struct Copied {
  const uint4* src;
  uint4* dst;
  int64_t words;
};

// One configuration: its arrays' destinations poisoned, one launch, the byte check, then
// (unless check_only) the timing. By default the array is the strip array.
template <class Launch>
void measure(Run& r, const char* kind, int chunk, int threads, int lane, int depth, int stages, int64_t blocks,
             int blocks_per_sm, int regs, Launch launch, std::vector<Copied> arrays = {}) {
  if (arrays.empty()) arrays.push_back(Copied{r.src, r.dst, r.words16});
  if (!r.kind.empty() && r.kind != kind) return;
  if (!r.only.empty()) {
    const std::string key = std::string(kind) + "/" + std::to_string(chunk) + "/" + std::to_string(threads) + "/" +
                            std::to_string(lane) + "/" + std::to_string(depth) + "/" + std::to_string(stages) + "/" +
                            std::to_string(blocks_per_sm);
    if (key != r.only) return;
  }
  ++r.matched;
  int64_t words = 0;
  for (const Copied& a : arrays) {
    check(cudaMemset(a.dst, 0xa5, static_cast<size_t>(a.words) * 16), "cudaMemset");
    words += a.words;
  }
  launch();
  check(cudaGetLastError(), "launch");
  check(cudaMemset(r.count, 0, sizeof *r.count), "cudaMemset");
  for (const Copied& a : arrays)
    vt::cuda::bench::count_mismatches_kernel<<<1024, 256>>>(a.src, a.dst, a.words, r.count);
  unsigned long long bad = 0;
  check(cudaMemcpy(&bad, r.count, sizeof bad, cudaMemcpyDeviceToHost), "cudaMemcpy");
  if (bad) ++r.failures;
  std::printf("%-7s %6d %7d %5d %6d %7d %7lld %10d %5d", kind, chunk, threads, lane, depth, stages,
              static_cast<long long>(blocks), blocks_per_sm, regs);
  if (r.check_only || bad) {
    std::printf(" %10s %8s %7s  %s\n", "-", "-", "-", bad ? "MISMATCH" : "exact");
  } else {
    const double us = median_us(r.launches, launch);
    const double gbs = 2.0 * static_cast<double>(words) * 16 / (us * 1e-6) / 1e9;
    std::printf(" %10.2f %8.1f %6.1f%%  exact\n", us, gbs, 100.0 * gbs / r.copy_gbs);
  }
  std::fflush(stdout);
}

dim3 strip_grid(const Shape& s, int strip_bytes) {
  const int64_t programs = (s.rows + s.chunk - 1) / s.chunk;
  const int64_t z = (programs + 65534) / 65535;
  return dim3(static_cast<unsigned>(s.row_bytes / strip_bytes), static_cast<unsigned>((programs + z - 1) / z),
              static_cast<unsigned>(z));
}

int64_t blocks(const dim3& g) { return int64_t{g.x} * g.y * g.z; }

// Reserved shared memory that leaves room for at most `cap` blocks of this kernel an SM.
int smem_for_cap(const Device& d, int cap) {
  const int per_block = d.smem_per_sm / cap - d.smem_reserved;
  return std::min(per_block / 128 * 128, d.smem_optin);
}

template <int LaneBytes, int Depth, Walk How, int Threads = kThreads, Order O = Order::launch>
void strip_configs(Run& r, const Device& d, std::initializer_list<int> caps = {4, 6, 7, 8, 16}) {
  auto kernel = strip_copy_kernel<LaneBytes, Depth, How, Threads, O>;
  const char* kind = O == Order::spread       ? "spread"
                     : O == Order::transposed ? "transp"
                     : How == Walk::piped     ? "piped"
                     : How == Walk::rolling   ? "rolling"
                     : How == Walk::streamed  ? "stcs"
                                              : "batched";
  cudaFuncAttributes fa{};
  check(cudaFuncGetAttributes(&fa, kernel), "cudaFuncGetAttributes");
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, d.smem_optin),
        "cudaFuncSetAttribute");
  int measured = 0;  // a cap the registers already undercut gives the same row again
  for (int cap : caps) {
    const int smem = smem_for_cap(d, cap);
    int resident = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, Threads, static_cast<size_t>(smem)),
          "occupancy");
    if (resident == measured) continue;
    measured = resident;
    dim3 grid = strip_grid(r.shape, Threads * LaneBytes);
    if (O == Order::transposed) grid = dim3(grid.y * grid.z, grid.x, 1);
    measure(r, kind, static_cast<int>(r.shape.chunk), Threads, LaneBytes, Depth, 0, blocks(grid), resident, fa.numRegs,
            [&] { kernel<<<grid, Threads, static_cast<size_t>(smem)>>>(r.shape); });
  }
}

template <int LaneBytes, int Depth>
void staged_configs(Run& r, const Device& d) {
  auto kernel = staged_copy_kernel<LaneBytes, Depth>;
  cudaFuncAttributes fa{};
  check(cudaFuncGetAttributes(&fa, kernel), "cudaFuncGetAttributes");
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, d.smem_optin),
        "cudaFuncSetAttribute");
  for (int stages : {2, 3, 4}) {
    const int smem = stages * Depth * kThreads * LaneBytes + stages * 8;
    if (smem > d.smem_optin) continue;
    int resident = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, kThreads, static_cast<size_t>(smem)),
          "occupancy");
    const dim3 grid = strip_grid(r.shape, kThreads * LaneBytes);
    measure(r, "staged", static_cast<int>(r.shape.chunk), kThreads, LaneBytes, Depth, stages, blocks(grid), resident,
            fa.numRegs, [&] { kernel<<<grid, kThreads, static_cast<size_t>(smem)>>>(r.shape, stages); });
  }
}

// The short sequences (the `seqs` rows): lengths from [8, 64] drawn with a fixed
// generator, as many sequences as fit the array, up to 256, and their slots shuffled.
struct SequenceSet {
  Sequences dev{};
  int64_t count = 0, rows = 0;  // sequences, and the rows they cover
};

SequenceSet make_sequences(const Run& r) {
  SequenceSet q;
  uint64_t state = 7;
  auto next = [&state](uint64_t bound) {  // an LCG's high bits, below bound
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % bound;
  };
  std::vector<int32_t> qsl{0};
  while (qsl.size() <= 256) {
    const int64_t len = 8 + static_cast<int64_t>(next(57));
    if (qsl.back() + len > r.shape.rows) break;
    qsl.push_back(static_cast<int32_t>(qsl.back() + len));
  }
  q.count = static_cast<int64_t>(qsl.size()) - 1;
  q.rows = qsl.back();
  std::vector<int32_t> slots(static_cast<size_t>(q.count));
  for (int64_t i = 0; i < q.count; ++i) slots[static_cast<size_t>(i)] = static_cast<int32_t>(i);
  for (int64_t i = q.count - 1; i > 0; --i)
    std::swap(slots[static_cast<size_t>(i)], slots[next(static_cast<uint64_t>(i) + 1)]);
  const int64_t state_row_bytes = r.shape.row_bytes * 6;
  const size_t state_bytes = static_cast<size_t>(q.count * state_row_bytes);
  int32_t *dq = nullptr, *ds = nullptr;
  char *src = nullptr, *dst = nullptr;
  check(cudaMalloc(&dq, qsl.size() * sizeof(int32_t)), "cudaMalloc");
  check(cudaMalloc(&ds, std::max<size_t>(slots.size(), 1) * sizeof(int32_t)), "cudaMalloc");
  check(cudaMalloc(&src, std::max<size_t>(state_bytes, 16)), "cudaMalloc");
  check(cudaMalloc(&dst, std::max<size_t>(state_bytes, 16)), "cudaMalloc");
  check(cudaMemcpy(dq, qsl.data(), qsl.size() * sizeof(int32_t), cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemcpy(ds, slots.data(), slots.size() * sizeof(int32_t), cudaMemcpyHostToDevice), "cudaMemcpy");
  vt::cuda::bench::fill_words_kernel<<<1024, 256>>>(reinterpret_cast<uint32_t*>(src),
                                                    static_cast<int64_t>(state_bytes / 4), 0x51a7e);
  check(cudaDeviceSynchronize(), "fill");
  q.dev = Sequences{dq, ds, src, dst, state_row_bytes};
  return q;
}

template <int LaneBytes, int Depth>
void sequence_configs(Run& r, const SequenceSet& q) {
  if (q.count == 0) return;
  auto kernel = sequence_copy_kernel<LaneBytes, Depth>;
  cudaFuncAttributes fa{};
  check(cudaFuncGetAttributes(&fa, kernel), "cudaFuncGetAttributes");
  int resident = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, kThreads, 0), "occupancy");
  const dim3 grid(static_cast<unsigned>(r.shape.row_bytes / (kThreads * LaneBytes)), static_cast<unsigned>(q.count));
  const int64_t x_words = q.rows * r.shape.row_bytes / 16, state_words = q.count * q.dev.state_row_bytes / 16;
  measure(r, "seqs", 0, kThreads, LaneBytes, Depth, 0, blocks(grid), resident, fa.numRegs,
          [&] { kernel<<<grid, kThreads>>>(r.shape, q.dev); },
          {Copied{r.src, r.dst, x_words}, Copied{reinterpret_cast<const uint4*>(q.dev.state_src),
                                                 reinterpret_cast<uint4*>(q.dev.state_dst), state_words}});
}

int64_t parse_int(const char* flag, const char* v) {
  char* end = nullptr;
  const long long x = v ? std::strtoll(v, &end, 10) : 0;
  if (!v || *end || x <= 0) {
    std::fprintf(stderr, "cuda_strip_copy: %s needs a positive integer\n", flag);
    std::exit(2);
  }
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  Run r;
  int64_t rows = 16384, row_bytes = 16384;  // x of C = 8192 bf16 channels at T = 16384
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--rows") rows = parse_int("--rows", i + 1 < argc ? argv[++i] : nullptr);
    else if (a == "--row-bytes") row_bytes = parse_int("--row-bytes", i + 1 < argc ? argv[++i] : nullptr);
    else if (a == "--check-only") r.check_only = true;
    else if (a == "--only" && i + 1 < argc) r.only = argv[++i];
    else if (a == "--kind" && i + 1 < argc) r.kind = argv[++i];
    else {
      std::fprintf(stderr,
                   "usage: cuda_strip_copy [--rows N] [--row-bytes N] [--check-only] [--only KEY] [--kind KIND]\n");
      return 2;
    }
  }
  if (r.check_only) rows = std::min<int64_t>(rows, 1000), row_bytes = std::min<int64_t>(row_bytes, 4096);
  if (row_bytes % (kThreads * 16) != 0) {
    std::fprintf(stderr, "cuda_strip_copy: --row-bytes must be a multiple of %d (the widest strip)\n", kThreads * 16);
    return 2;
  }
  int n = 0;
  check(cudaGetDeviceCount(&n), "cudaGetDeviceCount");
  if (n == 0) return 77;
  Device d;
  check(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, 0), "attribute");
  check(cudaDeviceGetAttribute(&d.cc_major, cudaDevAttrComputeCapabilityMajor, 0), "attribute");
  check(cudaDeviceGetAttribute(&d.smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0), "attribute");
  check(cudaDeviceGetAttribute(&d.smem_reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0), "attribute");
  check(cudaDeviceGetAttribute(&d.smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0), "attribute");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");

  const size_t bytes = static_cast<size_t>(rows * row_bytes);
  r.words16 = static_cast<int64_t>(bytes / 16);
  check(cudaMalloc(&r.src, bytes), "cudaMalloc");
  check(cudaMalloc(&r.dst, bytes), "cudaMalloc");
  check(cudaMalloc(&r.count, sizeof *r.count), "cudaMalloc");
  vt::cuda::bench::fill_words_kernel<<<1024, 256>>>(reinterpret_cast<uint32_t*>(r.src), r.words16 * 4, 0x5eed);
  check(cudaDeviceSynchronize(), "fill");

  if (!r.check_only) r.copy_gbs = vt::cuda::bench::copy_bandwidth_gbs(kTool, cudaStream_t{});
  std::printf("%s, %d SMs, %d KiB shared memory an SM; array %lld rows x %lld bytes (%.1f MiB each way)\n", prop.name,
              d.sms, d.smem_per_sm / 1024, static_cast<long long>(rows), static_cast<long long>(row_bytes),
              bytes / 1048576.0);
  if (!r.check_only) std::printf("1 GiB device-to-device copy: %.1f GB/s (100%% below)\n", r.copy_gbs);
  std::printf("%-7s %6s %7s %5s %6s %7s %7s %10s %5s %10s %8s %7s  %s\n", "kind", "chunk", "threads", "lane", "depth",
              "stages", "blocks", "blocks/SM", "regs", "us", "GB/s", "%copy", "output");

  r.shape = Shape{reinterpret_cast<const char*>(r.src), reinterpret_cast<char*>(r.dst), rows, row_bytes, rows, 0};
  measure(r, "memcpy", 0, 0, 0, 0, 0, 0, 0, 0,
          [&] { check(cudaMemcpyAsync(r.dst, r.src, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpyAsync"); });
  measure(r, "flat", 0, 256, 16, 1, 0, int64_t{d.sms} * 16, 0, 0,
          [&] { flat_copy_kernel<<<d.sms * 16, 256>>>(r.src, r.dst, r.words16); });
  constexpr int64_t kSweepChunks[] = {32, 128, 512};
  for (int64_t chunk : kSweepChunks) {
    r.shape.chunk = std::min(chunk, rows);
    strip_configs<4, 4, Walk::batched>(r, d);
    strip_configs<4, 8, Walk::batched>(r, d);
    strip_configs<4, 16, Walk::batched>(r, d);
    strip_configs<4, 32, Walk::batched>(r, d);
    strip_configs<4, 4, Walk::piped>(r, d);
    strip_configs<4, 8, Walk::piped>(r, d);
    strip_configs<4, 16, Walk::piped>(r, d);
    strip_configs<4, 8, Walk::rolling>(r, d);
    strip_configs<4, 16, Walk::rolling>(r, d);
    strip_configs<8, 8, Walk::batched>(r, d);
    strip_configs<8, 16, Walk::batched>(r, d);
    strip_configs<16, 4, Walk::batched>(r, d);
    strip_configs<16, 8, Walk::batched>(r, d);
    strip_configs<16, 16, Walk::batched>(r, d);
    // Wider blocks of the conv's 4-byte lanes: a block's strip of a row 1 or 2 KiB, not 512 bytes.
    strip_configs<4, 8, Walk::batched, 256>(r, d);
    strip_configs<4, 8, Walk::batched, 512>(r, d);
    strip_configs<4, 16, Walk::batched, 512>(r, d);
    if (d.cc_major >= 9) {
      staged_configs<4, 8>(r, d);
      staged_configs<4, 16>(r, d);
      staged_configs<4, 32>(r, d);
      staged_configs<16, 8>(r, d);
      staged_configs<16, 16>(r, d);
    }
  }
  // The program order, at the conv's lanes, depth and block, over program lengths (rows): the
  // batched rows of the launch order beside the spread and transposed orders. The sweep above
  // has the launch order's rows at its chunks already: measured once, each key stays one row.
  for (int64_t chunk : {32, 64, 96, 128, 192, 256, 688}) {
    r.shape.chunk = std::min(chunk, rows);
    if (std::find(std::begin(kSweepChunks), std::end(kSweepChunks), chunk) == std::end(kSweepChunks))
      strip_configs<4, 8, Walk::batched, kThreads, Order::launch>(r, d, {6, 8});
    strip_configs<4, 8, Walk::batched, kThreads, Order::spread>(r, d, {6, 8});
    strip_configs<4, 8, Walk::batched, kThreads, Order::transposed>(r, d, {6, 8});
    strip_configs<4, 8, Walk::streamed>(r, d, {6, 8});
  }
  // The 256 short sequences, with the conv's lanes and depth and the wider ones.
  const SequenceSet seqs = make_sequences(r);
  if (!r.check_only)
    std::printf("seqs: %lld sequences of 8..64 rows, %lld rows; state %lld bytes a slot\n",
                static_cast<long long>(seqs.count), static_cast<long long>(seqs.rows),
                static_cast<long long>(seqs.dev.state_row_bytes));
  sequence_configs<4, 8>(r, seqs);
  sequence_configs<4, 16>(r, seqs);
  sequence_configs<8, 8>(r, seqs);
  sequence_configs<16, 4>(r, seqs);
  sequence_configs<16, 8>(r, seqs);
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  if (r.failures) std::printf("%d configuration(s) did not copy exactly\n", r.failures);
  if ((!r.only.empty() || !r.kind.empty()) && r.matched == 0) {
    std::fprintf(stderr, "cuda_strip_copy: no configuration is %s\n", (r.only.empty() ? r.kind : r.only).c_str());
    return 2;
  }
  return r.failures ? 1 : 0;
}
