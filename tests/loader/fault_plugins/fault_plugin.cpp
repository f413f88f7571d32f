// A test plugin whose one fault is chosen at compile time (tests/loader/CMakeLists.txt builds
// one library per case from this file). Without any FAULT_* switch it is healthy: one device
// with host memory and two providers for VT_OP_L2NORM that mark what they ran.
//
//   FAULT_BACKEND      declared backend name (required)
//   FAULT_ABI_MAJOR    abi_major of the plugin table
//   FAULT_NEWER_MINOR  abi_minor is VT_ABI_MINOR + 1 and the table has an extra trailing entry
//   FAULT_SHORT_TABLE  struct_size ends before provider_count
//   FAULT_INIT         one of the InitFault values below
//   FAULT_UNKNOWN_OP   adds a provider for an op id no core knows
//   FAULT_DEVICE_ABI_1_0  the device table is ABI 1.0's (struct_size ends before host_alloc,
//                      whose entries are set anyway and fail if the core calls them)
//   FAULT_HOST_ALLOC_ONLY  host_alloc without host_free
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include "vt/plugin_abi.h"

#ifndef FAULT_BACKEND
#error "FAULT_BACKEND must name the backend"
#endif
#ifndef FAULT_ABI_MAJOR
#define FAULT_ABI_MAJOR VT_ABI_MAJOR
#endif
#ifndef FAULT_INIT
#define FAULT_INIT kInitReady
#endif

struct vt_queue_s {};
struct vt_event_s {};

namespace {

enum InitFault { kInitReady, kInitUnavailable, kInitFailed, kInitThrows };

// An op id past every known one, so the core cannot have it.
constexpr uint32_t kUnknownOp = 99;
// Values the providers write into each i32 element, so a test sees which one ran.
constexpr int32_t kFastMark = 1, kRefMark = 2;
// The fast provider handles at most this many elements and declines the rest.
constexpr int64_t kFastMaxElems = 4;
// host_alloc's limit: larger requests fail as out of memory, with a message.
constexpr uint64_t kHostAllocMax = 1u << 20;

vt_status fail(const vt_host_api* host, vt_status s, const char* message) {
  if (host) host->set_error(message);
  return s;
}

uint32_t device_count() { return 1; }

vt_status device_props(uint32_t device, vt_device_props* out) {
  if (device != 0 || !out) return VT_STATUS_INVALID_ARGUMENT;
  const uint32_t size = out->struct_size;
  std::memset(out, 0, size < sizeof *out ? size : sizeof *out);
  out->struct_size = size;
  std::strcpy(out->name, FAULT_BACKEND " test device");
  std::strcpy(out->arch, "test");
  out->memory_bytes = 1u << 20;
  out->subgroup_size = 1;
  out->caps = VT_CAP_UNIFIED_MEMORY;
  return VT_OK;
}

vt_status mem_alloc(uint32_t device, uint64_t bytes, vt_mem* out) {
  if (device != 0 || !out) return VT_STATUS_INVALID_ARGUMENT;
  *out = static_cast<vt_mem>(std::calloc(1, bytes));
  return *out ? VT_OK : VT_STATUS_OUT_OF_MEMORY;
}

void mem_free(uint32_t, vt_mem mem) { std::free(mem); }
void* mem_host_ptr(vt_mem mem) { return mem; }
char* at(vt_mem mem, uint64_t offset) { return reinterpret_cast<char*>(mem) + offset; }

// The host table of the latest init, for host_alloc's error message (several runtimes may
// init the plugin, from several threads).
std::atomic<const vt_host_api*> g_host{nullptr};

vt_status host_alloc(uint32_t device, uint64_t bytes, void** out) {
#ifdef FAULT_DEVICE_ABI_1_0
  (void)device, (void)bytes, (void)out;
  return fail(g_host.load(), VT_STATUS_INTERNAL, FAULT_BACKEND ": host_alloc is past this ABI 1.0 table's end");
#else
  if (device != 0 || !out) return VT_STATUS_INVALID_ARGUMENT;
  if (bytes > kHostAllocMax) return fail(g_host.load(), VT_STATUS_OUT_OF_MEMORY, FAULT_BACKEND ": host_alloc over 1 MiB");
  *out = std::aligned_alloc(64, (bytes + 63) / 64 * 64);  // freed by host_free alone (LeakSanitizer sees a miss)
  return *out ? VT_OK : VT_STATUS_OUT_OF_MEMORY;
#endif
}
void host_free(uint32_t, void* p) { std::free(p); }

vt_status queue_create(uint32_t, vt_queue* out) {
  *out = new (std::nothrow) vt_queue_s;
  return *out ? VT_OK : VT_STATUS_OUT_OF_MEMORY;
}
void queue_destroy(vt_queue q) { delete q; }
vt_status queue_sync(vt_queue) { return VT_OK; }

vt_status mem_set(vt_queue, vt_mem dst, uint64_t offset, uint8_t value, uint64_t bytes) {
  std::memset(at(dst, offset), value, bytes);
  return VT_OK;
}
vt_status copy_h2d(vt_queue, vt_mem dst, uint64_t offset, const void* src, uint64_t bytes) {
  std::memcpy(at(dst, offset), src, bytes);
  return VT_OK;
}
vt_status copy_d2h(vt_queue, void* dst, vt_mem src, uint64_t offset, uint64_t bytes) {
  std::memcpy(dst, at(src, offset), bytes);
  return VT_OK;
}
vt_status copy_d2d(vt_queue, vt_mem dst, uint64_t dst_offset, vt_mem src, uint64_t src_offset, uint64_t bytes) {
  std::memmove(at(dst, dst_offset), at(src, src_offset), bytes);
  return VT_OK;
}

vt_status event_create(uint32_t, vt_event* out) {
  *out = new (std::nothrow) vt_event_s;
  return *out ? VT_OK : VT_STATUS_OUT_OF_MEMORY;
}
void event_destroy(vt_event e) { delete e; }
vt_status event_record(vt_event, vt_queue) { return VT_OK; }
vt_status queue_wait_event(vt_queue, vt_event) { return VT_OK; }
vt_status event_sync(vt_event) { return VT_OK; }
vt_status event_elapsed_ms(vt_event, vt_event, float* ms) {
  *ms = 0;
  return VT_OK;
}

const vt_device_api kDevices = [] {
  vt_device_api d{};
  d.abi_major = VT_ABI_MAJOR;
  d.abi_minor = VT_ABI_MINOR;
  d.struct_size = sizeof d;
  d.device_count = device_count;
  d.device_props = device_props;
  d.mem_alloc = mem_alloc;
  d.mem_free = mem_free;
  d.mem_host_ptr = mem_host_ptr;
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
  d.host_alloc = host_alloc;
  d.host_free = host_free;
#ifdef FAULT_DEVICE_ABI_1_0
  d.abi_minor = 0;
  d.struct_size = VT_DEVICE_API_V1_SIZE;
#endif
#ifdef FAULT_HOST_ALLOC_ONLY
  d.host_free = nullptr;
#endif
  return d;
}();

// The providers take a rank-1 i32 vt_tensor as their args (not an ops/ struct: they only
// report who ran) and fill it with their mark.
vt_status mark(const vt_op_call* call, int32_t value) {
  const auto* t = static_cast<const vt_tensor*>(call->args);
  if (!t || !t->mem || t->dtype != VT_DTYPE_I32 || t->rank != 1)
    return fail(call->host, VT_STATUS_INVALID_ARGUMENT, FAULT_BACKEND ": expects a rank-1 i32 tensor");
  auto* p = reinterpret_cast<int32_t*>(at(t->mem, t->offset));
  for (int64_t i = 0; i < t->shape[0]; ++i) p[i * t->strides[0]] = value;
  return VT_OK;
}

vt_status run_fast(const vt_op_call* call) {
  const auto* t = static_cast<const vt_tensor*>(call->args);
  if (t && t->shape[0] > kFastMaxElems) return VT_STATUS_DECLINED;
  return mark(call, kFastMark);
}
vt_status run_ref(const vt_op_call* call) { return mark(call, kRefMark); }

vt_provider_desc provider(vt_op_id op, const char* name, int32_t priority, vt_status (*run)(const vt_op_call*)) {
  vt_provider_desc d{};
  d.struct_size = sizeof d;
  d.op = op;
  d.name = name;
  d.priority = priority;
  d.run = run;
  return d;
}

#ifdef FAULT_UNKNOWN_OP
vt_provider_desc unknown_op_provider() {
  vt_provider_desc d = provider(VT_OP_L2NORM, "from-the-future", 5, run_ref);
  // Written as raw bytes: kUnknownOp is outside the enum's value range in C++.
  static_assert(sizeof d.op == sizeof kUnknownOp);
  std::memcpy(&d.op, &kUnknownOp, sizeof kUnknownOp);
  return d;
}
#endif

const vt_provider_desc kProviders[] = {
    provider(VT_OP_L2NORM, "fast", 10, run_fast),
    provider(VT_OP_L2NORM, "ref", 0, run_ref),
#ifdef FAULT_UNKNOWN_OP
    unknown_op_provider(),
#endif
};

vt_init_result init(const vt_host_api* host, char* reason, size_t reason_size) {
  g_host.store(host);
  switch (FAULT_INIT) {
    case kInitUnavailable:
      std::strncpy(reason, "no test device", reason_size - 1);
      return VT_INIT_UNAVAILABLE;
    case kInitFailed:
      std::strncpy(reason, "test device is broken", reason_size - 1);
      return VT_INIT_FAILED;
    case kInitThrows:
      throw std::runtime_error("fault plugin init exploded");
    default:
      return VT_INIT_READY;
  }
}

// A table from a newer minor version: the same prefix, one entry more at the end.
struct PluginApiNext {
  vt_plugin_api v1;
  void (*future_entry)(void);
};

const PluginApiNext kApi = [] {
  PluginApiNext a{};
  a.v1.abi_major = FAULT_ABI_MAJOR;
  a.v1.abi_minor = VT_ABI_MINOR;
  a.v1.struct_size = sizeof a.v1;
#ifdef FAULT_NEWER_MINOR
  a.v1.abi_minor = VT_ABI_MINOR + 1;
  a.v1.struct_size = sizeof a;
  a.future_entry = [] {};
#endif
#ifdef FAULT_SHORT_TABLE
  a.v1.struct_size = static_cast<uint32_t>(offsetof(vt_plugin_api, provider_count));
#endif
  a.v1.backend_name = FAULT_BACKEND;
  a.v1.init = init;
  a.v1.devices = &kDevices;
  a.v1.provider_count = static_cast<uint32_t>(sizeof kProviders / sizeof kProviders[0]);
  a.v1.providers = kProviders;
  return a;
}();

}  // namespace

extern "C" VT_PLUGIN_EXPORT VT_PLUGIN_ENTRY_DECL {
  (void)core_abi_major;
  (void)core_abi_minor;
  return &kApi.v1;
}
