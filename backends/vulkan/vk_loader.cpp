// Loading the Vulkan loader library and its entry points at run time.
#include "vk_loader.hpp"

#include <dlfcn.h>
#include <link.h>

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
#define VT_VK_LOAD_GLOBAL(name) vk.name = reinterpret_cast<PFN_##name>(vk.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name));
  VT_VK_GLOBAL_FUNCTIONS(VT_VK_LOAD_GLOBAL)
#undef VT_VK_LOAD_GLOBAL
  if (!vk.vkCreateInstance) {
    *why = "no Vulkan loader: vkCreateInstance is missing";
    return false;
  }
  return true;
}

std::set<std::string> loaded_objects() {
  std::set<std::string> names;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        if (info->dlpi_name && info->dlpi_name[0]) static_cast<std::set<std::string>*>(out)->insert(info->dlpi_name);
        return 0;
      },
      &names);
  return names;
}

// A driver's static allocations live as long as it stays mapped: unloaded at vkDestroyInstance,
// they are orphaned, and LeakSanitizer reports them as leaks of an unknown module (seen with
// Mesa's lavapipe on an AMD host: every Vulkan test of the ASan build failed).
// RTLD_NOLOAD with RTLD_NODELETE marks an object already loaded as never to be unloaded.
void keep_loaded_since(const std::set<std::string>& before) {
  for (const std::string& name : loaded_objects()) {
    if (before.count(name)) continue;
    if (void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE)) dlclose(h);
  }
}

bool load_instance_functions(VkInstance instance, std::string* why) {
#define VT_VK_LOAD_INSTANCE(name)                                                    \
  vk.name = reinterpret_cast<PFN_##name>(vk.vkGetInstanceProcAddr(instance, #name)); \
  if (!vk.name) {                                                                    \
    *why = "the Vulkan loader lacks " #name;                                         \
    return false;                                                                    \
  }
  VT_VK_INSTANCE_FUNCTIONS(VT_VK_LOAD_INSTANCE)
#undef VT_VK_LOAD_INSTANCE
  return true;
}

}  // namespace vt::vulkan
