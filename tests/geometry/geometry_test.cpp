// Which mapping, vector width and grid each conv shape gets, off the GPU: the launchers call
// the same functions.
#include <gtest/gtest.h>

#include <random>
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

TEST(ConvFwdGeometry, APlanDrivesTheProgramsWhenAllowed) {
  auto s = bf16_shape(1000, 8192, 3);
  s.has_plan = true;
  s.plan_items = 127;
  s.plan_chunk = 8;
  auto g = geo::conv_fwd_geometry(s, {});
  EXPECT_EQ(g.mapping, geo::ConvMapping::plan_items);
  EXPECT_EQ(g.grid_y, 127);
  EXPECT_EQ(g.chunk, 8);
  EXPECT_EQ(g.vec, 8);
  EXPECT_EQ(g.grid_x, 8192 / 8 / geo::kBlockThreads);

  geo::ConvSwitches off;
  off.exact_chunks = false;  // VT_CONV_EXACT_CHUNKS=0
  g = geo::conv_fwd_geometry(s, off);
  EXPECT_EQ(g.mapping, geo::ConvMapping::sequence_chunks);

  s.width = 8;
  s.plan_chunk = 4;  // shorter than W = 7: two programs would read the old state
  g = geo::conv_fwd_geometry(s, {});
  EXPECT_EQ(g.mapping, geo::ConvMapping::sequence_chunks);
  EXPECT_GE(g.chunk, 7);
}

TEST(ConvFwdGeometry, VectorWidthFollowsAlignmentAndDtype) {
  auto s = bf16_shape(64, 8192, 1);
  EXPECT_EQ(geo::conv_fwd_geometry(s, {}).vec, 8);
  EXPECT_TRUE(geo::conv_fwd_geometry(s, {}).vector_store);
  s.channels = 100;  // not a multiple of 8
  EXPECT_EQ(geo::conv_fwd_geometry(s, {}).vec, 1);
  s.channels = 8192;
  s.x_vector_aligned = false;  // a row view at an odd column
  EXPECT_EQ(geo::conv_fwd_geometry(s, {}).vec, 1);
  s.x_vector_aligned = true;
  s.out_same_dtype = false;  // f32 out from bf16 x: element stores
  EXPECT_EQ(geo::conv_fwd_geometry(s, {}).vec, 8);
  EXPECT_FALSE(geo::conv_fwd_geometry(s, {}).vector_store);
  s.x_elem_bytes = 4;
  EXPECT_EQ(geo::conv_fwd_geometry(s, {}).vec, 4);
}

TEST(ConvFwdGeometry, EmptyCallsLaunchNothing) {
  EXPECT_EQ(geo::conv_fwd_geometry(bf16_shape(0, 8192, 2), {}).grid_y, 0);
  EXPECT_EQ(geo::conv_fwd_geometry(bf16_shape(10, 8192, 0), {}).grid_x, 0);
  EXPECT_EQ(geo::conv_update_geometry(0, 8192).grid_y, 0);
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
    const auto g = geo::conv_fwd_geometry(s, {});
    if (T == 0) {
      EXPECT_EQ(g.grid_y, 0);
      continue;
    }
    ASSERT_EQ(g.mapping, geo::ConvMapping::sequence_chunks);
    std::vector<std::vector<int>> covered(static_cast<size_t>(N));
    for (int64_t n = 0; n < N; ++n) covered[static_cast<size_t>(n)].assign(static_cast<size_t>(qsl[n + 1] - qsl[n]), 0);
    for (int64_t k = 0; k < g.grid_y; ++k) {
      int64_t n = -1, first = -1;
      geo::sequence_chunk_of(k, [&](int64_t i) { return qsl[static_cast<size_t>(i)]; }, N, T, g.chunk, &n, &first);
      ASSERT_GE(n, 0);
      ASSERT_LT(n, N);
      const int64_t L = qsl[n + 1] - qsl[n];
      if (first >= L) continue;
      ASSERT_TRUE(first == 0 || first >= s.width - 1) << "program " << k << " would read the old state";
      for (int64_t t = first; t < std::min(first + g.chunk, L); ++t) ++covered[static_cast<size_t>(n)][static_cast<size_t>(t)];
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
