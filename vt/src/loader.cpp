#include "loader.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <exception>
#include <optional>
#include <set>
#include <utility>

#include "vt/log.hpp"
#include "vt/op_id.hpp"

#ifndef VT_PLUGIN_SUBDIR
#define VT_PLUGIN_SUBDIR "vt/plugins"
#endif

namespace vt::detail {
namespace {

constexpr const char* kPrefix = "libvt-backend-";
constexpr const char* kSuffix = ".so";

std::string dir_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string canonical(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The backend a file is expected to hold, from libvt-backend-<name>.so; empty if not so named.
std::string guess_backend(const std::string& path) {
  const std::string base = base_of(path);
  if (base.rfind(kPrefix, 0) != 0 || !ends_with(base, kSuffix)) return "";
  return base.substr(std::string(kPrefix).size(),
                     base.size() - std::string(kPrefix).size() - std::string(kSuffix).size());
}

std::string core_library_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&plugin_search_path), &info) && info.dli_fname)
    return dir_of(canonical(info.dli_fname));
  return "";
}

std::vector<std::string> plugin_files_in(const std::string& dir) {
  std::vector<std::string> files;
  DIR* d = opendir(dir.c_str());
  if (!d) return files;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.rfind(kPrefix, 0) == 0 && ends_with(name, kSuffix)) files.push_back(dir + "/" + name);
  }
  closedir(d);
  std::sort(files.begin(), files.end());  // deterministic order within a folder
  return files;
}

bool valid_backend_name(const char* name) {
  if (!name || !*name) return false;
  size_t n = 0;
  for (const char* c = name; *c; ++c, ++n) {
    const bool ok = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_';
    if (!ok || n >= 32) return false;
  }
  return true;
}

struct Skip {
  std::string reason;
};

// Whether a device table reaches ABI 1.1's host memory pair: the core reads no entry past a
// table's struct_size, and an ABI 1.0 table ends before these.
bool has_host_memory_entries(const vt_device_api* dev) { return dev->struct_size >= VT_DEVICE_API_V1_1_SIZE; }

// The optional graph capture entries, which come together (check_device_api).
std::array<std::pair<const char*, const void*>, 4> capture_entries(const vt_device_api* dev) {
  return {{{"capture_begin", reinterpret_cast<const void*>(dev->capture_begin)},
           {"capture_end", reinterpret_cast<const void*>(dev->capture_end)},
           {"graph_launch", reinterpret_cast<const void*>(dev->graph_launch)},
           {"graph_destroy", reinterpret_cast<const void*>(dev->graph_destroy)}}};
}

// Whether a device table offers graph capture: any of its capture entries.
bool has_capture_entries(const vt_device_api* dev) {
  for (const auto& entry : capture_entries(dev))
    if (entry.second) return true;
  return false;
}

// The device table entries every plugin must fill; capture entries are optional.
void check_device_api(const vt_device_api* dev) {
  if (!dev) throw Skip{"the plugin table has no device table"};
  if (dev->abi_major != VT_ABI_MAJOR)
    throw Skip{"device table ABI major version " + std::to_string(dev->abi_major) + ", core speaks " +
               std::to_string(VT_ABI_MAJOR)};
  if (dev->struct_size < VT_DEVICE_API_V1_SIZE)
    throw Skip{"device table too short: " + std::to_string(dev->struct_size) + " bytes, ABI " +
               std::to_string(VT_ABI_MAJOR) + ".0 needs at least " + std::to_string(VT_DEVICE_API_V1_SIZE)};
  const std::pair<const char*, const void*> required[] = {
      {"device_count", reinterpret_cast<const void*>(dev->device_count)},
      {"device_props", reinterpret_cast<const void*>(dev->device_props)},
      {"mem_alloc", reinterpret_cast<const void*>(dev->mem_alloc)},
      {"mem_free", reinterpret_cast<const void*>(dev->mem_free)},
      {"queue_create", reinterpret_cast<const void*>(dev->queue_create)},
      {"queue_destroy", reinterpret_cast<const void*>(dev->queue_destroy)},
      {"queue_sync", reinterpret_cast<const void*>(dev->queue_sync)},
      {"mem_set", reinterpret_cast<const void*>(dev->mem_set)},
      {"copy_h2d", reinterpret_cast<const void*>(dev->copy_h2d)},
      {"copy_d2h", reinterpret_cast<const void*>(dev->copy_d2h)},
      {"copy_d2d", reinterpret_cast<const void*>(dev->copy_d2d)},
      {"event_create", reinterpret_cast<const void*>(dev->event_create)},
      {"event_destroy", reinterpret_cast<const void*>(dev->event_destroy)},
      {"event_record", reinterpret_cast<const void*>(dev->event_record)},
      {"queue_wait_event", reinterpret_cast<const void*>(dev->queue_wait_event)},
      {"event_sync", reinterpret_cast<const void*>(dev->event_sync)},
      {"event_elapsed_ms", reinterpret_cast<const void*>(dev->event_elapsed_ms)},
  };
  for (const auto& [name, fn] : required)
    if (!fn) throw Skip{std::string("device table entry '") + name + "' is missing"};
  // ABI 1.1's host memory: both entries or neither.
  if (has_host_memory_entries(dev) && !dev->host_alloc != !dev->host_free)
    throw Skip{std::string("device table entry '") + (dev->host_alloc ? "host_free" : "host_alloc") +
               "' is missing (host_alloc and host_free come together)"};
  // Graph capture: all four entries or none, so that a graph the core holds can always be
  // launched and destroyed.
  if (has_capture_entries(dev))
    for (const auto& [name, fn] : capture_entries(dev))
      if (!fn)
        throw Skip{std::string("device table entry '") + name + "' is missing (the capture entries come together)"};
}

// The knobs a descriptor declares (ABI 1.2), checked; nullopt where the descriptor ends before
// the field (an older plugin: the provider sees every knob).
constexpr size_t kMaxProviderKnobs = 32;
std::optional<std::vector<std::string>> declared_knobs(const vt_provider_desc& p, const std::string& label,
                                                       std::vector<std::string>& notes) {
  if (p.struct_size < VT_PROVIDER_DESC_V1_2_SIZE) return std::nullopt;
  std::vector<std::string> out;
  for (size_t i = 0; p.knobs && p.knobs[i]; ++i) {
    if (i == kMaxProviderKnobs)
      throw Skip{label + " lists more than " + std::to_string(kMaxProviderKnobs) +
                 " knobs (does the list end with a null pointer?)"};
    const std::string name = p.knobs[i];
    if (name.empty()) throw Skip{label + ": knob #" + std::to_string(i) + " has an empty name"};
    if (!Knobs::known(name))
      notes.push_back(label + " declares knob '" + name + "', which this core does not know: it reads as unset");
    else if (!Knobs::steers_providers(name))  // the list is for the switches read on a call
      notes.push_back(label + " declares knob '" + name + "', which is no provider switch (vt-info lists them)");
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

// Providers the core will register; a newer-minor plugin's unknown ops are left out with a note.
std::vector<std::pair<vt_op_id, ProviderSpec>> check_providers(const vt_plugin_api* api,
                                                               std::vector<std::string>& notes) {
  std::vector<std::pair<vt_op_id, ProviderSpec>> out;
  if (api->provider_count > 0 && !api->providers)
    throw Skip{"provider_count is " + std::to_string(api->provider_count) + " but the provider list is missing"};
  std::set<std::pair<int, std::string>> seen;
  for (uint32_t i = 0; i < api->provider_count; ++i) {
    const vt_provider_desc& p = api->providers[i];
    const std::string label = "provider #" + std::to_string(i) + (p.name ? " '" + std::string(p.name) + "'" : "");
    if (p.struct_size < VT_PROVIDER_DESC_V1_SIZE)
      throw Skip{label + ": descriptor too short: " + std::to_string(p.struct_size) + " bytes, needs at least " +
                 std::to_string(VT_PROVIDER_DESC_V1_SIZE)};
    if (!p.name || !*p.name) throw Skip{label + " has no name"};
    if (!p.run) throw Skip{label + " has no run function"};
    if (!op_is_known(p.op)) {
      const std::string what = label + " names unknown op id " + std::to_string(static_cast<int64_t>(p.op));
      // A plugin built against a newer minor ABI may know ops this core does not.
      if (api->abi_minor > VT_ABI_MINOR) {
        notes.push_back(what + " (newer ABI " + std::to_string(api->abi_major) + "." + std::to_string(api->abi_minor) +
                        "): provider skipped");
        continue;
      }
      throw Skip{what};
    }
    if (!seen.insert({p.op, p.name}).second)
      throw Skip{label + " is registered twice for " + std::string(op_name(p.op))};
    out.emplace_back(p.op, ProviderSpec{p.name, p.priority, p.supports, p.run, declared_knobs(p, label, notes)});
  }
  return out;
}

}  // namespace

std::vector<std::string> plugin_search_path(const Knobs& knobs) {
  std::vector<std::string> dirs = knobs.plugin_path;
  const std::string core = core_library_dir();
  if (!core.empty()) {
    dirs.push_back(core + "/" + VT_PLUGIN_SUBDIR);
    dirs.push_back(core);
  }
  return dirs;
}

void load_plugins(const Knobs& knobs, const vt_host_api* host, std::deque<LoadedPlugin>& loaded,
                  std::vector<PluginReport>& reports) {
  std::vector<std::string> candidates;
  if (knobs.plugins) {
    candidates = *knobs.plugins;
  } else {
    std::set<std::string> seen_dirs, seen_files;
    for (const std::string& dir : plugin_search_path(knobs)) {
      if (!seen_dirs.insert(canonical(dir)).second) continue;
      for (const std::string& f : plugin_files_in(dir))
        if (seen_files.insert(canonical(f)).second) candidates.push_back(f);
    }
  }

  for (const std::string& path : candidates) {
    PluginReport report;
    report.path = path;
    report.backend = guess_backend(path);
    try {
      struct stat st {};
      if (stat(path.c_str(), &st) != 0) throw Skip{"file not found"};
      dlerror();
      void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
      if (!handle) {
        const char* e = dlerror();
        throw Skip{std::string("dlopen failed: ") + (e ? e : "unknown error")};
      }
      dlerror();
      void* sym = dlsym(handle, VT_PLUGIN_ENTRY_SYMBOL);
      if (!sym) {
        const char* e = dlerror();
        throw Skip{std::string("no entry symbol '") + VT_PLUGIN_ENTRY_SYMBOL + "': " + (e ? e : "not found")};
      }
      const auto entry = reinterpret_cast<vt_plugin_entry_fn>(sym);
      const vt_plugin_api* api = nullptr;
      try {
        api = entry(VT_ABI_MAJOR, VT_ABI_MINOR);
      } catch (const std::exception& e) {
        throw Skip{std::string("entry threw: ") + e.what()};
      } catch (...) {
        throw Skip{"entry threw an unknown exception"};
      }
      if (!api) throw Skip{"entry returned no table"};
      report.abi_major = api->abi_major;
      report.abi_minor = api->abi_minor;
      if (api->abi_major != VT_ABI_MAJOR)
        throw Skip{"ABI major version " + std::to_string(api->abi_major) + "." + std::to_string(api->abi_minor) +
                   ", core speaks " + std::to_string(VT_ABI_MAJOR) + "." + std::to_string(VT_ABI_MINOR)};
      if (api->struct_size < VT_PLUGIN_API_V1_SIZE)
        throw Skip{"plugin table too short: " + std::to_string(api->struct_size) + " bytes, ABI " +
                   std::to_string(VT_ABI_MAJOR) + ".0 needs at least " + std::to_string(VT_PLUGIN_API_V1_SIZE)};
      if (!valid_backend_name(api->backend_name))
        throw Skip{"invalid backend name (lower-case letters, digits, '-', '_', at most 32)"};
      report.backend = api->backend_name;
      for (const LoadedPlugin& p : loaded)
        if (p.backend == report.backend)
          throw Skip{"duplicate backend '" + report.backend + "': already loaded from " + p.path};
      if (!api->init) throw Skip{"the plugin table has no init function"};
      check_device_api(api->devices);
      const auto providers = check_providers(api, report.notes);

      char reason[512] = {};
      vt_init_result r;
      try {
        r = api->init(host, reason, sizeof reason);
      } catch (const std::exception& e) {
        throw Skip{std::string("init threw: ") + e.what()};
      } catch (...) {
        throw Skip{"init threw an unknown exception"};
      }
      reason[sizeof reason - 1] = '\0';
      if (r == VT_INIT_UNAVAILABLE) throw Skip{std::string("unavailable: ") + (*reason ? reason : "no reason given")};
      if (r == VT_INIT_FAILED) throw Skip{std::string("init failed: ") + (*reason ? reason : "no reason given")};
      if (r != VT_INIT_READY) throw Skip{"init returned unknown result " + std::to_string(static_cast<int>(r))};

      std::vector<vt_device_props> props;
      try {
        const uint32_t n = api->devices->device_count();
        for (uint32_t i = 0; i < n; ++i) {
          vt_device_props p{};
          p.struct_size = sizeof p;
          clear_plugin_error();
          if (api->devices->device_props(i, &p) != VT_OK)
            throw Skip{"device_props(" + std::to_string(i) + ") failed: " + take_plugin_error()};
          if ((p.caps & VT_CAP_GRAPH_CAPTURE) && !has_capture_entries(api->devices))
            throw Skip{"device " + std::to_string(i) +
                       " claims graph capture, but the device table has no capture entries"};
          p.name[sizeof p.name - 1] = '\0';
          p.arch[sizeof p.arch - 1] = '\0';
          props.push_back(p);
        }
      } catch (const std::exception& e) {
        throw Skip{std::string("device enumeration threw: ") + e.what()};
      }
      report.device_count = static_cast<uint32_t>(props.size());
      const vt_device_api* dev = api->devices;
      const bool host_memory = has_host_memory_entries(dev) && dev->host_alloc;
      loaded.push_back({path, report.backend, api, dev, providers, std::move(props),
                        host_memory ? dev->host_alloc : nullptr, host_memory ? dev->host_free : nullptr});
      report.loaded = true;
      log(LogLevel::debug, "loaded plugin '" + report.backend + "' from " + path);
    } catch (const Skip& s) {
      report.reason = s.reason;
      log(LogLevel::debug, "skipped plugin " + path + ": " + s.reason);
    }
    for (const auto& n : report.notes) log(LogLevel::warn, "plugin " + path + ": " + n);
    reports.push_back(std::move(report));
  }
}

}  // namespace vt::detail
