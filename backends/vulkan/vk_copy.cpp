// Copies and fills, ordered on the queue like every other command. Host data goes through
// staging memory of the batch, copied at enqueue time (h2d) or when the batch completes
// (d2h), so batching never lets a copy see memory out of queue order.
#include <algorithm>
#include <cstring>

#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

bool in_range(vt_mem m, uint64_t offset, uint64_t bytes) { return m && offset <= m->size && bytes <= m->size - offset; }

vt_status out_of_range(const char* what) {
  return fail(VT_STATUS_INVALID_ARGUMENT, std::string("vulkan: ") + what + ": range outside the allocation");
}

vt_status record_copy(vt_queue q, VkBuffer src, uint64_t src_offset, VkBuffer dst, uint64_t dst_offset,
                      uint64_t bytes) {
  Batch* b = nullptr;
  if (const vt_status s = open_command(q, &b); s != VT_OK) return s;
  const VkBufferCopy region{src_offset, dst_offset, bytes};
  vk.vkCmdCopyBuffer(b->cmd, src, dst, 1, &region);
  return close_command(q);
}

// Host bytes (or a repeated byte when src is null) to dst, through staging pieces.
vt_status upload(vt_queue q, vt_mem dst, uint64_t offset, const char* src, uint8_t value, uint64_t bytes) {
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t piece = std::min(bytes - done, kStagingChunk);
    Slice s;
    if (const vt_status st = stage(q, piece, &s); st != VT_OK) return st;
    if (src) {
      std::memcpy(s.host, src + done, piece);
    } else {
      std::memset(s.host, value, piece);
    }
    if (const vt_status st = record_copy(q, s.buffer, s.offset, dst->buffer, offset + done, piece); st != VT_OK)
      return st;
    done += piece;
  }
  return VT_OK;
}

}  // namespace

vt_status copy_h2d(vt_queue q, vt_mem dst, uint64_t offset, const void* src, uint64_t bytes) {
  if (!in_range(dst, offset, bytes)) return out_of_range("copy_h2d");
  std::lock_guard<std::mutex> lock(q->lock);
  return upload(q, dst, offset, static_cast<const char*>(src), 0, bytes);
}

vt_status copy_d2h(vt_queue q, void* dst, vt_mem src, uint64_t offset, uint64_t bytes) {
  if (!in_range(src, offset, bytes)) return out_of_range("copy_d2h");
  std::lock_guard<std::mutex> lock(q->lock);
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t piece = std::min(bytes - done, kStagingChunk);
    Slice s;
    if (const vt_status st = stage(q, piece, &s); st != VT_OK) return st;
    Batch* b = nullptr;
    if (const vt_status st = open_command(q, &b); st != VT_OK) return st;
    const VkBufferCopy region{offset + done, s.offset, piece};
    vk.vkCmdCopyBuffer(b->cmd, src->buffer, s.buffer, 1, &region);
    b->readbacks.push_back({static_cast<char*>(dst) + done, s.host, piece});
    if (const vt_status st = close_command(q); st != VT_OK) return st;
    done += piece;
  }
  return VT_OK;
}

vt_status copy_d2d(vt_queue q, vt_mem dst, uint64_t dst_offset, vt_mem src, uint64_t src_offset, uint64_t bytes) {
  if (!in_range(dst, dst_offset, bytes) || !in_range(src, src_offset, bytes)) return out_of_range("copy_d2d");
  if (bytes == 0) return VT_OK;
  std::lock_guard<std::mutex> lock(q->lock);
  const bool overlap = dst == src && dst_offset < src_offset + bytes && src_offset < dst_offset + bytes;
  if (!overlap) return record_copy(q, src->buffer, src_offset, dst->buffer, dst_offset, bytes);
  if (dst_offset == src_offset) return VT_OK;
  // Overlapping ranges of one buffer (one copy command may not do that): piece by piece
  // through staging, walking away from the destination so no source byte is overwritten
  // before it is read.
  const bool backwards = dst_offset > src_offset;
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t piece = std::min(bytes - done, kStagingChunk);
    const uint64_t at = backwards ? bytes - done - piece : done;
    Slice s;
    if (const vt_status st = stage(q, piece, &s); st != VT_OK) return st;
    if (const vt_status st = record_copy(q, src->buffer, src_offset + at, s.buffer, s.offset, piece); st != VT_OK)
      return st;
    if (const vt_status st = record_copy(q, s.buffer, s.offset, dst->buffer, dst_offset + at, piece); st != VT_OK)
      return st;
    done += piece;
  }
  return VT_OK;
}

vt_status mem_set(vt_queue q, vt_mem dst, uint64_t offset, uint8_t value, uint64_t bytes) {
  if (!in_range(dst, offset, bytes)) return out_of_range("mem_set");
  std::lock_guard<std::mutex> lock(q->lock);
  // vkCmdFillBuffer writes whole aligned words; the unaligned ends go through staging.
  const uint64_t end = offset + bytes;
  const uint64_t first = std::min(end, (offset + 3) / 4 * 4);
  const uint64_t last = std::max(first, end / 4 * 4);
  if (const vt_status s = upload(q, dst, offset, nullptr, value, first - offset); s != VT_OK) return s;
  if (last > first) {
    Batch* b = nullptr;
    if (const vt_status s = open_command(q, &b); s != VT_OK) return s;
    vk.vkCmdFillBuffer(b->cmd, dst->buffer, first, last - first, 0x01010101u * value);
    if (const vt_status s = close_command(q); s != VT_OK) return s;
  }
  return upload(q, dst, last, nullptr, value, end - last);
}

}  // namespace vt::vulkan
