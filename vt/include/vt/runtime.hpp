// The runtime: loads backend plugins, owns their devices and the op registry.
// Nothing happens before the host asks: vt::runtime() loads on first use, and a host (or a
// test) may build its own Runtime from explicit Knobs instead of the environment.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vt/device.hpp"
#include "vt/export.hpp"
#include "vt/knobs.hpp"
#include "vt/registry.hpp"

namespace vt {

struct PluginReport {
  std::string path;
  std::string backend;  // as declared, or guessed from the file name when unknown
  bool loaded = false;
  std::string reason;              // why it was skipped (empty when loaded)
  std::vector<std::string> notes;  // warnings about a loaded plugin (skipped providers)
  uint32_t abi_major = 0, abi_minor = 0;
  uint32_t device_count = 0;
};

class VT_API Runtime {
 public:
  explicit Runtime(Knobs knobs = Knobs::environment());
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Discovers and loads plugins (once; later calls return at once). Thread-safe.
  // Throws vt::Error(plugin_required) when VT_REQUIRE names a backend that did not load
  // cleanly; the same error is thrown again by later calls.
  void load();

  const Knobs& knobs() const;
  const std::vector<PluginReport>& plugins() const;  // loaded and skipped, in discovery order
  std::vector<std::string> backends() const;         // loaded backend names
  std::vector<Device> devices() const;               // every device of every loaded backend
  std::vector<Device> devices(std::string_view backend) const;
  Device device(std::string_view name) const;  // "<backend>:<index>", throws not_found
  Registry& registry();
  // The providers a call of `op` on `device` would try, in order (disabled and
  // unsupported ones left out).
  std::vector<std::string> selection(vt_op_id op, const Device& device);

  // Folders searched when VT_PLUGINS is unset, in order.
  std::vector<std::string> search_path() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The process-wide runtime, configured from the environment and loaded on first use.
VT_API Runtime& runtime();

}  // namespace vt
