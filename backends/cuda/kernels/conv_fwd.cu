// causal_conv1d_fwd: one program per (sequence, run of tokens) x channel group, in the
// variants of launch_geometry.hpp. The arithmetic is the reference's in every variant:
// acc = bias, then acc = fma(w[j], input[t-(K-1)+j], acc) oldest first, then SiLU.
#include <type_traits>

#include "common.cuh"
#include "launch.hpp"

namespace vt::cuda::kern {
namespace {

namespace geo = vt::ops::geometry;

struct ConvFwdParams {
  View x, w, bias, out, state, his;
  const int32_t* slots;  // null: stateless
  const int32_t* qsl;
  const int32_t* plan;  // pairs (sequence, first token); null: sequence_chunks mapping
  int64_t T, C, N, S, chunk;
  int64_t programs;     // along tokens: the grid's y times z may hold more
  int32_t chunk_shift;  // log2(chunk), for the sequence_chunks mapping
  int silu;
  int vector_store;
  geo::GuidedTail tail;  // guided programs' tail (geo::guided_program), the staged ring only; none: not guided
};

// What one program works on: tokens [first, last) local to sequence n, which starts at row
// `begin` and has L tokens; its state slot (-1: none) and whether the old state is read.
struct Segment {
  int64_t n, first, last, begin, L, slot;
  bool initial;
};

// geo::sequence_of_program by a whole warp, every lane of which must call it: each round its
// 32 lanes test 32 evenly spaced sequences at once, so N = 256 takes two rounds of loads
// where the binary search takes eight, and in 32-bit arithmetic (qsl holds i32 values, and
// a program index is below the grid's 65535^2). B_n = clamp(qsl[n]) / chunk + n rises
// strictly with n, so the lanes whose B_n <= k are a prefix and the answer is the binary
// search's; on inconsistent metadata it is still a sequence in [0, N).
__device__ __forceinline__ int64_t sequence_of_program_warp(int64_t k, const ConvFwdParams& p) {
  const uint32_t lane = threadIdx.x % 32, kk = static_cast<uint32_t>(k);
  const int32_t T = p.T < INT32_MAX ? static_cast<int32_t>(p.T) : INT32_MAX;
  uint32_t lo = 0, span = static_cast<uint32_t>(p.N);  // the answer lies in [lo, lo + span)
  while (span > 1) {
    const uint32_t step = (span + 31) / 32, n = lo + lane * step;
    bool below = lane == 0;  // B_lo <= k: lo is the largest tested so far that passed (or 0)
    if (lane > 0 && lane * step < span) {
      const int32_t q = __ldg(p.qsl + n);
      below = static_cast<uint32_t>(q < 0 ? 0 : q > T ? T : q) / (1u << p.chunk_shift) + n <= kk;
    }
    const int j = 31 - __clz(__ballot_sync(0xffffffffu, below));
    lo += static_cast<uint32_t>(j) * step;
    span = (static_cast<uint32_t>(j) + 1) * step < span ? step : span - static_cast<uint32_t>(j) * step;
  }
  return lo;
}

// Loads qsl, the slot and has_initial_state together, before testing any of them: a
// program's setup is a chain of dependent loads, and short programs are mostly setup.
// Without a plan the first token comes from qsl[n] as loaded here (the search alone would
// have waited for it first). WarpSearch: every lane of the warp calls it, and the sequence is
// found by sequence_of_program_warp. Guided: the kernel may take guided programs (p.tail),
// a template flag so that the other kernels' code stays as it was.
template <bool WarpSearch = false, bool Guided = false>
__device__ __forceinline__ bool find_segment(const ConvFwdParams& p, int64_t k, Segment* s) {
  if (k >= p.programs) return false;
  if (p.plan) {
    s->n = p.plan[2 * k];
    s->first = p.plan[2 * k + 1];
    if (s->n < 0 || s->n >= p.N) return false;
  } else if constexpr (WarpSearch) {
    s->n = sequence_of_program_warp(k, p);
  } else {
    const int32_t* qsl = p.qsl;
    s->n = geo::sequence_of_program(
        k, [qsl](int64_t i) { return int64_t{qsl[i]}; }, p.N, p.T, geo::Pow2Chunk{p.chunk_shift});
  }
  // Without a slot or has_initial_state their loads read qsl[n] instead: a branch around
  // a load lets it sink below the tests on qsl, and so wait for qsl.
  const bool his = p.slots && p.his.base;
  const int32_t* qn = p.qsl + s->n;
  const int32_t q0 = static_cast<int32_t>(load_now_u32(qn)), q1 = static_cast<int32_t>(load_now_u32(qn + 1));
  const int32_t sv = static_cast<int32_t>(load_now_u32(p.slots ? p.slots + s->n : qn));
  const char* hp = his ? p.his.base + s->n * p.his.s0 : reinterpret_cast<const char*>(qn);
  const uint32_t hv = his && p.his.dtype == VT_DTYPE_U8 ? load_now_u8(hp) : load_now_u32(hp);
  const int32_t slot = p.slots ? sv : -1;
  const bool initial = his && hv != 0;
  s->begin = geo::clamp_token(q0, p.T);
  const int64_t end = geo::clamp_token(q1, p.T);
  s->L = end > s->begin ? end - s->begin : 0;
  // One sequence (a tail is set for no other call); its length is checked again here, as
  // guided_program needs it, since qsl is read on the device.
  if (Guided && geo::is_guided(p.tail) && s->L >= geo::kGuidedMinTokens) {
    const geo::TokenRun r = geo::guided_program(k, s->L, p.programs, p.tail);
    s->first = r.first;
    s->last = r.last;
  } else {
    if (!p.plan) s->first = geo::first_token_of_program(k, s->n, q0, p.T, geo::Pow2Chunk{p.chunk_shift});
    s->last = s->first + p.chunk < s->L ? s->first + p.chunk : s->L;
  }
  if (s->first < 0 || s->first >= s->last) return false;
  s->slot = slot;
  s->initial = initial;
  // Padding, or a slot outside the cache: untouched.
  return !p.slots || (slot >= 0 && slot < p.S);
}

// The block's channel block and program (geo::conv_fwd_launch_grid).
__device__ __forceinline__ int64_t channel_block() { return blockIdx.x; }
__device__ __forceinline__ int64_t program_index() { return blockIdx.y + static_cast<int64_t>(blockIdx.z) * gridDim.y; }

__device__ __forceinline__ char* state_at(const ConvFwdParams& p, const Segment& s, int64_t c, int col) {
  return p.state.base + s.slot * p.state.s0 + c * p.state.s1 + col * p.state.s2;
}

// Input i (local token index, negative: the old state's column W + i) of channel c.
__device__ __forceinline__ float context_at(const ConvFwdParams& p, const Segment& s, int W, int64_t i, int64_t c) {
  if (i >= 0) return load(p.x.dtype, p.x.base + (s.begin + i) * p.x.s0 + c * dtype_bytes(p.x.dtype));
  return s.initial ? load(p.state.dtype, state_at(p, s, c, static_cast<int>(W + i))) : 0.0f;
}

// The rolled state of channel c, by the program holding the sequence's first token: the last
// W of [old context | the sequence's tokens]. Column j takes old column L + j when the
// sequence is shorter than W; columns go in increasing order, so that one is still unwritten
// when it is read.
__device__ __forceinline__ void roll_state(const ConvFwdParams& p, const Segment& s, int W, int64_t c) {
  for (int j = 0; j < W; ++j) store(p.state.dtype, state_at(p, s, c, j), context_at(p, s, W, s.L - W + j, c));
}

// The weights' or the bias's bits as loaded, N elements: one word where they are dense and of
// x's type (DenseW below), else one 32-bit word each (load_bits).
template <bool Dense, Elem X, int N>
struct WeightBits {
  using type = uint32_t[N];
};
template <Elem X, int N>
struct WeightBits<true, X, N> {
  using type = typename Word<static_cast<int>(sizeof(typename ElemTraits<X>::raw)) * N>::type;
};

#if __CUDA_ARCH__ >= 900
// The shared-memory kernels' block, 2 * kBlockThreads channels: whether it lies inside C (a
// test uniform over the block), and where its strip of x starts at the segment's first row.
__device__ __forceinline__ bool block_inside_channels(const ConvFwdParams& p) {
  return (channel_block() + 1) * (2 * int64_t{geo::kBlockThreads}) <= p.C;
}
template <class Pk>
__device__ __forceinline__ const char* block_x(const ConvFwdParams& p, const Segment& s) {
  static_assert(sizeof(Pk) == 2 * sizeof(typename Pk::raw), "two channels a thread");
  return p.x.base + s.begin * p.x.s0 + channel_block() * int64_t{geo::kBlockThreads * sizeof(Pk)};
}
// N tokens from shared memory, one row of the block's packets each, from src (the thread's
// word of the first row), through `step`.
template <class Pk, int N, class Step>
__device__ __forceinline__ void step_shared_rows(const uint32_t* src, int64_t t, const Step& step) {
  Pk in[N];
#pragma unroll
  for (int u = 0; u < N; ++u) memcpy(&in[u], src + u * geo::kBlockThreads, sizeof(Pk));
#pragma unroll
  for (int u = 0; u < N; ++u) step(in[u], t + u, std::true_type{}, std::true_type{});
}

// x through shared memory (geo::conv_fwd_stages_x), for the two-channel tile's SiLU loop:
// kStages stages of kTokens rows of the block's 256 channels, 24 KiB a block. A block inside
// C takes its program's whole stages this way: the copy engine brings the stages ahead of
// the arithmetic (one 512-byte copy a row; each warp's lane 0 issues a quarter of a stage's
// rows and counts them on the stage's `full` barrier), so the loads in flight no longer depend
// on the registers or on the arithmetic's progress. Each warp marks a stage read on its
// `empty` barrier, and a buffer is refilled a stage later, once all four have: a warp runs up
// to a stage ahead of the slowest (the one on SiLU's rare path) instead of meeting it at a
// block barrier every stage. On the H200 (sixteenth session) that was 1.5 to 2% faster than
// two stages and __syncthreads (4 stages: no faster than 3). Returns the first token left for
// the register loop (the rest, under one stage). The block's program is the same for all its
// threads, so the test and the barriers are uniform.
template <class Pk, class Step>
__device__ __forceinline__ int64_t staged_sweep(const ConvFwdParams& p, const Segment& s, int64_t t, int lane,
                                                const Step& step) {
  constexpr int kStages = 3, kTokens = static_cast<int>(geo::kStageXTokens), kBatch = 8;
  constexpr int kWarps = geo::kBlockThreads / 32, kRowsPerWarp = kTokens / kWarps;
  constexpr uint32_t kRowBytes = geo::kBlockThreads * sizeof(Pk);
  static_assert(sizeof(Pk) == 4 && kTokens % kBatch == 0 && kTokens % kWarps == 0, "one 32-bit packet a thread");
  __shared__ alignas(128) uint32_t xs[kStages * kTokens * geo::kBlockThreads];
  __shared__ uint64_t full[kStages], empty[kStages];
  const int64_t stages = (s.last - t) / kTokens;
  if (!block_inside_channels(p) || stages == 0) return t;
  const int warp = static_cast<int>(threadIdx.x / 32);
  const char* const xblock = block_x<Pk>(p, s);
  auto issue = [&](int64_t c, int buf) {  // by each warp's lane 0: its rows of stage c, into buffer buf
    uint64_t* const b = &full[buf];
    uint32_t* const dst = xs + (buf * kTokens + warp * kRowsPerWarp) * geo::kBlockThreads;
    const char* const src = xblock + (t + c * kTokens + warp * kRowsPerWarp) * p.x.s0;
    mbar_expect_bytes(b, kRowsPerWarp * kRowBytes);
#pragma unroll
    for (int u = 0; u < kRowsPerWarp; ++u)
      bulk_copy_to_shared(dst + u * geo::kBlockThreads, src + u * p.x.s0, kRowBytes, b);
  };
  if (threadIdx.x == 0) {
    for (int i = 0; i < kStages; ++i) {
      mbar_init(&full[i], kWarps);
      mbar_init(&empty[i], geo::kBlockThreads);  // every thread arrives once it has read the stage
    }
    mbar_init_fence();
  }
  __syncthreads();
  if (lane == 0)
    for (int c = 0; c < kStages && c < stages; ++c) issue(c, c);
  // Stage c's buffer and the parity of its use.
  int buf = 0;
  uint32_t phase = 0;
  for (int64_t c = 0; c < stages; ++c) {
    mbar_wait(&full[buf], phase);
    const uint32_t* const src = xs + buf * kTokens * geo::kBlockThreads + threadIdx.x;
    const int64_t t0 = t + c * kTokens;
#pragma unroll
    for (int u0 = 0; u0 < kTokens; u0 += kBatch)
      step_shared_rows<Pk, kBatch>(src + u0 * geo::kBlockThreads, t0 + u0, step);
    mbar_arrive(&empty[buf]);  // this thread has read the stage
    if (lane == 0) {
      // The previous stage's buffer is refilled once every thread has read it: a warp runs up
      // to a stage ahead of the slowest instead of meeting it at every stage. Each thread
      // arrives after its own loads (not one lane a warp after __syncwarp), so that the
      // barrier alone orders every read before the refill, as racecheck can follow.
      if (c >= 1 && c - 1 + kStages < stages) {
        const int prev = buf == 0 ? kStages - 1 : buf - 1;
        mbar_wait(&empty[prev], buf == 0 ? phase ^ 1u : phase);
        issue(c - 1 + kStages, prev);
      }
    }
    if (++buf == kStages) {
      buf = 0;
      phase ^= 1u;
    }
  }
  return t + stages * kTokens;
}

// A short program's x whole in shared memory: pieces of up to kWholeRows rows of the block's
// 256 channels, each row one bulk copy issued by thread `row`, all at once, so that a short
// program waits for memory once instead of once a batch. The first piece is issued as soon
// as the segment is known, before the old state is read (whole_start); whole_sweep waits for
// it and takes the rest piece by piece.
inline constexpr int kWholeRows = static_cast<int>(geo::kStageWholeRows);
struct WholeBuffer {
  uint32_t* xs;
  uint64_t* full;
};
__device__ __forceinline__ WholeBuffer whole_buffer() {
  __shared__ alignas(128) uint32_t xs[kWholeRows * geo::kBlockThreads];
  __shared__ uint64_t full;
  return {xs, &full};
}
__device__ __forceinline__ int64_t whole_rows(const Segment& s, int64_t t) {
  return s.last - t < kWholeRows ? s.last - t : kWholeRows;
}
template <class Pk>
__device__ __forceinline__ void whole_issue(const ConvFwdParams& p, const Segment& s, int64_t t) {
  constexpr uint32_t kRowBytes = geo::kBlockThreads * sizeof(Pk);
  const WholeBuffer b = whole_buffer();
  const int64_t rows = whole_rows(s, t);
  const char* const xblock = block_x<Pk>(p, s);
  if (threadIdx.x == 0) mbar_expect_bytes(b.full, static_cast<uint32_t>(rows) * kRowBytes);
  if (threadIdx.x < rows)
    bulk_copy_to_shared(b.xs + threadIdx.x * geo::kBlockThreads, xblock + (t + threadIdx.x) * p.x.s0, kRowBytes,
                        b.full);
}
// Block-uniform: false (nothing issued) where the block reaches past C.
template <class Pk>
__device__ __forceinline__ bool whole_start(const ConvFwdParams& p, const Segment& s) {
  if (!block_inside_channels(p)) return false;
  const WholeBuffer b = whole_buffer();
  if (threadIdx.x == 0) {
    mbar_init(b.full, 1);
    mbar_init_fence();
  }
  __syncthreads();
  whole_issue<Pk>(p, s, s.first);
  return true;
}
template <class Pk, class Step>
__device__ __forceinline__ int64_t whole_sweep(const ConvFwdParams& p, const Segment& s, int64_t t, const Step& step) {
  constexpr int kBatch = 8;
  const WholeBuffer b = whole_buffer();
  const uint32_t* const src = b.xs + threadIdx.x;
  for (uint32_t phase = 0; t < s.last; phase ^= 1u) {
    const int64_t rows = whole_rows(s, t);
    mbar_wait(b.full, phase);
    int64_t u0 = 0;
    for (; u0 + kBatch <= rows; u0 += kBatch) step_shared_rows<Pk, kBatch>(src + u0 * geo::kBlockThreads, t + u0, step);
    for (; u0 < rows; ++u0) step_shared_rows<Pk, 1>(src + u0 * geo::kBlockThreads, t + u0, step);
    t += rows;
    if (t < s.last) {
      __syncthreads();  // every thread has read the piece before the next overwrites it
      whole_issue<Pk>(p, s, t);
    }
  }
  return t;
}
#endif

// Register window: Vec channels per thread, the K-1 previous inputs in registers, and a batch
// of tokens' loads issued before any of them is used, so each thread keeps several loads in
// flight. Serves reg_window (Vec = 16 bytes of x, or 1), channel_tile1 (K = 4, Vec = 1) and
// channel_tile2 (K = 4, Vec = 2).
// Up to two channels a thread: at most 64 registers, so that 8 blocks (half the SM's threads)
// stay resident. The staged instantiation takes 80 registers and 6 blocks instead: the copy
// engine, not the warps, keeps its loads in flight, and at 64 registers it spilled (64/200
// bytes). With the input widened once (conv_token's WidenOnce), that was 3.6 to 4.4% faster
// than 8 blocks without (docs/benchmarks.md, fifteenth session).
// DenseW: the weights are x's type in dense [C, K] rows on Vec * K element boundaries and the
// bias, if any, dense on Vec element boundaries, so a thread's weights are one packet and its
// bias another, with no run-time dtype (a short prompt's programs are mostly setup).
// StageX (Vec = 2): x through shared memory where the program allows (staged_sweep), its own
// instantiation so that the other kernels keep their registers (the staged code made ptxas
// spill the weights around every loop).
// WarpSearch: a program finds its sequence by sequence_of_program_warp (conv_fwd_warp_search).
// Whole (with StageX, Vec = 2): x a whole program at a time instead (whole_start, whole_sweep;
// geo::conv_fwd_stages_whole), 80 registers and 6 blocks as StageX, 36 KiB of shared memory.
template <int K, Elem X, int Vec, bool DenseW = false, bool StageX = false, bool WarpSearch = false, bool Whole = false>
__global__ void __launch_bounds__(geo::kBlockThreads, Vec <= 2 ? (StageX ? 6 : 8) : 1)
    conv_fwd_window_kernel(const ConvFwdParams p) {
  after_prior_grids();
  constexpr int W = K - 1;
  constexpr int kBatch = 8;
  constexpr bool kStageState = Vec <= 2;  // the shared buffer stays under 8 KiB
  using Pk = Packet<X, Vec>;
  const int64_t c0 = (channel_block() * blockDim.x + threadIdx.x) * Vec;
  // A thread past C returns only after find_segment: returning here first made ptxas
  // spill in this kernel (eighth session).
  const bool live = c0 < p.C;
  const int nc = static_cast<int>(!live ? 0 : p.C - c0 < Vec ? p.C - c0 : Vec);  // channels this thread owns

  // The weights' loads first (they need no segment), then the segment's, then the
  // context's and the old state's: each group's loads are issued before any of them is used.
  // The weights are widened once the segment is known: widened at once, they held the
  // segment's loads back until they arrived (ncu, tenth session); loaded after the segment,
  // they spilled.
  float w[Vec][K], b[Vec], win[Vec][K];
  auto chan = [&](int i) { return c0 + (i < nc ? i : 0); };
  using WBits = typename WeightBits<DenseW, X, Vec * K>::type;
  using BBits = typename WeightBits<DenseW, X, Vec>::type;
  WBits wbits{};
  BBits bbits{};
  if constexpr (DenseW) {
    // nc == Vec wherever live: C is a multiple of Vec here.
    constexpr int64_t eb = sizeof(typename ElemTraits<X>::raw);
    if (live) wbits = __ldg(reinterpret_cast<const WBits*>(p.w.base + c0 * (K * eb)));
    if (live && p.bias.base) bbits = __ldg(reinterpret_cast<const BBits*>(p.bias.base + c0 * eb));
  } else {
    load_bits<Vec * K>(
        p.w.dtype, wbits, [&](int) { return live; },
        [&](int e) { return p.w.base + chan(e / K) * p.w.s0 + (e % K) * p.w.s1; });
    load_bits<Vec>(
        p.bias.dtype, bbits, [&](int) { return live && p.bias.base != nullptr; },
        [&](int i) { return p.bias.base + chan(i) * p.bias.s0; });
  }
  Segment s;
  if (!find_segment<WarpSearch, (StageX && !Whole)>(p, program_index(), &s) || !live) return;
  [[maybe_unused]] bool whole = false;  // x of this program is on its way to shared memory (Whole)
#if __CUDA_ARCH__ >= 900
  if constexpr (Whole && Vec == 2) whole = whole_start<Pk>(p, s);
#endif
  // Widened only now: a register fence (an empty asm that claims to change the bits) keeps
  // ptxas from widening them, and so waiting for them, before the segment's loads are out.
  fence_bits(wbits);
  fence_bits(bbits);
  if constexpr (DenseW) {
    Packet<X, Vec * K> wk;
    Packet<X, Vec> bk;
    memcpy(&wk, &wbits, sizeof wk);
    memcpy(&bk, &bbits, sizeof bk);
#pragma unroll
    for (int e = 0; e < Vec * K; ++e) w[e / K][e % K] = wk.get(e);
#pragma unroll
    for (int i = 0; i < Vec; ++i) b[i] = bk.get(i);
  } else {
#pragma unroll
    for (int e = 0; e < Vec * K; ++e) w[e / K][e % K] = widen_bits(p.w.dtype, wbits[e]);
#pragma unroll
    for (int i = 0; i < Vec; ++i) b[i] = widen_bits(p.bias.dtype, bbits[i]);
  }

  const char* xcol = p.x.base + s.begin * p.x.s0 + c0 * static_cast<int64_t>(sizeof(typename Pk::raw));
  auto token = [&](int64_t t) { return load_packet<X, Vec>(xcol + t * p.x.s0); };

  // Context token first - W + j comes from x, or before the sequence from the old state's
  // column first + j (zero without one).
  Pk ctx[W] = {};
#pragma unroll
  for (int j = 0; j < W; ++j)
    if (s.first - W + j >= 0) ctx[j] = token(s.first - W + j);
  // The old state. Where the warp's rows are one run of f32 (the usual [S, C, W] layout), the
  // warp moves it through shared memory with whole-warp accesses. Loaded lane by lane (each
  // load's lanes 4 Vec W bytes apart), all at once or one at a time, 256 short sequences
  // took 11% longer than before this setup; staged, 2% (docs/benchmarks.md, eighth session).
  // `staged` is the same for the whole warp.
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int64_t warp_c0 = c0 - lane * Vec;
  // The layout test is f32_state_rows's, written out: through a helper (the view by reference,
  // or its fields) the PTX of all 33 window kernels changed, and they were not re-timed.
  const bool staged = kStageState && s.slot >= 0 && p.state.dtype == VT_DTYPE_F32 && p.state.s2 == 4 &&
                      p.state.s1 == 4 * W && warp_c0 + 32 * Vec <= p.C;
  __shared__ float stage[kStageState ? geo::kBlockThreads * Vec * W : 1];
  float* const run_stage = stage + (threadIdx.x - lane) * Vec * W;
  float* const run = staged ? reinterpret_cast<float*>(state_at(p, s, warp_c0, 0)) : nullptr;
  if (staged) {
    if (s.first < W && s.initial) {
#pragma unroll
      for (int u = 0; u < Vec * W; ++u) run_stage[u * 32 + lane] = run[u * 32 + lane];
      __syncwarp();
    }
#pragma unroll
    for (int e = 0; e < Vec * W; ++e)
      if (s.first - W + e % W < 0)
        win[e / W][e % W] = s.initial ? run_stage[lane * Vec * W + (e / W) * W + s.first + e % W] : 0.0f;
    __syncwarp();  // the roll below reuses the buffer
  } else {
    // Loaded before has_initial_state is known (it arrives with the slot); only then does it
    // join the window.
    load_many<Vec * W>(
        p.state.dtype, [&](int e) { return s.slot >= 0 && s.first - W + e % W < 0; },
        [&](int e) { return state_at(p, s, chan(e / W), static_cast<int>(s.first + e % W)); },
        [&](int e, float v) { win[e / W][e % W] = s.initial ? v : 0.0f; });
  }
#pragma unroll
  for (int j = 0; j < W; ++j)
    if (s.first - W + j >= 0)
#pragma unroll
      for (int i = 0; i < Vec; ++i) win[i][j] = ctx[j].get(i);

  // One token: its inputs enter the window and its Vec outputs are stored. `packed_silu`: the
  // output has x's element type, is written as one packet and is SiLU's; `rare_call`: with
  // SiLU's rare path as a call, else inlined (SiluRare). On the H200 the call was faster in
  // the staged loop and the inlined path in the register loop (fourteenth session); the second
  // estimate, 1.03 to 1.04 on both for bf16 (sixteenth), and for f16, which tests it first,
  // 1.21 to 1.27 (seventeenth). Only the measured kernels (dense weights) take it: no
  // benchmark case measures the others, and with it the bf16 ones spilled more (ptxas).
  auto step = [&](const Pk& in, int64_t t, auto packed_silu, auto rare_call) {
    float acc[Vec];
    conv_token<K, Vec, StageX>(win, w, b, in, acc);
    char* orow = p.out.base + (s.begin + t) * p.out.s0;
    if constexpr (decltype(packed_silu)::value) {
      Pk pk;
      constexpr bool second = X != Elem::f32 && DenseW, call = decltype(rare_call)::value;
      constexpr SiluRare rare =
          second ? (call ? SiluRare::second_call : SiluRare::second) : (call ? SiluRare::exact_call : SiluRare::exact);
      silu_narrow_packet<X, Vec, rare>(acc, pk);
      store_packet(orow + c0 * static_cast<int64_t>(sizeof(typename Pk::raw)), pk);
    } else if (Vec > 1 && p.vector_store) {  // the output has x's element type
      Pk pk;
#pragma unroll
      for (int i = 0; i < Vec; ++i) pk.v[i] = activated<X>(acc[i], p.silu);
      store_packet(orow + c0 * static_cast<int64_t>(sizeof(typename Pk::raw)), pk);
    } else {
      const int ob = dtype_bytes(p.out.dtype);
#pragma unroll
      for (int i = 0; i < Vec; ++i)
        if (i < nc) store_activated(p.out.dtype, orow + (c0 + i) * ob, acc[i], p.silu);
    }
  };

  bool swept = false;
  if constexpr (Vec > 1 && X != Elem::f32) {
    if (p.vector_store && p.silu) {
      // The model's case, SiLU into packets of x's type: a batch of tokens' loads in flight,
      // then their code unrolled, so the window slides by register renaming, without moves.
      // Batches of kBatch, then of 4 (short sequences are mostly rest), then single tokens.
      int64_t t = s.first;
#if __CUDA_ARCH__ >= 900
      if constexpr (Whole && Vec == 2) {
        if (whole) t = whole_sweep<Pk>(p, s, t, step);
      } else if constexpr (StageX && Vec == 2) {
        t = staged_sweep<Pk>(p, s, t, lane, step);
      }
#endif
      auto sweep = [&](auto batch) {
        constexpr int n = decltype(batch)::value;
        for (; t + n <= s.last; t += n) {
          Pk in[n];
#pragma unroll
          for (int u = 0; u < n; ++u) in[u] = token(t + u);
#pragma unroll
          for (int u = 0; u < n; ++u) step(in[u], t + u, std::true_type{}, std::false_type{});
        }
      };
      sweep(std::integral_constant<int, kBatch>{});
      sweep(std::integral_constant<int, 4>{});
      sweep(std::integral_constant<int, 1>{});
      swept = true;
    }
  }
  if (!swept) {
    // Every other case: one token's code, the loaded words shifting down, which keeps the
    // many instantiations small.
    for (int64_t t0 = s.first; t0 < s.last; t0 += kBatch) {
      Pk in[kBatch];
#pragma unroll
      for (int u = 0; u < kBatch; ++u)
        if (t0 + u < s.last) in[u] = token(t0 + u);
      const int n = static_cast<int>(s.last - t0 < kBatch ? s.last - t0 : kBatch);
#pragma unroll 1
      for (int u = 0; u < n; ++u) {
        step(in[0], t0 + u, std::false_type{}, std::false_type{});
#pragma unroll
        for (int v = 0; v + 1 < kBatch; ++v) in[v] = in[v + 1];
      }
    }
  }

  if (s.slot >= 0 && s.first == 0) {
    if (s.last == s.L) {
      // The program holds the whole sequence: the window now holds inputs L-W..L-1, which
      // are the new state (old columns, for a sequence shorter than W).
      if (staged) {
#pragma unroll
        for (int e = 0; e < Vec * W; ++e) run_stage[lane * Vec * W + e] = win[e / W][e % W];
        __syncwarp();
#pragma unroll
        for (int u = 0; u < Vec * W; ++u) run[u * 32 + lane] = run_stage[u * 32 + lane];
      } else {
#pragma unroll
        for (int i = 0; i < Vec; ++i)
          if (i < nc)
#pragma unroll
            for (int j = 0; j < W; ++j) store(p.state.dtype, state_at(p, s, c0 + i, j), win[i][j]);
      }
    } else {
      for (int i = 0; i < nc; ++i) roll_state(p, s, W, c0 + i);
    }
  }
}

// One sequence in short programs (geo::conv_fwd_one_sequence): K = 4, two channels of a
// 16-bit x a thread, dense weights, and f32 state in [S, C, W] rows or none (the launcher
// sends other calls to the window kernel). A call of one sequence needs no query_start_loc:
// its tokens are rows 0..T-1 (ops.md). So a program issues every load it makes in one round
// before it tests any: the slot, has_initial_state, the weights, its context and tokens and,
// where it holds the sequence's first token, the sequence's last W rows (the new state); only
// the old state waits, for the slot. Offsets are 32-bit where the launcher has checked that
// they fit. The window kernel's program waits for qsl and the slot before its x loads go
// out, and its setup, in 64-bit arithmetic, was most of its instructions at T = 128
// (docs/benchmarks.md, fourteenth session).
template <Elem X, int Chunk>
__global__ void __launch_bounds__(geo::kOneSequenceBlockThreads, 8 * geo::kBlockThreads / geo::kOneSequenceBlockThreads)
    conv_fwd_one_sequence_kernel(const ConvFwdParams p) {
  after_prior_grids();
  constexpr int K = 4, W = K - 1, R = Chunk + W;  // R: the rows a program reads
  using Pk = Packet<X, 2>;
  static_assert(Pk::kBytes == 4,
                "a thread's weights are one 16-byte word, its bias and each row's pair one 32-bit word");
  constexpr uint32_t eb = sizeof(typename ElemTraits<X>::raw);
  // The grid is geo::conv_fwd_one_sequence_grid's (32-bit here: one_sequence_fits).
  const uint32_t c0 = geo::one_sequence_pair(blockIdx.x, threadIdx.x) * 2;  // C is even here
  const uint32_t T = static_cast<uint32_t>(p.T), first = geo::one_sequence_program(blockIdx.y, threadIdx.x) * Chunk;
  if (c0 >= p.C || first >= T) return;

  // No load waits behind a test of the slot: a padding program computes as any other and
  // stores nothing. With an early return, ptxas sank loads below it (the weights, tokens:
  // SASS), so that they waited for the slot.
  const bool stateful = p.slots != nullptr, his = stateful && p.his.base;
  const uint4 wbits = load_now_u128(p.w.base + c0 * (K * eb));
  const uint32_t bbits = load_now_u32_l2_128(p.bias.base ? p.bias.base + c0 * eb : p.w.base);
  // Row r of this thread's channels; before the sequence (r wraps) or past it, row T - 1
  // instead, whose value no output or state column uses (those take old columns, or are not
  // computed). Not zeroed: a select on the loaded bits is a use, which ptxas placed before
  // the later loads, so that they waited for the first ones (SASS).
  const char* xcol = p.x.base + c0 * eb;
  // With 4-token programs the column pointer goes behind an empty asm that claims to change
  // it: ptxas then forms each row's address by a wide multiply-add on it, three instructions
  // a row instead of four (it had added the base after the multiply, in 32-bit halves). On an
  // H100 T = 128 took 1/1.018 to 1/1.021 of the time; T = 256's 8-token programs, 1/0.991 to
  // 1/0.995, so they keep ptxas's form (docs/benchmarks.md, forty-ninth session).
  if constexpr (Chunk == 4) asm("" : "+l"(xcol));
  const uint32_t xs = static_cast<uint32_t>(p.x.s0);
  auto row = [&](uint32_t r) {
    const uint32_t bits = load_now_u32_l2_128(xcol + static_cast<uint64_t>(umin(r, T - 1)) * xs);
    Pk pk;
    memcpy(&pk, &bits, sizeof pk);
    return pk;
  };
  Pk in[R];
#pragma unroll
  for (int u = 0; u < R; ++u) in[u] = row(first + u - W);
  const bool roller = stateful && first == 0;  // reads the old state and writes the new
  // The slot and has_initial_state, or without them a load of qsl that stands in (find_segment).
  const int32_t slot = static_cast<int32_t>(load_now_u32_l2_128(stateful ? p.slots : p.qsl));
  const char* const hp = his ? p.his.base : reinterpret_cast<const char*>(p.qsl);
  const uint32_t hv = his && p.his.dtype == VT_DTYPE_U8 ? load_now_u8(hp) : load_now_u32_l2_128(hp);

  // The program's first output row; each token's is a row further (a pointer stepped, not an
  // offset multiplied: ptxas computed each store's address afresh, a 64-bit multiply and a
  // reload of the base, SASS).
  char* const orow = p.out.base + c0 * eb + static_cast<uint64_t>(first) * p.out.s0;
  const uint32_t os = static_cast<uint32_t>(p.out.s0);

  // The rest in a copy for each case, the roller's or another's, SiLU or none, a whole program
  // or the sequence's last, shorter one, so that no token tests any of them. With the stepped
  // output pointer that is about a sixth fewer instructions along a program's path (SASS), and
  // on an H100 1.04 times as fast at T = 128 and 1.03 at T = 256 as two copies, the roller's
  // and the others' (docs/benchmarks.md, forty-seventh session). With the roller and the
  // others in one copy, ptxas tested the slot right after its load, for the roller's
  // state loads, and every load it placed after that test waited for the slot (SASS). The
  // branches depend on no load, so every load above is issued before them.
  auto finish = [&](auto roller_tag, auto silu_tag, auto whole_tag) {
    constexpr bool kRoller = decltype(roller_tag)::value, kSilu = decltype(silu_tag)::value,
                   kWhole = decltype(whole_tag)::value;
    // The sequence's last W rows, the roller's new state, issued first in its copy.
    Pk tail[W];
    if constexpr (kRoller) {
#pragma unroll
      for (int j = 0; j < W; ++j) tail[j] = row(T - W + j);
    }
    const bool live = !stateful || (slot >= 0 && slot < p.S);  // else padding, or a slot outside the cache: untouched
    const bool initial = his && hv != 0;
    float old[2][W] = {};  // channel i's old columns
    float2* const st =
        kRoller ? reinterpret_cast<float2*>(p.state.base + slot * p.state.s0 + int64_t{c0} * (W * 4)) : nullptr;
    if (kRoller && live && initial) {
      float2 o[W];
#pragma unroll
      for (int u = 0; u < W; ++u) o[u] = st[u];
#pragma unroll
      for (int e = 0; e < 2 * W; ++e) old[e / W][e % W] = e % 2 ? o[e / 2].y : o[e / 2].x;
    }

    Packet<X, 2 * K> wk;
    Pk bk;
    memcpy(&wk, &wbits, sizeof wk);
    memcpy(&bk, &bbits, sizeof bk);
    float w[2][K], b[2], win[2][K];
#pragma unroll
    for (int e = 0; e < 2 * K; ++e) w[e / K][e % K] = wk.get(e);
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      b[i] = p.bias.base ? bk.get(i) : 0.0f;
#pragma unroll
      for (int j = 0; j < W; ++j) win[i][j] = first == 0 ? old[i][j] : in[j].get(i);
    }
    // Whether token u of the program is in the sequence: all of a whole program's are.
    auto in_sequence = [&](int u) { return kWhole || first + u < T; };
    char* o = orow;
    if constexpr (Chunk >= 8) {
      // Every token's sums first (past T they come from row T - 1 and are not stored), then
      // SiLU's estimates and tests for all of them at once (silu_narrow2_batch). On the H200
      // that was 1.03 times as fast as a token at a time with 8-token programs (T = 256), and
      // 0.95 times with 4-token ones (T = 128), whose instructions it raised by a tenth
      // (docs/benchmarks.md, nineteenth session).
      float acc[2][Chunk];
#pragma unroll
      for (int u = 0; u < Chunk; ++u) {
        float two[2];
        conv_token<K, 2>(win, w, b, in[W + u], two);
        acc[0][u] = two[0];
        acc[1][u] = two[1];
      }
      uint32_t words[Chunk];
      if constexpr (kSilu) {
        silu_narrow2_batch<X, Chunk>(acc[0], acc[1], words);
      } else {
#pragma unroll
        for (int u = 0; u < Chunk; ++u) {
          Pk pk;
          pk.set(0, acc[0][u]);
          pk.set(1, acc[1][u]);
          memcpy(&words[u], &pk, sizeof pk);
        }
      }
      if (live) {
#pragma unroll
        for (int u = 0; u < Chunk; ++u, o += os)
          if (in_sequence(u)) *reinterpret_cast<uint32_t*>(o) = words[u];
      }
    } else {
      // A token at a time, SiLU's rare path as a call: inlined it made the kernel an eighth
      // longer, and the call was 1.02 times as fast at T = 128 (nineteenth session).
#pragma unroll
      for (int u = 0; u < Chunk; ++u, o += os) {
        if (!in_sequence(u)) break;  // the same for the whole warp, one program
        float acc[2];
        conv_token<K, 2>(win, w, b, in[W + u], acc);
        Pk pk;
        if constexpr (kSilu) {
          silu_narrow_packet<X, 2, SiluRare::second_call>(acc, pk);
        } else {
          pk.set(0, acc[0]);
          pk.set(1, acc[1]);
        }
        if (live) store_packet(o, pk);
      }
    }

    if (kRoller && live) {
      // Column j is input T - W + j of [old state | tokens]: a token, or for a sequence
      // shorter than W, old column T + j (zero without an initial state).
      float v[2][W];
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < W; ++j) {
          v[i][j] = tail[j].get(i);
          if (T + j < W)
#pragma unroll
            for (int m = 0; m < W; ++m)
              if (m == static_cast<int>(T) + j) v[i][j] = old[i][m];
        }
#pragma unroll
      for (int u = 0; u < W; ++u) st[u] = make_float2(v[(2 * u) / W][(2 * u) % W], v[(2 * u + 1) / W][(2 * u + 1) % W]);
    }
  };
  auto with_silu = [&](auto roller_tag, auto whole_tag) {
    if (p.silu) finish(roller_tag, std::true_type{}, whole_tag);
    else finish(roller_tag, std::false_type{}, whole_tag);
  };
  auto with_roller = [&](auto whole_tag) {
    if (roller) with_silu(std::true_type{}, whole_tag);
    else with_silu(std::false_type{}, whole_tag);
  };
  if (first + Chunk <= T) with_roller(std::true_type{});
  else with_roller(std::false_type{});
}

// Tiled: one channel per thread and any dtypes; the program's inputs (its halo and tokens)
// are staged in shared memory first, all loads in flight at once, then consumed oldest first.
template <int K>
__global__ void __launch_bounds__(geo::kBlockThreads) conv_fwd_tiled_kernel(const ConvFwdParams p) {
  after_prior_grids();
  constexpr int W = K - 1;
  extern __shared__ float tile[];  // [chunk + W][block], a thread's column at threadIdx.x
  const int64_t c = channel_block() * blockDim.x + threadIdx.x;
  if (c >= p.C) return;  // no barrier below: every thread uses only its own column
  Segment s;
  if (!find_segment(p, program_index(), &s)) return;
  const int64_t rows = s.last - s.first + W;
  for (int64_t r = 0; r < rows; ++r) tile[r * blockDim.x + threadIdx.x] = context_at(p, s, W, s.first - W + r, c);

  float w[K];
#pragma unroll
  for (int j = 0; j < K; ++j) w[j] = load(p.w.dtype, p.w.base + c * p.w.s0 + j * p.w.s1);
  const float b = p.bias.base ? load(p.bias.dtype, p.bias.base + c * p.bias.s0) : 0.0f;
  const int ob = dtype_bytes(p.out.dtype);
  for (int64_t t = s.first; t < s.last; ++t) {
    const float* col = tile + (t - s.first) * blockDim.x + threadIdx.x;
    float acc = b;
#pragma unroll
    for (int j = 0; j < K; ++j) acc = fmaf(w[j], col[j * blockDim.x], acc);
    store_activated(p.out.dtype, p.out.base + (s.begin + t) * p.out.s0 + c * ob, acc, p.silu);
  }
  if (s.slot >= 0 && s.first == 0) roll_state(p, s, W, c);
}

// Whether the two-channel kernel's weights and bias load as packets (DenseW above).
bool dense_weights(const View& w, const View& bias, int x_dtype, int K, int vec) {
  const int64_t e = dtype_bytes(x_dtype), row = K * e;
  const bool wd =
      w.dtype == x_dtype && w.s1 == e && w.s0 == row && reinterpret_cast<uintptr_t>(w.base) % (vec * row) == 0;
  const bool bd =
      !bias.base || (bias.dtype == x_dtype && bias.s0 == e && reinterpret_cast<uintptr_t>(bias.base) % (vec * e) == 0);
  return wd && bd;
}

// Whether the two-channel kernel searches a program's sequence with the whole warp: where
// the binary search would take more rounds of loads than a warp's lanes take two, more than
// kWarpSearchMinSeqs sequences without a plan. On the H200 (docs/benchmarks.md, eighteenth
// session) the warp's search was 1.06 to 1.07 times as fast on 256 short sequences; built
// into the kernel that serves one sequence as well, it made that one 1.5% slower at T = 128,
// so calls with few sequences keep the binary search's instantiation. The threshold is set
// by the rounds, not measured between 1 and 256 sequences.
inline constexpr int64_t kWarpSearchMinSeqs = 32;
bool conv_fwd_warp_search(const ConvFwdParams& p) { return !p.plan && p.N > kWarpSearchMinSeqs; }

// What the one-sequence kernel needs beyond the geometry's conditions: dense weights, f32
// state in [S, C, W] rows on 8-byte bounds or no state, 32-bit channel offsets (a thread's
// weights at 8 bytes a channel; C < 2^29 also keeps its grid's x and channel pairs in 32 bits)
// and row strides, its grid's rows (geo::conv_fwd_one_sequence_grid) along y alone, and
// programs of 4 or 8 tokens.
bool one_sequence_fits(const ConvFwdParams& p, const geo::ConvFwdGeometry& g, const geo::LaunchGrid& l, bool dense) {
  constexpr int64_t W = 3;
  const bool state = !p.slots || (f32_state_rows(p.state, W) && reinterpret_cast<uintptr_t>(p.state.base) % 8 == 0 &&
                                  p.state.s0 % 8 == 0);
  auto u32 = [](int64_t v) { return v >= 0 && v <= int64_t{UINT32_MAX}; };
  return dense && state && (g.chunk == 4 || g.chunk == 8) && l.y <= geo::kGridYZMax && p.T < INT32_MAX &&
         p.C < (int64_t{1} << 29) && u32(p.x.s0) && u32(p.out.s0);
}

// The one-sequence kernel, where the geometry chose it and the call fits it (its grid is
// formed only then); false where the caller launches another kernel.
template <Elem X>
bool launch_one_sequence(const ConvFwdParams& p, const geo::ConvFwdGeometry& g, bool dense, const Stream& s) {
  if (!g.one_sequence) return false;
  const geo::LaunchGrid l = geo::conv_fwd_one_sequence_grid(g);
  if (!one_sequence_fits(p, g, l, dense)) return false;
  const dim3 groups(static_cast<unsigned>(l.x), static_cast<unsigned>(l.y)), threads(geo::kOneSequenceBlockThreads);
  if (g.chunk == 4) launch_kernel(conv_fwd_one_sequence_kernel<X, 4>, groups, threads, 0, s, p);
  else launch_kernel(conv_fwd_one_sequence_kernel<X, 8>, groups, threads, 0, s, p);
  return true;
}

template <int K, Elem X>
void launch_window(const ConvFwdParams& p, const geo::ConvFwdGeometry& g, const dim3& grid, const dim3& block,
                   const Stream& s) {
  constexpr int kFull = geo::kMaxVectorBytes / sizeof(typename ElemTraits<X>::raw);
  if constexpr (K == 4 && X != Elem::f32) {
    if (g.vec == 2) {
      const bool dense = dense_weights(p.w, p.bias, p.x.dtype, K, 2);
      if (launch_one_sequence<X>(p, g, dense, s)) return;
      const bool warp = conv_fwd_warp_search(p);
      if (g.stage_whole && dense && warp)
        launch_kernel(conv_fwd_window_kernel<K, X, 2, true, true, true, true>, grid, block, 0, s, p);
      else if (g.stage_whole && dense)
        launch_kernel(conv_fwd_window_kernel<K, X, 2, true, true, false, true>, grid, block, 0, s, p);
      else if (g.stage_whole)
        launch_kernel(conv_fwd_window_kernel<K, X, 2, false, true, false, true>, grid, block, 0, s, p);
      else if (g.stage_x && dense) launch_kernel(conv_fwd_window_kernel<K, X, 2, true, true>, grid, block, 0, s, p);
      else if (g.stage_x) launch_kernel(conv_fwd_window_kernel<K, X, 2, false, true>, grid, block, 0, s, p);
      else if (dense && warp) launch_kernel(conv_fwd_window_kernel<K, X, 2, true, false, true>, grid, block, 0, s, p);
      else if (dense) launch_kernel(conv_fwd_window_kernel<K, X, 2, true>, grid, block, 0, s, p);
      else if (warp) launch_kernel(conv_fwd_window_kernel<K, X, 2, false, false, true>, grid, block, 0, s, p);
      else launch_kernel(conv_fwd_window_kernel<K, X, 2>, grid, block, 0, s, p);
      return;
    }
  }
  if (g.vec == kFull) launch_kernel(conv_fwd_window_kernel<K, X, kFull>, grid, block, 0, s, p);
  else launch_kernel(conv_fwd_window_kernel<K, X, 1>, grid, block, 0, s, p);
}

template <int K>
void launch_width(const ConvFwdParams& p, const geo::ConvFwdGeometry& g, const dim3& grid, int x_dtype,
                  const Stream& s) {
  const dim3 block(static_cast<unsigned>(g.block));
  if (g.variant == geo::ConvFwdVariant::tiled) {
    launch_kernel(conv_fwd_tiled_kernel<K>, grid, block, static_cast<size_t>(g.shared_bytes), s, p);
  } else if (x_dtype == VT_DTYPE_F32) {
    launch_window<K, Elem::f32>(p, g, grid, block, s);
  } else if (x_dtype == VT_DTYPE_F16) {
    launch_window<K, Elem::f16>(p, g, grid, block, s);
  } else {
    launch_window<K, Elem::bf16>(p, g, grid, block, s);
  }
}

bool aligned(const View& v, int bytes) { return reinterpret_cast<uintptr_t>(v.base) % bytes == 0 && v.s0 % bytes == 0; }

// 128-token programs without a plan: on the H200 against 64, 2% faster at 16k tokens and 2
// to 3% on 256 short sequences, shorter shapes unchanged (docs/benchmarks.md, ninth session).
// Down to 4-token programs for short prompts: 1.08 times as fast as 8 at T = 128 (tenth).
inline constexpr int64_t kMinSequenceChunk = 4;
inline constexpr int64_t kMaxSequenceChunk = 128;

geo::ConvFwdGeometry conv_fwd_geometry_of(const vt_causal_conv1d_fwd_args& a, const geo::ConvSwitches& sw,
                                          bool bulk_copies) {
  const View x = view_of(a.x), out = view_of(a.out);
  geo::ConvFwdShape shape;
  shape.tokens = a.num_tokens;
  shape.channels = a.channels;
  shape.seqs = a.num_seqs;
  shape.width = static_cast<int32_t>(a.width);
  shape.x_elem_bytes = dtype_bytes(a.x.dtype);
  shape.x_f16 = a.x.dtype == VT_DTYPE_F16;
  shape.x_vector_aligned = aligned(x, 16);
  shape.out_vector_aligned = aligned(out, 16);
  shape.x_pair_aligned = aligned(x, 4) && aligned(out, 4);
  shape.out_same_dtype = a.out.dtype == a.x.dtype;
  shape.min_sequence_chunk = kMinSequenceChunk;
  shape.max_sequence_chunk = kMaxSequenceChunk;
  shape.silu = a.activation == VT_ACTIVATION_SILU;
  shape.bulk_copies = bulk_copies;
  shape.one_sequence_kernel = true;
  if (a.plan) {
    shape.has_plan = true;
    shape.plan_items = a.plan->n_items;
    shape.plan_chunk = a.plan->chunk_size;
  }
  return geo::conv_fwd_geometry(shape, sw);
}

}  // namespace

vt_status launch_conv_fwd(const vt_causal_conv1d_fwd_args& a, const vt::ops::geometry::ConvSwitches& sw,
                          bool bulk_copies, const Stream& stream) {
  const geo::ConvFwdGeometry g = conv_fwd_geometry_of(a, sw, bulk_copies);
  if (g.grid_x == 0 || g.grid_y == 0) return VT_OK;
  const geo::LaunchGrid l = geo::conv_fwd_launch_grid(g);
  if (l.x > 0x7fffffff || l.z > geo::kGridYZMax) return launch_error("causal_conv1d_fwd: grid too large");
  const dim3 grid(static_cast<unsigned>(l.x), static_cast<unsigned>(l.y), static_cast<unsigned>(l.z));

  ConvFwdParams p{};
  p.x = view_of(a.x);
  p.w = view_of(a.weight);
  p.bias = view_of(a.bias);
  p.out = view_of(a.out);
  p.state = view_of(a.conv_state);
  p.his = view_of(a.has_initial_state);
  p.slots = reinterpret_cast<const int32_t*>(view_of(a.state_indices).base);
  p.qsl = reinterpret_cast<const int32_t*>(view_of(a.query_start_loc).base);
  p.plan = g.mapping == geo::ConvMapping::plan_items ? reinterpret_cast<const int32_t*>(view_of(a.plan->items).base)
                                                     : nullptr;
  p.T = a.num_tokens;
  p.C = a.channels;
  p.N = a.num_seqs;
  p.S = a.num_slots;
  p.chunk = g.chunk;
  p.programs = g.grid_y;
  p.chunk_shift = geo::chunk_shift(g.chunk);
  if (g.mapping == geo::ConvMapping::sequence_chunks && int64_t{1} << p.chunk_shift != g.chunk)
    return launch_error("causal_conv1d_fwd: the sequence chunk is not a power of two");
  p.silu = a.activation == VT_ACTIVATION_SILU;
  p.vector_store = g.vector_store;
  p.tail = g.tail;
  switch (a.width) {
    case 2: launch_width<2>(p, g, grid, a.x.dtype, stream); break;
    case 3: launch_width<3>(p, g, grid, a.x.dtype, stream); break;
    case 4: launch_width<4>(p, g, grid, a.x.dtype, stream); break;
    case 5: launch_width<5>(p, g, grid, a.x.dtype, stream); break;
    case 6: launch_width<6>(p, g, grid, a.x.dtype, stream); break;
    case 7: launch_width<7>(p, g, grid, a.x.dtype, stream); break;
    case 8: launch_width<8>(p, g, grid, a.x.dtype, stream); break;
    default: return launch_error("causal_conv1d_fwd: K outside 2..8");
  }
  return launch_status("causal_conv1d_fwd");
}

}  // namespace vt::cuda::kern
