// Applies a config's rules to one source file: the device-specific hits it holds and the
// exemption markers in its comments.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"

namespace vt::leakcheck {

struct Hit {
  int line = 0;
  std::string bucket;
  std::string text;  // the identifier, the header path, or the string literal in quotes
};

// A comment that starts with the marker tag. A malformed one carries `error` and exempts nothing.
struct Marker {
  int line = 0;
  std::string bucket;
  std::string reason;
  std::string error;
};

struct FileScan {
  std::vector<Hit> hits;
  std::vector<Marker> markers;
};

inline constexpr std::string_view kMarkerTag = "vt-leakcheck:";

FileScan scan_source(std::string_view source, const Config& config);

}  // namespace vt::leakcheck
