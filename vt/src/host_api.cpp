// The table of core services a plugin may call: logging, error messages, knobs.
#include <string>

#include "runtime_impl.hpp"
#include "vt/error.hpp"
#include "vt/knobs.hpp"
#include "vt/log.hpp"

namespace vt::detail {
namespace {

thread_local std::string t_error;

void host_log(int level, const char* message) {
  if (level < 0) level = 0;
  if (level > 3) level = 3;
  log(static_cast<LogLevel>(level), message ? message : "");
}

void host_set_error(const char* message) { t_error = message ? message : ""; }

int host_knob_int(const vt_host_api* self, const char* name, int64_t* value) {
  if (!self || !name || !value) return 0;
  const auto v = reinterpret_cast<const HostTable*>(self)->knobs->int_value(name);
  if (!v) return 0;
  *value = *v;
  return 1;
}

}  // namespace

HostTable::HostTable(const Knobs* k)
    : api{VT_ABI_MAJOR, VT_ABI_MINOR, sizeof(vt_host_api), host_log, host_set_error, host_knob_int}, knobs(k) {}

void clear_plugin_error() { t_error.clear(); }

std::string take_plugin_error() {
  std::string s;
  s.swap(t_error);
  return s;
}

void check(vt_status s, const DeviceRecord& dev, const char* what) {
  if (s == VT_OK) return;
  std::string msg = dev.name + ": " + what + " failed (" + status_name(static_cast<Status>(s)) + ")";
  const std::string detail = take_plugin_error();
  if (!detail.empty()) msg += ": " + detail;
  throw Error(static_cast<Status>(s), msg);
}

}  // namespace vt::detail
