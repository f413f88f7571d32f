// What the Vulkan backend's tests share: a runtime with the Vulkan plugin (and the CPU
// plugin, whose reference providers give the expected bytes), a skip with the loader's
// reason when no Vulkan device is there, and a child process with a changed environment.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "vt/vt.hpp"

namespace vt::vulkan_test {

// Loaded once per process from the plugin files this build produced.
Runtime& runtime();
// Empty when vulkan:0 exists, else why not (the plugin's reason).
std::string why_no_device();
Device vulkan_device();
Device cpu_device();

#define VT_SKIP_WITHOUT_VULKAN()                                     \
  do {                                                               \
    const std::string why_ = ::vt::vulkan_test::why_no_device();     \
    if (!why_.empty()) GTEST_SKIP() << "no Vulkan device: " << why_; \
  } while (0)

struct ChildResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
// Runs the test helper (vulkan_child) with `args`, the environment changed by `env`
// (a value of nullptr removes the variable).
ChildResult run_child(const std::vector<std::string>& args,
                      const std::vector<std::pair<std::string, const char*>>& env);

}  // namespace vt::vulkan_test
