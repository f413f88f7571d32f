// The CUDA device table: properties, device memory, streams as queues, events, graphs.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <new>

#include "cuda_backend.hpp"

namespace vt::cuda {
namespace {

std::atomic<const vt_host_api*> g_host{nullptr};

uint32_t device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return static_cast<uint32_t>(n);
}

vt_status device_props(uint32_t device, vt_device_props* out) {
  cudaDeviceProp p{};
  VT_CUDA_TRY(cudaGetDeviceProperties(&p, static_cast<int>(device)), "cudaGetDeviceProperties");
  vt_device_props d{};
  d.struct_size = sizeof d;
  std::memcpy(d.name, p.name, std::min(sizeof d.name - 1, std::strlen(p.name)));
  std::snprintf(d.arch, sizeof d.arch, "sm_%d%d", p.major, p.minor);
  d.memory_bytes = p.totalGlobalMem;
  d.shared_memory_bytes = p.sharedMemPerBlockOptin;
  d.compute_major = static_cast<uint32_t>(p.major);
  d.compute_minor = static_cast<uint32_t>(p.minor);
  d.compute_units = static_cast<uint32_t>(p.multiProcessorCount);
  d.subgroup_size = static_cast<uint32_t>(p.warpSize);
  d.caps = VT_CAP_ASYNC_READBACK | VT_CAP_SECOND_QUEUE | VT_CAP_GRAPH_CAPTURE | VT_CAP_16BIT_STORAGE;
  if (p.integrated) d.caps |= VT_CAP_UNIFIED_MEMORY;
  const uint32_t n =
      out->struct_size && out->struct_size < sizeof d ? out->struct_size : static_cast<uint32_t>(sizeof d);
  std::memcpy(out, &d, n);
  out->struct_size = n;
  return VT_OK;
}

vt_status mem_alloc(uint32_t device, uint64_t bytes, vt_mem* out) {
  const vt_status s = use_device(static_cast<int>(device));
  if (s != VT_OK) return s;
  void* p = nullptr;
  const cudaError_t err = cudaMalloc(&p, bytes);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    return fail(VT_STATUS_OUT_OF_MEMORY,
                "cuda: cudaMalloc of " + std::to_string(bytes) + " bytes: out of device memory");
  }
  VT_CUDA_TRY(err, "cudaMalloc");
  *out = static_cast<vt_mem>(p);
  return VT_OK;
}

void mem_free(uint32_t device, vt_mem mem) {
  if (use_device(static_cast<int>(device)) == VT_OK) cudaFree(mem);
}

// Page-locked and portable (every device's copies use it without staging); cudaHostAlloc
// returns page-aligned memory.
vt_status host_alloc(uint32_t device, uint64_t bytes, void** out) {
  const vt_status s = use_device(static_cast<int>(device));
  if (s != VT_OK) return s;
  void* p = nullptr;
  const cudaError_t err = cudaHostAlloc(&p, bytes, cudaHostAllocPortable);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    return fail(VT_STATUS_OUT_OF_MEMORY,
                "cuda: cudaHostAlloc of " + std::to_string(bytes) + " bytes: out of page-locked host memory");
  }
  VT_CUDA_TRY(err, "cudaHostAlloc");
  *out = p;
  return VT_OK;
}

void host_free(uint32_t device, void* p) {
  if (use_device(static_cast<int>(device)) == VT_OK) cudaFreeHost(p);
}

vt_status queue_create(uint32_t device, vt_queue* out) {
  const vt_status s = use_device(static_cast<int>(device));
  if (s != VT_OK) return s;
  int major = 0;
  VT_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, static_cast<int>(device)),
              "cudaDeviceGetAttribute");
  cudaStream_t stream = nullptr;
  VT_CUDA_TRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  *out = new (std::nothrow) vt_queue_s{static_cast<int>(device), stream, major >= 9, major >= 9};
  if (!*out) {
    cudaStreamDestroy(stream);
    return fail(VT_STATUS_OUT_OF_MEMORY, "cuda: queue_create: out of host memory");
  }
  return VT_OK;
}

void queue_destroy(vt_queue q) {
  if (!q) return;
  cudaStreamDestroy(q->stream);
  delete q;
}

vt_status queue_sync(vt_queue q) {
  VT_CUDA_TRY(cudaStreamSynchronize(q->stream), "cudaStreamSynchronize");
  return VT_OK;
}

vt_status mem_set(vt_queue q, vt_mem dst, uint64_t offset, uint8_t value, uint64_t bytes) {
  VT_CUDA_TRY(cudaMemsetAsync(ptr(dst) + offset, value, bytes, q->stream), "cudaMemsetAsync");
  return VT_OK;
}

vt_status copy_h2d(vt_queue q, vt_mem dst, uint64_t offset, const void* src, uint64_t bytes) {
  VT_CUDA_TRY(cudaMemcpyAsync(ptr(dst) + offset, src, bytes, cudaMemcpyHostToDevice, q->stream),
              "cudaMemcpyAsync (to device)");
  return VT_OK;
}

vt_status copy_d2h(vt_queue q, void* dst, vt_mem src, uint64_t offset, uint64_t bytes) {
  VT_CUDA_TRY(cudaMemcpyAsync(dst, ptr(src) + offset, bytes, cudaMemcpyDeviceToHost, q->stream),
              "cudaMemcpyAsync (to host)");
  return VT_OK;
}

vt_status copy_d2d(vt_queue q, vt_mem dst, uint64_t dst_offset, vt_mem src, uint64_t src_offset, uint64_t bytes) {
  VT_CUDA_TRY(cudaMemcpyAsync(ptr(dst) + dst_offset, ptr(src) + src_offset, bytes, cudaMemcpyDeviceToDevice, q->stream),
              "cudaMemcpyAsync (device to device)");
  return VT_OK;
}

vt_status event_create(uint32_t device, vt_event* out) {
  const vt_status s = use_device(static_cast<int>(device));
  if (s != VT_OK) return s;
  cudaEvent_t e = nullptr;
  VT_CUDA_TRY(cudaEventCreate(&e), "cudaEventCreate");
  *out = new (std::nothrow) vt_event_s{static_cast<int>(device), e};
  if (!*out) {
    cudaEventDestroy(e);
    return fail(VT_STATUS_OUT_OF_MEMORY, "cuda: event_create: out of host memory");
  }
  return VT_OK;
}

void event_destroy(vt_event e) {
  if (!e) return;
  cudaEventDestroy(e->event);
  delete e;
}

vt_status event_record(vt_event e, vt_queue q) {
  VT_CUDA_TRY(cudaEventRecord(e->event, q->stream), "cudaEventRecord");
  return VT_OK;
}

vt_status queue_wait_event(vt_queue q, vt_event e) {
  VT_CUDA_TRY(cudaStreamWaitEvent(q->stream, e->event, 0), "cudaStreamWaitEvent");
  return VT_OK;
}

vt_status event_sync(vt_event e) {
  VT_CUDA_TRY(cudaEventSynchronize(e->event), "cudaEventSynchronize");
  return VT_OK;
}

vt_status event_elapsed_ms(vt_event start, vt_event end, float* ms) {
  VT_CUDA_TRY(cudaEventElapsedTime(ms, start->event, end->event), "cudaEventElapsedTime");
  return VT_OK;
}

vt_status capture_begin(vt_queue q) {
  // Thread-local mode: only this thread's calls are checked against the capture, so other
  // threads may keep working with the device meanwhile.
  VT_CUDA_TRY(cudaStreamBeginCapture(q->stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  return VT_OK;
}

vt_status capture_end(vt_queue q, vt_graph* out) {
  cudaGraph_t graph = nullptr;
  VT_CUDA_TRY(cudaStreamEndCapture(q->stream, &graph), "cudaStreamEndCapture");
  cudaGraphExec_t exec = nullptr;
  const cudaError_t err = cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  VT_CUDA_TRY(err, "cudaGraphInstantiate");
  *out = new (std::nothrow) vt_graph_s{exec};
  if (!*out) {
    cudaGraphExecDestroy(exec);
    return fail(VT_STATUS_OUT_OF_MEMORY, "cuda: capture_end: out of host memory");
  }
  return VT_OK;
}

vt_status graph_launch(vt_graph g, vt_queue q) {
  VT_CUDA_TRY(cudaGraphLaunch(g->exec, q->stream), "cudaGraphLaunch");
  return VT_OK;
}

void graph_destroy(vt_graph g) {
  if (!g) return;
  cudaGraphExecDestroy(g->exec);
  delete g;
}

}  // namespace

void set_host(const vt_host_api* h) { g_host.store(h); }
const vt_host_api* host() { return g_host.load(); }

vt_status fail(vt_status status, const std::string& message) {
  if (const vt_host_api* h = g_host.load()) h->set_error(message.c_str());
  return status;
}

vt_status check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return VT_OK;
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  return fail(VT_STATUS_DEVICE_ERROR,
              std::string("cuda: ") + what + ": " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}

vt_status use_device(int device) {
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current == device) return VT_OK;
  VT_CUDA_TRY(cudaSetDevice(device), "cudaSetDevice");
  return VT_OK;
}

const vt_device_api kDeviceApi = [] {
  vt_device_api d{};
  d.abi_major = VT_ABI_MAJOR;
  d.abi_minor = VT_ABI_MINOR;
  d.struct_size = sizeof d;
  d.device_count = device_count;
  d.device_props = device_props;
  d.mem_alloc = mem_alloc;
  d.mem_free = mem_free;
  d.mem_host_ptr = nullptr;
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
  d.host_alloc = host_alloc;
  d.host_free = host_free;
  return d;
}();

}  // namespace vt::cuda
