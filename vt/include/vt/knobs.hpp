// Every environment knob of vt, parsed strictly in one place (knobs.cpp holds the table).
// A value outside the accepted spellings is reported with a warning and ignored.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vt/export.hpp"
#include "vt/log.hpp"

namespace vt {

struct KnobSpec {
  const char* name;
  const char* accepted;  // the spellings, for messages and docs
  const char* meaning;
};

struct VT_API Knobs {
  std::optional<LogLevel> log_level;                // VT_LOG
  std::optional<std::vector<std::string>> plugins;  // VT_PLUGINS: explicit, exclusive
  std::vector<std::string> plugin_path;             // VT_PLUGIN_PATH
  std::vector<std::string> require;                 // VT_REQUIRE
  std::vector<std::string> disable_providers;       // VT_DISABLE_PROVIDERS
  bool provider_stats = false;                      // VT_PROVIDER_STATS
  bool strict_providers = false;                    // VT_STRICT_PROVIDERS
  bool deep_validate = false;                       // VT_DEEP_VALIDATE
  // Integer switches read by plugins, looked up by any string type without a copy (a
  // plugin reads several on every op call).
  std::map<std::string, int64_t, std::less<>> ints;

  // Parses a name -> value map (unknown VT_* names are warned about). Warnings are appended
  // to *warnings when given, otherwise logged.
  static Knobs parse(const std::map<std::string, std::string>& vars, std::vector<std::string>* warnings = nullptr);
  // Reads the process environment once (the first call); later calls return the same.
  static const Knobs& environment();
  // The table of every knob, for vt-info and the docs.
  static const std::vector<KnobSpec>& specs();
  // Whether the table names this knob.
  static bool known(std::string_view name);
  // Whether it is a switch that providers list (vt_provider_desc::knobs) and read on their
  // calls; the core's knobs and those a plugin reads once at its start (VT_VULKAN_DEVICE)
  // are not.
  static bool steers_providers(std::string_view name);

  std::optional<int64_t> int_value(std::string_view name) const;
};

}  // namespace vt
