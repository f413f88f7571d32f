// Errors and logging: the core's host table, status codes from VkResult, result names.
#include <atomic>

#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

std::atomic<const vt_host_api*> g_host{nullptr};

}  // namespace

void set_host(const vt_host_api* h) { g_host.store(h); }
const vt_host_api* host() { return g_host.load(); }

void log(int level, const std::string& message) {
  if (const vt_host_api* h = g_host.load()) h->log(level, message.c_str());
}

vt_status fail(vt_status status, const std::string& message) {
  if (const vt_host_api* h = g_host.load()) h->set_error(message.c_str());
  return status;
}

const char* result_name(VkResult r) {
  switch (r) {
#define VT_VK_RESULT(name) \
  case name: return #name;
    VT_VK_RESULT(VK_SUCCESS)
    VT_VK_RESULT(VK_NOT_READY)
    VT_VK_RESULT(VK_TIMEOUT)
    VT_VK_RESULT(VK_INCOMPLETE)
    VT_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    VT_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VT_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    VT_VK_RESULT(VK_ERROR_DEVICE_LOST)
    VT_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    VT_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    VT_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    VT_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    VT_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    VT_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    VT_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VT_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    VT_VK_RESULT(VK_ERROR_UNKNOWN)
    VT_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    VT_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VT_VK_RESULT(VK_ERROR_FRAGMENTATION)
    VT_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    VT_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef VT_VK_RESULT
    default: return nullptr;
  }
}

std::string describe(VkResult r) {
  const char* name = result_name(r);
  return name ? name : "VkResult " + std::to_string(static_cast<int>(r));
}

vt_status check(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return VT_OK;
  const vt_status s = (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY) ? VT_STATUS_OUT_OF_MEMORY
                                                                                               : VT_STATUS_DEVICE_ERROR;
  return fail(s, std::string("vulkan: ") + what + ": " + describe(r));
}

}  // namespace vt::vulkan
