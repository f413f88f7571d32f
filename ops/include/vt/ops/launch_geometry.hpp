// Launch geometry of the data-parallel GDN kernels: which mapping serves a shape and with
// which grid and block. Pure integer code with no device compiler dependency, so the GPU
// launchers and the unit tests (which run without a GPU) call the same functions.
#pragma once
#include <algorithm>
#include <cstdint>

// Device compilers mark these callable from kernels by defining VT_GEOMETRY_FN first.
#ifndef VT_GEOMETRY_FN
#define VT_GEOMETRY_FN constexpr inline
#endif

namespace vt::ops::geometry {

inline constexpr int32_t kBlockThreads = 128;
inline constexpr int32_t kMaxVectorBytes = 16;

// How the conv prefill assigns tokens to programs. Either way a program owns one
// (sequence, run of tokens) and the program holding a sequence's first token is the only
// one that reads its old state, so it also writes the rolled state: race-free by
// construction, because every other run starts at least W tokens into the sequence.
enum class ConvMapping {
  plan_items,       // one program per chunk-plan item (sequence, first token)
  sequence_chunks,  // no plan: program k serves sequence n with B_n <= k < B_{n+1}, B_n = qsl[n] / chunk + n
};

struct ConvFwdShape {
  int64_t tokens = 0, channels = 0, seqs = 0;
  int32_t width = 4;            // K
  int32_t x_elem_bytes = 2;
  bool x_vector_aligned = false;  // x's base and row stride are multiples of 16 bytes
  bool out_vector_aligned = false;
  bool out_same_dtype = false;    // out stores can reuse x's vector width
  bool has_plan = false;
  int64_t plan_items = 0;
  int32_t plan_chunk = 8;
};

struct ConvSwitches {
  bool exact_chunks = true;  // VT_CONV_EXACT_CHUNKS
};

struct ConvFwdGeometry {
  ConvMapping mapping = ConvMapping::sequence_chunks;
  int64_t chunk = 0;          // tokens per program
  int32_t vec = 1;            // channels per thread
  bool vector_store = false;  // out written with vector stores
  int32_t block = kBlockThreads;
  int64_t grid_x = 0, grid_y = 0;  // channel groups, programs along tokens
};

// Tokens per program without a plan: long runs amortise the W-token halo each program
// re-reads, short ones keep enough programs in flight when T is small.
constexpr int64_t sequence_chunk(int64_t tokens, int64_t channel_blocks) {
  int64_t chunk = 64;
  while (chunk > 8 && (tokens / chunk + 1) * channel_blocks < 1024) chunk /= 2;
  return chunk;
}

constexpr ConvFwdGeometry conv_fwd_geometry(const ConvFwdShape& s, const ConvSwitches& sw) {
  ConvFwdGeometry g;
  const int32_t full_vec = kMaxVectorBytes / std::max<int32_t>(s.x_elem_bytes, 1);
  g.vec = (s.x_vector_aligned && s.channels % full_vec == 0) ? full_vec : 1;
  g.vector_store = g.vec > 1 && s.out_vector_aligned && s.out_same_dtype;
  const int64_t groups = (s.channels + g.vec - 1) / g.vec;
  g.grid_x = (groups + g.block - 1) / g.block;
  // A plan whose chunks are shorter than the state (W = K-1) would let two programs read
  // the old state while one writes it: such a plan is ignored.
  const bool plan_ok = s.has_plan && sw.exact_chunks && s.plan_chunk >= s.width - 1;
  if (plan_ok) {
    g.mapping = ConvMapping::plan_items;
    g.chunk = s.plan_chunk;
    g.grid_y = s.plan_items;
  } else {
    g.mapping = ConvMapping::sequence_chunks;
    g.chunk = std::max<int64_t>(sequence_chunk(s.tokens, g.grid_x), s.width - 1);
    g.grid_y = s.tokens / g.chunk + s.seqs;  // B_N: the last sequence's programs end there
  }
  if (s.tokens == 0 || s.seqs == 0 || s.channels == 0) g.grid_x = g.grid_y = 0;  // nothing to launch
  return g;
}

inline constexpr int64_t clamp_token(int64_t v, int64_t tokens) { return v < 0 ? 0 : (v > tokens ? tokens : v); }

// The sequence_chunks mapping: program k serves sequence n, the largest with
// B_n = qsl[n] / chunk + n <= k, from local token (k - B_n) * chunk. Since
// B_{n+1} - B_n >= ceil(L_n / chunk), every token has exactly one program; programs past a
// sequence's end find nothing to do. `qsl(i)` reads query_start_loc[i].
template <class Qsl>
VT_GEOMETRY_FN void sequence_chunk_of(int64_t k, const Qsl& qsl, int64_t seqs, int64_t tokens, int64_t chunk,
                                      int64_t* seq, int64_t* first) {
  int64_t lo = 0, hi = seqs - 1;
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) / 2;
    if (clamp_token(qsl(mid), tokens) / chunk + mid <= k) lo = mid;
    else hi = mid - 1;
  }
  *seq = lo;
  *first = (k - (clamp_token(qsl(lo), tokens) / chunk + lo)) * chunk;
}

struct ConvUpdateGeometry {
  int32_t block = kBlockThreads;
  int64_t grid_x = 0, grid_y = 0;  // channel blocks, sequences
};

constexpr ConvUpdateGeometry conv_update_geometry(int64_t batch, int64_t channels) {
  ConvUpdateGeometry g;
  g.grid_x = (channels + g.block - 1) / g.block;
  g.grid_y = batch;
  if (batch == 0 || channels == 0) g.grid_x = g.grid_y = 0;
  return g;
}

// Post-conv and l2norm: one 32-lane group per row, so the canonical reduction is the lane
// butterfly; `rows_per_block` groups per block.
struct RowGeometry {
  int32_t block = 256;
  int32_t rows_per_block = 8;
  int64_t grid = 0;
};

constexpr RowGeometry row_geometry(int64_t rows) {
  RowGeometry g;
  g.grid = (rows + g.rows_per_block - 1) / g.rows_per_block;
  return g;
}

}  // namespace vt::ops::geometry
