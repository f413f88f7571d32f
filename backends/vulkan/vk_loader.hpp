// The Vulkan entry points the plugin calls, loaded at run time from the system's Vulkan
// loader (dlopen), so the plugin links no Vulkan library and loads on machines without one.
#pragma once
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <set>
#include <string>

namespace vt::vulkan {

// X-macro lists: global entry points, then everything resolved through the instance.
#define VT_VK_GLOBAL_FUNCTIONS(X) \
  X(vkCreateInstance)             \
  X(vkEnumerateInstanceVersion)   \
  X(vkEnumerateInstanceExtensionProperties)

#define VT_VK_INSTANCE_FUNCTIONS(X)           \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkEnumerateDeviceExtensionProperties)     \
  X(vkCreateDevice)                           \
  X(vkDestroyDevice)                          \
  X(vkGetDeviceQueue)                         \
  X(vkDeviceWaitIdle)                         \
  X(vkQueueSubmit)                            \
  X(vkCreateBuffer)                           \
  X(vkDestroyBuffer)                          \
  X(vkGetBufferMemoryRequirements)            \
  X(vkAllocateMemory)                         \
  X(vkFreeMemory)                             \
  X(vkBindBufferMemory)                       \
  X(vkMapMemory)                              \
  X(vkCreateCommandPool)                      \
  X(vkDestroyCommandPool)                     \
  X(vkAllocateCommandBuffers)                 \
  X(vkResetCommandBuffer)                     \
  X(vkBeginCommandBuffer)                     \
  X(vkEndCommandBuffer)                       \
  X(vkCreateSemaphore)                        \
  X(vkDestroySemaphore)                       \
  X(vkWaitSemaphores)                         \
  X(vkGetSemaphoreCounterValue)               \
  X(vkCreateQueryPool)                        \
  X(vkDestroyQueryPool)                       \
  X(vkGetQueryPoolResults)                    \
  X(vkCreateShaderModule)                     \
  X(vkDestroyShaderModule)                    \
  X(vkCreatePipelineCache)                    \
  X(vkDestroyPipelineCache)                   \
  X(vkDestroyPipeline)                        \
  X(vkDestroyPipelineLayout)                  \
  X(vkDestroyDescriptorSetLayout)             \
  X(vkCreateComputePipelines)                 \
  X(vkCreatePipelineLayout)                   \
  X(vkCreateDescriptorSetLayout)              \
  X(vkCreateDescriptorPool)                   \
  X(vkDestroyDescriptorPool)                  \
  X(vkResetDescriptorPool)                    \
  X(vkAllocateDescriptorSets)                 \
  X(vkUpdateDescriptorSets)                   \
  X(vkCmdBindPipeline)                        \
  X(vkCmdBindDescriptorSets)                  \
  X(vkCmdPushConstants)                       \
  X(vkCmdDispatch)                            \
  X(vkCmdPipelineBarrier)                     \
  X(vkCmdCopyBuffer)                          \
  X(vkCmdFillBuffer)                          \
  X(vkCmdResetQueryPool)                      \
  X(vkCmdWriteTimestamp)

struct Functions {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define VT_VK_MEMBER(name) PFN_##name name = nullptr;
  VT_VK_GLOBAL_FUNCTIONS(VT_VK_MEMBER)
  VT_VK_INSTANCE_FUNCTIONS(VT_VK_MEMBER)
#undef VT_VK_MEMBER
};

// A Vulkan structure with its type set and every other member zero.
template <class T>
T vk_struct(VkStructureType type) {
  T v{};
  v.sType = type;
  return v;
}

// The table; filled by load_loader() and load_instance_functions().
extern Functions vk;

// Opens the loader library and resolves the global entry points. On failure returns false
// with the reason ("no Vulkan loader: <dlerror text>").
bool load_loader(std::string* why);
// Resolves every instance-level and device-level entry point through `instance`.
bool load_instance_functions(VkInstance instance, std::string* why);

// The shared objects mapped into the process now, by path.
std::set<std::string> loaded_objects();
// Keeps every shared object mapped since `before` (the drivers and layers the loader opened)
// mapped until the process exits, as the loader library and this plugin are.
void keep_loaded_since(const std::set<std::string>& before);

}  // namespace vt::vulkan
