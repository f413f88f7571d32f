#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "vt/tools/json.hpp"

namespace vt::bench {
namespace {

std::string quote(const std::string& s) { return tools::json_string(s); }

// A CSV field in quotes, a quote inside doubled (RFC 4180).
std::string csv_quote(const std::string& s) {
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string num(double v, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

void print_header() {
  std::printf("%-8s %-30s %-8s %-18s %10s %9s %7s %6s  %s\n", "device", "case", "variant", "provider", "time (us)",
              "GB/s", "% copy", "graph", "parity");
}

void print_row(const Row& r) {
  std::printf("%-8s %-30s %-8s %-18s %10.2f %9.1f %6.1f%% %6s  %s\n", r.device.c_str(), r.name.c_str(),
              r.variant.c_str(), r.provider.c_str(), r.median_ms * 1e3, r.gb_per_s, r.percent_of_copy,
              r.graph ? "yes" : "no", r.parity.c_str());
  std::fflush(stdout);
}

std::string to_json(const std::vector<Row>& rows, const std::string& command) {
  std::string j = "{\n  \"command\": " + quote(command) + ",\n  \"rows\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    j += (i ? ",\n    {" : "\n    {");
    j += "\"device\": " + quote(r.device) + ", \"model\": " + quote(r.model) + ", \"op\": " + quote(r.op) +
         ", \"case\": " + quote(r.name) + ", \"group\": " + quote(r.group) + ", \"variant\": " + quote(r.variant) +
         ", \"provider\": " + quote(r.provider) + ", \"shape\": " + quote(r.shape) +
         ", \"floor_bytes\": " + num(r.floor_bytes, 0) + ", \"median_ms\": " + num(r.median_ms, 6) +
         ", \"gb_per_s\": " + num(r.gb_per_s, 2) + ", \"copy_gb_per_s\": " + num(r.copy_gb_per_s, 2) +
         ", \"percent_of_copy\": " + num(r.percent_of_copy, 2) + ", \"samples\": " + std::to_string(r.samples) +
         ", \"copies\": " + std::to_string(r.copies) + ", \"graph\": " + (r.graph ? "true" : "false") +
         ", \"parity\": " + quote(r.parity) + ", \"failed\": " + (r.failed ? "true" : "false") + "}";
  }
  return j + "\n  ]\n}\n";
}

std::string to_csv(const std::vector<Row>& rows) {
  std::string s =
      "device,model,op,case,variant,provider,floor_bytes,median_ms,gb_per_s,copy_gb_per_s,percent_of_copy,graph,"
      "parity\n";
  for (const Row& r : rows)
    s += r.device + "," + csv_quote(r.model) + "," + r.op + "," + r.name + "," + r.variant + "," + r.provider + "," +
         num(r.floor_bytes, 0) + "," + num(r.median_ms, 6) + "," + num(r.gb_per_s, 2) + "," + num(r.copy_gb_per_s, 2) +
         "," + num(r.percent_of_copy, 2) + "," + (r.graph ? "1" : "0") + "," + csv_quote(r.parity) + "\n";
  return s;
}

// Percent of copy bandwidth (y) against bytes moved (x, log scale), one polyline per
// (device, group, variant).
std::string to_svg(const std::vector<Row>& rows) {
  constexpr double W = 900, H = 520, L = 70, R = 300, T = 30, B = 60;
  double xmin = 1e300, xmax = 0;
  for (const Row& r : rows)
    if (r.floor_bytes > 0 && !r.failed) {
      xmin = std::min(xmin, r.floor_bytes);
      xmax = std::max(xmax, r.floor_bytes);
    }
  if (xmax <= 0) return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n";
  const double lx0 = std::floor(std::log10(xmin)), lx1 = std::ceil(std::log10(xmax)) + (xmin == xmax ? 1 : 0);
  auto px = [&](double b) { return L + (std::log10(b) - lx0) / (lx1 - lx0) * (W - L - R); };
  auto py = [&](double pct) { return T + (1.0 - std::min(pct, 110.0) / 110.0) * (H - T - B); };
  std::map<std::string, std::vector<const Row*>> series;
  for (const Row& r : rows)
    if (!r.failed && r.floor_bytes > 0) series[r.device + " " + r.group + " (" + r.variant + ")"].push_back(&r);
  static const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                  "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"};
  std::string s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(W, 0) + "\" height=\"" + num(H, 0) +
      "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  for (int pct = 0; pct <= 100; pct += 20) {
    s += "<line x1=\"" + num(L, 0) + "\" x2=\"" + num(W - R, 0) + "\" y1=\"" + num(py(pct), 1) + "\" y2=\"" +
         num(py(pct), 1) + "\" stroke=\"#ddd\"/><text x=\"" + num(L - 8, 0) + "\" y=\"" + num(py(pct) + 4, 1) +
         "\" text-anchor=\"end\">" + std::to_string(pct) + "%</text>\n";
  }
  for (double e = lx0; e <= lx1; e += 1)
    s += "<text x=\"" + num(px(std::pow(10.0, e)), 1) + "\" y=\"" + num(H - B + 18, 0) +
         "\" text-anchor=\"middle\">1e" + num(e, 0) + " B</text>\n";
  s += "<text x=\"" + num((L + W - R) / 2, 0) + "\" y=\"" + num(H - 15, 0) +
       "\" text-anchor=\"middle\">bytes moved at the floor (log)</text>\n<text x=\"15\" y=\"" + num(H / 2, 0) +
       "\" transform=\"rotate(-90 15 " + num(H / 2, 0) +
       ")\" text-anchor=\"middle\">% of measured copy bandwidth</text>\n";
  int k = 0;
  for (auto& [label, pts] : series) {
    std::sort(pts.begin(), pts.end(), [](const Row* a, const Row* b) { return a->floor_bytes < b->floor_bytes; });
    const char* c = colours[k % 10];
    std::string line;
    for (const Row* r : pts) {
      line += num(px(r->floor_bytes), 1) + "," + num(py(r->percent_of_copy), 1) + " ";
      s += "<circle cx=\"" + num(px(r->floor_bytes), 1) + "\" cy=\"" + num(py(r->percent_of_copy), 1) +
           "\" r=\"3\" fill=\"" + c + "\"><title>" + r->name + ": " + num(r->percent_of_copy, 1) +
           "%</title></circle>\n";
    }
    s += "<polyline fill=\"none\" stroke=\"" + std::string(c) + "\" points=\"" + line + "\"/>\n";
    s += "<text x=\"" + num(W - R + 10, 0) + "\" y=\"" + num(T + 16 * k + 10, 0) + "\" fill=\"" + c + "\">" + label +
         "</text>\n";
    ++k;
  }
  return s + "</svg>\n";
}

}  // namespace vt::bench
