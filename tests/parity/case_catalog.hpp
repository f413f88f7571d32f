// Every op case of the parity suite, by name: small shapes with the targeted edge cases of
// parity.md, and a couple of medium ones.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vt/opcheck/op_case.hpp"

namespace vt::parity {

struct CaseSpec {
  std::string name;  // unique, a valid test-name part
  vt_op_id op;
  std::function<std::unique_ptr<opcheck::OpCase>(uint64_t seed)> make;
};

const std::vector<CaseSpec>& case_catalog();

}  // namespace vt::parity
