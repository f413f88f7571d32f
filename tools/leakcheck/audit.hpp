// One run over a tree: scans every file of the configured layers, applies exemption markers
// and the allowlist, and sets the counts per bucket against the baseline.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "baseline.hpp"
#include "config.hpp"

namespace vt::leakcheck {

enum class HitStatus { counted, exempt, allowlisted };

struct TreeHit {
  std::string file;  // relative to the root, '/'-separated
  int line = 0;
  std::string bucket;
  std::string text;
  HitStatus status = HitStatus::counted;
};

struct Exemption {
  std::string file;
  int line = 0;
  std::string bucket;
  std::string reason;
  int hits = 0;  // zero makes the marker unused, which fails the run
};

struct AllowResult {
  AllowEntry entry;
  int found = 0;  // hits of the entry's bucket in its file that no marker exempts
  bool stale() const { return found != entry.count; }
};

struct BucketCount {
  std::string name;
  int found = 0;
  int baseline = 0;
  bool leak() const { return found > baseline; }
  bool stale() const { return found < baseline; }
};

struct BadMarker {
  std::string file;
  int line = 0;
  std::string error;
};

struct Audit {
  std::filesystem::path root;
  std::filesystem::path config;
  std::vector<std::string> layers;
  int files_scanned = 0;
  std::vector<BucketCount> buckets;  // in config order
  std::vector<TreeHit> hits;         // by file, then line
  std::vector<Exemption> exemptions;
  std::vector<BadMarker> bad_markers;
  std::vector<AllowResult> allowlist;

  bool clean() const;
  void set_baseline(const Baseline& baseline);
};

// Throws UsageError when a layer is missing or a file cannot be read.
Audit run_audit(const std::filesystem::path& root, const Config& config, const Baseline& baseline);

}  // namespace vt::leakcheck
