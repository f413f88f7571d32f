// The ratchet: hits per bucket that the tree may hold. Read and written as "<bucket> <count>"
// lines; a bucket the file does not name has a baseline of zero.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "config.hpp"

namespace vt::leakcheck {

struct Baseline {
  bool present = false;  // false when the config names no file or the file does not exist yet
  std::map<std::string, int> counts;

  int of(const std::string& bucket) const;
};

// Throws UsageError on a malformed line or a bucket the config does not declare.
Baseline load_baseline(const Config& config);
std::string format_baseline(const Config& config, const std::map<std::string, int>& counts);

}  // namespace vt::leakcheck
