// Queues are HIP streams: copies, fills, events, and graph capture and replay.
#include <new>

#include "rocm_backend.hpp"

namespace vt::rocm {
namespace {

vt_status queue_create(uint32_t device, vt_queue* out) {
  if (const vt_status s = use_device(static_cast<int>(device)); s != VT_OK) return s;
  hipStream_t stream = nullptr;
  // Non-blocking: a queue never serialises against the legacy default stream.
  VT_HIP_TRY(hipStreamCreateWithFlags(&stream, hipStreamNonBlocking), "hipStreamCreateWithFlags");
  *out = new (std::nothrow) vt_queue_s{static_cast<int>(device), stream};
  if (!*out) {
    (void)hipStreamDestroy(stream);
    return fail(VT_STATUS_OUT_OF_MEMORY, "rocm: queue_create: out of host memory");
  }
  return VT_OK;
}

void queue_destroy(vt_queue q) {
  if (!q) return;
  (void)hipStreamDestroy(q->stream);
  delete q;
}

vt_status queue_sync(vt_queue q) {
  VT_HIP_TRY(hipStreamSynchronize(q->stream), "hipStreamSynchronize");
  return VT_OK;
}

vt_status mem_set(vt_queue q, vt_mem dst, uint64_t offset, uint8_t value, uint64_t bytes) {
  VT_HIP_TRY(hipMemsetAsync(ptr(dst) + offset, value, bytes, q->stream), "hipMemsetAsync");
  return VT_OK;
}

vt_status copy_h2d(vt_queue q, vt_mem dst, uint64_t offset, const void* src, uint64_t bytes) {
  VT_HIP_TRY(hipMemcpyAsync(ptr(dst) + offset, src, bytes, hipMemcpyHostToDevice, q->stream),
             "hipMemcpyAsync (to device)");
  return VT_OK;
}

vt_status copy_d2h(vt_queue q, void* dst, vt_mem src, uint64_t offset, uint64_t bytes) {
  VT_HIP_TRY(hipMemcpyAsync(dst, ptr(src) + offset, bytes, hipMemcpyDeviceToHost, q->stream),
             "hipMemcpyAsync (to host)");
  return VT_OK;
}

vt_status copy_d2d(vt_queue q, vt_mem dst, uint64_t dst_offset, vt_mem src, uint64_t src_offset, uint64_t bytes) {
  VT_HIP_TRY(hipMemcpyAsync(ptr(dst) + dst_offset, ptr(src) + src_offset, bytes, hipMemcpyDeviceToDevice, q->stream),
             "hipMemcpyAsync (device to device)");
  return VT_OK;
}

vt_status event_create(uint32_t device, vt_event* out) {
  if (const vt_status s = use_device(static_cast<int>(device)); s != VT_OK) return s;
  hipEvent_t e = nullptr;
  VT_HIP_TRY(hipEventCreate(&e), "hipEventCreate");
  *out = new (std::nothrow) vt_event_s{static_cast<int>(device), e};
  if (!*out) {
    (void)hipEventDestroy(e);
    return fail(VT_STATUS_OUT_OF_MEMORY, "rocm: event_create: out of host memory");
  }
  return VT_OK;
}

void event_destroy(vt_event e) {
  if (!e) return;
  (void)hipEventDestroy(e->event);
  delete e;
}

vt_status event_record(vt_event e, vt_queue q) {
  VT_HIP_TRY(hipEventRecord(e->event, q->stream), "hipEventRecord");
  return VT_OK;
}

vt_status queue_wait_event(vt_queue q, vt_event e) {
  VT_HIP_TRY(hipStreamWaitEvent(q->stream, e->event, 0), "hipStreamWaitEvent");
  return VT_OK;
}

vt_status event_sync(vt_event e) {
  VT_HIP_TRY(hipEventSynchronize(e->event), "hipEventSynchronize");
  return VT_OK;
}

vt_status event_elapsed_ms(vt_event start, vt_event end, float* ms) {
  VT_HIP_TRY(hipEventElapsedTime(ms, start->event, end->event), "hipEventElapsedTime");
  return VT_OK;
}

vt_status capture_begin(vt_queue q) {
  // Thread-local mode: only this thread's calls are checked against the capture, so other
  // threads may keep using the device meanwhile.
  VT_HIP_TRY(hipStreamBeginCapture(q->stream, hipStreamCaptureModeThreadLocal), "hipStreamBeginCapture");
  return VT_OK;
}

vt_status capture_end(vt_queue q, vt_graph* out) {
  hipGraph_t graph = nullptr;
  VT_HIP_TRY(hipStreamEndCapture(q->stream, &graph), "hipStreamEndCapture");
  hipGraphExec_t exec = nullptr;
  const hipError_t err = hipGraphInstantiateWithFlags(&exec, graph, 0);
  (void)hipGraphDestroy(graph);
  VT_HIP_TRY(err, "hipGraphInstantiateWithFlags");
  *out = new (std::nothrow) vt_graph_s{exec};
  if (!*out) {
    (void)hipGraphExecDestroy(exec);
    return fail(VT_STATUS_OUT_OF_MEMORY, "rocm: capture_end: out of host memory");
  }
  return VT_OK;
}

vt_status graph_launch(vt_graph g, vt_queue q) {
  VT_HIP_TRY(hipGraphLaunch(g->exec, q->stream), "hipGraphLaunch");
  return VT_OK;
}

void graph_destroy(vt_graph g) {
  if (!g) return;
  (void)hipGraphExecDestroy(g->exec);
  delete g;
}

}  // namespace

void fill_queue_entries(vt_device_api& d) {
  d.queue_create = queue_create;
  d.queue_destroy = queue_destroy;
  d.queue_sync = queue_sync;
  d.mem_set = mem_set;
  d.copy_h2d = copy_h2d;
  d.copy_d2h = copy_d2h;
  d.copy_d2d = copy_d2d;
  d.event_create = event_create;
  d.event_destroy = event_destroy;
  d.event_record = event_record;
  d.queue_wait_event = queue_wait_event;
  d.event_sync = event_sync;
  d.event_elapsed_ms = event_elapsed_ms;
  d.capture_begin = capture_begin;
  d.capture_end = capture_end;
  d.graph_launch = graph_launch;
  d.graph_destroy = graph_destroy;
}

}  // namespace vt::rocm
