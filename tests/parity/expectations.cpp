#include "expectations.hpp"

#include <fnmatch.h>

#include "vt/op_id.hpp"

namespace vt::parity {

BackendExpectation expectation_for(std::string_view backend) {
  for (const auto& e : backend_expectations())
    if (e.backend == backend) return e;
  BackendExpectation def;
  def.backend = std::string(backend);
  def.tolerance = {opcheck::Tolerance::Mode::bitwise, 0};
  return def;
}

BackendExpectation expectation_for(const Device& device) {
  BackendExpectation e = expectation_for(device.backend());
  const bool flushes = device.properties().flushes_subnormals;
  for (auto* rules : {&e.unsupported, &e.expected_failures})
    std::erase_if(*rules, [&](const CaseRule& r) { return r.if_flushes_subnormals && !flushes; });
  return e;
}

std::string check_provider(const BackendExpectation& e, vt_op_id op, std::string_view provider) {
  const std::string where =
      e.backend + " " + std::string(op_name(op)) + ": provider '" + std::string(provider) + "' ran";
  for (const auto& [listed, name] : e.providers)
    if (listed == op) return provider == name ? "" : where + ", the expectation table wants '" + name + "'";
  if (provider.find("reference") != std::string_view::npos)
    return where + "; a backend outside the expectation table must run its own provider, not the scalar reference";
  return "";
}

const CaseRule* find_rule(const std::vector<CaseRule>& rules, std::string_view case_name) {
  const std::string name(case_name);
  for (const auto& r : rules)
    if (fnmatch(r.pattern.c_str(), name.c_str(), 0) == 0) return &r;
  return nullptr;
}

const CaseRule* declared_gap(const BackendExpectation& e, std::string_view case_name) {
  if (const CaseRule* r = find_rule(e.unsupported, case_name)) return r;
  return find_rule(e.expected_failures, case_name);
}

}  // namespace vt::parity
