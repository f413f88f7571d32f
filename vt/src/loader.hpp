// Plugin discovery and loading: which files, in which order, and why each was skipped.
#pragma once
#include <deque>
#include <string>
#include <vector>

#include "runtime_impl.hpp"
#include "vt/knobs.hpp"
#include "vt/runtime.hpp"

namespace vt::detail {

// The folders searched when VT_PLUGINS is unset: VT_PLUGIN_PATH, the installed plugin folder
// (relative to the core library, so a relocated install still works), the core's own folder.
std::vector<std::string> plugin_search_path(const Knobs& knobs);

// Opens, checks and initialises every candidate. Loaded plugins are appended to `loaded`
// (stable addresses); every candidate, loaded or not, gets a report.
void load_plugins(const Knobs& knobs, const vt_host_api* host, std::deque<LoadedPlugin>& loaded,
                  std::vector<PluginReport>& reports);

}  // namespace vt::detail
