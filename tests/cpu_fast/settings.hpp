// The ways a host can run the fast provider that must not change a single bit: thread caps
// through VT_CPU_THREADS, a task_arena of its own around the call (one thread, or more
// threads than cores), and the baseline variant forced by provider name.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "vt/runtime.hpp"

namespace vt::cpu_fast_test {

struct Setting {
  std::string name;
  std::string provider;                                      // the name the call must report
  Runtime* runtime;                                          // owned by settings()
  std::function<void(const std::function<void()>&)> around;  // runs the call, in an arena or not
};

// Every setting, built once per process.
const std::vector<Setting>& settings();

}  // namespace vt::cpu_fast_test
