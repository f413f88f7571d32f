// The suite's device axis: every device of every backend that loaded in a runtime with
// default discovery, and the state of every backend the suite knows of (found plugins and
// the expectation table's backends), so an absent one is reported as skipped.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "vt/runtime.hpp"

namespace vt::parity {

// Created and loaded on first use, with default discovery (the build tree puts every
// plugin beside libvt).
Runtime& parity_runtime();

std::vector<std::string> device_names();  // "<backend>:<index>" of every loaded device

struct BackendState {
  std::string backend;
  bool runs = false;   // loaded with at least one device
  std::string reason;  // why it does not run
};
std::vector<BackendState> backend_states();
// gtest prints a BackendState parameter by its name (found by argument-dependent lookup;
// declared here so every test file parameterised by it prints it alike).
void PrintTo(const BackendState& b, std::ostream* os);

// A device or backend name as a test-name part ("x:0" -> "x_0").
std::string test_name_part(const std::string& name);

// gtest's name generator for a test parameterised by a device name: its test-name part.
struct DeviceTestName {
  template <class Info>
  std::string operator()(const Info& info) const {
    return test_name_part(info.param);
  }
};

}  // namespace vt::parity
