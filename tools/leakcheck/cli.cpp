#include "cli.hpp"

#include <filesystem>
#include <map>
#include <optional>

#include "audit.hpp"
#include "baseline.hpp"
#include "config.hpp"
#include "report.hpp"
#include "text_file.hpp"

namespace fs = std::filesystem;

namespace vt::leakcheck {
namespace {

constexpr const char* kUsage =
    "usage: vt-leakcheck [--report | --list | --json] [--write-baseline]\n"
    "                    [--root DIR] [--config FILE]\n"
    "  --report          counts per bucket and the verdict (default)\n"
    "  --list            every hit (file, line, bucket, text), then the report\n"
    "  --json            everything as one JSON object\n"
    "  --write-baseline  lower the baseline to the current counts; never raises one\n"
    "  --root DIR        the tree to check (default: the current directory)\n"
    "  --config FILE     the config (default: DIR/tools/leakcheck/vt.leakcheck)\n"
    "exit: 0 clean, 1 leak or stale baseline/allowlist/marker, 2 bad usage or config\n";

enum class Format { report, list, json };

struct Options {
  std::optional<Format> format;
  bool write_baseline = false;
  bool help = false;
  std::string root = ".";
  std::optional<std::string> config;
};

Options parse_options(const std::vector<std::string>& args) {
  Options o;
  const auto set_format = [&](Format f, const std::string& arg) {
    if (o.format && *o.format != f) throw UsageError("choose one of --report, --list, --json (got " + arg + " too)");
    o.format = f;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&](const std::string& name) -> std::string {
      if (a.rfind(name + "=", 0) == 0) return a.substr(name.size() + 1);
      if (i + 1 >= args.size() || args[i + 1].empty()) throw UsageError(name + " needs a value");
      return args[++i];
    };
    if (a == "--report") {
      set_format(Format::report, a);
    } else if (a == "--list") {
      set_format(Format::list, a);
    } else if (a == "--json") {
      set_format(Format::json, a);
    } else if (a == "--write-baseline") {
      o.write_baseline = true;
    } else if (a == "--root" || a.rfind("--root=", 0) == 0) {
      o.root = value("--root");
    } else if (a == "--config" || a.rfind("--config=", 0) == 0) {
      o.config = value("--config");
    } else if (a == "-h" || a == "--help") {
      o.help = true;
    } else {
      throw UsageError("unknown argument '" + a + "'");
    }
  }
  return o;
}

fs::path normal_root(const std::string& dir) {
  fs::path root = fs::absolute(dir).lexically_normal();
  if (!root.has_filename() && root.has_relative_path()) root = root.parent_path();
  if (!fs::is_directory(root)) throw UsageError("root '" + dir + "' is not a directory");
  return root;
}

// Refuses (returns false, writes nothing) when any bucket would go up.
bool write_lowered_baseline(const Config& config, const Baseline& old, Audit& audit, std::ostream& err) {
  if (config.baseline.empty()) throw UsageError(config.file.string() + ": names no 'baseline' file to write");
  std::string raised;
  std::map<std::string, int> counts;
  for (const BucketCount& b : audit.buckets) {
    counts[b.name] = b.found;
    if (old.present && b.found > b.baseline) {
      raised += " " + b.name + " " + std::to_string(b.baseline) + "->" + std::to_string(b.found);
    }
  }
  if (!raised.empty()) {
    err << "vt-leakcheck: refusing to raise the baseline:" << raised << "; remove the hits instead\n";
    return false;
  }
  write_text(config.baseline, format_baseline(config, counts));
  audit.set_baseline(Baseline{true, counts});
  err << "vt-leakcheck: wrote " << config.baseline.string() << "\n";
  return true;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  try {
    o = parse_options(args);
  } catch (const UsageError& e) {
    err << "vt-leakcheck: " << e.what() << "\n" << kUsage;
    return 2;
  }
  try {
    if (o.help) {
      out << kUsage;
      return 0;
    }
    const fs::path root = normal_root(o.root);
    const Config config = load_config(o.config ? fs::path(*o.config) : root / "tools/leakcheck/vt.leakcheck");
    const Baseline baseline = load_baseline(config);
    Audit audit = run_audit(root, config, baseline);
    const bool written = !o.write_baseline || write_lowered_baseline(config, baseline, audit, err);
    switch (o.format.value_or(Format::report)) {
      case Format::report: print_report(out, audit); break;
      case Format::list: print_list(out, audit); break;
      case Format::json: print_json(out, audit); break;
    }
    return written && audit.clean() ? 0 : 1;
  } catch (const std::exception& e) {
    err << "vt-leakcheck: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace vt::leakcheck
