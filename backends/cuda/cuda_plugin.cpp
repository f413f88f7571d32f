// Entry point and init of the CUDA plugin: unavailable (not failed) without driver or GPU.
#include <cstdio>

#include "cuda_backend.hpp"

namespace vt::cuda {
namespace {

vt_init_result init(const vt_host_api* h, char* reason, size_t reason_size) {
  set_host(h);
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    // No driver (35), only the stub library (34), no device (100): all mean "not here".
    std::snprintf(reason, reason_size, "no usable CUDA driver or device: %s (%s)", cudaGetErrorName(err),
                  cudaGetErrorString(err));
    cudaGetLastError();
    return VT_INIT_UNAVAILABLE;
  }
  if (count == 0) {
    std::snprintf(reason, reason_size, "no CUDA device");
    return VT_INIT_UNAVAILABLE;
  }
  return VT_INIT_READY;
}

vt_plugin_api make_api() {
  vt_plugin_api api{};
  api.abi_major = VT_ABI_MAJOR;
  api.abi_minor = VT_ABI_MINOR;
  api.struct_size = sizeof(vt_plugin_api);
  api.backend_name = "cuda";
  api.init = init;
  api.devices = &kDeviceApi;
  api.providers = providers(&api.provider_count);
  return api;
}

}  // namespace
}  // namespace vt::cuda

extern "C" VT_PLUGIN_EXPORT VT_PLUGIN_ENTRY_DECL {
  (void)core_abi_major;  // the core checks our version against its own
  (void)core_abi_minor;
  static const vt_plugin_api api = vt::cuda::make_api();
  return &api;
}
