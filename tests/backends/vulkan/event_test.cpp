// Events: timestamps for elapsed time, host waits, and one queue waiting for another's.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "support.hpp"
#include "vt/ops/gdn.hpp"

namespace vt::vulkan_test {
namespace {

// Enough rows of l2norm work that the device takes measurable time.
void busy_work(Queue& q, Buffer& in, Buffer& out, int64_t rows) {
  ops::L2Norm op;
  op.x = TensorView::contiguous(in, DType::f32, {rows, 128});
  op.out = TensorView::contiguous(out, DType::f32, {rows, 128});
  for (int i = 0; i < 4; ++i) ops::l2norm(q, op);
}

TEST(VulkanEvent, ElapsedTimeCoversTheWorkBetweenTwoEvents) {
  VT_SKIP_WITHOUT_VULKAN();
  const Device d = vulkan_device();
  Queue q = d.create_queue();
  const int64_t rows = 2048;
  Buffer in = d.alloc(rows * 128 * 4), out = d.alloc(rows * 128 * 4);
  q.fill(in, 0, 0x3f, in.size());
  Event warm = d.create_event(), start = d.create_event(), empty = d.create_event(), end = d.create_event();
  busy_work(q, in, out, rows);  // compiles the pipeline outside the measurement
  q.record(warm);
  q.record(start);
  q.record(empty);
  busy_work(q, in, out, rows);
  q.record(end);
  end.sync();
  const float nothing = Event::elapsed_ms(start, empty), work = Event::elapsed_ms(start, end);
  EXPECT_GE(nothing, 0.0f);
  EXPECT_GT(work, 0.0f);
  EXPECT_GT(work, nothing);
  EXPECT_LT(work, 60000.0f);
}

TEST(VulkanEvent, SyncOnAnEventFinishesTheReadBacksBeforeIt) {
  VT_SKIP_WITHOUT_VULKAN();
  const Device d = vulkan_device();
  Queue q = d.create_queue();
  std::vector<uint32_t> src(4096);
  std::iota(src.begin(), src.end(), 1u);
  Buffer b = d.alloc(src.size() * 4);
  std::vector<uint32_t> back(src.size(), 0);
  Event e = d.create_event();
  q.upload(b, 0, src.data(), b.size());
  q.download(back.data(), b, 0, b.size());
  q.record(e);
  e.sync();  // not q.sync()
  EXPECT_EQ(back, src);
}

TEST(VulkanEvent, AQueueWaitsForAnotherQueuesEvent) {
  VT_SKIP_WITHOUT_VULKAN();
  const Device d = vulkan_device();
  Queue producer = d.create_queue(), consumer = d.create_queue();
  const int64_t rows = 1024;
  std::vector<float> x(rows * 128);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 251) - 125.0f;
  Buffer in = d.alloc(x.size() * 4), out = d.alloc(x.size() * 4), copy = d.alloc(x.size() * 4);
  Event ready = d.create_event();
  producer.upload(in, 0, x.data(), in.size());
  busy_work(producer, in, out, rows);
  producer.record(ready);
  consumer.wait(ready);  // nothing below may start before the producer's work is done
  consumer.copy(copy, 0, out, 0, out.size());
  std::vector<float> got(x.size()), want(x.size());
  consumer.download(got.data(), copy, 0, copy.size());
  consumer.sync();
  producer.download(want.data(), out, 0, out.size());
  producer.sync();
  EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * 4), 0);
  EXPECT_NE(got[1], 0.0f);
}

}  // namespace
}  // namespace vt::vulkan_test
