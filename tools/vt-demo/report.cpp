#include "report.hpp"

#include <algorithm>
#include <cstdio>

#include "vt/tools/json.hpp"

namespace vt::demo {
namespace {

using tools::json_string;

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

void print_table(const std::vector<Row>& rows, const std::vector<std::string>& notes) {
  const std::vector<std::string> head = {"device",    "step", "op",   "provider", "shape",
                                         "time (ms)", "runs", "GB/s", "parity"};
  std::vector<std::vector<std::string>> cells;
  for (const Row& r : rows)
    cells.push_back({r.device, r.step, r.op, r.provider.empty() ? "-" : r.provider, r.shape,
                     r.runs ? fixed(r.median_ms, 3) : "-", std::to_string(r.runs), r.runs ? fixed(r.gb_per_s, 2) : "-",
                     r.parity});
  std::vector<size_t> width(head.size());
  for (size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& row) {
    std::string s;
    for (size_t c = 0; c < row.size(); ++c) {
      const bool numeric = c >= 5 && c <= 7;
      const std::string pad(width[c] - row[c].size(), ' ');
      s += (c ? "  " : "") + (numeric ? pad + row[c] : c + 1 == row.size() ? row[c] : row[c] + pad);
    }
    std::printf("%s\n", s.c_str());
  };
  line(head);
  for (const auto& row : cells) line(row);
  for (const std::string& n : notes) std::printf("%s\n", n.c_str());
}

void print_json(const std::vector<Row>& rows, const std::vector<std::string>& notes) {
  std::printf("{\n  \"results\": [");
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::printf(
        "%s\n    {\"device\": %s, \"step\": %s, \"op\": %s, \"provider\": %s, \"shape\": %s, \"median_ms\": %.6f, "
        "\"runs\": %d, \"floor_bytes\": %llu, \"gb_per_s\": %.3f, \"parity\": %s, \"identical\": %s, \"failed\": %s}",
        i ? "," : "", json_string(r.device).c_str(), json_string(r.step).c_str(), json_string(r.op).c_str(),
        json_string(r.provider).c_str(), json_string(r.shape).c_str(), r.median_ms, r.runs,
        static_cast<unsigned long long>(r.floor_bytes), r.gb_per_s, json_string(r.parity).c_str(),
        r.identical ? "true" : "false", r.failed ? "true" : "false");
  }
  std::printf("\n  ],\n  \"notes\": [");
  for (size_t i = 0; i < notes.size(); ++i) std::printf("%s\n    %s", i ? "," : "", json_string(notes[i]).c_str());
  std::printf("\n  ]\n}\n");
}

}  // namespace vt::demo
