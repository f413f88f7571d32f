// vt-demo's output: an aligned table for people, or JSON for machines.
#pragma once
#include <string>
#include <vector>

#include "measure.hpp"

namespace vt::demo {

void print_table(const std::vector<Row>& rows, const std::vector<std::string>& notes);
void print_json(const std::vector<Row>& rows, const std::vector<std::string>& notes);

}  // namespace vt::demo
