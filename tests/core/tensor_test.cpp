#include <gtest/gtest.h>

#include "vt/vt.hpp"
#include "vt_test/expect_error.hpp"

namespace {

struct TensorTest : ::testing::Test {
  void SetUp() override {
    vt::Knobs k;
    k.plugins = std::vector<std::string>{VT_CPU_PLUGIN};
    rt = std::make_unique<vt::Runtime>(k);
    rt->load();
    buf = rt->device("cpu:0").alloc(4096);
  }
  std::unique_ptr<vt::Runtime> rt;
  vt::Buffer buf;
};

TEST_F(TensorTest, ContiguousViewHasRowMajorStrides) {
  const auto t = vt::TensorView::contiguous(buf, vt::DType::bf16, {3, 4, 5});
  EXPECT_EQ(t.rank(), 3u);
  EXPECT_EQ(t.stride(0), 20);
  EXPECT_EQ(t.stride(1), 5);
  EXPECT_EQ(t.stride(2), 1);
  EXPECT_EQ(t.numel(), 60);
  EXPECT_EQ(t.end_byte(), 120u);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.describe(), "bf16[3, 4, 5] strides [20, 5, 1]");
  EXPECT_EQ(t.device().name(), "cpu:0");
}

TEST_F(TensorTest, RowViewsIntoAWiderRow) {
  // Columns 8..15 of a [10, 32] f32 matrix: row stride 32, not contiguous.
  const auto t = vt::TensorView::strided(buf, vt::DType::f32, {10, 8}, {32, 1}, 8 * 4);
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(t.end_byte(), 32u + (9u * 32u + 7u + 1u) * 4u);
}

TEST_F(TensorTest, RejectsBadViews) {
  EXPECT_THROW(vt::TensorView::contiguous(buf, vt::DType::f32, {1, 2, 3, 4, 5}), vt::Error);  // rank 5
  EXPECT_THROW(vt::TensorView::contiguous(buf, vt::DType::f32, {-1, 2}), vt::Error);          // negative
  EXPECT_THROW(vt::TensorView::contiguous(buf, vt::DType::f32, {2000}), vt::Error);           // 8000 > 4096 bytes
  EXPECT_THROW(vt::TensorView::contiguous(buf, vt::DType::f32, {4}, 2), vt::Error);           // misaligned
  EXPECT_THROW(vt::TensorView::strided(buf, vt::DType::f32, {4, 4}, {4}), vt::Error);         // stride count
  vt::test::expect_error([&] { vt::TensorView::contiguous(buf, vt::DType::f32, {1024}, 4); },
                         vt::Status::invalid_argument, "reaches byte 4100 of a 4096-byte buffer");
}

TEST_F(TensorTest, OverlapIsByByteRangeWithinOneBuffer) {
  const auto a = vt::TensorView::contiguous(buf, vt::DType::f32, {16});
  const auto b = vt::TensorView::contiguous(buf, vt::DType::f32, {16}, 60);
  const auto c = vt::TensorView::contiguous(buf, vt::DType::f32, {16}, 64);
  EXPECT_TRUE(a.overlaps(b));
  EXPECT_FALSE(a.overlaps(c));
  vt::Buffer other = rt->device("cpu:0").alloc(64);
  EXPECT_FALSE(a.overlaps(vt::TensorView::contiguous(other, vt::DType::f32, {16})));
  EXPECT_FALSE(vt::TensorView().present());
}

TEST_F(TensorTest, EmptyViewsAreLegal) {
  const auto t = vt::TensorView::contiguous(buf, vt::DType::f16, {0, 8});
  EXPECT_EQ(t.numel(), 0);
  EXPECT_EQ(t.end_byte(), 0u);
}

}  // namespace
