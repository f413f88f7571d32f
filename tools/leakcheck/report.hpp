// The three outputs of a run: the report (counts and verdict), the list of every hit, and JSON.
#pragma once
#include <ostream>

#include "audit.hpp"

namespace vt::leakcheck {

void print_report(std::ostream& out, const Audit& audit);
void print_list(std::ostream& out, const Audit& audit);  // every hit, then the report
void print_json(std::ostream& out, const Audit& audit);

}  // namespace vt::leakcheck
