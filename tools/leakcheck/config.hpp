// The checker's configuration: layers to scan, buckets, token rules and the allowlist, read
// from a line-oriented file (format in docs/leakcheck.md).
#pragma once
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pattern.hpp"

namespace vt::leakcheck {

// A config, baseline or command-line problem: the run stops with exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class RuleKind {
  ident,    // identifiers anywhere
  cond,     // identifiers in #if/#elif/#ifdef/#ifndef/#elifdef/#elifndef, tried before ident
  string,   // string literals, whole content against a case-insensitive glob
  include,  // header names of #include and __has_include
};

struct Rule {
  RuleKind kind = RuleKind::ident;
  std::string bucket;
  std::string pattern;                     // as written
  std::optional<IdentifierPattern> ident;  // compiled, for ident and cond rules
  int line = 0;
};

struct Bucket {
  std::string name;
  std::string description;
};

struct AllowEntry {
  std::string file;  // relative to the root, '/'-separated
  std::string bucket;
  int count = 0;
  std::string reason;
  int line = 0;
};

struct PathEntry {
  std::string path;  // relative to the root, '/'-separated, no trailing '/'
  int line = 0;
};

struct Config {
  std::filesystem::path file;
  std::vector<PathEntry> layers;
  std::vector<PathEntry> excludes;
  std::vector<std::string> extensions;
  std::filesystem::path baseline;  // empty when the config names none
  std::vector<Bucket> buckets;
  std::vector<Rule> rules;
  std::vector<AllowEntry> allow;

  bool has_bucket(std::string_view name) const;
};

// Throws UsageError naming `file` and the line.
Config parse_config(std::string_view text, const std::filesystem::path& file);
Config load_config(const std::filesystem::path& file);

}  // namespace vt::leakcheck
