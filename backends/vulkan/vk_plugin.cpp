// Entry point, init and the plugin tables of the Vulkan plugin: unavailable (not failed)
// without a loader, a driver or a usable device.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "vk_backend.hpp"

namespace vt::vulkan {
namespace {

// VT_VULKAN_DEVICE: the index among the usable devices to expose alone, or -1 for all.
int64_t forced_device(const vt_host_api* h) {
  int64_t v = -1;
  if (vt_host_knob_int(h, "VT_VULKAN_DEVICE", &v)) return v;
  return -1;
}

vt_init_result init(const vt_host_api* h, char* reason, size_t reason_size) {
  set_host(h);
  const OpenResult r = open_devices(forced_device(h));
  if (r.result != VT_INIT_READY) std::snprintf(reason, reason_size, "%s", r.reason.c_str());
  return r.result;
}

vt_device_api make_device_api() {
  vt_device_api d{};
  d.abi_major = VT_ABI_MAJOR;
  d.abi_minor = VT_ABI_MINOR;
  d.struct_size = sizeof d;
  d.device_count = device_count;
  d.device_props = device_props;
  d.mem_alloc = mem_alloc;
  d.mem_free = mem_free;
  d.mem_host_ptr = mem_host_ptr;
  d.queue_create = queue_create;
  d.queue_destroy = queue_destroy;
  d.queue_sync = queue_sync;
  d.mem_set = mem_set;
  d.copy_h2d = copy_h2d;
  d.copy_d2h = copy_d2h;
  d.copy_d2d = copy_d2d;
  d.event_create = event_create;
  d.event_destroy = event_destroy;
  d.event_record = event_record;
  d.queue_wait_event = queue_wait_event;
  d.event_sync = event_sync;
  d.event_elapsed_ms = event_elapsed_ms;
  return d;  // no graph capture: those entries stay null
}

vt_plugin_api make_api() {
  vt_plugin_api api{};
  api.abi_major = VT_ABI_MAJOR;
  api.abi_minor = VT_ABI_MINOR;
  api.struct_size = sizeof(vt_plugin_api);
  api.backend_name = "vulkan";
  api.init = init;
  api.devices = &kDeviceApi;
  api.providers = providers(&api.provider_count);
  return api;
}

}  // namespace

const vt_device_api kDeviceApi = make_device_api();

}  // namespace vt::vulkan

extern "C" VT_PLUGIN_EXPORT VT_PLUGIN_ENTRY_DECL {
  (void)core_abi_major;  // the core checks our version against its own
  (void)core_abi_minor;
  static const vt_plugin_api api = vt::vulkan::make_api();
  return &api;
}
