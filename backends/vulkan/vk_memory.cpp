// Memory: tensors live in device-local buffers (mapped when that memory is also host-visible,
// as on lavapipe and integrated GPUs); staging and parameter blocks live in host-visible
// buffers. Every buffer is one allocation; sizes are whole 32-bit words, the shaders' unit.
#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

constexpr VkMemoryPropertyFlags kHostFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
constexpr VkBufferUsageFlags kUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

VkPhysicalDeviceMemoryProperties memory_properties(const Device& d) {
  VkPhysicalDeviceMemoryProperties m{};
  vk.vkGetPhysicalDeviceMemoryProperties(d.physical, &m);
  return m;
}

// The preferred type if `allowed` has it, else the first allowed type with all of `need`.
int pick_type(const VkPhysicalDeviceMemoryProperties& m, uint32_t allowed, uint32_t preferred,
              VkMemoryPropertyFlags need) {
  if (allowed & (1u << preferred)) return static_cast<int>(preferred);
  for (uint32_t i = 0; i < m.memoryTypeCount; ++i)
    if ((allowed & (1u << i)) && (m.memoryTypes[i].propertyFlags & need) == need) return static_cast<int>(i);
  return -1;
}

struct Allocation {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
};

vt_status allocate(Device& d, uint64_t bytes, uint32_t preferred, VkMemoryPropertyFlags need, bool map,
                   Allocation* out) {
  auto bi = vk_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bi.size = bytes;
  bi.usage = kUsage;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  Allocation a;
  if (const vt_status s = check(vk.vkCreateBuffer(d.device, &bi, nullptr, &a.buffer), "vkCreateBuffer"); s != VT_OK)
    return s;
  VkMemoryRequirements req{};
  vk.vkGetBufferMemoryRequirements(d.device, a.buffer, &req);
  const VkPhysicalDeviceMemoryProperties props = memory_properties(d);
  const int type = pick_type(props, req.memoryTypeBits, preferred, need);
  vt_status s = VT_OK;
  if (type < 0) {
    s = fail(VT_STATUS_OUT_OF_MEMORY, "vulkan: no memory type for a buffer of " + std::to_string(bytes) + " bytes");
  } else {
    auto ai = vk_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = static_cast<uint32_t>(type);
    s = check(vk.vkAllocateMemory(d.device, &ai, nullptr, &a.memory), "vkAllocateMemory");
    if (s == VT_OK) s = check(vk.vkBindBufferMemory(d.device, a.buffer, a.memory, 0), "vkBindBufferMemory");
    const bool host_visible = (props.memoryTypes[type].propertyFlags & kHostFlags) == kHostFlags;
    if (s == VT_OK && map && host_visible)
      s = check(vk.vkMapMemory(d.device, a.memory, 0, VK_WHOLE_SIZE, 0, &a.mapped), "vkMapMemory");
  }
  if (s != VT_OK) {
    if (a.memory) vk.vkFreeMemory(d.device, a.memory, nullptr);
    vk.vkDestroyBuffer(d.device, a.buffer, nullptr);
    return s;
  }
  *out = a;
  return VT_OK;
}

uint64_t whole_words(uint64_t bytes) { return bytes < 4 ? 4 : (bytes + 3) / 4 * 4; }

}  // namespace

void choose_memory_types(Device& d) {
  const VkPhysicalDeviceMemoryProperties m = memory_properties(d);
  // Tensors: device-local memory of the largest device-local heap.
  uint64_t best_heap = 0;
  d.device_type = 0;
  for (uint32_t i = 0; i < m.memoryTypeCount; ++i) {
    const VkMemoryType& t = m.memoryTypes[i];
    if (!(t.propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) continue;
    const uint64_t heap = m.memoryHeaps[t.heapIndex].size;
    if (heap > best_heap) {
      best_heap = heap;
      d.device_type = i;
    }
  }
  d.device_type_mapped = (m.memoryTypes[d.device_type].propertyFlags & kHostFlags) == kHostFlags;
  // Staging: host-visible and coherent, cached where offered (read-backs are read by the CPU).
  int host = -1;
  for (uint32_t i = 0; i < m.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags f = m.memoryTypes[i].propertyFlags;
    if ((f & kHostFlags) != kHostFlags) continue;
    if (host < 0 || (f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT)) host = static_cast<int>(i);
    if (f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) break;
  }
  d.host_type = host < 0 ? 0 : static_cast<uint32_t>(host);
}

vt_status create_host_buffer(Device& d, uint64_t bytes, HostBuffer* out) {
  Allocation a;
  if (const vt_status s = allocate(d, whole_words(bytes), d.host_type, kHostFlags, true, &a); s != VT_OK) return s;
  if (!a.mapped) {
    HostBuffer unmapped{a.buffer, a.memory, nullptr, 0};
    destroy_host_buffer(d, unmapped);
    return fail(VT_STATUS_INTERNAL, "vulkan: staging memory is not host-visible");
  }
  *out = HostBuffer{a.buffer, a.memory, a.mapped, bytes};
  return VT_OK;
}

void destroy_host_buffer(Device& d, HostBuffer& b) {
  if (b.buffer) vk.vkDestroyBuffer(d.device, b.buffer, nullptr);
  if (b.memory) vk.vkFreeMemory(d.device, b.memory, nullptr);  // unmaps as well
  b = HostBuffer{};
}

vt_status mem_alloc(uint32_t device, uint64_t bytes, vt_mem* out) {
  Device* d = device_at(device);
  if (!d || !out) return fail(VT_STATUS_INVALID_ARGUMENT, "vulkan: mem_alloc: no such device");
  if (closed()) return closed_error("mem_alloc");
  const uint64_t size = whole_words(bytes);
  if (size < bytes || (d->max_allocation && size > d->max_allocation))
    return fail(VT_STATUS_OUT_OF_MEMORY, "vulkan: mem_alloc: " + std::to_string(bytes) +
                                             " bytes exceed the device's largest allocation (" +
                                             std::to_string(d->max_allocation) + ")");
  Allocation a;
  if (const vt_status s = allocate(*d, size, d->device_type, 0, true, &a); s != VT_OK) return s;
  *out = new vt_mem_s{d, a.buffer, a.memory, size, a.mapped};
  std::lock_guard<std::mutex> lock(d->live_lock);
  d->live_mems.insert(*out);
  return VT_OK;
}

void release_mem(Device& d, vt_mem mem) {
  if (mem->buffer) vk.vkDestroyBuffer(d.device, mem->buffer, nullptr);
  if (mem->memory) vk.vkFreeMemory(d.device, mem->memory, nullptr);
  mem->buffer = VK_NULL_HANDLE;
  mem->memory = VK_NULL_HANDLE;
  mem->mapped = nullptr;
}

void mem_free(uint32_t, vt_mem mem) {
  if (!mem) return;
  Device& d = *mem->device;
  if (!closed()) {
    // Work already enqueued may still use the buffer: let every queue of the device finish.
    std::lock_guard<std::mutex> lock(d.live_lock);
    for (vt_queue q : d.live_queues) queue_sync(q);
    release_mem(d, mem);
    d.live_mems.erase(mem);
  }
  delete mem;
}

void* mem_host_ptr(vt_mem mem) { return mem ? mem->mapped : nullptr; }

}  // namespace vt::vulkan
