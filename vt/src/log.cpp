#include "vt/log.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>

#include "vt/knobs.hpp"

namespace vt {
namespace {

constexpr int kUnset = -1;
std::atomic<int> g_level{kUnset};

struct Sink {
  std::mutex mutex;
  LogCallback callback;
};
Sink& sink() {
  static Sink s;
  return s;
}

const char* level_word(LogLevel l) {
  switch (l) {
    case LogLevel::error: return "error";
    case LogLevel::warn: return "warn";
    case LogLevel::info: return "info";
    case LogLevel::debug: return "debug";
  }
  return "?";
}

}  // namespace

void set_log_level(LogLevel level) { g_level.store(static_cast<int>(level), std::memory_order_relaxed); }

LogLevel log_level() {
  int l = g_level.load(std::memory_order_relaxed);
  if (l == kUnset) {
    // First use: the environment decides unless the host already has.
    const LogLevel env = Knobs::environment().log_level.value_or(LogLevel::warn);
    int expected = kUnset;
    g_level.compare_exchange_strong(expected, static_cast<int>(env), std::memory_order_relaxed);
    l = g_level.load(std::memory_order_relaxed);
  }
  return static_cast<LogLevel>(l);
}

bool log_enabled(LogLevel level) { return static_cast<int>(level) <= static_cast<int>(log_level()); }

void set_log_callback(LogCallback callback) {
  Sink& s = sink();
  std::lock_guard lock(s.mutex);
  s.callback = std::move(callback);
}

void log(LogLevel level, std::string_view message) {
  if (!log_enabled(level)) return;
  Sink& s = sink();
  std::lock_guard lock(s.mutex);
  if (s.callback) {
    s.callback(level, message);
    return;
  }
  std::fprintf(stderr, "vt[%s]: %.*s\n", level_word(level), static_cast<int>(message.size()), message.data());
}

}  // namespace vt
