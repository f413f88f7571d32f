// vt-bench's results: one row per (device, case, variant), printed as a table row by row as
// each is measured (a run cut off still leaves what it measured) and written at the end as
// JSON, CSV and an SVG plot of achieved bandwidth against bytes moved.
#pragma once
#include <string>
#include <vector>

namespace vt::bench {

struct Row {
  std::string device, model, op, name, group, variant, provider, shape, parity;
  double floor_bytes = 0, median_ms = 0, gb_per_s = 0, copy_gb_per_s = 0, percent_of_copy = 0;
  int samples = 0, copies = 0;
  bool graph = false, failed = false;
};

void print_header();
void print_row(const Row& r);  // and flushes it
std::string to_json(const std::vector<Row>& rows, const std::string& command);
std::string to_csv(const std::vector<Row>& rows);
std::string to_svg(const std::vector<Row>& rows);

}  // namespace vt::bench
