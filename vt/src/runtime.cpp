#include "vt/runtime.hpp"

#include <cstdio>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loader.hpp"
#include "runtime_impl.hpp"
#include "vt/error.hpp"
#include "vt/log.hpp"
#include "vt/op_id.hpp"

namespace vt {

struct Runtime::Impl {
  explicit Impl(Knobs k)
      : knobs(std::move(k)), host(&knobs), registry(knobs.disable_providers, knobs.strict_providers, &host.api) {}

  Knobs knobs;
  detail::HostTable host;
  Registry registry;
  std::mutex mutex;
  bool loaded = false;
  std::optional<Error> load_error;
  std::deque<detail::LoadedPlugin> plugins;
  std::vector<PluginReport> reports;
  std::deque<detail::DeviceRecord> devices;
};

namespace {

DeviceProperties to_properties(const vt_device_props& p) {
  DeviceProperties d;
  d.name = p.name;
  d.arch = p.arch;
  d.memory_bytes = p.memory_bytes;
  d.shared_memory_bytes = p.shared_memory_bytes;
  d.compute_major = p.compute_major;
  d.compute_minor = p.compute_minor;
  d.compute_units = p.compute_units;
  d.subgroup_size = p.subgroup_size;
  d.unified_memory = p.caps & VT_CAP_UNIFIED_MEMORY;
  d.async_readback = p.caps & VT_CAP_ASYNC_READBACK;
  d.second_queue = p.caps & VT_CAP_SECOND_QUEUE;
  d.graph_capture = p.caps & VT_CAP_GRAPH_CAPTURE;
  d.storage_16bit = p.caps & VT_CAP_16BIT_STORAGE;
  d.flushes_subnormals = p.caps & VT_CAP_FLUSHES_SUBNORMALS;
  d.raw = p;
  return d;
}

// VT_REQUIRE: a named backend must have loaded, and no plugin claiming that name may have
// been skipped (a deployment must not degrade or be ambiguous silently).
std::optional<Error> check_required(const Knobs& knobs, const std::vector<PluginReport>& reports) {
  std::string problems;
  for (const std::string& name : knobs.require) {
    bool ok = false;
    std::string why;
    for (const PluginReport& r : reports) {
      if (r.backend != name) continue;
      if (r.loaded) ok = true;
      else why += "\n  " + r.path + ": " + r.reason;
    }
    if (!ok && why.empty()) why = "\n  no plugin for it was found";
    if (!ok || !why.empty())
      problems += "\nrequired backend '" + name + "' " + (ok ? "loaded, but" : "did not load:") + why;
  }
  if (problems.empty()) return std::nullopt;
  return Error(Status::plugin_required, "VT_REQUIRE:" + problems);
}

// A provider switch that is set but read by no loaded provider changes nothing (say,
// VT_CONV_GUIDED where no CUDA device is): said at load, as a value outside a knob's spellings
// is. Which provider reads a knob is the registry's rule (ProviderCounts::reads): one without
// a list (a descriptor before ABI 1.2) reads them all.
void warn_unread_switches(const Knobs& knobs, const Registry& registry, const std::vector<std::string>& backends) {
  auto read = [&](std::string_view name) {
    for (const std::string& backend : backends)
      for (vt_op_id op : kAllOps)
        for (const ProviderCounts& p : registry.providers(op, backend))
          if (p.reads(name)) return true;
    return false;
  };
  for (const auto& [name, value] : knobs.ints)
    if (Knobs::steers_providers(name) && !read(name))
      log(LogLevel::warn,
          name + "=" + std::to_string(value) + " is set, but no loaded provider lists it: it changes nothing");
}

}  // namespace

Runtime::Runtime(Knobs knobs) : impl_(std::make_unique<Impl>(std::move(knobs))) {}

Runtime::~Runtime() {
  if (impl_->knobs.provider_stats && impl_->loaded) std::fputs(impl_->registry.stats_table().c_str(), stderr);
}

void Runtime::load() {
  std::lock_guard lock(impl_->mutex);
  if (!impl_->loaded) {
    detail::load_plugins(impl_->knobs, &impl_->host.api, impl_->plugins, impl_->reports);
    uint32_t slot = 0;
    for (const detail::LoadedPlugin& p : impl_->plugins) {
      for (const auto& [op, spec] : p.providers) impl_->registry.add(op, p.backend, spec);
      for (uint32_t i = 0; i < p.devices.size(); ++i) {
        if (slot >= Registry::kMaxDevices) {
          log(LogLevel::warn, p.backend + ":" + std::to_string(i) + " and later devices ignored: more than " +
                                  std::to_string(Registry::kMaxDevices) + " devices");
          break;
        }
        detail::DeviceRecord& d = impl_->devices.emplace_back();
        d.runtime = this;
        d.host = &impl_->host.api;
        d.plugin = &p;
        d.index = i;
        d.slot = slot++;
        d.name = p.backend + ":" + std::to_string(i);
        d.props = to_properties(p.devices[i]);
        d.props.pinned_host = p.host_alloc != nullptr;  // from the table, not a capability bit
      }
    }
    warn_unread_switches(impl_->knobs, impl_->registry, backends());
    impl_->load_error = check_required(impl_->knobs, impl_->reports);
    impl_->loaded = true;
  }
  if (impl_->load_error) throw *impl_->load_error;
}

const Knobs& Runtime::knobs() const { return impl_->knobs; }
const std::vector<PluginReport>& Runtime::plugins() const { return impl_->reports; }
Registry& Runtime::registry() { return impl_->registry; }

std::vector<std::string> Runtime::selection(vt_op_id op, const Device& device) {
  if (!device.valid() || device.record()->runtime != this)
    throw Error(Status::invalid_argument, "selection: the device does not belong to this runtime");
  return impl_->registry.selection(op, device.record()->target());
}
std::vector<std::string> Runtime::search_path() const { return detail::plugin_search_path(impl_->knobs); }

std::vector<std::string> Runtime::backends() const {
  std::vector<std::string> v;
  for (const auto& p : impl_->plugins) v.push_back(p.backend);
  return v;
}

std::vector<Device> Runtime::devices() const {
  std::vector<Device> v;
  for (const auto& d : impl_->devices) v.emplace_back(&d);
  return v;
}

std::vector<Device> Runtime::devices(std::string_view backend) const {
  std::vector<Device> v;
  for (const auto& d : impl_->devices)
    if (d.plugin->backend == backend) v.emplace_back(&d);
  return v;
}

Device Runtime::device(std::string_view name) const {
  for (const auto& d : impl_->devices)
    if (d.name == name) return Device(&d);
  std::string have;
  for (const auto& d : impl_->devices) have += (have.empty() ? "" : ", ") + d.name;
  throw Error(Status::not_found,
              "no device '" + std::string(name) + "' (devices: " + (have.empty() ? "none" : have) + ")");
}

Runtime& runtime() {
  static Runtime rt;
  rt.load();
  return rt;
}

}  // namespace vt
