// The one place where environment knobs are named, documented and parsed.
#include "vt/knobs.hpp"

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <string_view>

extern char** environ;

namespace vt {
namespace {

enum class Kind { level, list_comma, list_colon, flag, int_set, int_positive };

struct Def {
  KnobSpec spec;
  Kind kind;
  std::vector<int64_t> allowed = {};
  bool provider = false;  // a provider may list it (Knobs::steers_providers)
};

const std::vector<Def>& defs() {
  static const std::vector<Def> d = {
      {{"VT_LOG", "error|warn|info|debug", "log level (default warn)"}, Kind::level},
      {{"VT_PLUGINS", "path[,path...]", "load exactly these plugin files and nothing else"}, Kind::list_comma},
      {{"VT_PLUGIN_PATH", "dir[:dir...]", "folders searched for plugins before the installed one"}, Kind::list_colon},
      {{"VT_REQUIRE", "backend[,backend...]", "a missing or failed backend of these is an error"}, Kind::list_comma},
      {{"VT_DISABLE_PROVIDERS", "name[,name...]", "providers left out of selection"}, Kind::list_comma},
      {{"VT_PROVIDER_STATS", "0|1", "print per-provider call and decline counts at exit"}, Kind::flag},
      {{"VT_STRICT_PROVIDERS", "0|1", "falling back below the best registered provider is an error"}, Kind::flag},
      {{"VT_DEEP_VALIDATE", "0|1", "check device metadata (offsets, slots) on the host before each op"}, Kind::flag},
      {{"VT_CONV_EXACT_CHUNKS", "0|1",
        "1: follow a given chunk plan, 0: map whole sequences (unset: the backend's default)"},
       Kind::int_set,
       {0, 1},
       true},
      {{"VT_CONV_REG", "0|1", "1: register-window conv, 0: tiled conv (unset: the backend's default)"},
       Kind::int_set,
       {0, 1},
       true},
      {{"VT_CONV_CHANNEL_TILE", "0|1|2", "width-4 conv: 1 one channel per thread, 2 two per thread"},
       Kind::int_set,
       {0, 1, 2},
       true},
      {{"VT_CONV_STAGE_X", "0|1",
        "two-channel conv: 1 x staged by bulk copies where the device can, 0 never (unset: by shape)"},
       Kind::int_set,
       {0, 1},
       true},
      {{"VT_CONV_ONE_SEQUENCE", "0|1",
        "0: a call of one sequence takes the general conv kernel (unset or 1: its own where it can)"},
       Kind::int_set,
       {0, 1},
       true},
      {{"VT_CONV_GUIDED", "0|1|2",
        "1: one long sequence through CUDA's staged conv ring in guided programs, short ones last; "
        "2: the same in a larger grid, no program longer than the mapping's (unset: the default, 2); 0: off"},
       Kind::int_set,
       {0, 1, 2},
       true},
      {{"VT_GDN_POSTCONV_TOKEN_TILE", "0|1", "1: 16-token per-head post-conv schedule"}, Kind::int_set, {0, 1}, true},
      {{"VT_EARLY_LAUNCH", "0|1",
        "1: a kernel may start while the one before it drains, where the device can (default), 0: after it"},
       Kind::int_set,
       {0, 1},
       true},
      {{"VT_CPU_THREADS", "positive integer", "cap on the CPU providers' threads"}, Kind::int_positive, {}, true},
      {{"VT_VULKAN_DEVICE", "0..15", "the Vulkan plugin exposes only this one of its usable devices (GPUs first)"},
       Kind::int_set,
       {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
      {{"VT_MATH_EXHAUSTIVE", "0|1", "tests only: run the exhaustive math sweeps"}, Kind::flag},
  };
  return d;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  while (true) {
    const size_t pos = s.find(sep);
    std::string_view item = s.substr(0, pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    if (pos == std::string_view::npos) break;
    s.remove_prefix(pos + 1);
  }
  return out;
}

std::optional<int64_t> parse_int(std::string_view s) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Returns false when the value is not an accepted spelling.
bool apply(const Def& def, std::string_view value, Knobs& k) {
  const std::string_view name = def.spec.name;
  switch (def.kind) {
    case Kind::level: {
      static constexpr std::pair<std::string_view, LogLevel> levels[] = {
          {"error", LogLevel::error}, {"warn", LogLevel::warn}, {"info", LogLevel::info}, {"debug", LogLevel::debug}};
      for (auto [word, level] : levels)
        if (value == word) {
          k.log_level = level;
          return true;
        }
      return false;
    }
    case Kind::list_comma:
    case Kind::list_colon: {
      auto items = split(value, def.kind == Kind::list_comma ? ',' : ':');
      if (items.empty()) return false;
      if (name == "VT_PLUGINS") k.plugins = std::move(items);
      else if (name == "VT_PLUGIN_PATH") k.plugin_path = std::move(items);
      else if (name == "VT_REQUIRE") k.require = std::move(items);
      else if (name == "VT_DISABLE_PROVIDERS") k.disable_providers = std::move(items);
      return true;
    }
    case Kind::flag: {
      if (value != "0" && value != "1") return false;
      const bool on = value == "1";
      if (name == "VT_PROVIDER_STATS") k.provider_stats = on;
      else if (name == "VT_STRICT_PROVIDERS") k.strict_providers = on;
      else if (name == "VT_DEEP_VALIDATE") k.deep_validate = on;
      k.ints[std::string(name)] = on ? 1 : 0;
      return true;
    }
    case Kind::int_set: {
      const auto v = parse_int(value);
      if (!v) return false;
      for (int64_t a : def.allowed)
        if (a == *v) {
          k.ints[std::string(name)] = *v;
          return true;
        }
      return false;
    }
    case Kind::int_positive: {
      const auto v = parse_int(value);
      if (!v || *v <= 0) return false;
      k.ints[std::string(name)] = *v;
      return true;
    }
  }
  return false;
}

const Def* find_def(std::string_view name) {
  for (const Def& d : defs())
    if (name == d.spec.name) return &d;
  return nullptr;
}

}  // namespace

Knobs Knobs::parse(const std::map<std::string, std::string>& vars, std::vector<std::string>* warnings) {
  Knobs k;
  std::vector<std::string> local;
  std::vector<std::string>& warn = warnings ? *warnings : local;
  for (const auto& [name, value] : vars) {
    const Def* def = find_def(name);
    if (!def) {
      if (name.rfind("VT_", 0) == 0) warn.push_back("unknown knob " + name + "=" + value + " ignored");
      continue;
    }
    if (!apply(*def, value, k))
      warn.push_back(name + "=\"" + value + "\" is not accepted (expected " + def->spec.accepted + "); ignored");
  }
  if (!warnings)
    for (const auto& w : local) log(LogLevel::warn, w);
  return k;
}

const Knobs& Knobs::environment() {
  static std::vector<std::string> warnings;
  static const Knobs knobs = [] {
    std::map<std::string, std::string> vars;
    for (char** e = environ; e && *e; ++e) {
      const std::string_view entry = *e;
      const size_t eq = entry.find('=');
      if (entry.rfind("VT_", 0) == 0 && eq != std::string_view::npos)
        vars.emplace(entry.substr(0, eq), entry.substr(eq + 1));
    }
    return parse(vars, &warnings);
  }();
  // Logged after the parse is complete: the logger itself reads these knobs.
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true))
    for (const auto& w : warnings) log(LogLevel::warn, w);
  return knobs;
}

const std::vector<KnobSpec>& Knobs::specs() {
  static const std::vector<KnobSpec> s = [] {
    std::vector<KnobSpec> v;
    for (const Def& d : defs()) v.push_back(d.spec);
    return v;
  }();
  return s;
}

bool Knobs::known(std::string_view name) { return find_def(name) != nullptr; }

bool Knobs::steers_providers(std::string_view name) {
  const Def* d = find_def(name);
  return d && d->provider;
}

std::optional<int64_t> Knobs::int_value(std::string_view name) const {
  const auto it = ints.find(name);
  if (it == ints.end()) return std::nullopt;
  return it->second;
}

}  // namespace vt
