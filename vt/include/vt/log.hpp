// The leveled logger. The level comes from VT_LOG (error|warn|info|debug, default warn)
// unless the host sets it; the host may also take every message through a callback.
#pragma once
#include <functional>
#include <string_view>

#include "vt/export.hpp"

namespace vt {

enum class LogLevel : int { error = 0, warn = 1, info = 2, debug = 3 };

using LogCallback = std::function<void(LogLevel, std::string_view message)>;

VT_API void set_log_level(LogLevel level);
VT_API LogLevel log_level();
// Replaces the default sink (stderr); an empty callback restores it.
VT_API void set_log_callback(LogCallback callback);
VT_API void log(LogLevel level, std::string_view message);
VT_API bool log_enabled(LogLevel level);

}  // namespace vt
