// Queues: commands are recorded into the current batch (a command buffer with its own
// descriptor pool, parameter blocks and staging memory) and submitted when the batch fills,
// when its staging runs out, or when the host waits. Batches signal a timeline semaphore,
// so a host wait or another queue's wait names a batch by its value.
#include <cstring>

#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

constexpr VkPipelineStageFlags kWorkStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;

Batch& current(vt_queue q) { return q->batches[q->current]; }

// Finishes the batches the timeline has passed: their read-backs reach the host memory.
void retire(vt_queue q, uint64_t completed) {
  for (Batch& b : q->batches) {
    if (b.state != Batch::State::submitted || b.value > completed) continue;
    for (const Readback& r : b.readbacks) std::memcpy(r.dst, r.src, r.bytes);
    b.readbacks.clear();
    b.state = Batch::State::idle;
  }
}

vt_status create_batch_objects(vt_queue q, Batch& b) {
  Device& d = *q->device;
  if (!b.cmd) {
    auto ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    ai.commandPool = q->pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    if (const vt_status s = check(vk.vkAllocateCommandBuffers(d.device, &ai, &b.cmd), "vkAllocateCommandBuffers");
        s != VT_OK)
      return s;
  }
  if (!b.pool) {
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kBatchCommands * (VT_TENSOR_BINDINGS + 1)};
    auto pi = vk_struct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pi.maxSets = kBatchCommands;
    pi.poolSizeCount = 1;
    pi.pPoolSizes = &size;
    if (const vt_status s = check(vk.vkCreateDescriptorPool(d.device, &pi, nullptr, &b.pool), "vkCreateDescriptorPool");
        s != VT_OK)
      return s;
  }
  if (!b.params.buffer) return create_host_buffer(d, kBatchCommands * kParamSlot, &b.params);
  return VT_OK;
}

// The current batch, begun if idle (waiting first if it is still in flight).
vt_status begin(vt_queue q, Batch** out) {
  if (closed()) return closed_error("queue");
  Batch& b = current(q);
  *out = &b;
  if (b.state == Batch::State::recording) return VT_OK;
  if (b.state == Batch::State::submitted)
    if (const vt_status s = wait_value(q, b.value); s != VT_OK) return s;
  if (const vt_status s = create_batch_objects(q, b); s != VT_OK) return s;
  Device& d = *q->device;
  vk.vkResetDescriptorPool(d.device, b.pool, 0);
  if (const vt_status s = check(vk.vkResetCommandBuffer(b.cmd, 0), "vkResetCommandBuffer"); s != VT_OK) return s;
  auto bi = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (const vt_status s = check(vk.vkBeginCommandBuffer(b.cmd, &bi), "vkBeginCommandBuffer"); s != VT_OK) return s;
  b.value = ++q->last_value;
  b.state = Batch::State::recording;
  b.commands = 0;
  b.params_used = 0;
  b.staging_chunk = 0;
  b.staging_used = 0;
  b.waits.clear();
  return VT_OK;
}

void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags dst_stages, VkAccessFlags dst_access) {
  auto mb = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  mb.dstAccessMask = dst_access;
  vk.vkCmdPipelineBarrier(cmd, kWorkStages, dst_stages, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

}  // namespace

vt_status stage(vt_queue q, uint64_t bytes, Slice* out) {
  Batch* b = nullptr;
  if (const vt_status s = begin(q, &b); s != VT_OK) return s;
  const uint64_t need = (bytes + 15) / 16 * 16;
  if (b->staging_chunk < b->staging.size() && b->staging_used + need > b->staging[b->staging_chunk].size) {
    ++b->staging_chunk;
    b->staging_used = 0;
  }
  if (b->staging_chunk >= kStagingChunks) {
    if (const vt_status s = submit(q); s != VT_OK) return s;
    if (const vt_status s = begin(q, &b); s != VT_OK) return s;
  }
  if (b->staging_chunk >= b->staging.size()) {
    HostBuffer chunk;
    if (const vt_status s = create_host_buffer(*q->device, kStagingChunk, &chunk); s != VT_OK) return s;
    b->staging.push_back(chunk);
  }
  const HostBuffer& chunk = b->staging[b->staging_chunk];
  *out = Slice{chunk.buffer, b->staging_used, static_cast<char*>(chunk.mapped) + b->staging_used};
  b->staging_used += need;
  return VT_OK;
}

vt_status param_slot(vt_queue q, Slice* out) {
  Batch* b = nullptr;
  if (const vt_status s = begin(q, &b); s != VT_OK) return s;
  if (b->params_used + kParamSlot > b->params.size) {
    if (const vt_status s = submit(q); s != VT_OK) return s;
    if (const vt_status s = begin(q, &b); s != VT_OK) return s;
  }
  *out = Slice{b->params.buffer, b->params_used, static_cast<char*>(b->params.mapped) + b->params_used};
  b->params_used += kParamSlot;
  return VT_OK;
}

vt_status open_command(vt_queue q, Batch** out) {
  if (const vt_status s = begin(q, out); s != VT_OK) return s;
  // In-queue order: the command sees every earlier one, in this batch or submitted before.
  memory_barrier((*out)->cmd, kWorkStages,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                     VK_ACCESS_TRANSFER_WRITE_BIT);
  return VT_OK;
}

vt_status close_command(vt_queue q) {
  Batch& b = current(q);
  if (++b.commands >= kBatchCommands) return submit(q);
  return VT_OK;
}

vt_status submit(vt_queue q) {
  Batch& b = current(q);
  if (b.state != Batch::State::recording) return VT_OK;
  memory_barrier(b.cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);  // read-backs
  b.state = Batch::State::idle;                                                // unless submitted below
  if (const vt_status s = check(vk.vkEndCommandBuffer(b.cmd), "vkEndCommandBuffer"); s != VT_OK) return s;

  std::vector<VkSemaphore> wait_semaphores;
  std::vector<uint64_t> wait_values;
  for (const auto& [semaphore, value] : b.waits) {
    wait_semaphores.push_back(semaphore);
    wait_values.push_back(value);
  }
  const std::vector<VkPipelineStageFlags> wait_stages(b.waits.size(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  auto ts = vk_struct<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  ts.waitSemaphoreValueCount = static_cast<uint32_t>(wait_values.size());
  ts.pWaitSemaphoreValues = wait_values.data();
  ts.signalSemaphoreValueCount = 1;
  ts.pSignalSemaphoreValues = &b.value;
  auto si = vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.pNext = &ts;
  si.waitSemaphoreCount = static_cast<uint32_t>(wait_semaphores.size());
  si.pWaitSemaphores = wait_semaphores.data();
  si.pWaitDstStageMask = wait_stages.data();
  si.commandBufferCount = 1;
  si.pCommandBuffers = &b.cmd;
  si.signalSemaphoreCount = 1;
  si.pSignalSemaphores = &q->timeline;
  Device& d = *q->device;
  VkResult r;
  {
    std::lock_guard<std::mutex> lock(d.queue_locks[q->queue_index]);
    r = vk.vkQueueSubmit(d.queues[q->queue_index], 1, &si, VK_NULL_HANDLE);
  }
  if (const vt_status s = check(r, "vkQueueSubmit"); s != VT_OK) return s;
  b.state = Batch::State::submitted;
  ++q->submissions;
  q->current = (q->current + 1) % kBatches;
  return VT_OK;
}

vt_status wait_value(vt_queue q, uint64_t value) {
  Device& d = *q->device;
  uint64_t done = 0;
  if (const vt_status s =
          check(vk.vkGetSemaphoreCounterValue(d.device, q->timeline, &done), "vkGetSemaphoreCounterValue");
      s != VT_OK)
    return s;
  if (done < value) {
    auto wi = vk_struct<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
    wi.semaphoreCount = 1;
    wi.pSemaphores = &q->timeline;
    wi.pValues = &value;
    if (const vt_status s = check(vk.vkWaitSemaphores(d.device, &wi, UINT64_MAX), "vkWaitSemaphores"); s != VT_OK)
      return s;
    done = value;
  }
  retire(q, done);
  return VT_OK;
}

vt_status queue_create(uint32_t device, vt_queue* out) {
  Device* d = device_at(device);
  if (!d || !out) return fail(VT_STATUS_INVALID_ARGUMENT, "vulkan: queue_create: no such device");
  if (closed()) return closed_error("queue_create");
  auto q = std::make_unique<vt_queue_s>();
  q->device = d;
  q->queue_index = d->next_queue.fetch_add(1) % static_cast<uint32_t>(d->queues.size());
  q->pool = VK_NULL_HANDLE;
  q->timeline = VK_NULL_HANDLE;
  q->last_value = 0;
  q->current = 0;
  q->submissions = 0;
  auto pi = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pi.queueFamilyIndex = d->family;
  if (const vt_status s = check(vk.vkCreateCommandPool(d->device, &pi, nullptr, &q->pool), "vkCreateCommandPool");
      s != VT_OK)
    return s;
  auto ti = vk_struct<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  ti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  ti.initialValue = 0;
  auto si = vk_struct<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
  si.pNext = &ti;
  if (const vt_status s = check(vk.vkCreateSemaphore(d->device, &si, nullptr, &q->timeline), "vkCreateSemaphore");
      s != VT_OK) {
    vk.vkDestroyCommandPool(d->device, q->pool, nullptr);
    return s;
  }
  {
    std::lock_guard<std::mutex> lock(d->live_lock);
    d->live_queues.insert(q.get());
  }
  *out = q.release();
  return VT_OK;
}

void release_queue(vt_queue q) {
  Device& d = *q->device;
  queue_sync(q);
  for (Batch& b : q->batches) {
    destroy_host_buffer(d, b.params);
    for (HostBuffer& chunk : b.staging) destroy_host_buffer(d, chunk);
    b.staging.clear();
    if (b.pool) vk.vkDestroyDescriptorPool(d.device, b.pool, nullptr);
    b.pool = VK_NULL_HANDLE;
    b.cmd = VK_NULL_HANDLE;
  }
  vk.vkDestroyCommandPool(d.device, q->pool, nullptr);  // frees the command buffers
  vk.vkDestroySemaphore(d.device, q->timeline, nullptr);
  q->pool = VK_NULL_HANDLE;
  q->timeline = VK_NULL_HANDLE;
}

void queue_destroy(vt_queue q) {
  if (!q) return;
  if (!closed()) {
    Device& d = *q->device;
    {
      std::lock_guard<std::mutex> lock(d.live_lock);
      d.live_queues.erase(q);
    }
    release_queue(q);
  }
  delete q;
}

vt_status queue_sync(vt_queue q) {
  if (closed()) return closed_error("queue_sync");
  std::lock_guard<std::mutex> lock(q->lock);
  if (const vt_status s = submit(q); s != VT_OK) return s;
  return q->last_value ? wait_value(q, q->last_value) : VT_OK;
}

}  // namespace vt::vulkan
