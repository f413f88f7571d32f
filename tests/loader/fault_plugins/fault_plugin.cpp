// A test plugin whose one fault is chosen at compile time (tests/loader/CMakeLists.txt builds
// one library per case from this file). Without a fault it is healthy: one device with host
// memory, graph capture that records its op calls, and two providers for VT_OP_L2NORM that
// mark what they ran.
//
//   FAULT_BACKEND      declared backend name (required)
//   FAULT              one of the Fault values below (default kNone)
//   FAULT_NEWER_MINOR  abi_minor is VT_ABI_MINOR + 1 and the table has an extra trailing entry
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <vector>

#include "vt/plugin_abi.h"
#include "vt/registry.hpp"  // kMaxDevices

#ifndef FAULT_BACKEND
#error "FAULT_BACKEND must name the backend"
#endif
#ifndef FAULT
#define FAULT kNone
#endif

namespace {

enum Fault {
  kNone,
  // the entry function
  kEntryNull,         // returns no table
  kEntryThrows,       // throws a std::exception
  kEntryThrowsOther,  // throws something else
  // the plugin table
  kAbiMajor,        // abi_major 2
  kShortTable,      // struct_size ends before provider_count
  kBadName,         // a backend name with capitals and a space
  kNoInit,          // init is missing
  kNoDeviceTable,   // devices is missing
  kNoProviderList,  // provider_count > 0 and no providers
  // init
  kInitUnavailable,
  kInitFailed,
  kInitThrows,
  kInitThrowsOther,
  kInitUnknownResult,  // returns 7
  // the device table
  kDeviceAbiMajor,     // abi_major 2
  kDeviceShortTable,   // struct_size ends before event_sync
  kDeviceNoEventSync,  // a required entry is missing
  kDeviceAbi10,        // ABI 1.0's table: struct_size ends before host_alloc, whose entries are
                       // set anyway and fail if the core calls them (not a fault: it loads)
  kHostAllocOnly,      // host_alloc without host_free
  kCaptureHalf,        // three of the four capture entries
  kCaptureClaimOnly,   // the device claims graph capture; no capture entries
  // device enumeration
  kPropsFail,          // device_props fails with a message
  kEnumerationThrows,  // device_count throws
  // providers
  kUnknownOp,       // a third provider, for an op id no core knows
  kProviderShort,   // the first descriptor's struct_size is 4
  kProviderNoName,  // the second has no name
  kProviderNoRun,   // the second has no run function
  kProviderTwice,   // a third provider of the same op and name as the second
  kKnobEmptyName,   // the first declares knobs "VT_CONV_REG" and ""
  kKnobsTooMany,    // the first declares 33 knobs
  // providers, not a fault: it loads
  kKnobUnknown,  // the first declares a knob no core knows and one that is no switch (notes)
  kKnobProbe,    // the providers add the knobs they see to their marks (knobs_seen)
  // not a fault: it loads
  kManyDevices,  // one device more than a registry holds
};
constexpr Fault kFault = FAULT;

// An op id past every known one, so the core cannot have it.
constexpr uint32_t kUnknownOpId = 99;
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

// The host table of the latest init, for error messages outside an op call (several runtimes
// may init the plugin, from several threads).
std::atomic<const vt_host_api*> g_host{nullptr};

uint32_t device_count() {
  if (kFault == kEnumerationThrows) throw std::runtime_error("fault plugin enumeration exploded");
  return kFault == kManyDevices ? vt::Registry::kMaxDevices + 1 : 1;
}

vt_status device_props(uint32_t device, vt_device_props* out) {
  if (device >= device_count() || !out) return VT_STATUS_INVALID_ARGUMENT;
  if (kFault == kPropsFail)
    return fail(g_host.load(), VT_STATUS_INTERNAL, FAULT_BACKEND ": the properties are unreadable");
  const uint32_t size = out->struct_size;
  std::memset(out, 0, size < sizeof *out ? size : sizeof *out);
  out->struct_size = size;
  std::strcpy(out->name, FAULT_BACKEND " test device");
  std::strcpy(out->arch, "test");
  out->memory_bytes = 1u << 20;
  out->subgroup_size = 1;
  out->caps = VT_CAP_UNIFIED_MEMORY | VT_CAP_GRAPH_CAPTURE;
  return VT_OK;
}

vt_status mem_alloc(uint32_t device, uint64_t bytes, vt_mem* out) {
  if (device >= device_count() || !out) return VT_STATUS_INVALID_ARGUMENT;
  *out = static_cast<vt_mem>(std::calloc(1, bytes));
  return *out ? VT_OK : VT_STATUS_OUT_OF_MEMORY;
}

void mem_free(uint32_t, vt_mem mem) { std::free(mem); }
void* mem_host_ptr(vt_mem mem) { return mem; }
char* at(vt_mem mem, uint64_t offset) { return reinterpret_cast<char*>(mem) + offset; }

vt_status host_alloc(uint32_t device, uint64_t bytes, void** out) {
  if (kFault == kDeviceAbi10)
    return fail(g_host.load(), VT_STATUS_INTERNAL, FAULT_BACKEND ": host_alloc is past this ABI 1.0 table's end");
  if (device >= device_count() || !out) return VT_STATUS_INVALID_ARGUMENT;
  if (bytes > kHostAllocMax)
    return fail(g_host.load(), VT_STATUS_OUT_OF_MEMORY, FAULT_BACKEND ": host_alloc over 1 MiB");
  *out = std::aligned_alloc(64, (bytes + 63) / 64 * 64);  // freed by host_free alone (LeakSanitizer sees a miss)
  return *out ? VT_OK : VT_STATUS_OUT_OF_MEMORY;
}
void host_free(uint32_t, void* p) { std::free(p); }

}  // namespace

// A provider's marks: written at once, or recorded while the queue captures and written by
// each launch of the graph.
struct Marks {
  int32_t* p;
  int64_t n, stride;
  int32_t value;
  void write() const {
    for (int64_t i = 0; i < n; ++i) p[i * stride] = value;
  }
};
struct vt_queue_s {
  bool capturing = false;
  std::vector<Marks> recorded;
};
struct vt_event_s {};
struct vt_graph_s {
  std::vector<Marks> work;
};

namespace {

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

vt_status capture_begin(vt_queue q) {
  if (q->capturing)
    return fail(g_host.load(), VT_STATUS_INVALID_ARGUMENT, FAULT_BACKEND ": the queue is capturing already");
  q->capturing = true;
  q->recorded.clear();
  return VT_OK;
}
vt_status capture_end(vt_queue q, vt_graph* out) {
  if (!q->capturing)
    return fail(g_host.load(), VT_STATUS_INVALID_ARGUMENT, FAULT_BACKEND ": the queue is not capturing");
  q->capturing = false;
  *out = new (std::nothrow) vt_graph_s{std::move(q->recorded)};
  return *out ? VT_OK : VT_STATUS_OUT_OF_MEMORY;
}
vt_status graph_launch(vt_graph g, vt_queue q) {
  if (q->capturing)
    return fail(g_host.load(), VT_STATUS_INVALID_ARGUMENT, FAULT_BACKEND ": no graph launch into a capture");
  for (const Marks& m : g->work) m.write();
  return VT_OK;
}
void graph_destroy(vt_graph g) { delete g; }  // LeakSanitizer reports a graph never destroyed

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
  d.capture_begin = capture_begin;
  d.capture_end = capture_end;
  d.graph_launch = graph_launch;
  d.graph_destroy = graph_destroy;
  d.host_alloc = host_alloc;
  d.host_free = host_free;
  switch (kFault) {
    case kDeviceAbiMajor: d.abi_major = 2; break;
    case kDeviceShortTable: d.struct_size = static_cast<uint32_t>(offsetof(vt_device_api, event_sync)); break;
    case kDeviceNoEventSync: d.event_sync = nullptr; break;
    case kDeviceAbi10:
      d.abi_minor = 0;
      d.struct_size = VT_DEVICE_API_V1_SIZE;
      break;
    case kHostAllocOnly: d.host_free = nullptr; break;
    case kCaptureHalf: d.graph_destroy = nullptr; break;
    case kCaptureClaimOnly:
      d.capture_begin = nullptr;
      d.capture_end = nullptr;
      d.graph_launch = nullptr;
      d.graph_destroy = nullptr;
      break;
    default: break;
  }
  return d;
}();

// The providers take a rank-1 i32 vt_tensor as their args (not an ops/ struct: they only
// report who ran) and fill it with their mark.
vt_status mark(const vt_op_call* call, int32_t value) {
  const auto* t = static_cast<const vt_tensor*>(call->args);
  if (!t || !t->mem || t->dtype != VT_DTYPE_I32 || t->rank != 1)
    return fail(call->host, VT_STATUS_INVALID_ARGUMENT, FAULT_BACKEND ": expects a rank-1 i32 tensor");
  const Marks m{reinterpret_cast<int32_t*>(at(t->mem, t->offset)), t->shape[0], t->strides[0], value};
  if (call->queue->capturing) call->queue->recorded.push_back(m);
  else m.write();
  return VT_OK;
}

// kKnobProbe: which of two knobs the provider's host table answers, added to its mark ("fast"
// declares VT_CONV_REG alone; "ref" has an ABI 1.1 descriptor, which sees every knob).
int32_t knobs_seen(const vt_op_call* call) {
  if (kFault != kKnobProbe) return 0;
  int64_t v = 0;
  return (vt_host_knob_int(call->host, "VT_CONV_REG", &v) ? 10 : 0) +
         (vt_host_knob_int(call->host, "VT_CONV_GUIDED", &v) ? 100 : 0);
}

vt_status run_fast(const vt_op_call* call) {
  const auto* t = static_cast<const vt_tensor*>(call->args);
  if (t && t->shape[0] > kFastMaxElems) return VT_STATUS_DECLINED;
  return mark(call, kFastMark + knobs_seen(call));
}
vt_status run_ref(const vt_op_call* call) { return mark(call, kRefMark + knobs_seen(call)); }

vt_provider_desc provider(vt_op_id op, const char* name, int32_t priority, vt_status (*run)(const vt_op_call*)) {
  vt_provider_desc d{};
  d.struct_size = sizeof d;
  d.op = op;
  d.name = name;
  d.priority = priority;
  d.run = run;
  return d;
}

vt_provider_desc unknown_op_provider() {
  vt_provider_desc d = provider(VT_OP_L2NORM, "from-the-future", 5, run_ref);
  // Copied in as raw bytes: the value is no enumerator of vt_op_id.
  static_assert(sizeof d.op == sizeof kUnknownOpId);
  std::memcpy(&d.op, &kUnknownOpId, sizeof kUnknownOpId);
  return d;
}

struct Providers {
  vt_provider_desc list[3];
  uint32_t count;
};

// The first provider's knob lists (vt_provider_desc::knobs) in the knob faults.
const char* const kRegKnob[] = {"VT_CONV_REG", nullptr};
const char* const kEmptyKnobName[] = {"VT_CONV_REG", "", nullptr};
const char* const kUnknownKnob[] = {"VT_NO_SUCH_KNOB", "VT_VULKAN_DEVICE", nullptr};
const auto kManyKnobs = [] {
  std::array<const char*, 34> k{};
  k.fill("VT_CONV_REG");
  k.back() = nullptr;
  return k;
}();

const Providers kProviders = [] {
  Providers p{{provider(VT_OP_L2NORM, "fast", 10, run_fast), provider(VT_OP_L2NORM, "ref", 0, run_ref), {}}, 2};
  switch (kFault) {
    case kKnobEmptyName: p.list[0].knobs = kEmptyKnobName; break;
    case kKnobsTooMany: p.list[0].knobs = kManyKnobs.data(); break;
    case kKnobUnknown: p.list[0].knobs = kUnknownKnob; break;
    case kKnobProbe:
      p.list[0].knobs = kRegKnob;
      p.list[1].struct_size = VT_PROVIDER_DESC_V1_SIZE;
      break;
    case kUnknownOp: p.list[p.count++] = unknown_op_provider(); break;
    case kProviderShort: p.list[0].struct_size = 4; break;
    case kProviderNoName: p.list[1].name = nullptr; break;
    case kProviderNoRun: p.list[1].run = nullptr; break;
    case kProviderTwice: p.list[p.count++] = provider(VT_OP_L2NORM, "ref", 1, run_ref); break;
    default: break;
  }
  return p;
}();

vt_init_result init(const vt_host_api* host, char* reason, size_t reason_size) {
  g_host.store(host);
  switch (kFault) {
    case kInitUnavailable: std::strncpy(reason, "no test device", reason_size - 1); return VT_INIT_UNAVAILABLE;
    case kInitFailed: std::strncpy(reason, "test device is broken", reason_size - 1); return VT_INIT_FAILED;
    case kInitThrows: throw std::runtime_error("fault plugin init exploded");
    case kInitThrowsOther: throw 7;
    case kInitUnknownResult: return static_cast<vt_init_result>(7);
    default: return VT_INIT_READY;
  }
}

// A table from a newer minor version: the same prefix, one entry more at the end.
struct PluginApiNext {
  vt_plugin_api v1;
  void (*future_entry)(void);
};

const PluginApiNext kApi = [] {
  PluginApiNext a{};
  a.v1.abi_major = kFault == kAbiMajor ? 2 : VT_ABI_MAJOR;
  a.v1.abi_minor = VT_ABI_MINOR;
  a.v1.struct_size = sizeof a.v1;
#ifdef FAULT_NEWER_MINOR
  a.v1.abi_minor = VT_ABI_MINOR + 1;
  a.v1.struct_size = sizeof a;
  a.future_entry = [] {};
#endif
  if (kFault == kShortTable) a.v1.struct_size = static_cast<uint32_t>(offsetof(vt_plugin_api, provider_count));
  a.v1.backend_name = kFault == kBadName ? "Fault Bad" : FAULT_BACKEND;
  a.v1.init = kFault == kNoInit ? nullptr : init;
  a.v1.devices = kFault == kNoDeviceTable ? nullptr : &kDevices;
  a.v1.provider_count = kProviders.count;
  a.v1.providers = kFault == kNoProviderList ? nullptr : kProviders.list;
  return a;
}();

}  // namespace

extern "C" VT_PLUGIN_EXPORT VT_PLUGIN_ENTRY_DECL {
  (void)core_abi_major;
  (void)core_abi_minor;
  if (kFault == kEntryNull) return nullptr;
  if (kFault == kEntryThrows) throw std::runtime_error("fault plugin entry exploded");
  if (kFault == kEntryThrowsOther) throw 7;
  return &kApi.v1;
}
