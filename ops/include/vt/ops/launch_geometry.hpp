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

// The conv prefill's variants (performance.md, "Variants"); all give identical bits.
enum class ConvFwdVariant {
  reg_window,     // K-1 previous inputs in registers, 16-byte vectors of channels per thread
  tiled,          // the block stages its tokens (and the halo) in shared memory; any shape
  channel_tile1,  // K = 4: one channel per thread, 128 channels per block
  channel_tile2,  // K = 4, 16-bit x: two channels per thread, 256 channels per block
};

constexpr const char* variant_name(ConvFwdVariant v) {
  return v == ConvFwdVariant::reg_window      ? "reg_window"
         : v == ConvFwdVariant::tiled         ? "tiled"
         : v == ConvFwdVariant::channel_tile1 ? "channel_tile1"
                                              : "channel_tile2";
}

struct ConvFwdShape {
  int64_t tokens = 0, channels = 0, seqs = 0;
  int32_t width = 4;  // K
  int32_t x_elem_bytes = 2;
  bool x_f16 = false;             // x is f16 (the staged defaults leave it out: conv_fwd_stages_x)
  bool x_vector_aligned = false;  // x's base and row stride are multiples of 16 bytes
  bool out_vector_aligned = false;
  bool x_pair_aligned = false;  // x's and out's base and row stride are multiples of 4 bytes
  bool out_same_dtype = false;  // out stores can reuse x's vector width
  bool has_plan = false;
  int64_t plan_items = 0;
  int32_t plan_chunk = 8;
  // The shortest and the longest run of tokens a program takes without a plan: powers of
  // two, the shortest at least 4 and at most 8, the longest at least 8, which each backend
  // sets from its own measurements. A width whose state (W = K-1 tokens) is longer than the
  // shortest run raises it to the next power of two; the tiled variant stops at
  // kTiledMaxChunk whatever the longest says.
  int64_t min_sequence_chunk = 8;
  int64_t max_sequence_chunk = 64;
  bool silu = true;          // the activation is SiLU
  bool bulk_copies = false;  // the device copies rows into shared memory with a copy engine (CUDA sm_90)
  // The backend has a kernel for one sequence in short programs (conv_fwd_one_sequence).
  bool one_sequence_kernel = false;
};

// The run-time switches of performance.md. Unset ones keep the defaults, which are the
// variants measured fastest on the H200 (docs/benchmarks.md).
struct ConvSwitches {
  // Each -1 where unset: the default.
  int32_t exact_chunks = -1;  // VT_CONV_EXACT_CHUNKS: 1 a given chunk plan drives the programs, 0 it is ignored
  int32_t reg = -1;           // VT_CONV_REG: 1 the register window, 0 the tiled conv
  int32_t channel_tile = -1;  // VT_CONV_CHANNEL_TILE: 0 off, 1 or 2
  int32_t stage_x = -1;       // VT_CONV_STAGE_X: 1 x staged by bulk copies wherever it can be, 0 never
  int32_t one_sequence = -1;  // VT_CONV_ONE_SEQUENCE: 0 never the one-sequence kernel; 1 where it can serve
  int32_t guided = -1;        // VT_CONV_GUIDED: 1 or 2 guided programs where they apply (conv_fwd_guided), 0 never
};

// The defaults, measured on the H200 (docs/benchmarks.md): at K = 4 the two-channel tile was
// fastest or within noise of it on every prefill shape. For other widths the tiled conv beat
// the register window under the plan mapping and lost to it at 1024 tokens without one: mixed
// evidence, measured at K = 4 only. The decode update's per-width kernel beat the generic
// one, and is kept unless VT_CONV_REG=0 asks for the generic.
// A chunk plan is followed only when asked for (VT_CONV_EXACT_CHUNKS=1): whole-sequence
// mapping was as fast on 256 short sequences and up to 22% faster on long ones, whose
// 64-token programs re-read less halo than the plan's 8-token chunks.
inline constexpr int32_t kDefaultExactChunks = 0;
inline constexpr int32_t kDefaultChannelTile = 2;
inline constexpr int32_t kDefaultConvReg = 0;

// The switches' knob names, spelt once here and once in the host's knob table: read below, and
// listed by each provider that honours them (vt_provider_desc::knobs), whose host table then
// answers those alone.
inline constexpr char kConvExactChunksKnob[] = "VT_CONV_EXACT_CHUNKS";
inline constexpr char kConvRegKnob[] = "VT_CONV_REG";
inline constexpr char kConvChannelTileKnob[] = "VT_CONV_CHANNEL_TILE";
inline constexpr char kConvStageXKnob[] = "VT_CONV_STAGE_X";
inline constexpr char kConvOneSequenceKnob[] = "VT_CONV_ONE_SEQUENCE";
inline constexpr char kConvGuidedKnob[] = "VT_CONV_GUIDED";
inline constexpr char kPostConvTokenTileKnob[] = "VT_GDN_POSTCONV_TOKEN_TILE";

// The switches from the knobs the host parsed: `knob(name, &value)` says whether the knob is
// set and gives its value (a plugin wraps vt_host_api::knob_int). One reading for every backend.
template <class KnobInt>
ConvSwitches conv_switches(const KnobInt& knob) {
  ConvSwitches s;
  int64_t v = 0;
  if (knob(kConvExactChunksKnob, &v)) s.exact_chunks = static_cast<int32_t>(v);
  if (knob(kConvRegKnob, &v)) s.reg = static_cast<int32_t>(v);
  if (knob(kConvChannelTileKnob, &v)) s.channel_tile = static_cast<int32_t>(v);
  if (knob(kConvStageXKnob, &v)) s.stage_x = static_cast<int32_t>(v);
  if (knob(kConvOneSequenceKnob, &v)) s.one_sequence = static_cast<int32_t>(v);
  if (knob(kConvGuidedKnob, &v)) s.guided = static_cast<int32_t>(v);
  return s;
}

// Guided programs' tail (guided_program): level i is programs[i] programs of tokens[i] tokens.
struct GuidedTail {
  int32_t programs[2] = {0, 0};
  int32_t tokens[2] = {0, 0};  // multiples of kStageXTokens, longer first
};

// These are constexpr, not VT_GEOMETRY_FN: a static_assert needs them, and the device
// compilers' relaxed constexpr lets kernels call them (guided_program, the conv kernel).
constexpr int64_t tail_programs(const GuidedTail& t) { return int64_t{t.programs[0]} + t.programs[1]; }
constexpr int64_t tail_tokens(const GuidedTail& t) {
  return int64_t{t.programs[0]} * t.tokens[0] + int64_t{t.programs[1]} * t.tokens[1];
}
// Guided programs (guided_program) run exactly where the tail has programs.
constexpr bool is_guided(const GuidedTail& t) { return tail_programs(t) > 0; }

struct ConvFwdGeometry {
  ConvFwdVariant variant = ConvFwdVariant::reg_window;
  ConvMapping mapping = ConvMapping::sequence_chunks;
  int64_t chunk = 0;          // tokens per program
  int32_t vec = 1;            // channels per thread
  bool vector_store = false;  // out written with vector stores
  int32_t block = kBlockThreads;
  int64_t grid_x = 0, grid_y = 0;  // channel groups, programs along tokens
  int64_t shared_bytes = 0;        // the tiled variant's staging buffer
  bool stage_x = false;            // x through shared memory by bulk copies (conv_fwd_stages_x)
  bool stage_whole = false;        // ... a whole short program at a time (conv_fwd_stages_whole)
  bool one_sequence = false;       // the one-sequence kernel (conv_fwd_one_sequence)
  GuidedTail tail;                 // guided programs' tail (conv_fwd_guided, guided_tail): none when off

  constexpr bool guided() const { return is_guided(tail); }
};

// Tokens per program without a plan: long runs amortise the W-token halo each program
// re-reads, short ones keep enough programs in flight when T is small.
constexpr int64_t sequence_chunk(int64_t tokens, int64_t channel_blocks, int64_t min_chunk, int64_t max_chunk) {
  int64_t chunk = max_chunk;
  while (chunk > min_chunk && (tokens / chunk + 1) * channel_blocks < 1024) chunk /= 2;
  return chunk;
}

// The shortest run for width K: a run after a sequence's first must start at least W tokens
// in, so that only the first program reads the old state, and the run stays a power of two.
constexpr int64_t shortest_sequence_chunk(int64_t min_chunk, int32_t width) {
  int64_t c = min_chunk < 1 ? 1 : min_chunk;  // a shape left at zero still gets a run
  while (c < width - 1) c *= 2;
  return c;
}

// The largest tile of tokens the tiled variant stages: (chunk + K - 1) rows of a block's
// channels in f32 stay under 48 KiB, the shared memory every CUDA device gives a block.
inline constexpr int64_t kTiledMaxChunk = 64;

constexpr ConvFwdVariant conv_fwd_variant(const ConvFwdShape& s, const ConvSwitches& sw) {
  const int32_t tile = sw.channel_tile >= 0 ? sw.channel_tile : kDefaultChannelTile;
  if (s.width == 4 && tile == 2 && s.x_elem_bytes == 2 && s.out_same_dtype && s.x_pair_aligned && s.channels % 2 == 0)
    return ConvFwdVariant::channel_tile2;
  if (s.width == 4 && tile >= 1) return ConvFwdVariant::channel_tile1;  // tile 2 on a shape it cannot serve, too
  const int32_t reg = sw.reg >= 0 ? sw.reg : kDefaultConvReg;
  return reg ? ConvFwdVariant::reg_window : ConvFwdVariant::tiled;
}

// x staged through shared memory by the copy engine, in the two-channel tile's SiLU loop:
// kStageXTokens rows of the block's channels a stage, the stages in flight while the
// arithmetic runs. The default where programs are whole chunks of at least kStageXMinChunk
// tokens, sequences at least kStageXMinSequence on average and the launch has at least
// kStageXMinBlocks blocks. On the H200 (docs/benchmarks.md), as time ratios against the
// register loop: 1.01 to 1.036 at T = 16384 (4128 and 6192 blocks, fourteenth session); 1.087
// at T = 8192 (2080 blocks, twentieth; 0.986 in the fourteenth, before the staged kernel's
// later changes); 1.10 to 1.11 at C = 6144, T = 16384 (3096 blocks, twenty-first); forced
// where the rule keeps it off, 0.82 on 256 short sequences (before the whole programs below)
// and 0.56 at T = 1024 (288 blocks, twentieth). No count under 2048 was timed (T = 4096 at
// C = 8192: 1056 blocks). The kernel stages a program of at least one stage's tokens whose
// block lies inside C; the rest of it, and every other program, goes as before.
// VT_CONV_STAGE_X=1 stages wherever it can, with the longest programs the mapping allows (the
// most stages a program).
// Where sequences average at most kStageWholeRows tokens, the stage is a whole program instead
// (one longer than kStageWholeRows rows in pieces of that many), whatever its length, where
// its block lies inside C: every row's copy is issued at once, as soon as the program knows its
// rows, so a short program waits for memory once rather than once a batch of 8 tokens (and
// its old state's load waits beside them). By default too where the launch has kStageXMinBlocks
// blocks: 1.07 to 1.10 times as fast as the register loop on 256 short sequences on the H200
// (docs/benchmarks.md, twenty-fifth session); smaller launches of short sequences were not
// timed.
// f16 x keeps the register loop by default: its SiLU fails the rounding test some eight times
// as often as bf16's, so the arithmetic, not the loads, bounds it. On the H200, against the
// register loop: the ring 0.93 times as fast at T = 16384 (twenty-seventh session), 0.93 at
// T = 8192 and 0.93 at T = 65536, whole programs 0.96 on 256 short sequences (twenty-ninth).
inline constexpr int64_t kStageXTokens = 16;
inline constexpr int64_t kStageXMinChunk = 128;
inline constexpr int64_t kStageXMinSequence = 1024;
inline constexpr int64_t kStageXMinBlocks = 2048;
inline constexpr int64_t kStageWholeRows = 64;
constexpr bool conv_fwd_can_stage_x(const ConvFwdShape& s, const ConvFwdGeometry& g) {
  return g.variant == ConvFwdVariant::channel_tile2 && g.vector_store && s.silu && s.bulk_copies && s.x_vector_aligned;
}
constexpr bool conv_fwd_stages_x(const ConvFwdShape& s, const ConvSwitches& sw, const ConvFwdGeometry& g) {
  if (!conv_fwd_can_stage_x(s, g) || g.chunk < kStageXTokens) return false;
  if (sw.stage_x >= 0) return sw.stage_x == 1;
  if (s.x_f16) return false;
  const bool long_or_short = s.tokens >= s.seqs * kStageXMinSequence || s.tokens <= s.seqs * kStageWholeRows;
  return g.chunk >= kStageXMinChunk && long_or_short && g.grid_x * g.grid_y >= kStageXMinBlocks;
}
constexpr bool conv_fwd_stages_whole(const ConvFwdShape& s, const ConvFwdGeometry& g) {
  return g.stage_x && s.tokens <= s.seqs * kStageWholeRows;
}

// Guided programs (VT_CONV_GUIDED): one long sequence through the staged ring is cut into
// programs of B tokens and then a tail of shorter programs at its end (GuidedTail), so that
// the last blocks to start (blocks start in grid order) are short, and the SMs drain behind
// them instead of behind a last partial wave of full-length programs: under ncu on an H100
// the 128-token ring's SMs were active 95.8% of its cycles, and 98.0% guided. B is the
// shortest multiple of kStageXTokens with which the long programs leave room for the tail
// and one slot more, so every token has one program (geometry_test's
// GuidedProgramsCoverEveryTokenOnce). A program after the first starts at least B >= 16 tokens
// in, past any W (race-free state). Form 1 makes the cut in the mapping's own grid (grid_y
// programs a channel block) with 24 programs of 64 tokens, which lengthens the long programs
// (144 tokens for 128 at T = 16384 and 65536, 176 for 128 at 8192); form 2, the default, in a
// grid of the tail's programs more a channel block, so that no program is longer than the
// mapping's chunk, with 48 programs of 64 tokens and then 16 of 32.
// On an H100 (no H200 was lent; docs/benchmarks.md, thirty-ninth and fortieth sessions):
// form 2 with a tail of 24 x 64 against off, one binary, three rounds, 1.030 to 1.033 at
// T = 8192, 1.017 to 1.018 at 16384, 1.003 at 65536, 1.010 to 1.011 at C = 12288, 1.012 to
// 1.013 at C = 6144 (two rounds); form 1 gained more at C = 12288 (1.018 to 1.019) but lost
// at 65536 (0.992 to 0.993). Then the tail 48 x 64 + 16 x 32 against 24 x 64, one binary,
// two rounds in opposite orders: 1.036 to 1.038 at T = 8192, 1.019 to 1.020 at 16384, 1.028
// at C = 12288, 1.003 to 1.004 at 65536; the best of six tails at each of these shapes in the
// first round; 1.019 to 1.023 at C = 6144 (forty-first). On the H200 (forty-first) guided
// programs with this tail gained less against off: 1.011 at T = 16384, 1.026 at 8192; and
// swept there (forty-second), tails longer than this one lost 1 to 6.5%, shorter ones came
// within 2% of it either way, and no tail at all lost up to 3.4%: it stays. The shortest of
// them (16 x 32 + 16 x 16) lost up to 2.7% on an H100 (forty-third).
constexpr GuidedTail guided_tail(int32_t form) {
  GuidedTail t;
  t.programs[0] = form == 1 ? 24 : 48;  // form 1: about a wave's programs a column at C = 8192 (132 SMs x 6 / 32)
  t.tokens[0] = 64;
  t.programs[1] = form == 1 ? 0 : 16;
  t.tokens[1] = 32;
  return t;
}
inline constexpr int64_t kGuidedMinTokens = 8192;
static_assert(kGuidedMinTokens > tail_tokens(guided_tail(1)) && kGuidedMinTokens > tail_tokens(guided_tail(2)),
              "a guided sequence has tokens for its long programs");
inline constexpr int32_t kDefaultGuided = 2;
struct TokenRun {
  int64_t first = 0, last = 0;  // [first, last); empty past the sequence's end
};
// Program k of `programs` over a sequence of `tokens` tokens (tokens > tail_tokens(t),
// programs > tail_programs(t) + 1: what conv_fwd_guided and the kernel check).
VT_GEOMETRY_FN TokenRun guided_program(int64_t k, int64_t tokens, int64_t programs, const GuidedTail& t) {
  const int64_t rest = tokens - tail_tokens(t);           // the long programs' tokens
  const int64_t slots = programs - 1 - tail_programs(t);  // ... and their programs, at most
  const int64_t len = (rest + slots * kStageXTokens - 1) / (slots * kStageXTokens) * kStageXTokens;
  const int64_t longs = (rest + len - 1) / len;  // <= slots, since len >= rest / slots
  TokenRun r;
  int64_t size = len;
  if (k < longs) {
    r.first = k * len;
  } else if (k - longs < t.programs[0]) {
    r.first = longs * len + (k - longs) * t.tokens[0];
    size = t.tokens[0];
  } else {  // the second level; past it, at or beyond the end (empty)
    r.first = longs * len + int64_t{t.programs[0]} * t.tokens[0] + (k - longs - t.programs[0]) * t.tokens[1];
    size = t.tokens[1];
  }
  r.last = r.first + size < tokens ? r.first + size : tokens;
  return r;
}
constexpr int32_t guided_form(const ConvSwitches& sw) { return sw.guided >= 0 ? sw.guided : kDefaultGuided; }
// Form 1 cuts its tail out of the mapping's grid, which must hold it and one long program more.
constexpr bool conv_fwd_guided(const ConvFwdShape& s, const ConvSwitches& sw, const ConvFwdGeometry& g) {
  const int32_t form = guided_form(sw);
  const int64_t room = form == 1 ? tail_programs(guided_tail(1)) + 1 : 1;
  return form != 0 && g.stage_x && !g.stage_whole && g.mapping == ConvMapping::sequence_chunks && s.seqs == 1 &&
         s.tokens >= kGuidedMinTokens && g.grid_y > room;
}

// A call of one sequence in programs of at most kOneSequenceMaxChunk tokens (a short prompt)
// goes to a kernel of its own where the backend has one: it needs no query_start_loc (ops.md
// fixes qsl[0] = 0 and qsl[1] = T), so each program issues all its loads at once, and its
// setup is short. The backend may still send a call it cannot serve (its own layout
// conditions) to the general kernel; VT_CONV_ONE_SEQUENCE=0 always does.
inline constexpr int64_t kOneSequenceMaxChunk = 8;
constexpr bool conv_fwd_one_sequence(const ConvFwdShape& s, const ConvSwitches& sw, const ConvFwdGeometry& g) {
  return s.one_sequence_kernel && sw.one_sequence != 0 && s.seqs == 1 && g.variant == ConvFwdVariant::channel_tile2 &&
         g.mapping == ConvMapping::sequence_chunks && g.chunk <= kOneSequenceMaxChunk && !g.stage_x;
}

constexpr ConvFwdGeometry conv_fwd_geometry(const ConvFwdShape& s, const ConvSwitches& sw) {
  ConvFwdGeometry g;
  g.variant = conv_fwd_variant(s, sw);
  if (g.variant == ConvFwdVariant::reg_window) {
    const int32_t full_vec = kMaxVectorBytes / std::max<int32_t>(s.x_elem_bytes, 1);
    g.vec = (s.x_vector_aligned && s.channels % full_vec == 0) ? full_vec : 1;
    g.vector_store = g.vec > 1 && s.out_vector_aligned && s.out_same_dtype;
  } else if (g.variant == ConvFwdVariant::channel_tile2) {
    g.vec = 2;
    g.vector_store = true;
  }
  const int64_t groups = (s.channels + g.vec - 1) / g.vec;
  g.grid_x = (groups + g.block - 1) / g.block;
  // A plan whose chunks are shorter than the state (W = K-1) would let two programs read
  // the old state while one writes it: such a plan is ignored, as is one whose chunks
  // exceed the tiled variant's staging buffer.
  const bool plan_fits = g.variant != ConvFwdVariant::tiled || s.plan_chunk <= kTiledMaxChunk;
  const bool follow_plan = (sw.exact_chunks >= 0 ? sw.exact_chunks : kDefaultExactChunks) != 0;
  const bool plan_ok = s.has_plan && follow_plan && s.plan_chunk >= s.width - 1 && plan_fits;
  if (plan_ok) {
    g.mapping = ConvMapping::plan_items;
    g.chunk = s.plan_chunk;
    g.grid_y = s.plan_items;
  } else {
    g.mapping = ConvMapping::sequence_chunks;
    const int64_t cap =
        g.variant == ConvFwdVariant::tiled ? std::min(s.max_sequence_chunk, kTiledMaxChunk) : s.max_sequence_chunk;
    g.chunk =
        sequence_chunk(s.tokens, g.grid_x, std::min(shortest_sequence_chunk(s.min_sequence_chunk, s.width), cap), cap);
    if (sw.stage_x == 1 && conv_fwd_can_stage_x(s, g)) g.chunk = cap;  // a power of two, as the mapping needs
    g.grid_y = s.tokens / g.chunk + s.seqs;                            // B_N: the last sequence's programs end there
  }
  if (g.variant == ConvFwdVariant::tiled) g.shared_bytes = (g.chunk + s.width - 1) * g.block * 4;
  g.stage_x = conv_fwd_stages_x(s, sw, g);
  g.stage_whole = conv_fwd_stages_whole(s, g);
  g.one_sequence = conv_fwd_one_sequence(s, sw, g);
  if (conv_fwd_guided(s, sw, g)) {
    const int32_t form = guided_form(sw);
    g.tail = guided_tail(form);
    if (form == 2) g.grid_y += tail_programs(g.tail);
  }
  if (s.tokens == 0 || s.seqs == 0 || s.channels == 0) g.grid_x = g.grid_y = 0;  // nothing to launch
  return g;
}

// The conv prefill's grid on CUDA: channel blocks along x, programs along y and, past
// kGridYZMax of them, z as well (the y * z - grid_y extra programs find nothing to do).
// Blocks start in x-first order, so the blocks resident at once cover whole rows of x and out;
// on the H200 that was 4 to 6% faster at 16k tokens than programs along x (docs/benchmarks.md,
// ninth session).
struct LaunchGrid {
  int64_t x = 0, y = 0, z = 0;
};
inline constexpr int64_t kGridYZMax = 65535;
constexpr LaunchGrid conv_fwd_launch_grid(const ConvFwdGeometry& g) {
  LaunchGrid l;
  l.x = g.grid_x;
  l.y = std::min(g.grid_y, kGridYZMax);
  l.z = l.y > 0 ? (g.grid_y + l.y - 1) / l.y : 0;
  return l;
}

// A block of Groups groups of GroupThreads threads, each group over the same GroupThreads
// columns of its own row: thread `thread` of block (bx, by) takes column
// bx * GroupThreads + thread % GroupThreads of row by * Groups + thread / GroupThreads, in the
// kernel's arithmetic Int. The one-sequence conv (columns: channel pairs, rows: programs) and
// the four-channel update (columns: groups of channels, rows: sequences) map their threads so.
template <class Int, int32_t GroupThreads>
VT_GEOMETRY_FN Int grouped_block_column(uint32_t bx, uint32_t thread) {
  return Int{bx} * Int{GroupThreads} + Int{thread % uint32_t{GroupThreads}};
}
template <class Int, int32_t GroupThreads, int32_t Groups>
VT_GEOMETRY_FN Int grouped_block_row(uint32_t by, uint32_t thread) {
  return Int{by} * Int{Groups} + Int{thread / uint32_t{GroupThreads}};
}

// The one-sequence kernel's grid and block (conv_fwd_one_sequence): a block of
// kOneSequenceBlockThreads threads is kOneSequenceTokenGroups programs, consecutive runs of the
// chunk, over the same kOneSequenceGroupThreads channel pairs, a warp each; the general
// kernel's block is one program over kBlockThreads pairs. The warps of a block then share
// their weights, and each run's halo is the run before it, in L1. Program k is group k % G of
// block row k / G, and the grid holds up to G - 1 programs past grid_y, which find no tokens.
// Four groups against one (docs/benchmarks.md, forty-fourth session): on the H200 1.018 to
// 1.023 at T = 128 and 1.036 to 1.038 at T = 256 (two groups: 1.013 to 1.018, 1.029 to
// 1.031); on an H100 1.015 to 1.017 and 1.060.
inline constexpr int32_t kOneSequenceBlockThreads = kBlockThreads;
inline constexpr int32_t kOneSequenceTokenGroups = 4;
inline constexpr int32_t kOneSequenceGroupThreads = kOneSequenceBlockThreads / kOneSequenceTokenGroups;
static_assert(kOneSequenceGroupThreads % 32 == 0 && kBlockThreads % kOneSequenceGroupThreads == 0,
              "whole warps a group, and whole groups in a channel block of the general kernel");
constexpr LaunchGrid conv_fwd_one_sequence_grid(const ConvFwdGeometry& g) {
  LaunchGrid l;
  l.x = g.grid_x * (kBlockThreads / kOneSequenceGroupThreads);
  l.y = (g.grid_y + kOneSequenceTokenGroups - 1) / kOneSequenceTokenGroups;
  l.z = l.x > 0 && l.y > 0 ? 1 : 0;
  return l;
}
// Thread `thread` of block (bx, by): its channel pair and its program, in the kernel's 32-bit
// arithmetic (the launcher checks that the grid's blocks and threads fit it).
VT_GEOMETRY_FN uint32_t one_sequence_pair(uint32_t bx, uint32_t thread) {
  return grouped_block_column<uint32_t, kOneSequenceGroupThreads>(bx, thread);
}
VT_GEOMETRY_FN uint32_t one_sequence_program(uint32_t by, uint32_t thread) {
  return grouped_block_row<uint32_t, kOneSequenceGroupThreads, kOneSequenceTokenGroups>(by, thread);
}

VT_GEOMETRY_FN int64_t clamp_token(int64_t v, int64_t tokens) { return v < 0 ? 0 : (v > tokens ? tokens : v); }

// A chunk length that is a power of two, for sequence_chunk_of: its divisions become shifts
// (on a GPU an integer division is some 20 instructions, and the search divides at every
// probe).
// The sequence_chunks mapping's chunk always is one (sequence_chunk halves a power of two
// down to another).
struct Pow2Chunk {
  int32_t shift;
};
VT_GEOMETRY_FN int64_t operator/(int64_t v, Pow2Chunk c) { return v >> c.shift; }  // v >= 0 here
VT_GEOMETRY_FN int64_t operator*(int64_t v, Pow2Chunk c) { return v * (int64_t{1} << c.shift); }
constexpr int32_t chunk_shift(int64_t chunk) {
  int32_t s = 0;
  while ((int64_t{1} << s) < chunk) ++s;
  return s;
}

// The sequence_chunks mapping: program k serves sequence n, the largest with
// B_n = qsl[n] / chunk + n <= k, from local token (k - B_n) * chunk. Since
// B_{n+1} - B_n >= ceil(L_n / chunk), every token has exactly one program; programs past a
// sequence's end find nothing to do. `qsl(i)` reads query_start_loc[i]; `chunk` is an
// integer or a Pow2Chunk. In two steps, so that a GPU program can load qsl[n] with the
// rest of its sequence's metadata instead of waiting for it alone.
template <class Qsl, class Chunk>
VT_GEOMETRY_FN int64_t sequence_of_program(int64_t k, const Qsl& qsl, int64_t seqs, int64_t tokens, Chunk chunk) {
  int64_t lo = 0, hi = seqs - 1;
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) / 2;
    if (clamp_token(qsl(mid), tokens) / chunk + mid <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
template <class Chunk>
VT_GEOMETRY_FN int64_t first_token_of_program(int64_t k, int64_t seq, int64_t qsl_seq, int64_t tokens, Chunk chunk) {
  return (k - (clamp_token(qsl_seq, tokens) / chunk + seq)) * chunk;
}
template <class Qsl, class Chunk>
VT_GEOMETRY_FN void sequence_chunk_of(int64_t k, const Qsl& qsl, int64_t seqs, int64_t tokens, Chunk chunk,
                                      int64_t* seq, int64_t* first) {
  *seq = sequence_of_program(k, qsl, seqs, tokens, chunk);
  *first = first_token_of_program(k, *seq, qsl(*seq), tokens, chunk);
}

// The decode update's variants: a kernel per width with the state row in registers, and
// one generic kernel for any K (VT_CONV_REG=0). The per-width kernel takes kUpdateVec
// channels a thread, their state and x as whole words, wherever the layout allows it: on the
// H200 at C = 8192 that was 1.26 times as fast at B = 256 and 1.155 at B = 64 (tenth session),
// but 0.90 at B = 1. With two sequences a block (below) it wins at B = 1 and 8 as well, on an
// H100: 1.08 and 1.25 against the one-channel kernel (forty-sixth session; no H200 came, so
// the H200 is unmeasured there; docs/benchmarks.md).
enum class ConvUpdateVariant { per_width, generic };
inline constexpr int32_t kUpdateVec = 4;
// The four-channel kernel's block is kUpdateWordsSequences sequences over the same
// kBlockThreads * kUpdateVec channels, kBlockThreads threads each, so that a block's
// sequences read the same weights and bias. H100, forty-fifth session, against one sequence a
// block as before: 1.086 at B = 64, 1.019 at B = 256, 1.010 at B = 512. Most of it is the
// kernel's new code, not the sharing (in its SASS the first token's load now starts beside
// the slot's, conv_update.cu): one sequence a block in this form gave 1.076, 1.019 and 1.010;
// eight sequences of 32 threads 1.100, 0.990 and 0.976 (docs/benchmarks.md).
inline constexpr int32_t kUpdateWordsSequences = 2;
inline constexpr int32_t kUpdateWordsBlockThreads = kBlockThreads * kUpdateWordsSequences;
// The four-channel kernel loads the state with an L2 prefetch-size hint where its grid holds
// more blocks than the device runs at once (ConvUpdateShape::wave_blocks). On an H100, where
// 528 blocks (4 an SM) are one wave: wherever the grid fit one wave the hint lost, 0.96 to
// 0.97 at B = 1 and 8, 0.982 to 0.997 from 32 to 66 at C = 8192, 0.989 at 44 with C = 12288
// and at 88 with C = 6144 (528 blocks each); just past it, it gained 1.042 to 1.046 (B = 68
// and 72 at C = 8192, 46 at 12288, 90 at 6144), and further on 1.020 at B = 128, 1.016 to
// 1.019 at 256, 1.012 at 512 (fifty-sixth, fifty-seventh and fifty-ninth sessions,
// docs/benchmarks.md).
static_assert(kBlockThreads % 32 == 0, "a sequence's threads are whole warps");

struct ConvUpdateShape {
  int64_t batch = 0, channels = 0;
  // f32 state with dense [C, W] rows (W contiguous) on 16-byte boundaries; x and out of one
  // element type, their rows on boundaries of kUpdateVec elements; weights of x's type or f32
  // with dense rows, and the bias dense, both on boundaries of kUpdateVec elements.
  bool channels_in_words = false;
  // The four-channel kernel's blocks the device runs at once (its SMs times the blocks of that
  // kernel an SM holds), which decides its state hint; 0 where unknown: no hint.
  int64_t wave_blocks = 0;
};

struct ConvUpdateGeometry {
  ConvUpdateVariant variant = ConvUpdateVariant::per_width;
  int32_t vec = 1;        // channels a thread
  int32_t sequences = 1;  // a block's sequences, kBlockThreads threads each
  int32_t block = kBlockThreads;
  int64_t grid_x = 0, grid_y = 0;  // channel blocks, sequence blocks
  bool state_l2_hint = false;      // the four-channel kernel's state loads hinted (above)
};

constexpr ConvUpdateGeometry conv_update_geometry(const ConvUpdateShape& s, const ConvSwitches& sw = {}) {
  ConvUpdateGeometry g;
  g.variant = sw.reg != 0 ? ConvUpdateVariant::per_width : ConvUpdateVariant::generic;
  if (g.variant == ConvUpdateVariant::per_width && s.channels_in_words && s.channels % kUpdateVec == 0)
    g.vec = kUpdateVec;
  if (g.vec == kUpdateVec) {
    g.sequences = kUpdateWordsSequences;
    g.block = kUpdateWordsBlockThreads;
  }
  const int64_t groups = (s.channels + g.vec - 1) / g.vec;
  g.grid_x = (groups + kBlockThreads - 1) / kBlockThreads;
  g.grid_y = (s.batch + g.sequences - 1) / g.sequences;
  if (s.batch == 0 || s.channels == 0) g.grid_x = g.grid_y = 0;
  g.state_l2_hint = g.vec == kUpdateVec && s.wave_blocks > 0 && g.grid_x * g.grid_y > s.wave_blocks;
  return g;
}
// Thread `thread` of the four-channel kernel's block (bx, by): its group of kUpdateVec
// channels and its sequence (either may lie past the call's last; that thread exits).
VT_GEOMETRY_FN int64_t update_words_group(uint32_t bx, uint32_t thread) {
  return grouped_block_column<int64_t, kBlockThreads>(bx, thread);
}
VT_GEOMETRY_FN int64_t update_words_sequence(uint32_t by, uint32_t thread) {
  return grouped_block_row<int64_t, kBlockThreads, kUpdateWordsSequences>(by, thread);
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

// gdn_post_conv's schedules. per_token: one block per token for all of its rows. token_tile
// (VT_GDN_POSTCONV_TOKEN_TILE=1): a block of four warps owns 16 tokens of one row slot (a q or
// k head, a v head, or the gates), each warp four tokens, so a warp has four rows' loads in
// flight before it reduces.
enum class PostConvVariant { per_token, token_tile };

struct PostConvSwitches {
  int32_t token_tile = -1;  // VT_GDN_POSTCONV_TOKEN_TILE: 0 or 1; -1 the default
};

template <class KnobInt>
PostConvSwitches post_conv_switches(const KnobInt& knob) {
  PostConvSwitches s;
  int64_t v = 0;
  if (knob(kPostConvTokenTileKnob, &v)) s.token_tile = static_cast<int32_t>(v);
  return s;
}

inline constexpr int32_t kDefaultPostConvTokenTile = 0;
inline constexpr int32_t kTileTokens = 16;
inline constexpr int32_t kTileWarps = 4;

struct PostConvGeometry {
  PostConvVariant variant = PostConvVariant::per_token;
  int32_t block = 256;
  int64_t grid_x = 0, grid_y = 0;  // tokens or token tiles; row slots (token_tile only)
};

// `slots`: the token_tile row slots, 2*Hk q/k heads + Hv v heads + 1 for the gates (only
// those the call writes).
constexpr PostConvGeometry post_conv_geometry(int64_t tokens, int64_t slots, const PostConvSwitches& sw) {
  PostConvGeometry g;
  const int32_t tile = sw.token_tile >= 0 ? sw.token_tile : kDefaultPostConvTokenTile;
  if (tile == 1) {
    g.variant = PostConvVariant::token_tile;
    g.block = 32 * kTileWarps;
    g.grid_x = (tokens + kTileTokens - 1) / kTileTokens;
    g.grid_y = slots;
  } else {
    g.grid_x = tokens;
    g.grid_y = 1;
  }
  if (tokens == 0 || slots == 0) g.grid_x = g.grid_y = 0;
  return g;
}

}  // namespace vt::ops::geometry
