// Which mapping, vector width and grid each conv shape gets, off the GPU: the launchers call
// the same functions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "vt/ops/launch_geometry.hpp"

namespace geo = vt::ops::geometry;

namespace {

geo::ConvFwdShape bf16_shape(int64_t T, int64_t C, int64_t N) {
  geo::ConvFwdShape s;
  s.tokens = T;
  s.channels = C;
  s.seqs = N;
  s.width = 4;
  s.x_elem_bytes = 2;
  s.x_vector_aligned = s.out_vector_aligned = s.out_same_dtype = true;
  return s;
}

// As a backend with every special kernel sets it (the CUDA backend on sm_90): chunks of
// 4..128 tokens, the copy engine and the one-sequence kernel.
geo::ConvFwdShape all_kernels_shape(int64_t T, int64_t C, int64_t N) {
  geo::ConvFwdShape s = bf16_shape(T, C, N);
  s.x_pair_aligned = true;
  s.min_sequence_chunk = 4;
  s.max_sequence_chunk = 128;
  s.bulk_copies = true;
  s.one_sequence_kernel = true;
  return s;
}

// The register-window conv, forced (VT_CONV_REG=1, VT_CONV_CHANNEL_TILE=0).
geo::ConvSwitches reg_window() {
  geo::ConvSwitches sw;
  sw.exact_chunks = 1;
  sw.reg = 1;
  sw.channel_tile = 0;
  return sw;
}

TEST(ConvFwdGeometry, APlanDrivesTheProgramsWhenAllowed) {
  auto s = bf16_shape(1000, 8192, 3);
  s.has_plan = true;
  s.plan_items = 127;
  s.plan_chunk = 8;
  auto g = geo::conv_fwd_geometry(s, reg_window());
  EXPECT_EQ(g.mapping, geo::ConvMapping::plan_items);
  EXPECT_EQ(g.grid_y, 127);
  EXPECT_EQ(g.chunk, 8);
  EXPECT_EQ(g.vec, 8);
  EXPECT_EQ(g.grid_x, 8192 / 8 / geo::kBlockThreads);

  geo::ConvSwitches off = reg_window();
  off.exact_chunks = 0;  // VT_CONV_EXACT_CHUNKS=0
  EXPECT_EQ(geo::conv_fwd_geometry(s, off).mapping, geo::ConvMapping::sequence_chunks);
  off.exact_chunks = -1;  // unset: the default
  EXPECT_EQ(geo::conv_fwd_geometry(s, off).mapping,
            geo::kDefaultExactChunks ? geo::ConvMapping::plan_items : geo::ConvMapping::sequence_chunks);
  off.exact_chunks = 0;
  g = geo::conv_fwd_geometry(s, off);
  EXPECT_EQ(g.mapping, geo::ConvMapping::sequence_chunks);

  s.width = 8;
  s.plan_chunk = 4;  // shorter than W = 7: two programs would read the old state
  g = geo::conv_fwd_geometry(s, reg_window());
  EXPECT_EQ(g.mapping, geo::ConvMapping::sequence_chunks);
  EXPECT_GE(g.chunk, 7);
}

TEST(ConvFwdGeometry, VectorWidthFollowsAlignmentAndDtype) {
  auto s = bf16_shape(64, 8192, 1);
  EXPECT_EQ(geo::conv_fwd_geometry(s, reg_window()).vec, 8);
  EXPECT_TRUE(geo::conv_fwd_geometry(s, reg_window()).vector_store);
  s.channels = 100;  // not a multiple of 8
  EXPECT_EQ(geo::conv_fwd_geometry(s, reg_window()).vec, 1);
  s.channels = 8192;
  s.x_vector_aligned = false;  // a row view at an odd column
  EXPECT_EQ(geo::conv_fwd_geometry(s, reg_window()).vec, 1);
  s.x_vector_aligned = true;
  s.out_same_dtype = false;  // f32 out from bf16 x: element stores
  EXPECT_EQ(geo::conv_fwd_geometry(s, reg_window()).vec, 8);
  EXPECT_FALSE(geo::conv_fwd_geometry(s, reg_window()).vector_store);
  s.x_elem_bytes = 4;
  EXPECT_EQ(geo::conv_fwd_geometry(s, reg_window()).vec, 4);
}

// Which variant each shape gets under each switch, including every fallback.
TEST(ConvFwdGeometry, VariantSwitchesAndFallbacks) {
  using V = geo::ConvFwdVariant;
  auto s = bf16_shape(1000, 8192, 2);
  s.x_pair_aligned = true;
  geo::ConvSwitches sw;
  EXPECT_EQ(geo::conv_fwd_geometry(s, sw).variant, geo::kDefaultChannelTile == 0   ? V::reg_window
                                                   : geo::kDefaultChannelTile == 1 ? V::channel_tile1
                                                                                   : V::channel_tile2);
  sw.channel_tile = 0;
  EXPECT_EQ(geo::conv_fwd_geometry(s, sw).variant, geo::kDefaultConvReg ? V::reg_window : V::tiled);
  sw.reg = 1;
  auto g = geo::conv_fwd_geometry(s, sw);
  EXPECT_EQ(g.variant, V::reg_window);
  EXPECT_EQ(g.vec, 8);
  EXPECT_EQ(g.shared_bytes, 0);

  sw.channel_tile = 1;  // one channel per thread: 128 channels per block
  g = geo::conv_fwd_geometry(s, sw);
  EXPECT_EQ(g.variant, V::channel_tile1);
  EXPECT_EQ(g.vec, 1);
  EXPECT_EQ(g.grid_x, 8192 / 128);

  sw.channel_tile = 2;  // two per thread: 256 channels per block
  g = geo::conv_fwd_geometry(s, sw);
  EXPECT_EQ(g.variant, V::channel_tile2);
  EXPECT_EQ(g.vec, 2);
  EXPECT_TRUE(g.vector_store);
  EXPECT_EQ(g.grid_x, 8192 / 256);
  s.channels = 1024;
  EXPECT_EQ(geo::conv_fwd_geometry(s, sw).grid_x, 4);
  s.channels = 1000 + 6;  // not a multiple of the tile: the last block is partly idle
  EXPECT_EQ(geo::conv_fwd_geometry(s, sw).grid_x, 4);

  // Shapes tile 2 cannot serve fall back to tile 1 (still width 4).
  auto odd = s;
  odd.channels = 1001;
  EXPECT_EQ(geo::conv_fwd_geometry(odd, sw).variant, V::channel_tile1);
  auto f32 = s;
  f32.x_elem_bytes = 4;
  EXPECT_EQ(geo::conv_fwd_geometry(f32, sw).variant, V::channel_tile1);
  auto unpaired = s;
  unpaired.x_pair_aligned = false;
  EXPECT_EQ(geo::conv_fwd_geometry(unpaired, sw).variant, V::channel_tile1);
  auto widened = s;
  widened.out_same_dtype = false;  // f32 out: element stores
  EXPECT_EQ(geo::conv_fwd_geometry(widened, sw).variant, V::channel_tile1);

  // The channel tiles are width-4 specialisations: other widths keep the register window,
  // or the tiled conv when that is switched off.
  for (int32_t k : {2, 3, 5, 8}) {
    auto w = s;
    w.width = k;
    for (int32_t tile : {1, 2}) {
      sw.channel_tile = tile;
      sw.reg = 1;
      EXPECT_EQ(geo::conv_fwd_geometry(w, sw).variant, V::reg_window) << "K=" << k;
      sw.reg = 0;
      EXPECT_EQ(geo::conv_fwd_geometry(w, sw).variant, V::tiled) << "K=" << k;
    }
  }

  // VT_CONV_REG=0: the tiled conv, one channel per thread, its staging buffer sized by the chunk.
  sw = {};
  sw.exact_chunks = 1;
  sw.reg = 0;
  sw.channel_tile = 0;
  s.channels = 8192;
  g = geo::conv_fwd_geometry(s, sw);
  EXPECT_EQ(g.variant, V::tiled);
  EXPECT_EQ(g.vec, 1);
  EXPECT_EQ(g.shared_bytes, (g.chunk + 3) * g.block * 4);
  EXPECT_LE(g.chunk, geo::kTiledMaxChunk);
  EXPECT_LE(g.shared_bytes, 48 * 1024);
  s.has_plan = true;
  s.plan_items = 130;
  s.plan_chunk = 8;
  g = geo::conv_fwd_geometry(s, sw);
  EXPECT_EQ(g.mapping, geo::ConvMapping::plan_items);
  EXPECT_EQ(g.shared_bytes, (8 + 3) * g.block * 4);
  s.plan_chunk = 128;  // larger than the staging buffer: the plan is ignored
  g = geo::conv_fwd_geometry(s, sw);
  EXPECT_EQ(g.mapping, geo::ConvMapping::sequence_chunks);
  EXPECT_LE(g.shared_bytes, 48 * 1024);
  sw.channel_tile = 1;  // an explicit channel tile wins over VT_CONV_REG=0 at width 4
  EXPECT_EQ(geo::conv_fwd_geometry(s, sw).variant, V::channel_tile1);
}

// Where x goes through shared memory by bulk copies: the two-channel tile's SiLU packets on a
// device with the copy engine and 16-byte rows, by default only for 128-token programs over
// sequences of at least kStageXMinSequence or at most kStageWholeRows tokens on average
// (those a whole program at a time; for f16 x only these) and at least kStageXMinBlocks
// blocks; VT_CONV_STAGE_X forces it on or off.
TEST(ConvFwdGeometry, StagedXOnlyWhereTheDeviceAndTheShapeAllowIt) {
  auto s = all_kernels_shape(16384, 8192, 1);
  geo::ConvSwitches sw;  // the defaults: no plan followed, the two-channel tile
  auto g = geo::conv_fwd_geometry(s, sw);
  ASSERT_EQ(g.variant, geo::ConvFwdVariant::channel_tile2);
  EXPECT_EQ(g.chunk, 128);
  EXPECT_EQ(g.grid_x * g.grid_y, 32 * (128 + 1 + 64)) << "guided programs' larger grid";
  EXPECT_TRUE(g.stage_x);
  EXPECT_FALSE(g.stage_whole);

  auto many = s;  // 256 sequences of 64 tokens on average: as many blocks, short programs
  many.seqs = 256;
  EXPECT_EQ(geo::conv_fwd_geometry(many, sw).chunk, 128);
  EXPECT_TRUE(geo::conv_fwd_geometry(many, sw).stage_x);
  EXPECT_TRUE(geo::conv_fwd_geometry(many, sw).stage_whole);
  many.seqs = 255;  // just over 64 on average: neither short nor long
  EXPECT_FALSE(geo::conv_fwd_geometry(many, sw).stage_x);
  EXPECT_FALSE(geo::conv_fwd_geometry(many, sw).stage_whole);
  many.seqs = 16;  // 1024 on average
  EXPECT_TRUE(geo::conv_fwd_geometry(many, sw).stage_x);
  EXPECT_FALSE(geo::conv_fwd_geometry(many, sw).stage_whole);
  auto small = s;  // 16 sequences of 32 tokens on average: 32 x (4 + 16) blocks, too few
  small.tokens = 512;
  small.seqs = 16;
  EXPECT_FALSE(geo::conv_fwd_geometry(small, sw).stage_x);
  EXPECT_FALSE(geo::conv_fwd_geometry(small, sw).stage_whole);
  sw.stage_x = 1;  // forced: whole programs, as long as the mapping allows
  EXPECT_TRUE(geo::conv_fwd_geometry(small, sw).stage_whole);
  EXPECT_EQ(geo::conv_fwd_geometry(small, sw).chunk, 128);
  sw.stage_x = 0;
  EXPECT_FALSE(geo::conv_fwd_geometry(many, sw).stage_x);
  EXPECT_FALSE(geo::conv_fwd_geometry(small, sw).stage_whole);
  sw.stage_x = -1;
  auto few = s;  // 4096 tokens: 32 x 33 blocks, under the threshold
  few.tokens = 4096;
  EXPECT_FALSE(geo::conv_fwd_geometry(few, sw).stage_x);
  few.channels = 12288;  // 48 x 33
  EXPECT_FALSE(geo::conv_fwd_geometry(few, sw).stage_x);
  few.channels = 16384;  // 64 x 33
  EXPECT_TRUE(geo::conv_fwd_geometry(few, sw).stage_x);
  few.channels = 8192;
  few.tokens = 8192;  // 32 x 65
  EXPECT_TRUE(geo::conv_fwd_geometry(few, sw).stage_x);
  few.tokens = 1024;
  EXPECT_FALSE(geo::conv_fwd_geometry(few, sw).stage_x);
  EXPECT_EQ(geo::conv_fwd_geometry(few, sw).chunk, 32);
  sw.stage_x = 1;  // forced: wherever it can, with the longest programs
  g = geo::conv_fwd_geometry(few, sw);
  EXPECT_TRUE(g.stage_x);
  EXPECT_FALSE(g.stage_whole);  // one sequence of 1024 tokens
  EXPECT_EQ(g.chunk, 128);
  EXPECT_EQ(g.grid_y, 1024 / 128 + 1);
  few.tokens = 128;  // 4-token programs by default, 128 when forced
  EXPECT_TRUE(geo::conv_fwd_geometry(few, sw).stage_x);
  EXPECT_EQ(geo::conv_fwd_geometry(few, sw).chunk, 128);
  sw.stage_x = -1;
  EXPECT_EQ(geo::conv_fwd_geometry(few, sw).chunk, 4);
  EXPECT_FALSE(geo::conv_fwd_geometry(few, sw).stage_x);
  sw.stage_x = 0;
  EXPECT_FALSE(geo::conv_fwd_geometry(s, sw).stage_x);
  sw.stage_x = -1;

  // What the staged loop needs, each missing in turn, forced or not.
  for (int32_t forced : {-1, 1}) {
    sw.stage_x = forced;
    auto no_engine = s;
    no_engine.bulk_copies = false;  // before sm_90, and every other backend
    no_engine.tokens = 1024;
    EXPECT_FALSE(geo::conv_fwd_geometry(no_engine, sw).stage_x);
    no_engine.seqs = 256;  // short sequences
    EXPECT_FALSE(geo::conv_fwd_geometry(no_engine, sw).stage_whole);
    no_engine.seqs = 1;
    EXPECT_EQ(geo::conv_fwd_geometry(no_engine, sw).chunk, 32);  // the mapping as without the switch
    auto unaligned = s;
    unaligned.x_vector_aligned = false;
    EXPECT_FALSE(geo::conv_fwd_geometry(unaligned, sw).stage_x);
    auto linear = s;
    linear.silu = false;
    EXPECT_FALSE(geo::conv_fwd_geometry(linear, sw).stage_x);
    auto f32 = s;  // one channel a thread
    f32.x_elem_bytes = 4;
    EXPECT_FALSE(geo::conv_fwd_geometry(f32, sw).stage_x);
    auto k3 = s;  // the register window
    k3.width = 3;
    EXPECT_FALSE(geo::conv_fwd_geometry(k3, sw).stage_x);
    auto tile1 = sw;
    tile1.channel_tile = 1;
    EXPECT_FALSE(geo::conv_fwd_geometry(s, tile1).stage_x);
  }
  sw.stage_x = -1;
  // A plan's 8-token chunks hold no stage, forced or not; its 128-token ones do.
  s.has_plan = true;
  s.plan_items = 16384 / 8;
  s.plan_chunk = 8;
  sw.exact_chunks = 1;
  EXPECT_FALSE(geo::conv_fwd_geometry(s, sw).stage_x);
  sw.stage_x = 1;
  EXPECT_FALSE(geo::conv_fwd_geometry(s, sw).stage_x);
  EXPECT_EQ(geo::conv_fwd_geometry(s, sw).chunk, 8);
  sw.stage_x = -1;
  s.plan_items = 16384 / 128;
  s.plan_chunk = 128;
  EXPECT_EQ(geo::conv_fwd_geometry(s, sw).mapping, geo::ConvMapping::plan_items);
  EXPECT_TRUE(geo::conv_fwd_geometry(s, sw).stage_x);

  // f16 x: the register loop by default, on long sequences and on short ones, where the same
  // shapes in bf16 stage (checked first, so that the f16 checks cannot pass for another reason).
  auto f16 = all_kernels_shape(16384, 8192, 1);
  geo::ConvSwitches defaults;
  EXPECT_TRUE(geo::conv_fwd_geometry(f16, defaults).stage_x);
  f16.seqs = 256;
  EXPECT_TRUE(geo::conv_fwd_geometry(f16, defaults).stage_whole);
  f16.x_f16 = true;
  EXPECT_FALSE(geo::conv_fwd_geometry(f16, defaults).stage_x);
  EXPECT_FALSE(geo::conv_fwd_geometry(f16, defaults).stage_whole);
  f16.seqs = 1;
  EXPECT_EQ(geo::conv_fwd_geometry(f16, defaults).variant, geo::ConvFwdVariant::channel_tile2);
  EXPECT_FALSE(geo::conv_fwd_geometry(f16, defaults).stage_x);
  f16.seqs = 16;  // 1024 on average
  EXPECT_FALSE(geo::conv_fwd_geometry(f16, defaults).stage_x);
  defaults.stage_x = 1;  // the switch still forces it, on long sequences and on short ones
  f16.seqs = 1;
  EXPECT_TRUE(geo::conv_fwd_geometry(f16, defaults).stage_x);
  f16.seqs = 256;
  EXPECT_TRUE(geo::conv_fwd_geometry(f16, defaults).stage_whole);
}

// The one-sequence kernel: a call of one sequence whose two-channel programs are at most
// kOneSequenceMaxChunk tokens, on a backend that has the kernel, unless VT_CONV_ONE_SEQUENCE=0.
TEST(ConvFwdGeometry, OneSequenceKernelForShortPromptsOnly) {
  auto s = all_kernels_shape(128, 8192, 1);
  geo::ConvSwitches sw;
  auto g = geo::conv_fwd_geometry(s, sw);
  ASSERT_EQ(g.variant, geo::ConvFwdVariant::channel_tile2);
  EXPECT_EQ(g.chunk, 4);
  EXPECT_TRUE(g.one_sequence);
  EXPECT_EQ(g.grid_x * g.grid_y, 32 * (128 / 4 + 1));            // the general kernel's programs, ...
  const geo::LaunchGrid l = geo::conv_fwd_one_sequence_grid(g);  // ... four a block, a quarter of the channels
  EXPECT_EQ(l.x, 32 * geo::kBlockThreads / geo::kOneSequenceGroupThreads);
  EXPECT_EQ(l.y, (128 / 4 + 1 + geo::kOneSequenceTokenGroups - 1) / geo::kOneSequenceTokenGroups);
  EXPECT_EQ(l.z, 1);
  s.tokens = 256;
  EXPECT_EQ(geo::conv_fwd_geometry(s, sw).chunk, 8);
  EXPECT_TRUE(geo::conv_fwd_geometry(s, sw).one_sequence);
  s.tokens = 1024;  // 32-token programs
  EXPECT_FALSE(geo::conv_fwd_geometry(s, sw).one_sequence);
  s.tokens = 1700;  // the parity case fwd_one_seq_chunk8: 5 channel blocks, 8-token programs
  s.channels = 1032;
  EXPECT_EQ(geo::conv_fwd_geometry(s, sw).chunk, 8);
  EXPECT_TRUE(geo::conv_fwd_geometry(s, sw).one_sequence);
  s.channels = 8192;
  s.tokens = 128;

  auto two = s;  // two sequences: query_start_loc is needed
  two.seqs = 2;
  EXPECT_FALSE(geo::conv_fwd_geometry(two, sw).one_sequence);
  auto other = s;  // a backend without the kernel
  other.one_sequence_kernel = false;
  EXPECT_FALSE(geo::conv_fwd_geometry(other, sw).one_sequence);
  auto odd = s;  // one channel a thread
  odd.channels = 8191;
  EXPECT_EQ(geo::conv_fwd_geometry(odd, sw).variant, geo::ConvFwdVariant::channel_tile1);
  EXPECT_FALSE(geo::conv_fwd_geometry(odd, sw).one_sequence);
  auto k3 = s;  // not width 4
  k3.width = 3;
  EXPECT_FALSE(geo::conv_fwd_geometry(k3, sw).one_sequence);
  auto f32 = s;
  f32.x_elem_bytes = 4;
  EXPECT_FALSE(geo::conv_fwd_geometry(f32, sw).one_sequence);

  auto planned = s;  // a plan followed: its items drive the programs
  planned.has_plan = true;
  planned.plan_items = 16;
  planned.plan_chunk = 8;
  geo::ConvSwitches follow;
  follow.exact_chunks = 1;
  EXPECT_EQ(geo::conv_fwd_geometry(planned, follow).mapping, geo::ConvMapping::plan_items);
  EXPECT_FALSE(geo::conv_fwd_geometry(planned, follow).one_sequence);
  EXPECT_TRUE(geo::conv_fwd_geometry(planned, sw).one_sequence);  // ignored by default

  geo::ConvSwitches staged;  // staging forced: 128-token programs
  staged.stage_x = 1;
  EXPECT_FALSE(geo::conv_fwd_geometry(s, staged).one_sequence);
  geo::ConvSwitches off;
  off.one_sequence = 0;
  EXPECT_FALSE(geo::conv_fwd_geometry(s, off).one_sequence);
  EXPECT_EQ(geo::conv_fwd_geometry(s, off).chunk, 4);  // the same programs, by the general kernel
  off.one_sequence = 1;                                // the default
  EXPECT_TRUE(geo::conv_fwd_geometry(s, off).one_sequence);
}

// The one-sequence kernel's grid (conv_fwd_one_sequence_grid) and its threads' mapping
// (one_sequence_pair, one_sequence_program, as the kernel calls them): every channel pair of
// every program exactly once, and each thread past them either past C or on a program that
// starts past the sequence's end (the kernel tests both before any load).
TEST(ConvFwdGeometry, OneSequenceGridHoldsEveryPairOfEveryProgramOnce) {
  int shapes = 0;
  for (const int64_t T : {1, 2, 3, 4, 5, 7, 8, 9, 64, 100, 127, 128, 129, 255, 256, 300})
    for (const int64_t C : {2, 64, 66, 200, 256, 1032, 8192}) {
      const auto g = geo::conv_fwd_geometry(all_kernels_shape(T, C, 1), {});
      if (!g.one_sequence) continue;
      ++shapes;
      const geo::LaunchGrid l = geo::conv_fwd_one_sequence_grid(g);
      ASSERT_EQ(l.z, 1);
      const int64_t pairs = C / 2;
      std::vector<int> seen(static_cast<size_t>(pairs * g.grid_y), 0);
      for (int64_t bx = 0; bx < l.x; ++bx)
        for (int64_t by = 0; by < l.y; ++by)
          for (uint32_t t = 0; t < uint32_t{geo::kOneSequenceBlockThreads}; ++t) {
            const int64_t pair = geo::one_sequence_pair(static_cast<uint32_t>(bx), t);
            const int64_t program = geo::one_sequence_program(static_cast<uint32_t>(by), t);
            if (pair >= pairs) continue;
            if (program >= g.grid_y) {
              EXPECT_GE(program * g.chunk, T) << "T=" << T << " C=" << C << ": a program past the grid has tokens";
              continue;
            }
            ++seen[static_cast<size_t>(program * pairs + pair)];
          }
      EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }))
          << "T=" << T << " C=" << C << ": a (program, channel pair) run other than once";
      EXPECT_LT((l.y - 1) * geo::kOneSequenceTokenGroups, g.grid_y) << "no block row wholly idle";
    }
  EXPECT_GT(shapes, 20) << "the shapes above mostly take the one-sequence kernel";
}

// Each switch is read from its own knob; an unset one keeps the default (-1).
TEST(ConvSwitches, ReadFromTheirKnobs) {
  auto only = [](const char* set, int64_t value) {
    return geo::conv_switches([=](const char* name, int64_t* v) {
      if (std::string_view(name) != set) return false;
      *v = value;
      return true;
    });
  };
  EXPECT_EQ(only("VT_CONV_ONE_SEQUENCE", 0).one_sequence, 0);
  EXPECT_EQ(only("VT_CONV_ONE_SEQUENCE", 0).stage_x, -1);
  EXPECT_EQ(only("VT_CONV_STAGE_X", 1).stage_x, 1);
  EXPECT_EQ(only("VT_CONV_STAGE_X", 1).one_sequence, -1);
  EXPECT_EQ(only("VT_CONV_CHANNEL_TILE", 2).channel_tile, 2);
  EXPECT_EQ(only("VT_CONV_REG", 0).reg, 0);
  EXPECT_EQ(only("VT_CONV_EXACT_CHUNKS", 1).exact_chunks, 1);
  EXPECT_EQ(only("VT_CONV_GUIDED", 1).guided, 1);
  EXPECT_EQ(only("VT_CONV_GUIDED", 1).stage_x, -1);
}

TEST(ConvFwdGeometry, GuidedProgramsOnlyForOneLongSequenceInTheRing) {
  geo::ConvSwitches on;
  on.guided = 1;
  const auto long_one = all_kernels_shape(16384, 8192, 1);  // staged by default; the mapping: 32 x 129
  auto g = geo::conv_fwd_geometry(long_one, on);
  ASSERT_TRUE(g.stage_x);
  EXPECT_TRUE(g.guided());
  EXPECT_EQ(g.grid_y, 16384 / 128 + 1) << "the grid is the mapping's own";
  const auto by_default = geo::conv_fwd_geometry(long_one, geo::ConvSwitches{});
  EXPECT_TRUE(by_default.guided()) << "on by default, in the larger grid";
  EXPECT_EQ(by_default.grid_y, 16384 / 128 + 1 + 64) << "48 programs of 64 tokens, 16 of 32";
  EXPECT_EQ(by_default.tail.programs[0], 48);
  EXPECT_EQ(by_default.tail.tokens[1], 32);
  geo::ConvSwitches off = on;
  off.guided = 0;
  EXPECT_FALSE(geo::conv_fwd_geometry(long_one, off).guided());
  EXPECT_TRUE(geo::conv_fwd_geometry(all_kernels_shape(geo::kGuidedMinTokens, 8192, 1), on).guided());
  EXPECT_FALSE(geo::conv_fwd_geometry(all_kernels_shape(geo::kGuidedMinTokens - 16, 8192, 1), on).guided());
  EXPECT_FALSE(geo::conv_fwd_geometry(all_kernels_shape(16384, 8192, 2), on).guided()) << "two sequences";
  auto no_engine = long_one;  // before sm_90, and every other backend: no staged ring
  no_engine.bulk_copies = false;
  EXPECT_FALSE(geo::conv_fwd_geometry(no_engine, on).guided());
  auto f16 = long_one;  // not staged by default, so not guided unless staging is forced
  f16.x_f16 = true;
  EXPECT_FALSE(geo::conv_fwd_geometry(f16, on).guided());
  geo::ConvSwitches staged = on;
  staged.stage_x = 1;
  EXPECT_TRUE(geo::conv_fwd_geometry(f16, staged).guided());
  // A small one: staged only when forced, then guided too (the parity case fwd_guided).
  const auto small = all_kernels_shape(9000, 520, 1);
  EXPECT_FALSE(geo::conv_fwd_geometry(small, on).guided());
  g = geo::conv_fwd_geometry(small, staged);
  EXPECT_TRUE(g.guided());
  EXPECT_EQ(g.grid_y, 71);
  const geo::GuidedTail one = g.tail;  // form 1: 24 programs of 64 tokens
  EXPECT_EQ(geo::tail_programs(one), 24);
  EXPECT_EQ(geo::tail_tokens(one), 24 * 64);
  EXPECT_EQ(geo::guided_program(0, 9000, g.grid_y, one).last, 176);
  EXPECT_EQ(geo::guided_program(43, 9000, g.grid_y, one).first, 43 * 176);
  EXPECT_EQ(geo::guided_program(43, 9000, g.grid_y, one).last, 43 * 176 + 64);
  EXPECT_EQ(geo::guided_program(65, 9000, g.grid_y, one).first, 8976);
  EXPECT_EQ(geo::guided_program(65, 9000, g.grid_y, one).last, 9000);
  EXPECT_GE(geo::guided_program(66, 9000, g.grid_y, one).first, 9000) << "empty";
  // The larger grid (VT_CONV_GUIDED=2): 64 more programs (48 of 64 tokens, then 16 of 32),
  // none longer than the chunk.
  geo::ConvSwitches larger = staged;
  larger.guided = 2;
  g = geo::conv_fwd_geometry(small, larger);
  EXPECT_TRUE(g.guided());
  EXPECT_EQ(g.grid_y, 71 + 64);
  const geo::GuidedTail two = g.tail;
  EXPECT_EQ(geo::tail_tokens(two), 48 * 64 + 16 * 32);
  EXPECT_EQ(geo::guided_program(0, 9000, g.grid_y, two).last, 80);
  EXPECT_EQ(geo::guided_program(67, 9000, g.grid_y, two).first, 67 * 80);
  EXPECT_EQ(geo::guided_program(68, 9000, g.grid_y, two).first, 68 * 80) << "the first of 64 tokens";
  EXPECT_EQ(geo::guided_program(68, 9000, g.grid_y, two).last, 68 * 80 + 64);
  EXPECT_EQ(geo::guided_program(116, 9000, g.grid_y, two).first, 68 * 80 + 48 * 64) << "the first of 32";
  EXPECT_EQ(geo::guided_program(116, 9000, g.grid_y, two).last, 68 * 80 + 48 * 64 + 32);
  EXPECT_EQ(geo::guided_program(131, 9000, g.grid_y, two).first, 8992);
  EXPECT_EQ(geo::guided_program(131, 9000, g.grid_y, two).last, 9000) << "cut at the end";
  EXPECT_GE(geo::guided_program(132, 9000, g.grid_y, two).first, 9000) << "empty";
  for (const int64_t T : {int64_t{8192}, int64_t{16384}, int64_t{65536}, int64_t{100001}}) {
    const auto lg = geo::conv_fwd_geometry(all_kernels_shape(T, 8192, 1), larger);
    ASSERT_TRUE(lg.guided()) << T;
    EXPECT_EQ(lg.grid_y, T / lg.chunk + 1 + 64) << T;
    EXPECT_LE(geo::guided_program(0, T, lg.grid_y, lg.tail).last, lg.chunk) << T;
  }
  EXPECT_EQ(geo::guided_program(0, 16384, 16384 / 128 + 1 + 64, two).last, 112);
  EXPECT_EQ(geo::guided_program(0, 8192, 8192 / 128 + 1 + 64, two).last, 80);
  EXPECT_FALSE(geo::conv_fwd_geometry(all_kernels_shape(16384, 8192, 2), larger).guided());
  EXPECT_EQ(geo::conv_fwd_geometry(all_kernels_shape(16384, 8192, 2), larger).grid_y, 16384 / 128 + 2) << "untouched";
  // A plan that is followed keeps its items.
  auto planned = long_one;
  planned.has_plan = true;
  planned.plan_chunk = 64;
  planned.plan_items = 300;
  geo::ConvSwitches plan = on;
  plan.exact_chunks = 1;
  EXPECT_FALSE(geo::conv_fwd_geometry(planned, plan).guided());
}

// Every token of the sequence in exactly one program, in order, each starting on a stage; none
// after the first reads the old state; lengths never grow, and the tail's programs are as
// long as its levels say or shorter, the last of them as short as its last level.
TEST(ConvFwdGeometry, GuidedProgramsCoverEveryTokenOnce) {
  std::mt19937 rng(4242);
  for (int trial = 0; trial < 400; ++trial) {
    const int64_t chunk = trial % 2 ? 128 : 64;
    const int64_t T = geo::kGuidedMinTokens + static_cast<int64_t>(rng() % (trial % 10 == 0 ? 400000 : 60000));
    // Form 1 in the mapping's grid or more, or form 2 in its larger grid.
    const bool larger = trial % 4 == 3;
    const geo::GuidedTail tail = geo::guided_tail(larger ? 2 : 1);
    const int64_t shortest = tail.programs[1] > 0 ? tail.tokens[1] : tail.tokens[0];
    const int64_t programs = T / chunk + 1 + (larger ? geo::tail_programs(tail) : static_cast<int64_t>(trial % 3));
    SCOPED_TRACE("T " + std::to_string(T) + " programs " + std::to_string(programs));
    int64_t next = 0, longest = 0, prev_len = INT64_MAX, short_tokens = 0;
    for (int64_t k = 0; k < programs; ++k) {
      const geo::TokenRun r = geo::guided_program(k, T, programs, tail);
      if (r.first >= r.last) {
        ASSERT_GE(r.first, T) << "program " << k << " is empty inside the sequence";
        continue;
      }
      const int64_t len = r.last - r.first;
      ASSERT_EQ(r.first, next) << "program " << k;
      ASSERT_EQ(r.first % geo::kStageXTokens, 0);
      ASSERT_TRUE(k == 0 || r.first >= geo::kStageXTokens) << "program " << k << " would read the old state";
      ASSERT_LE(len, prev_len) << "program " << k << " is longer than the one before";
      if (larger) {
        ASSERT_LE(len, chunk) << "the larger grid lengthens no program";
      }
      longest = std::max(longest, len);
      if (len <= tail.tokens[0]) short_tokens += len;
      prev_len = len;
      next = r.last;
    }
    ASSERT_EQ(next, T) << "tokens left without a program";
    ASSERT_LE(prev_len, shortest);
    ASSERT_GT(short_tokens, geo::tail_tokens(tail) - longest);
  }
}

TEST(ConvUpdateGeometry, PerWidthUnlessTheRegisterWindowIsOff) {
  geo::ConvSwitches sw;
  const geo::ConvUpdateShape decode{256, 8192, false};
  auto g = geo::conv_update_geometry(decode, sw);
  EXPECT_EQ(g.variant, geo::ConvUpdateVariant::per_width);
  EXPECT_EQ(g.vec, 1);
  sw.reg = 1;
  EXPECT_EQ(geo::conv_update_geometry(decode, sw).variant, geo::ConvUpdateVariant::per_width);
  EXPECT_EQ(g.grid_x, 8192 / geo::kBlockThreads);
  EXPECT_EQ(g.grid_y, 256);
  sw.reg = 0;
  EXPECT_EQ(geo::conv_update_geometry(decode, sw).variant, geo::ConvUpdateVariant::generic);
  EXPECT_EQ(geo::conv_update_geometry({3, 1000, false}, sw).grid_x, 8);  // 1000 = 7 * 128 + 104
}

TEST(ConvUpdateGeometry, StateHintWhereTheGridIsMoreThanOneWave) {
  geo::ConvSwitches sw;
  // An H100's wave at K = 4: 132 SMs, 4 blocks each. At C = 8192 (16 channel blocks) 66
  // sequences are 33 rows of 528 blocks; 67 are 34 rows. Measured there: a loss to B = 66,
  // a gain from 68 (launch_geometry.hpp).
  constexpr int64_t wave = 132 * 4;
  auto hinted_on = [&](int64_t b, int64_t c, int64_t w, bool words = true) {
    return geo::conv_update_geometry({b, c, words, w}, sw).state_l2_hint;
  };
  auto hinted = [&](int64_t b, int64_t c) { return hinted_on(b, c, wave); };
  for (int64_t b : {1, 8, 64, 65, 66}) EXPECT_FALSE(hinted(b, 8192)) << b;
  for (int64_t b : {67, 68, 128, 256, 512, 4096}) EXPECT_TRUE(hinted(b, 8192)) << b;
  // The edge moves with the channel blocks: C = 12288 (24) and C = 6144 (12), as measured.
  EXPECT_FALSE(hinted(44, 12288));
  EXPECT_TRUE(hinted(46, 12288));
  EXPECT_FALSE(hinted(88, 6144));
  EXPECT_TRUE(hinted(90, 6144));
  // And with the wave: a device that holds twice the blocks, and one whose wave is unknown.
  EXPECT_FALSE(hinted_on(128, 8192, 2 * wave));
  EXPECT_TRUE(hinted_on(134, 8192, 2 * wave));
  EXPECT_FALSE(hinted_on(4096, 8192, 0));
  // The four-channel kernel's alone: not where it does not run.
  EXPECT_FALSE(hinted(4096, 1002));
  EXPECT_FALSE(hinted_on(4096, 8192, wave, false));
  EXPECT_FALSE(hinted(0, 8192));
  sw.reg = 0;
  EXPECT_FALSE(hinted(4096, 8192));
}

TEST(ConvUpdateGeometry, FourChannelsAThreadWhereTheLayoutAllows) {
  geo::ConvSwitches sw;
  auto g = geo::conv_update_geometry({256, 8192, true}, sw);
  EXPECT_EQ(g.variant, geo::ConvUpdateVariant::per_width);
  EXPECT_EQ(g.vec, geo::kUpdateVec);
  EXPECT_EQ(g.grid_x, 8192 / geo::kUpdateVec / geo::kBlockThreads);
  // kUpdateWordsSequences sequences a block, kBlockThreads threads each; an odd batch's last
  // block holds one sequence and threads past it.
  EXPECT_EQ(g.sequences, geo::kUpdateWordsSequences);
  EXPECT_EQ(g.block, geo::kBlockThreads * geo::kUpdateWordsSequences);
  EXPECT_EQ(g.grid_y, 256 / geo::kUpdateWordsSequences);
  EXPECT_EQ(geo::conv_update_geometry({33, 8192, true}, sw).grid_y,
            (33 + geo::kUpdateWordsSequences - 1) / geo::kUpdateWordsSequences);
  // Every batch, one sequence included: its block's second sequence lies past the call.
  g = geo::conv_update_geometry({1, 8192, true}, sw);
  EXPECT_EQ(g.vec, geo::kUpdateVec);
  EXPECT_EQ(g.grid_x, 8192 / geo::kUpdateVec / geo::kBlockThreads);
  EXPECT_EQ(g.grid_y, 1);
  EXPECT_EQ(geo::conv_update_geometry({300, 1000, true}, sw).grid_x, 2);  // 250 groups of 4
  // Channels not in whole groups of four, or a layout without words: one channel a thread.
  g = geo::conv_update_geometry({300, 1002, true}, sw);
  EXPECT_EQ(g.vec, 1);
  EXPECT_EQ(g.grid_x, 8);
  EXPECT_EQ(g.sequences, 1);  // one sequence a block, a thread a channel
  EXPECT_EQ(g.block, geo::kBlockThreads);
  EXPECT_EQ(g.grid_y, 300);
  EXPECT_EQ(geo::conv_update_geometry({300, 1000, false}, sw).vec, 1);
  // VT_CONV_REG=0: the generic kernel, one channel a thread, whatever the layout.
  sw.reg = 0;
  g = geo::conv_update_geometry({300, 1000, true}, sw);
  EXPECT_EQ(g.variant, geo::ConvUpdateVariant::generic);
  EXPECT_EQ(g.vec, 1);
  EXPECT_EQ(g.grid_x, 8);
}

// The four-channel kernel's threads, through the functions it calls, take every (sequence,
// group of four channels) of the call once, in whole warps of one sequence, and the rest of
// the grid's threads lie past the call.
TEST(ConvUpdateGeometry, FourChannelGridHoldsEverySequencesGroupsOnce) {
  for (const geo::ConvUpdateShape s : {geo::ConvUpdateShape{1, 8192, true}, geo::ConvUpdateShape{32, 8192, true},
                                       geo::ConvUpdateShape{33, 8192, true}, geo::ConvUpdateShape{301, 1000, true}}) {
    const auto g = geo::conv_update_geometry(s);
    ASSERT_EQ(g.vec, geo::kUpdateVec);
    const int64_t groups = s.channels / geo::kUpdateVec;
    std::vector<int> seen(static_cast<size_t>(s.batch * groups), 0);
    for (uint32_t by = 0; by < g.grid_y; ++by)
      for (uint32_t bx = 0; bx < g.grid_x; ++bx)
        for (uint32_t t = 0; t < static_cast<uint32_t>(g.block); ++t) {
          const int64_t group = geo::update_words_group(bx, t), seq = geo::update_words_sequence(by, t);
          ASSERT_EQ(seq, geo::update_words_sequence(by, t - t % 32)) << "a warp spans two sequences";
          if (group >= groups || seq >= s.batch) continue;
          ++seen[static_cast<size_t>(seq * groups + group)];
        }
    for (size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 1) << "B = " << s.batch << ", item " << i;
  }
}

TEST(PostConvGeometry, PerTokenOrSixteenTokenTiles) {
  geo::PostConvSwitches sw;
  const int64_t slots = 2 * 16 + 32 + 1;  // q and k heads, v heads, the gates
  auto g = geo::post_conv_geometry(1000, slots, sw);
  EXPECT_EQ(g.variant,
            geo::kDefaultPostConvTokenTile ? geo::PostConvVariant::token_tile : geo::PostConvVariant::per_token);
  sw.token_tile = 0;
  g = geo::post_conv_geometry(1000, slots, sw);
  EXPECT_EQ(g.variant, geo::PostConvVariant::per_token);
  EXPECT_EQ(g.grid_x, 1000);
  EXPECT_EQ(g.grid_y, 1);
  sw.token_tile = 1;
  g = geo::post_conv_geometry(1000, slots, sw);
  EXPECT_EQ(g.variant, geo::PostConvVariant::token_tile);
  EXPECT_EQ(g.block, 32 * geo::kTileWarps);
  EXPECT_EQ(g.grid_x, (1000 + 15) / 16);
  EXPECT_EQ(g.grid_y, slots);
  EXPECT_EQ(geo::kTileTokens % geo::kTileWarps, 0);
  EXPECT_EQ(geo::post_conv_geometry(0, slots, sw).grid_x, 0);
  EXPECT_EQ(geo::post_conv_geometry(5, 0, sw).grid_x, 0);
}

TEST(ConvFwdGeometry, EmptyCallsLaunchNothing) {
  EXPECT_EQ(geo::conv_fwd_geometry(bf16_shape(0, 8192, 2), {}).grid_y, 0);
  EXPECT_EQ(geo::conv_fwd_geometry(bf16_shape(10, 8192, 0), {}).grid_x, 0);
  EXPECT_EQ(geo::conv_update_geometry({0, 8192, true}).grid_y, 0);
}

TEST(ConvFwdGeometry, SequenceChunkStopsAtTheBackendsLongest) {
  auto s = bf16_shape(16384, 8192, 1);
  s.x_pair_aligned = true;  // the default two-channel tile: 32 channel blocks
  const auto g64 = geo::conv_fwd_geometry(s, {});
  EXPECT_EQ(g64.chunk, 64);
  s.max_sequence_chunk = 128;  // CUDA's
  const auto g128 = geo::conv_fwd_geometry(s, {});
  EXPECT_EQ(g128.chunk, 128);
  EXPECT_EQ(g128.grid_y, 16384 / 128 + 1);
  geo::ConvSwitches tiled;
  tiled.channel_tile = 0;
  tiled.reg = 0;
  EXPECT_EQ(geo::conv_fwd_geometry(s, tiled).chunk, geo::kTiledMaxChunk) << "the staging buffer's limit";
  // Short prompts still get short programs, to fill the GPU.
  auto s1k = bf16_shape(1024, 8192, 1);
  s1k.x_pair_aligned = true;
  EXPECT_EQ(geo::conv_fwd_geometry(s1k, {}).chunk, 32);
  s1k.max_sequence_chunk = 128;
  EXPECT_EQ(geo::conv_fwd_geometry(s1k, {}).chunk, 32);
}

TEST(ConvFwdGeometry, SequenceChunkStopsAtTheBackendsShortest) {
  auto s = bf16_shape(128, 8192, 1);
  s.x_pair_aligned = true;  // the two-channel tile: 32 channel blocks, 17 programs at 8 tokens
  EXPECT_EQ(geo::conv_fwd_geometry(s, {}).chunk, 8) << "the default shortest";
  s.min_sequence_chunk = 4;  // CUDA's
  auto g = geo::conv_fwd_geometry(s, {});
  EXPECT_EQ(g.chunk, 4);
  EXPECT_EQ(g.grid_y, 128 / 4 + 1);
  // A state longer than the shortest run raises it to the next power of two: W = 4 keeps 4,
  // W = 5 to 7 take 8. (256 channels: one or two channel blocks, so every variant would go
  // shorter still.)
  s.channels = 256;
  for (int32_t k = 2; k <= 8; ++k) {
    s.width = k;
    g = geo::conv_fwd_geometry(s, {});
    EXPECT_EQ(g.chunk, k <= 5 ? 4 : 8) << "K = " << k;
    EXPECT_EQ(geo::shortest_sequence_chunk(4, k), k <= 5 ? 4 : 8);
    EXPECT_EQ(geo::shortest_sequence_chunk(8, k), 8);
    EXPECT_EQ(geo::shortest_sequence_chunk(0, k), k == 2 ? 1 : k == 3 ? 2 : k <= 5 ? 4 : 8) << "a shape left at zero";
  }
  // Longer prompts keep their longer runs.
  s.width = 4;
  s.channels = 8192;
  s.tokens = 1024;
  EXPECT_EQ(geo::conv_fwd_geometry(s, {}).chunk, 32);
}

TEST(ConvFwdGeometry, LaunchGridHoldsEveryProgram) {
  for (const int64_t programs : {int64_t{0}, int64_t{1}, int64_t{257}, geo::kGridYZMax, geo::kGridYZMax + 1,
                                 int64_t{3} * geo::kGridYZMax + 7, int64_t{1} << 31}) {
    geo::ConvFwdGeometry g;
    g.grid_x = 32;
    g.grid_y = programs;
    const auto l = geo::conv_fwd_launch_grid(g);
    EXPECT_EQ(l.x, 32) << "channel blocks along x";
    EXPECT_LE(l.y, geo::kGridYZMax);
    EXPECT_LE(l.z, geo::kGridYZMax);
    EXPECT_GE(l.y * l.z, programs) << programs;
    if (programs > 0) EXPECT_LT(l.y * (l.z - 1), programs) << "no slice of z is wholly idle";
    else EXPECT_EQ(l.y * l.z, 0);
  }
  // Up to kGridYZMax programs: one slice, y holds them all.
  geo::ConvFwdGeometry g;
  g.grid_x = 4;
  g.grid_y = 1000;
  EXPECT_EQ(geo::conv_fwd_launch_grid(g).y, 1000);
  EXPECT_EQ(geo::conv_fwd_launch_grid(g).z, 1);
}

// The property the kernel's race-freedom rests on: every token of every sequence belongs to
// exactly one program, and only a sequence's first program starts before token W.
TEST(ConvFwdGeometry, SequenceChunksCoverEveryTokenOnce) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 300; ++trial) {
    const int64_t N = 1 + static_cast<int64_t>(rng() % 40);
    std::vector<int64_t> qsl(static_cast<size_t>(N) + 1, 0);
    for (int64_t n = 0; n < N; ++n) {
      const auto r = rng() % 10;
      const int64_t L = r < 2 ? 0 : r < 5 ? static_cast<int64_t>(rng() % 4) : static_cast<int64_t>(rng() % 300);
      qsl[static_cast<size_t>(n) + 1] = qsl[static_cast<size_t>(n)] + L;
    }
    const int64_t T = qsl.back();
    auto s = bf16_shape(T, 256, N);
    s.width = 2 + static_cast<int32_t>(rng() % 7);
    s.x_pair_aligned = true;
    s.max_sequence_chunk = trial % 5 == 4 ? 128 : 64;
    s.min_sequence_chunk = trial % 3 == 1 ? 4 : 8;
    geo::ConvSwitches sw;  // every variant in turn: each has its own chunk
    sw.reg = trial % 2;
    sw.channel_tile = (trial / 2) % 3;
    const auto g = geo::conv_fwd_geometry(s, sw);
    if (T == 0) {
      EXPECT_EQ(g.grid_y, 0);
      continue;
    }
    ASSERT_EQ(g.mapping, geo::ConvMapping::sequence_chunks);
    ASSERT_EQ(g.chunk, int64_t{1} << geo::chunk_shift(g.chunk)) << "a power of two, as the GPU search needs";
    std::vector<std::vector<int>> covered(static_cast<size_t>(N));
    for (int64_t n = 0; n < N; ++n) covered[static_cast<size_t>(n)].assign(static_cast<size_t>(qsl[n + 1] - qsl[n]), 0);
    for (int64_t k = 0; k < g.grid_y; ++k) {
      int64_t n = -1, first = -1;
      geo::sequence_chunk_of(
          k, [&](int64_t i) { return qsl[static_cast<size_t>(i)]; }, N, T, g.chunk, &n, &first);
      // The GPU kernels search with the chunk as a shift: the same answer.
      int64_t n2 = -1, first2 = -1;
      geo::sequence_chunk_of(
          k, [&](int64_t i) { return qsl[static_cast<size_t>(i)]; }, N, T, geo::Pow2Chunk{geo::chunk_shift(g.chunk)},
          &n2, &first2);
      ASSERT_EQ(n2, n);
      ASSERT_EQ(first2, first);
      ASSERT_GE(n, 0);
      ASSERT_LT(n, N);
      const int64_t L = qsl[n + 1] - qsl[n];
      if (first >= L) continue;
      ASSERT_TRUE(first == 0 || first >= s.width - 1) << "program " << k << " would read the old state";
      for (int64_t t = first; t < std::min(first + g.chunk, L); ++t)
        ++covered[static_cast<size_t>(n)][static_cast<size_t>(t)];
    }
    for (int64_t n = 0; n < N; ++n)
      for (size_t t = 0; t < covered[static_cast<size_t>(n)].size(); ++t)
        ASSERT_EQ(covered[static_cast<size_t>(n)][t], 1) << "trial " << trial << " sequence " << n << " token " << t;
  }
}

TEST(RowGeometry, OneWarpPerRow) {
  const auto g = geo::row_geometry(8 * 3 + 1);
  EXPECT_EQ(g.grid, 4);
  EXPECT_EQ(g.block, 32 * g.rows_per_block);
}

}  // namespace
