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

// A few small cases of every op, covering its layouts and options (conv fwd with and without
// a chunk plan and state, update with slots, padding and in place, post-conv with special
// rows, every dtype family): what the graph, queue and multi-device tests run, which test
// the machinery around an op call rather than its arithmetic. Chosen by name patterns;
// `missing` names a pattern that matches no catalog case any more, which those tests fail on.
struct CaseSelection {
  std::vector<const CaseSpec*> cases;
  std::vector<std::string> missing;
};
CaseSelection representative_cases();

}  // namespace vt::parity
