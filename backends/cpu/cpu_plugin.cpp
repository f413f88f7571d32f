// Entry point and registration of the CPU plugin.
#include "cpu_backend.hpp"

namespace vt::cpu {
namespace {

vt_init_result init(const vt_host_api* host, char*, size_t) {
  set_host(host);
  return VT_INIT_READY;  // the host is always there
}

vt_plugin_api make_api() {
  vt_plugin_api api{};
  api.abi_major = VT_ABI_MAJOR;
  api.abi_minor = VT_ABI_MINOR;
  api.struct_size = sizeof(vt_plugin_api);
  api.backend_name = "cpu";
  api.init = init;
  api.devices = &kDeviceApi;
  api.providers = providers(&api.provider_count);
  return api;
}

}  // namespace
}  // namespace vt::cpu

extern "C" VT_PLUGIN_EXPORT VT_PLUGIN_ENTRY_DECL {
  (void)core_abi_major;  // the core checks our version against its own
  (void)core_abi_minor;
  static const vt_plugin_api api = vt::cpu::make_api();
  return &api;
}
