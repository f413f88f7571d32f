// Loading the Vulkan loader library and its entry points at run time.
#include "vk_loader.hpp"

#include <dlfcn.h>

namespace vt::vulkan {

Functions vk;

bool load_loader(std::string* why) {
  // Never closed: the plugin itself is never unloaded either.
  void* lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* err = dlerror();
    *why = std::string("no Vulkan loader: ") + (err ? err : "dlopen failed");
    return false;
  }
  vk.vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(lib, "vkGetInstanceProcAddr"));
  if (!vk.vkGetInstanceProcAddr) {
    *why = "no Vulkan loader: libvulkan.so.1 lacks vkGetInstanceProcAddr";
    return false;
  }
#define VT_VK_LOAD_GLOBAL(name) \
  vk.name = reinterpret_cast<PFN_##name>(vk.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name));
  VT_VK_GLOBAL_FUNCTIONS(VT_VK_LOAD_GLOBAL)
#undef VT_VK_LOAD_GLOBAL
  if (!vk.vkCreateInstance) {
    *why = "no Vulkan loader: vkCreateInstance is missing";
    return false;
  }
  return true;
}

bool load_instance_functions(VkInstance instance, std::string* why) {
#define VT_VK_LOAD_INSTANCE(name)                                                      \
  vk.name = reinterpret_cast<PFN_##name>(vk.vkGetInstanceProcAddr(instance, #name));  \
  if (!vk.name) {                                                                      \
    *why = "the Vulkan loader lacks " #name;                                           \
    return false;                                                                      \
  }
  VT_VK_INSTANCE_FUNCTIONS(VT_VK_LOAD_INSTANCE)
#undef VT_VK_LOAD_INSTANCE
  return true;
}

}  // namespace vt::vulkan
