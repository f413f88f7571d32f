// Device properties as the core sees them: names, limits and capability bits. Limits that
// have no field of their own (push constants, binding range and alignment) are logged.
#include <algorithm>
#include <cstring>

#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

// Copies text into a fixed field, cut to fit (the fields are for people).
template <size_t N>
void put(char (&field)[N], const std::string& text) {
  const size_t n = std::min(text.size(), N - 1);
  std::memcpy(field, text.data(), n);
  field[n] = '\0';
}

}  // namespace

void read_properties(Device& d) {
  auto v12 = vk_struct<VkPhysicalDeviceVulkan12Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
  auto v11 = vk_struct<VkPhysicalDeviceVulkan11Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES);
  v11.pNext = &v12;
  auto p2 = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  p2.pNext = &v11;
  vk.vkGetPhysicalDeviceProperties2(d.physical, &p2);
  const VkPhysicalDeviceProperties& p = p2.properties;
  const VkPhysicalDeviceLimits& l = p.limits;

  d.bind_alignment = std::max<uint64_t>(l.minStorageBufferOffsetAlignment, 4);
  d.max_binding_range = l.maxStorageBufferRange;
  d.max_allocation = v11.maxMemoryAllocationSize;
  d.denorm_preserve = v12.shaderDenormPreserveFloat32 != VK_FALSE;
  std::copy(l.maxComputeWorkGroupCount, l.maxComputeWorkGroupCount + 3, d.max_groups);
  d.timestamp_period_ns = l.timestampPeriod;
  uint32_t n = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(d.physical, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(d.physical, &n, families.data());
  d.timestamp_bits = families[d.family].timestampValidBits;

  VkPhysicalDeviceMemoryProperties mem{};
  vk.vkGetPhysicalDeviceMemoryProperties(d.physical, &mem);
  uint64_t local = 0;
  for (uint32_t i = 0; i < mem.memoryHeapCount; ++i)
    if (mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) local += mem.memoryHeaps[i].size;

  vt_device_props& out = d.props;
  out = {};
  out.struct_size = sizeof out;
  put(out.name, p.deviceName);
  // The driver names the implementation (llvmpipe, NVIDIA, radv, ...); its info the version.
  put(out.arch, std::string(v12.driverName) + " " + v12.driverInfo);
  out.memory_bytes = local;
  out.shared_memory_bytes = l.maxComputeSharedMemorySize;
  out.compute_major = VK_API_VERSION_MAJOR(p.apiVersion);
  out.compute_minor = VK_API_VERSION_MINOR(p.apiVersion);
  out.compute_units = 0;  // core Vulkan does not report it
  out.subgroup_size = v11.subgroupSize;
  out.caps = VT_CAP_16BIT_STORAGE | VT_CAP_ASYNC_READBACK;  // 16-bit storage is required to list a device
  if (d.device_type_mapped) out.caps |= VT_CAP_UNIFIED_MEMORY;
  if (d.queues.size() > 1) out.caps |= VT_CAP_SECOND_QUEUE;

  log(3, d.label + ": subgroup " + std::to_string(v11.subgroupSize) + ", shared memory " +
             std::to_string(l.maxComputeSharedMemorySize) + ", push constants " +
             std::to_string(l.maxPushConstantsSize) + ", storage binding range " +
             std::to_string(l.maxStorageBufferRange) + ", binding alignment " +
             std::to_string(l.minStorageBufferOffsetAlignment) + ", " + std::to_string(d.queues.size()) +
             " queue(s), timestamps " + std::to_string(d.timestamp_bits) + " bits");
}

vt_status device_props(uint32_t device, vt_device_props* out) {
  Device* d = device_at(device);
  if (!d || !out) return fail(VT_STATUS_INVALID_ARGUMENT, "vulkan: device_props: no such device");
  // Whether subnormals survive is known only by running the arithmetic probe, which also picks
  // the shader build; a host reads the properties once, at load.
  shader_build(*d);
  if (d->flushes_subnormals) d->props.caps |= VT_CAP_FLUSHES_SUBNORMALS;
  // Copy only what the caller's (possibly older) struct has room for.
  const uint32_t room = out->struct_size && out->struct_size < sizeof d->props ? out->struct_size
                                                                               : static_cast<uint32_t>(sizeof d->props);
  std::memcpy(out, &d->props, room);
  out->struct_size = room;
  return VT_OK;
}

}  // namespace vt::vulkan
