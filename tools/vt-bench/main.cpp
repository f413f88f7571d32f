// vt-bench: the GDN ops on real model shapes on every device, each variant, as time, GB/s
// of the floor bytes and percent of the copy bandwidth measured in the same run, with parity
// against the scalar reference. Method: performance.md; results: docs/benchmarks.md.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "bench_cases.hpp"
#include "host_overhead.hpp"
#include "report.hpp"
#include "timing.hpp"
#include "vt/opcheck/compare.hpp"
#include "vt/opcheck/random.hpp"
#include "vt/vt.hpp"

namespace {

struct Options {
  std::vector<std::string> devices;  // names or backends; empty: all
  std::vector<std::string> cases;    // filters (a whole name or a substring), any of which selects a case
  std::string variant;               // exact variant name; empty: every variant
  std::string json, csv, svg;
  bool quick = false;
  bool host_overhead = false;     // time the host side of each call instead
  int threads = 0;                // --threads: host threads calling at once (0: not given, 1)
  bool model_values = true;       // conv inputs as in a model; false: spread as in parity
  double check_bytes = 2e9;       // parity against the reference up to this floor size
  double rotation_bytes = 256e6;  // inputs rotated until their footprint passes this
};

const char* kUsage =
    "usage: vt-bench [--device NAME]... [--case SUBSTR]... [--variant NAME] [--quick] [--json FILE] [--csv FILE]\n"
    "                [--svg FILE] [--check-bytes N] [--rotation-bytes N] [--values model|spread]\n"
    "       vt-bench --host-overhead [--threads N] [--device NAME]... [--case SUBSTR]... [--quick] [--json FILE]\n"
    "Times the GDN ops on the shapes of ops.md on every loaded device (or those named: a device\n"
    "like cuda:0 or a backend), each variant, against the device's measured copy bandwidth.\n"
    "A variant runs where a provider of its op reads all its knobs (vt-info lists them).\n"
    "--case: the cases whose name holds any of the substrings given (repeat it for several);\n"
    "a case's whole name selects that case alone (conv_update/C8192/B1, not B128 too).\n"
    "--json, --csv, --svg: every row, written whole when the run ends (each path is checked\n"
    "before the run starts).\n"
    "--values: conv inputs near N(0, 1) as in a model (default), or spread over binades as in\n"
    "the parity suite, where one width-4 SiLU input in seven takes the exact division's slow path.\n"
    "--host-overhead: instead, the host time of one call of each case: validation and dispatch\n"
    "alone (through a provider that returns at once), and the whole call on the device.\n"
    "--threads N (1 to 64, with --host-overhead): N host threads call at once, each with a queue\n"
    "and inputs of its own; each row pools their samples.\n";

// Whether all of `text` is one decimal number, read into v. from_chars, not strtod or strtol:
// no leading blank, sign or hexadecimal slips through.
template <class T>
bool whole_number(const std::string& text, T& v) {
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(text.data(), last, v);
  return ec == std::errc{} && end == last;
}

// A byte count: a finite, non-negative number, all of the argument (1e9 or 2000000000).
double byte_count(const std::string& flag, const std::string& text) {
  double v = 0;
  if (!whole_number(text, v) || !std::isfinite(v) || v < 0)
    throw std::invalid_argument(flag + " takes a byte count, not '" + text + "'");
  return v;
}

// --threads' count: an integer from 1 to 64, all of the argument.
int thread_count(const std::string& text) {
  int v = 0;
  if (!whole_number(text, v) || v < 1 || v > 64)
    throw std::invalid_argument("--threads takes a whole number from 1 to 64, not '" + text + "'");
  return v;
}

// Why `path` could not be written, or empty: checked before the run, so that a long run does
// not end in results it cannot keep.
std::string unwritable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return "it is a folder";
  if (fs::exists(path, ec)) return ::access(path.c_str(), W_OK) == 0 ? "" : std::strerror(errno);
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) parent = ".";
  if (!fs::is_directory(parent, ec)) return "no folder " + parent.string();
  return ::access(parent.c_str(), W_OK) == 0 ? "" : std::strerror(errno);
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--device") o.devices.push_back(value());
    else if (a == "--case") o.cases.push_back(value());
    else if (a == "--variant") o.variant = value();
    else if (a == "--quick") o.quick = true;
    else if (a == "--host-overhead") o.host_overhead = true;
    else if (a == "--threads") o.threads = thread_count(value());
    else if (a == "--values") {
      const std::string v = value();
      if (v != "model" && v != "spread") throw std::invalid_argument("--values takes model or spread, not " + v);
      o.model_values = v == "model";
    } else if (a == "--json") o.json = value();
    else if (a == "--csv") o.csv = value();
    else if (a == "--svg") o.svg = value();
    else if (a == "--check-bytes") o.check_bytes = byte_count(a, value());
    else if (a == "--rotation-bytes") o.rotation_bytes = byte_count(a, value());
    else if (a == "--help" || a == "-h") return false;
    else throw std::invalid_argument("unknown argument " + a);
  }
  if (o.host_overhead && (!o.variant.empty() || !o.csv.empty() || !o.svg.empty()))
    throw std::invalid_argument("--variant, --csv and --svg do not apply to --host-overhead");
  if (!o.host_overhead && o.threads != 0) throw std::invalid_argument("--threads applies to --host-overhead alone");
  for (const std::string* path : {&o.json, &o.csv, &o.svg})
    if (!path->empty())
      if (const std::string why = unwritable(*path); !why.empty())
        throw std::invalid_argument("cannot write " + *path + ": " + why);
  return true;
}

bool wanted(const vt::Device& d, const Options& o) {
  if (o.devices.empty()) return true;
  for (const auto& n : o.devices)
    if (d.name() == n || d.backend() == n) return true;
  return false;
}

// --case: every case without one, else those whose name holds any of the substrings given
// (repeated, so that a device call can take a share of the catalogue). A filter that is a
// case's whole name selects that case alone: the catalogue's names prefix one another (B1,
// B128), and a command that names one case must keep timing one as the catalogue grows.
std::vector<vt::bench::BenchCase> selected(std::vector<vt::bench::BenchCase> catalogue, const Options& o) {
  if (o.cases.empty()) return catalogue;
  const auto names_a_case = [&catalogue](const std::string& filter) {
    return std::any_of(catalogue.begin(), catalogue.end(),
                       [&filter](const vt::bench::BenchCase& bc) { return bc.name == filter; });
  };
  std::vector<bool> whole;
  for (const auto& c : o.cases) whole.push_back(names_a_case(c));
  std::vector<vt::bench::BenchCase> kept;
  for (auto& bc : catalogue) {
    bool match = false;
    for (std::size_t i = 0; i < o.cases.size() && !match; ++i)
      match = whole[i] ? bc.name == o.cases[i] : bc.name.find(o.cases[i]) != std::string::npos;
    if (match) kept.push_back(std::move(bc));
  }
  return kept;
}

double footprint(const vt::opcheck::OpCase& c) {
  double b = 0;
  for (int i = 0; i < c.memory().count(); ++i) b += static_cast<double>(c.memory().slot(i).bytes);
  return b;
}

// A runtime per variant: the environment's knobs with the variant's switches on top.
vt::Runtime& runtime_for(const vt::bench::Variant& v, std::map<std::string, std::unique_ptr<vt::Runtime>>& cache) {
  auto& rt = cache[v.name];
  if (!rt) {
    vt::Knobs k = vt::Knobs::environment();
    for (const auto& [name, value] : v.knobs) k.ints[name] = value;
    k.disable_providers.insert(k.disable_providers.end(), v.disable.begin(), v.disable.end());
    rt = std::make_unique<vt::Runtime>(k);
    rt->load();
  }
  return *rt;
}

// `copies`: the case's inputs (seeded; the first is the one checked), made by the first variant
// and bound again on each later variant's device, since every variant takes the same inputs
// and making them is long host work on the large cases (a full run on the H200 spent most of
// its time there). The first copy keeps the reference's answer once computed.
vt::bench::Row run_case(const vt::bench::BenchCase& bc, const vt::bench::Variant& variant, const vt::Device& device,
                        double copy_gbs, const Options& o, std::vector<std::unique_ptr<vt::opcheck::OpCase>>& copies) {
  vt::bench::Row r;
  r.device = device.name();
  r.model = device.properties().name;
  r.name = bc.name;
  r.group = bc.group;
  r.variant = variant.name;
  r.copy_gb_per_s = copy_gbs;
  try {
    vt::Queue queue = device.create_queue();
    if (copies.empty()) copies.push_back(bc.make(vt::opcheck::case_seed(1, bc.name)));
    vt::opcheck::OpCase& first = *copies.front();
    r.op = std::string(vt::op_name(first.op()));
    r.shape = first.shape();
    r.floor_bytes = static_cast<double>(first.floor_bytes());
    first.bind(queue);
    r.provider = std::string(first.run(queue));
    if (r.floor_bytes <= o.check_bytes) {
      const auto report = vt::opcheck::compare(first.memory(), first.expected(), first.download(queue),
                                               {vt::opcheck::Tolerance::Mode::bitwise, 0});
      r.parity = report.summary();
      r.failed = !report.first_structural.empty();
    } else {
      r.parity = "not checked (larger than --check-bytes)";
    }
    for (size_t k = 1; k < copies.size(); ++k) copies[k]->bind(queue);
    const double fp = footprint(first);
    for (size_t k = copies.size(); k < 16 && fp * static_cast<double>(copies.size()) < o.rotation_bytes; ++k) {
      copies.push_back(bc.make(vt::opcheck::case_seed(1 + static_cast<uint64_t>(k), bc.name)));
      copies.back()->bind(queue);
    }
    const vt::bench::Timing t = vt::bench::time_rotation(copies, device, queue);
    r.median_ms = t.median_ms;
    r.samples = t.samples;
    r.graph = t.graph;
    r.copies = static_cast<int>(copies.size());
    r.gb_per_s = r.floor_bytes / (t.median_ms * 1e-3) / 1e9;
    r.percent_of_copy = copy_gbs > 0 ? 100.0 * r.gb_per_s / copy_gbs : 0;
  } catch (const vt::Error& e) {
    r.failed = true;
    r.parity = std::string("error: ") + e.what();
  }
  return r;
}

// Whether the variant's disabled providers serve this case's op on this device's backend.
bool replaces_something(vt::Runtime& rt, const vt::bench::BenchCase& bc, const vt::bench::Variant& v,
                        const vt::Device& d) {
  for (const auto& p : rt.registry().providers(bc.op, d.backend()))
    for (const auto& name : v.disable)
      if (p.name == name) return true;
  return false;
}

// Whether a provider of the case's op on this device's backend reads every knob the variant
// sets (vt_provider_desc::knobs; a provider without the list reads all). Elsewhere the variant
// is not what its name says: `staged` (no plan, x staged) where nothing stages x would time
// `no-plan` again, so it is left out.
bool reads_its_knobs(vt::Runtime& rt, const vt::bench::BenchCase& bc, const vt::bench::Variant& v,
                     const vt::Device& d) {
  for (const auto& p : rt.registry().providers(bc.op, d.backend()))
    if (std::all_of(v.knobs.begin(), v.knobs.end(), [&](const auto& knob) { return p.reads(knob.first); })) return true;
  return false;
}

// Written whole or not at all: into a file beside it, renamed over it once complete.
bool write_file(const std::string& path, const std::string& text) {
  if (path.empty()) return true;
  const std::string part = path + ".part";
  {
    std::ofstream f(part);
    f << text;
    f.close();
    if (f && std::rename(part.c_str(), path.c_str()) == 0) return true;
  }
  std::fprintf(stderr, "vt-bench: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
  std::remove(part.c_str());
  return false;
}

// --host-overhead: one row per (device, case), the default variant only.
int host_overhead(const Options& o, const std::string& command) {
  std::vector<vt::bench::BenchCase> cases = selected(vt::bench::catalogue(o.quick, o.model_values), o);
  std::vector<vt::bench::HostRow> rows;
  try {
    vt::Runtime base(vt::Knobs::environment());
    base.load();
    // The header with the first row: a run that selects nothing prints only its error.
    bool header_printed = false;
    rows = vt::bench::time_host_overhead(
        base, cases, std::max(o.threads, 1), [&](const vt::Device& d) { return wanted(d, o); },
        [&header_printed](const vt::bench::HostRow& r) {
          if (!std::exchange(header_printed, true)) vt::bench::print_host_header();
          vt::bench::print_host_row(r);
        });
  } catch (const vt::Error& e) {
    std::fprintf(stderr, "vt-bench: %s\n", e.what());
    return 1;
  }
  if (rows.empty()) {
    std::fprintf(stderr, "vt-bench: nothing selected: no device or case matched (vt-info lists the devices)\n");
    return 1;
  }
  if (!write_file(o.json, vt::bench::host_to_json(rows, command))) return 1;
  for (const auto& r : rows)
    if (!r.error.empty()) return 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    if (!parse(argc, argv, o)) {
      std::printf("%s", kUsage);
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vt-bench: %s\n%s", e.what(), kUsage);
    return 2;
  }
  std::string command = "vt-bench";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];

  if (o.host_overhead) return host_overhead(o, command);
  std::map<std::string, std::unique_ptr<vt::Runtime>> runtimes;
  std::vector<vt::bench::Row> rows;
  try {
    vt::Runtime& base = runtime_for({"default", {}, {}}, runtimes);
    const auto cases = selected(vt::bench::catalogue(o.quick, o.model_values), o);
    for (const vt::Device& d : base.devices()) {
      if (!wanted(d, o)) continue;
      vt::Queue q = d.create_queue();
      const double copy_gbs = vt::bench::copy_bandwidth(d, q);
      std::printf("%s (%s): copy bandwidth %.1f GB/s\n", d.name().c_str(), d.properties().name.c_str(), copy_gbs);
      vt::bench::print_header();
      for (const auto& bc : cases) {
        std::vector<std::unique_ptr<vt::opcheck::OpCase>> copies;
        for (const auto& v : bc.variants) {
          if (!o.variant.empty() && v.name != o.variant) continue;
          if (!v.disable.empty() && !replaces_something(base, bc, v, d)) continue;
          if (!v.knobs.empty() && !reads_its_knobs(base, bc, v, d)) {
            if (!o.variant.empty()) {  // asked for by name: say why it has no row
              std::string knobs;
              for (const auto& [knob, value] : v.knobs) knobs += (knobs.empty() ? "" : ", ") + knob;
              std::fprintf(stderr,
                           "vt-bench: %s on %s: variant '%s' left out: no provider of %s there reads all of %s\n",
                           bc.name.c_str(), d.name().c_str(), v.name.c_str(), std::string(vt::op_name(bc.op)).c_str(),
                           knobs.c_str());
            }
            continue;
          }
          const vt::Device dv = runtime_for(v, runtimes).device(d.name());
          rows.push_back(run_case(bc, v, dv, copy_gbs, o, copies));
          vt::bench::print_row(rows.back());
        }
      }
    }
  } catch (const vt::Error& e) {
    std::fprintf(stderr, "vt-bench: %s\n", e.what());
    return 1;
  }
  if (rows.empty()) {
    std::fprintf(stderr,
                 "vt-bench: nothing selected: no device, case or variant matched (vt-info lists the devices)\n");
    return 1;
  }
  bool written = write_file(o.json, vt::bench::to_json(rows, command));
  written = write_file(o.csv, vt::bench::to_csv(rows)) && written;
  written = write_file(o.svg, vt::bench::to_svg(rows)) && written;
  if (!written) return 1;
  for (const auto& r : rows)
    if (r.failed) return 1;
  return 0;
}
