// A throwaway source tree in the system temp folder, set up with the project's own config and
// baseline so tests exercise the real rules, and removed again at the end of the test.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "audit.hpp"

namespace vt::leakcheck::testing {

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
};

class TempTree {
 public:
  TempTree();
  ~TempTree();
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path config() const { return root_ / "vt.leakcheck"; }
  std::filesystem::path baseline() const { return root_ / "vt.leakcheck.baseline"; }

  void write(const std::string& relative, std::string_view text) const;
  std::string read(const std::string& relative) const;
  void add_config_line(std::string_view line) const;
  void set_baseline(const std::string& bucket, int count) const;

  // run_cli with --root and, unless `args` names one, --config of this tree.
  RunResult run(std::vector<std::string> args = {}) const;
  Audit audit() const;

 private:
  std::filesystem::path root_;
};

// The hits a run counts (neither exempt nor allowlisted).
std::vector<TreeHit> counted(const Audit& audit);

}  // namespace vt::leakcheck::testing
