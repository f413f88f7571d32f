// Events: a timestamp written in the queue's current batch. Host waits and other queues'
// waits name the batch by its timeline value; elapsed time reads the two timestamps.
#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

// Submits the batch holding the event if it is still being recorded. Needs q->lock.
vt_status flush_to(vt_queue q, uint64_t value) {
  const Batch& b = q->batches[q->current];
  if (b.state == Batch::State::recording && b.value == value) return submit(q);
  return VT_OK;
}

vt_status read_timestamp(vt_event e, uint64_t* ticks) {
  return check(vk.vkGetQueryPoolResults(e->device->device, e->pool, 0, 1, sizeof *ticks, ticks, sizeof *ticks,
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
               "vkGetQueryPoolResults");
}

}  // namespace

vt_status event_create(uint32_t device, vt_event* out) {
  Device* d = device_at(device);
  if (!d || !out) return fail(VT_STATUS_INVALID_ARGUMENT, "vulkan: event_create: no such device");
  if (closed()) return closed_error("event_create");
  auto ci = vk_struct<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  ci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  ci.queryCount = 1;
  VkQueryPool pool = VK_NULL_HANDLE;
  if (d->timestamp_bits > 0)
    if (const vt_status s = check(vk.vkCreateQueryPool(d->device, &ci, nullptr, &pool), "vkCreateQueryPool");
        s != VT_OK)
      return s;
  *out = new vt_event_s{d, pool, nullptr, 0};
  std::lock_guard<std::mutex> lock(d->live_lock);
  d->live_events.insert(*out);
  return VT_OK;
}

void release_event(vt_event e) {
  if (e->pool) vk.vkDestroyQueryPool(e->device->device, e->pool, nullptr);
  e->pool = VK_NULL_HANDLE;
}

void event_destroy(vt_event e) {
  if (!e) return;
  if (!closed()) {
    bool queue_alive = false;
    {
      std::lock_guard<std::mutex> lock(e->device->live_lock);
      queue_alive = e->device->live_queues.count(e->queue) > 0;
      e->device->live_events.erase(e);
    }
    if (queue_alive) event_sync(e);  // its timestamp write may still be in flight
    release_event(e);
  }
  delete e;
}

vt_status event_record(vt_event e, vt_queue q) {
  if (e->device != q->device)
    return fail(VT_STATUS_INVALID_ARGUMENT, "vulkan: event_record: event and queue are on different devices");
  std::lock_guard<std::mutex> lock(q->lock);
  Batch* b = nullptr;
  if (const vt_status s = open_command(q, &b); s != VT_OK) return s;
  if (e->pool) {
    vk.vkCmdResetQueryPool(b->cmd, e->pool, 0, 1);
    vk.vkCmdWriteTimestamp(b->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, e->pool, 0);
  }
  e->queue = q;
  e->value = b->value;
  return close_command(q);
}

vt_status queue_wait_event(vt_queue q, vt_event e) {
  vt_queue source = e->queue;
  if (!source || source == q) return VT_OK;  // never recorded, or in order already
  {
    std::lock_guard<std::mutex> lock(source->lock);
    if (const vt_status s = flush_to(source, e->value); s != VT_OK) return s;
  }
  std::lock_guard<std::mutex> lock(q->lock);
  Batch* b = nullptr;
  // Work recorded before the wait need not wait: it goes in a submission of its own.
  if (q->batches[q->current].state == Batch::State::recording && q->batches[q->current].commands > 0)
    if (const vt_status s = submit(q); s != VT_OK) return s;
  if (const vt_status s = open_command(q, &b); s != VT_OK) return s;
  b->waits.emplace_back(source->timeline, e->value);
  return close_command(q);
}

vt_status event_sync(vt_event e) {
  vt_queue q = e->queue;
  if (!q) return VT_OK;
  if (closed()) return closed_error("event_sync");
  std::lock_guard<std::mutex> lock(q->lock);
  if (const vt_status s = flush_to(q, e->value); s != VT_OK) return s;
  return wait_value(q, e->value);
}

vt_status event_elapsed_ms(vt_event start, vt_event end, float* ms) {
  if (!start->queue || !end->queue)
    return fail(VT_STATUS_INVALID_ARGUMENT, "vulkan: event_elapsed_ms: an event was never recorded");
  if (start->device != end->device)
    return fail(VT_STATUS_INVALID_ARGUMENT, "vulkan: event_elapsed_ms: events of different devices");
  if (!start->pool) return fail(VT_STATUS_UNSUPPORTED, "vulkan: event_elapsed_ms: the queue has no timestamps");
  if (const vt_status s = event_sync(start); s != VT_OK) return s;
  if (const vt_status s = event_sync(end); s != VT_OK) return s;
  uint64_t t0 = 0, t1 = 0;
  if (const vt_status s = read_timestamp(start, &t0); s != VT_OK) return s;
  if (const vt_status s = read_timestamp(end, &t1); s != VT_OK) return s;
  const uint32_t bits = start->device->timestamp_bits;
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const uint64_t ticks = (t1 - t0) & mask;  // the counter may wrap once between the two
  *ms = static_cast<float>(static_cast<double>(ticks) * start->device->timestamp_period_ns * 1e-6);
  return VT_OK;
}

}  // namespace vt::vulkan
