#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace vt::leakcheck {
namespace {

const char* status_name(HitStatus s) {
  switch (s) {
    case HitStatus::counted: return "counted";
    case HitStatus::exempt: return "exempt";
    case HitStatus::allowlisted: return "allowlisted";
  }
  return "counted";
}

std::string shown_path(const std::filesystem::path& p, const std::filesystem::path& root) {
  const std::string rel = p.lexically_relative(root).generic_string();
  return rel.empty() || rel.rfind("..", 0) == 0 ? p.generic_string() : rel;
}

std::string hits(int n) { return std::to_string(n) + (n == 1 ? " hit" : " hits"); }

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string pad_left(const std::string& s, size_t width) {
  return s.size() < width ? std::string(width - s.size(), ' ') + s : s;
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

struct Problem {
  std::string text;
  std::vector<std::string> hits;  // for a leak: the counted hits of the bucket
};

// Every reason the run fails.
std::vector<Problem> problems(const Audit& a) {
  std::vector<Problem> out;
  for (const BucketCount& b : a.buckets) {
    if (b.leak()) {
      Problem p{"leak: " + b.name + " has " + hits(b.found) + ", baseline " + std::to_string(b.baseline), {}};
      for (const TreeHit& h : a.hits) {
        if (h.bucket == b.name && h.status == HitStatus::counted) {
          p.hits.push_back(h.file + ":" + std::to_string(h.line) + ": " + h.text);
        }
      }
      out.push_back(std::move(p));
    } else if (b.stale()) {
      out.push_back({"stale baseline: " + b.name + " has " + hits(b.found) + ", baseline " +
                         std::to_string(b.baseline) + " (lower it with --write-baseline)",
                     {}});
    }
  }
  for (const AllowResult& r : a.allowlist) {
    if (r.stale()) {
      out.push_back({"stale allowlist entry (" + shown_path(a.config, a.root) + ":" + std::to_string(r.entry.line) +
                         "): " + r.entry.file + " " + r.entry.bucket + " allows " + std::to_string(r.entry.count) +
                         ", found " + std::to_string(r.found),
                     {}});
    }
  }
  for (const BadMarker& m : a.bad_markers) out.push_back({m.file + ":" + std::to_string(m.line) + ": " + m.error, {}});
  for (const Exemption& e : a.exemptions) {
    if (e.hits == 0) {
      out.push_back({e.file + ":" + std::to_string(e.line) + ": exemption marker for " + e.bucket +
                         " matches no hit on its line or the next",
                     {}});
    }
  }
  return out;
}

}  // namespace

void print_report(std::ostream& out, const Audit& a) {
  std::string layers;
  for (const std::string& l : a.layers) layers += (layers.empty() ? "" : ", ") + l;
  out << "vt-leakcheck: " << a.files_scanned << (a.files_scanned == 1 ? " file" : " files") << " in " << layers
      << " (config " << shown_path(a.config, a.root) << ")\n\n";
  size_t width = 6;
  for (const BucketCount& b : a.buckets) width = std::max(width, b.name.size());
  out << pad("bucket", width) << "  found  baseline\n";
  for (const BucketCount& b : a.buckets) {
    out << pad(b.name, width) << "  " << pad_left(std::to_string(b.found), 5) << "  "
        << pad_left(std::to_string(b.baseline), 8)
        << (b.leak()    ? "  LEAK"
            : b.stale() ? "  STALE"
                        : "")
        << "\n";
  }
  out << "\nexemptions: " << (a.exemptions.empty() ? "none" : std::to_string(a.exemptions.size())) << "\n";
  for (const Exemption& e : a.exemptions) {
    out << "  " << e.file << ":" << e.line << "  " << e.bucket << "  " << hits(e.hits) << "  " << e.reason << "\n";
  }
  out << "allowlist: " << (a.allowlist.empty() ? "none" : std::to_string(a.allowlist.size())) << "\n";
  for (const AllowResult& r : a.allowlist) {
    out << "  " << r.entry.file << "  " << r.entry.bucket << "  " << r.found << "/" << r.entry.count << "  "
        << r.entry.reason << "\n";
  }
  const std::vector<Problem> found = problems(a);
  if (!found.empty()) {
    out << "\nproblems:\n";
    for (const Problem& p : found) {
      out << "  " << p.text << "\n";
      for (const std::string& h : p.hits) out << "    " << h << "\n";
    }
  }
  out << "\nverdict: " << (a.clean() ? "clean" : "FAIL") << "\n";
}

void print_list(std::ostream& out, const Audit& a) {
  for (const TreeHit& h : a.hits) {
    out << h.file << ":" << h.line << ": " << h.bucket << ": " << h.text;
    if (h.status != HitStatus::counted) out << "  [" << status_name(h.status) << "]";
    out << "\n";
  }
  if (!a.hits.empty()) out << "\n";
  print_report(out, a);
}

void print_json(std::ostream& out, const Audit& a) {
  out << "{\n  \"root\": " << json_string(a.root.generic_string())
      << ",\n  \"config\": " << json_string(a.config.generic_string()) << ",\n  \"files_scanned\": " << a.files_scanned
      << ",\n  \"buckets\": [";
  const char* sep = "\n";
  for (const BucketCount& b : a.buckets) {
    out << sep << "    {\"name\": " << json_string(b.name) << ", \"found\": " << b.found
        << ", \"baseline\": " << b.baseline << ", \"status\": \""
        << (b.leak()    ? "leak"
            : b.stale() ? "stale"
                        : "ok")
        << "\"}";
    sep = ",\n";
  }
  out << "\n  ],\n  \"hits\": [";
  sep = "\n";
  for (const TreeHit& h : a.hits) {
    out << sep << "    {\"file\": " << json_string(h.file) << ", \"line\": " << h.line
        << ", \"bucket\": " << json_string(h.bucket) << ", \"text\": " << json_string(h.text) << ", \"status\": \""
        << status_name(h.status) << "\"}";
    sep = ",\n";
  }
  out << (a.hits.empty() ? "" : "\n  ") << "],\n  \"exemptions\": [";
  sep = "\n";
  for (const Exemption& e : a.exemptions) {
    out << sep << "    {\"file\": " << json_string(e.file) << ", \"line\": " << e.line
        << ", \"bucket\": " << json_string(e.bucket) << ", \"hits\": " << e.hits
        << ", \"reason\": " << json_string(e.reason) << "}";
    sep = ",\n";
  }
  out << (a.exemptions.empty() ? "" : "\n  ") << "],\n  \"allowlist\": [";
  sep = "\n";
  for (const AllowResult& r : a.allowlist) {
    out << sep << "    {\"file\": " << json_string(r.entry.file) << ", \"bucket\": " << json_string(r.entry.bucket)
        << ", \"count\": " << r.entry.count << ", \"found\": " << r.found
        << ", \"reason\": " << json_string(r.entry.reason) << ", \"stale\": " << (r.stale() ? "true" : "false") << "}";
    sep = ",\n";
  }
  out << (a.allowlist.empty() ? "" : "\n  ") << "],\n  \"problems\": [";
  sep = "\n";
  const std::vector<Problem> found = problems(a);
  for (const Problem& p : found) {
    out << sep << "    " << json_string(p.text);
    sep = ",\n";
  }
  out << (found.empty() ? "" : "\n  ") << "],\n  \"verdict\": \"" << (a.clean() ? "clean" : "fail") << "\"\n}\n";
}

}  // namespace vt::leakcheck
