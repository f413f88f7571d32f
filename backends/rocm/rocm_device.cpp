// The ROCm devices: count, properties, device memory and page-locked host memory.
#include <algorithm>
#include <cstring>

#include "rocm_backend.hpp"

namespace vt::rocm {
namespace {

uint32_t device_count() {
  int n = 0;
  if (hipGetDeviceCount(&n) != hipSuccess) {
    (void)hipGetLastError();
    return 0;
  }
  return static_cast<uint32_t>(n);
}

// Copies `src` up to the first character of `stop` (or its end), truncated to fit `dst`.
// gcnArchName carries target features after the chip ("gfx90a:sramecc+:xnack-"); the
// architecture is the chip.
void copy_until(char* dst, size_t size, const char* src, const char* stop) {
  const size_t len = std::min(std::strcspn(src, stop), size - 1);
  std::memcpy(dst, src, len);
  dst[len] = '\0';
}

vt_status device_props(uint32_t device, vt_device_props* out) {
  hipDeviceProp_t p{};
  VT_HIP_TRY(hipGetDeviceProperties(&p, static_cast<int>(device)), "hipGetDeviceProperties");
  vt_device_props d{};
  d.struct_size = sizeof d;
  copy_until(d.name, sizeof d.name, p.name, "");
  copy_until(d.arch, sizeof d.arch, p.gcnArchName, ":");
  d.memory_bytes = p.totalGlobalMem;
  d.shared_memory_bytes = p.sharedMemPerBlock;
  d.compute_major = static_cast<uint32_t>(p.major);
  d.compute_minor = static_cast<uint32_t>(p.minor);
  d.compute_units = static_cast<uint32_t>(p.multiProcessorCount);
  d.subgroup_size = static_cast<uint32_t>(p.warpSize);  // 64 on CDNA, 32 on RDNA
  d.caps = VT_CAP_ASYNC_READBACK | VT_CAP_SECOND_QUEUE | VT_CAP_GRAPH_CAPTURE | VT_CAP_16BIT_STORAGE;
  if (p.integrated) d.caps |= VT_CAP_UNIFIED_MEMORY;
  const uint32_t n =
      out->struct_size && out->struct_size < sizeof d ? out->struct_size : static_cast<uint32_t>(sizeof d);
  std::memcpy(out, &d, n);
  out->struct_size = n;
  return VT_OK;
}

vt_status mem_alloc(uint32_t device, uint64_t bytes, vt_mem* out) {
  if (const vt_status s = use_device(static_cast<int>(device)); s != VT_OK) return s;
  void* p = nullptr;
  const hipError_t err = hipMalloc(&p, bytes);
  if (err == hipErrorOutOfMemory) {
    (void)hipGetLastError();
    return fail(VT_STATUS_OUT_OF_MEMORY,
                "rocm: hipMalloc of " + std::to_string(bytes) + " bytes: out of device memory");
  }
  VT_HIP_TRY(err, "hipMalloc");
  *out = static_cast<vt_mem>(p);
  return VT_OK;
}

void mem_free(uint32_t device, vt_mem mem) {
  if (use_device(static_cast<int>(device)) == VT_OK) (void)hipFree(mem);
}

// Page-locked and portable (every device's copies use it without staging), page-aligned.
vt_status host_alloc(uint32_t device, uint64_t bytes, void** out) {
  if (const vt_status s = use_device(static_cast<int>(device)); s != VT_OK) return s;
  void* p = nullptr;
  const hipError_t err = hipHostMalloc(&p, bytes, hipHostMallocPortable);
  if (err == hipErrorOutOfMemory) {
    (void)hipGetLastError();
    return fail(VT_STATUS_OUT_OF_MEMORY,
                "rocm: hipHostMalloc of " + std::to_string(bytes) + " bytes: out of page-locked host memory");
  }
  VT_HIP_TRY(err, "hipHostMalloc");
  *out = p;
  return VT_OK;
}

void host_free(uint32_t device, void* p) {
  if (use_device(static_cast<int>(device)) == VT_OK) (void)hipHostFree(p);
}

}  // namespace

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
  d.host_alloc = host_alloc;
  d.host_free = host_free;
  fill_queue_entries(d);
  return d;
}();

}  // namespace vt::rocm
