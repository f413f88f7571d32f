// The CPU device table: the host as one device, with host memory and synchronous queues.
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>

#include "cpu_backend.hpp"

struct vt_queue_s {};  // a synchronous queue carries no state
struct vt_event_s {
  std::chrono::steady_clock::time_point when;
  bool recorded = false;
};

namespace vt::cpu {
namespace {

std::atomic<const vt_host_api*> g_host{nullptr};

constexpr size_t kAlignment = 64;

void read_model_name(char* out, size_t size) {
  std::snprintf(out, size, "host CPU");
  FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "model name", 10) != 0) continue;
    const char* colon = std::strchr(line, ':');
    if (!colon) break;
    colon += (colon[1] == ' ') ? 2 : 1;
    const size_t len = std::min(std::strcspn(colon, "\n"), size - 1);
    std::memcpy(out, colon, len);
    out[len] = '\0';
    break;
  }
  std::fclose(f);
}

uint32_t device_count() { return 1; }

vt_status device_props(uint32_t device, vt_device_props* out) {
  if (device != 0 || !out) return fail(VT_STATUS_INVALID_ARGUMENT, "cpu: device_props: no such device");
  vt_device_props p{};
  p.struct_size = sizeof p;
  read_model_name(p.name, sizeof p.name);
  utsname u{};
  const char* machine = uname(&u) == 0 ? u.machine : "unknown";
  std::memcpy(p.arch, machine, std::min(std::strlen(machine), sizeof p.arch - 1));
  p.memory_bytes = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  p.compute_units = std::thread::hardware_concurrency();
  p.subgroup_size = 1;
  p.caps = VT_CAP_UNIFIED_MEMORY | VT_CAP_SECOND_QUEUE | VT_CAP_16BIT_STORAGE;
  // Copy only what the caller's (possibly older) struct has room for.
  const uint32_t n =
      out->struct_size && out->struct_size < sizeof p ? out->struct_size : static_cast<uint32_t>(sizeof p);
  std::memcpy(out, &p, n);
  out->struct_size = n;
  return VT_OK;
}

vt_status mem_alloc(uint32_t device, uint64_t bytes, vt_mem* out) {
  if (device != 0 || !out) return fail(VT_STATUS_INVALID_ARGUMENT, "cpu: mem_alloc: no such device");
  const uint64_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded < bytes) return fail(VT_STATUS_OUT_OF_MEMORY, "cpu: mem_alloc: size overflows");
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (!p) return fail(VT_STATUS_OUT_OF_MEMORY, "cpu: mem_alloc: host allocation failed");
  *out = static_cast<vt_mem>(p);
  return VT_OK;
}

void mem_free(uint32_t, vt_mem mem) { std::free(mem); }

void* mem_host_ptr(vt_mem mem) { return mem; }

char* at(vt_mem mem, uint64_t offset) { return reinterpret_cast<char*>(mem) + offset; }

vt_status queue_create(uint32_t device, vt_queue* out) {
  if (device != 0 || !out) return fail(VT_STATUS_INVALID_ARGUMENT, "cpu: queue_create: no such device");
  *out = new (std::nothrow) vt_queue_s;
  return *out ? VT_OK : fail(VT_STATUS_OUT_OF_MEMORY, "cpu: queue_create: out of memory");
}

void queue_destroy(vt_queue q) { delete q; }
vt_status queue_sync(vt_queue) { return VT_OK; }  // work ran when it was enqueued

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
  std::memmove(at(dst, dst_offset), at(src, src_offset), bytes);  // ranges of one buffer may overlap
  return VT_OK;
}

vt_status event_create(uint32_t device, vt_event* out) {
  if (device != 0 || !out) return fail(VT_STATUS_INVALID_ARGUMENT, "cpu: event_create: no such device");
  *out = new (std::nothrow) vt_event_s;
  return *out ? VT_OK : fail(VT_STATUS_OUT_OF_MEMORY, "cpu: event_create: out of memory");
}

void event_destroy(vt_event e) { delete e; }

vt_status event_record(vt_event e, vt_queue) {
  e->when = std::chrono::steady_clock::now();
  e->recorded = true;
  return VT_OK;
}

vt_status queue_wait_event(vt_queue, vt_event) { return VT_OK; }
vt_status event_sync(vt_event) { return VT_OK; }

vt_status event_elapsed_ms(vt_event start, vt_event end, float* ms) {
  if (!start->recorded || !end->recorded)
    return fail(VT_STATUS_INVALID_ARGUMENT, "cpu: event_elapsed_ms: an event was never recorded");
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return VT_OK;
}

}  // namespace

vt_status fail(vt_status status, const char* message) {
  if (const vt_host_api* h = g_host.load()) h->set_error(message);
  return status;
}

void set_host(const vt_host_api* host) { g_host.store(host); }

const vt_device_api kDeviceApi = [] {
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
  return d;  // no graph capture: the entries stay null
}();

}  // namespace vt::cpu
