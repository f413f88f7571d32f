// vt-demo: the main job. A Qwen3.5-shaped GDN step on every loaded device, with the provider
// that ran each op, its time and bandwidth, and parity with the scalar reference.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "gdn_step.hpp"
#include "measure.hpp"
#include "options.hpp"
#include "report.hpp"
#include "vt/vt.hpp"

namespace {

constexpr uint64_t kSeed = 20250101;  // fixed: runs are comparable across machines and builds

std::vector<vt::Device> selected_devices(vt::Runtime& rt, const std::string& filter) {
  std::vector<vt::Device> out;
  for (const vt::Device& d : rt.devices())
    if (filter.empty() || d.name() == filter || d.backend() == filter) out.push_back(d);
  return out;
}

std::vector<std::string> notes(vt::Runtime& rt, const vt::demo::StepSizes& sizes) {
  std::vector<std::string> n;
  n.push_back("step: prefill of " + std::to_string(sizes.prefill_tokens) + " tokens over 4 sequences, decode of " +
              std::to_string(sizes.decode_batch) + " sequences; C = 8192 (Hk = 16, Hv = 32, Dk = Dv = 128), K = 4");
  n.push_back(
      "time: median of the device-event-timed calls that fit in about a second (1 to 50, after one untimed "
      "call); GB/s: floor bytes (each input read once, each output written once) per second");
  n.push_back("parity: bitwise against the scalar reference on the host (NaN matches NaN)");
  for (const vt::PluginReport& p : rt.plugins())
    if (!p.loaded) n.push_back("skipped backend " + (p.backend.empty() ? p.path : p.backend) + ": " + p.reason);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  vt::demo::Options opt;
  try {
    opt = vt::demo::parse_options(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "vt-demo: %s\n%s", e.what(), vt::demo::usage());
    return 2;
  }
  if (opt.help) {
    std::printf("%s", vt::demo::usage());
    return 0;
  }

  vt::Runtime& rt = vt::runtime();
  std::vector<vt::Device> devices;
  try {
    rt.load();
    devices = selected_devices(rt, opt.device);
  } catch (const vt::Error& e) {
    std::fprintf(stderr, "vt-demo: %s\n", e.what());
    return 1;
  }
  if (devices.empty()) {
    std::fprintf(stderr, "vt-demo: no loaded device%s (vt-info says why)\n",
                 opt.device.empty() ? "" : (" matches '" + opt.device + "'").c_str());
    return 1;
  }

  const vt::demo::StepSizes sizes = vt::demo::step_sizes(opt.quick);
  std::vector<vt::demo::Row> rows;
  try {
    std::vector<vt::demo::StepOp> ops = vt::demo::build_step(sizes, kSeed);
    for (const vt::Device& device : devices) {
      vt::Queue queue = device.create_queue();
      for (size_t i = 0; i < ops.size(); ++i) {
        vt::demo::feed_if_needed(ops, i);
        rows.push_back(vt::demo::measure(*ops[i].op, ops[i].step, device, queue));
      }
    }
  } catch (const vt::Error& e) {
    std::fprintf(stderr, "vt-demo: %s\n", e.what());
    return 1;
  }

  if (opt.json) {
    vt::demo::print_json(rows, notes(rt, sizes));
  } else {
    vt::demo::print_table(rows, notes(rt, sizes));
  }
  for (const vt::demo::Row& r : rows)
    if (r.failed) return 1;
  return 0;
}
