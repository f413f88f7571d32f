// Internal records behind the public handles. Owned by Runtime::Impl, stable in memory
// for the runtime's lifetime.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "vt/device.hpp"
#include "vt/knobs.hpp"
#include "vt/plugin_abi.h"
#include "vt/registry.hpp"

namespace vt::detail {

struct LoadedPlugin {
  std::string path;
  std::string backend;
  const vt_plugin_api* api = nullptr;
  const vt_device_api* dev = nullptr;
  std::vector<std::pair<vt_op_id, ProviderSpec>> providers;  // checked, known ops only
  std::vector<vt_device_props> devices;
  // The device table's ABI 1.1 host memory entries, or null where it has none.
  vt_status (*host_alloc)(uint32_t device, uint64_t bytes, void** out) = nullptr;
  void (*host_free)(uint32_t device, void* ptr) = nullptr;
};

struct DeviceRecord {
  Runtime* runtime = nullptr;
  const vt_host_api* host = nullptr;
  const LoadedPlugin* plugin = nullptr;
  uint32_t index = 0;  // within the plugin
  uint32_t slot = 0;   // within the runtime, for the registry's cache
  std::string name;    // "<backend>:<index>"
  DeviceProperties props;

  const vt_device_api& api() const { return *plugin->dev; }
  DispatchTarget target() const { return {slot, plugin->backend, name, &props.raw}; }
};

// The host table a runtime hands to its plugins; `api` comes first so a plugin's
// `const vt_host_api*` leads back to the runtime's knobs.
struct HostTable {
  explicit HostTable(const Knobs* knobs);
  vt_host_api api;
  const Knobs* knobs;
};
static_assert(offsetof(HostTable, api) == 0);

// The calling thread's last plugin error message.
void clear_plugin_error();
std::string take_plugin_error();

// Throws vt::Error naming `what` and the plugin's message when s != VT_OK.
void check(vt_status s, const DeviceRecord& dev, const char* what);

}  // namespace vt::detail
