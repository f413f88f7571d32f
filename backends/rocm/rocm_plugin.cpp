// Entry point and init of the ROCm plugin: unavailable (not failed) without a HIP runtime
// that finds a GPU; the HIP runtime answers hipErrorNoDevice on a machine without one.
#include <cstdio>
#include <cstring>

#include "rocm_backend.hpp"

namespace vt::rocm {
namespace {

vt_init_result init(const vt_host_api* h, char* reason, size_t reason_size) {
  set_host(h);
  int count = 0;
  const hipError_t err = hipGetDeviceCount(&count);
  if (err != hipSuccess) {
    // HIP 5.2's text for an error is often its name again; say it once then.
    const char* name = hipGetErrorName(err);
    const char* text = hipGetErrorString(err);
    if (std::strcmp(name, text) == 0) {
      std::snprintf(reason, reason_size, "no usable HIP runtime or GPU: %s", name);
    } else {
      std::snprintf(reason, reason_size, "no usable HIP runtime or GPU: %s (%s)", name, text);
    }
    (void)hipGetLastError();
    return VT_INIT_UNAVAILABLE;
  }
  if (count == 0) {
    std::snprintf(reason, reason_size, "the HIP runtime reports no GPU");
    return VT_INIT_UNAVAILABLE;
  }
  return VT_INIT_READY;
}

vt_plugin_api make_api() {
  vt_plugin_api api{};
  api.abi_major = VT_ABI_MAJOR;
  api.abi_minor = VT_ABI_MINOR;
  api.struct_size = sizeof(vt_plugin_api);
  api.backend_name = "rocm";
  api.init = init;
  api.devices = &kDeviceApi;
  api.providers = providers(&api.provider_count);
  return api;
}

}  // namespace
}  // namespace vt::rocm

extern "C" VT_PLUGIN_EXPORT VT_PLUGIN_ENTRY_DECL {
  (void)core_abi_major;  // the core checks our version against its own
  (void)core_abi_minor;
  static const vt_plugin_api api = vt::rocm::make_api();
  return &api;
}
