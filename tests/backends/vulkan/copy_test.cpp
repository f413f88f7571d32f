// Copies in every direction and fills, at odd sizes and offsets, larger than one staging
// piece, overlapping within one buffer, and many before one sync.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <random>

#include "support.hpp"
#include "vk_backend.hpp"

namespace vt::vulkan_test {
namespace {

std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  std::mt19937 rng(seed);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

TEST(VulkanCopy, EveryDirectionAtOddSizesAndOffsets) {
  VT_SKIP_WITHOUT_VULKAN();
  const Device d = vulkan_device();
  Queue q = d.create_queue();
  // Past kStagingChunk a copy is split into staging pieces.
  for (size_t size : {size_t{1}, size_t{3}, size_t{4}, size_t{5}, size_t{17}, size_t{1000}, size_t{65537},
                      size_t{vulkan::kStagingChunk} + 3}) {
    for (uint64_t offset : {0u, 1u, 3u, 6u}) {
      SCOPED_TRACE("size " + std::to_string(size) + ", offset " + std::to_string(offset));
      const std::vector<uint8_t> src = pattern(size, static_cast<uint32_t>(size + offset));
      Buffer a = d.alloc(size + 16), b = d.alloc(size + 16);
      q.fill(b, 0, 0x5a, size + 16);
      q.upload(a, offset, src.data(), size);  // host to device
      q.copy(b, 7, a, offset, size);          // device to device, another offset
      std::vector<uint8_t> back(size + 16, 0);
      q.download(back.data(), b, 0, size + 16);  // device to host
      q.sync();
      ASSERT_EQ(std::memcmp(back.data() + 7, src.data(), size), 0);
      for (size_t i = 0; i < 7; ++i) ASSERT_EQ(back[i], 0x5a) << i;
      for (size_t i = 7 + size; i < size + 16; ++i) ASSERT_EQ(back[i], 0x5a) << i;
    }
  }
}

TEST(VulkanCopy, FillsUnalignedRanges) {
  VT_SKIP_WITHOUT_VULKAN();
  const Device d = vulkan_device();
  Queue q = d.create_queue();
  Buffer b = d.alloc(64);
  std::vector<uint8_t> expect(64, 0x11);
  q.fill(b, 0, 0x11, 64);
  for (auto [offset, bytes, value] : {std::tuple{1u, 2u, 0xa1}, std::tuple{5u, 13u, 0xb2}, std::tuple{20u, 4u, 0xc3},
                                      std::tuple{26u, 0u, 0xd4}, std::tuple{30u, 33u, 0xe5}}) {
    q.fill(b, offset, static_cast<uint8_t>(value), bytes);
    std::fill_n(expect.begin() + offset, bytes, static_cast<uint8_t>(value));
  }
  std::vector<uint8_t> back(64);
  q.download(back.data(), b, 0, 64);
  q.sync();
  EXPECT_EQ(back, expect);
}

TEST(VulkanCopy, OverlappingRangesOfOneBufferMoveLikeMemmove) {
  VT_SKIP_WITHOUT_VULKAN();
  const Device d = vulkan_device();
  Queue q = d.create_queue();
  const size_t n = size_t{vulkan::kStagingChunk} + 11;  // more than one staging piece
  for (int direction : {+1, -1}) {
    SCOPED_TRACE(direction > 0 ? "forward" : "backward");
    std::vector<uint8_t> host = pattern(n + 4096, 7);
    Buffer b = d.alloc(host.size());
    q.upload(b, 0, host.data(), host.size());
    const size_t src = direction > 0 ? 0 : 4093, dst = direction > 0 ? 4093 : 0;
    q.copy(b, dst, b, src, n);
    std::memmove(host.data() + dst, host.data() + src, n);
    std::vector<uint8_t> back(host.size());
    q.download(back.data(), b, 0, back.size());
    q.sync();
    ASSERT_EQ(std::memcmp(back.data(), host.data(), host.size()), 0);
  }
}

TEST(VulkanCopy, ManyCopiesBeforeOneSyncKeepQueueOrder) {
  VT_SKIP_WITHOUT_VULKAN();
  const Device d = vulkan_device();
  Queue q = d.create_queue();
  // More uploads than one batch's staging holds: batches are submitted along the way, and
  // each upload still lands before the copy and the download that follow it.
  const size_t piece = vulkan::kStagingChunk * vulkan::kStagingChunks / 20;
  Buffer acc = d.alloc(24 * piece), b = d.alloc(piece);
  std::vector<std::vector<uint8_t>> sources;
  for (int i = 0; i < 24; ++i) {
    sources.push_back(pattern(piece, 100u + static_cast<uint32_t>(i)));
    q.upload(b, 0, sources.back().data(), piece);  // the same buffer each time
    q.copy(acc, static_cast<uint64_t>(i) * piece, b, 0, piece);
  }
  std::vector<uint8_t> back(24 * piece);
  q.download(back.data(), acc, 0, back.size());
  q.sync();
  for (int i = 0; i < 24; ++i)
    ASSERT_EQ(std::memcmp(back.data() + static_cast<size_t>(i) * piece, sources[static_cast<size_t>(i)].data(), piece),
              0)
        << i;
}

}  // namespace
}  // namespace vt::vulkan_test
