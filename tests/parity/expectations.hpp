// What the parity suite expects of each backend (after IREE's CTS registry): the provider
// that must run each op, how results compare with the reference, and the cases it does not
// support or is known to fail, each with a reason. The table itself is the one place that
// names backends: tests/backends/parity_expectations.cpp.
//
// A backend that is not in the table is held to the strictest contract: bitwise, and every
// op served by a provider whose name does not contain "reference" (a backend that routes an
// op to a copy of the scalar reference proves nothing about its own kernels). It joins the
// table to declare anything else.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vt/device.hpp"
#include "vt/opcheck/compare.hpp"
#include "vt/plugin_abi.h"

namespace vt::parity {

struct CaseRule {
  std::string pattern;  // a glob over case names, e.g. "fwd_*f16*"
  std::string reason;
  // Holds only on devices that flush f32 subnormals (DeviceProperties::flushes_subnormals).
  bool if_flushes_subnormals = false;
};

struct BackendExpectation {
  std::string backend;
  opcheck::Tolerance tolerance;
  std::vector<std::pair<vt_op_id, std::string>> providers;  // the provider name each op must report
  std::vector<CaseRule> unsupported;                        // skipped, with the reason
  std::vector<CaseRule> expected_failures;                  // run: a failure is a skip, a pass fails (it is news)
  bool pinned_host = false;  // Device::alloc_host gives page-locked memory (the plugin's own)
};

// The table (tests/backends/parity_expectations.cpp).
const std::vector<BackendExpectation>& backend_expectations();

// The backend's entry, or the default for a backend the table does not list, with every rule
// (the union over its devices).
BackendExpectation expectation_for(std::string_view backend);
// The same for one device: rules conditional on a device property kept only where it holds.
BackendExpectation expectation_for(const Device& device);
// Empty when `provider` is what the expectation wants for `op`, else the complaint.
std::string check_provider(const BackendExpectation& e, vt_op_id op, std::string_view provider);
// The first rule whose pattern matches the case name, or nullptr.
const CaseRule* find_rule(const std::vector<CaseRule>& rules, std::string_view case_name);
// A declared gap of the backend for the case (unsupported or expected to fail), or nullptr:
// for the tests that check the machinery around a call on cases the backend gets right.
const CaseRule* declared_gap(const BackendExpectation& e, std::string_view case_name);

}  // namespace vt::parity
