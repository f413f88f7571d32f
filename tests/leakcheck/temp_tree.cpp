#include "temp_tree.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <random>
#include <sstream>

#include "baseline.hpp"
#include "cli.hpp"
#include "config.hpp"
#include "text_file.hpp"

namespace fs = std::filesystem;

namespace vt::leakcheck::testing {
namespace {

fs::path unique_dir() {
  static std::atomic<int> counter{0};
  static const unsigned seed = std::random_device{}();
  return fs::temp_directory_path() /
         ("vt-leakcheck-test-" + std::to_string(seed) + "-" + std::to_string(counter.fetch_add(1)));
}

}  // namespace

TempTree::TempTree() : root_(unique_dir()) {
  fs::remove_all(root_);
  for (const char* layer : {"vt", "ops", "reference", "tools", "tests"}) fs::create_directories(root_ / layer);
  const fs::path project_config(VT_LC_PROJECT_CONFIG);
  fs::copy_file(project_config, config());
  fs::copy_file(project_config.parent_path() / "vt.leakcheck.baseline", baseline());
}

TempTree::~TempTree() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

void TempTree::write(const std::string& relative, std::string_view text) const {
  const fs::path file = root_ / relative;
  fs::create_directories(file.parent_path());
  write_text(file, text);
}

std::string TempTree::read(const std::string& relative) const { return read_text(root_ / relative); }

void TempTree::add_config_line(std::string_view line) const { std::ofstream(config(), std::ios::app) << line << "\n"; }

void TempTree::set_baseline(const std::string& bucket, int count) const {
  const Config c = load_config(config());
  Baseline b = load_baseline(c);
  b.counts[bucket] = count;
  write_text(baseline(), format_baseline(c, b.counts));
}

RunResult TempTree::run(std::vector<std::string> args) const {
  const bool has_config = std::any_of(
      args.begin(), args.end(), [](const std::string& a) { return a == "--config" || a.rfind("--config=", 0) == 0; });
  args.insert(args.begin(), {"--root", root_.string()});
  if (!has_config) args.insert(args.end(), {"--config", config().string()});
  std::ostringstream out;
  std::ostringstream err;
  RunResult r;
  r.code = run_cli(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

Audit TempTree::audit() const {
  const Config c = load_config(config());
  return run_audit(root_, c, load_baseline(c));
}

std::vector<TreeHit> counted(const Audit& audit) {
  std::vector<TreeHit> hits;
  std::copy_if(audit.hits.begin(), audit.hits.end(), std::back_inserter(hits),
               [](const TreeHit& h) { return h.status == HitStatus::counted; });
  return hits;
}

}  // namespace vt::leakcheck::testing
