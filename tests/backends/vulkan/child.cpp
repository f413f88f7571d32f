// The helper the tests run in a child process, where the environment (the Vulkan driver
// files, validation layers, VT_VULKAN_DEVICE) can differ from the test's own.
//   vulkan_child report    loads the Vulkan plugin; prints its report and devices
//   vulkan_child workload  runs a case of every op, copies and events on vulkan:0 and checks
//                          them against the reference; exit code 0 when all are identical
//   vulkan_child resident  loads the Vulkan plugin; at exit, after the plugin has closed its
//                          devices, exit code 0 when every library that loading it mapped (the
//                          Vulkan loader, the drivers) is still mapped
#include <link.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "vt/opcheck/compare.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/vt.hpp"

namespace {

// The environment's knobs (VT_VULKAN_DEVICE among them), with exactly these plugins.
vt::Knobs plugins(std::vector<std::string> files) {
  vt::Knobs k = vt::Knobs::environment();
  k.plugins = std::move(files);
  return k;
}

int report() {
  vt::Runtime rt(plugins({VT_VULKAN_PLUGIN}));
  rt.load();
  for (const vt::PluginReport& p : rt.plugins())
    std::printf("plugin %s loaded=%d reason=%s\n", p.backend.c_str(), p.loaded ? 1 : 0, p.reason.c_str());
  for (const vt::Device& d : rt.devices()) std::printf("device %s %s\n", d.name().c_str(), d.properties().name.c_str());
  return 0;
}

int workload() {
  vt::Runtime rt(plugins({VT_VULKAN_PLUGIN}));
  rt.load();
  if (rt.devices("vulkan").empty()) {
    std::printf("workload: no Vulkan device\n");
    return 2;
  }
  const vt::Device dev = rt.device("vulkan:0");
  vt::Queue q = dev.create_queue();
  std::vector<std::unique_ptr<vt::opcheck::OpCase>> cases;
  {
    vt::opcheck::ConvFwdParams p;
    p.lengths = {9, 0, 17, 4};
    p.plan_chunk = 8;
    p.x = p.out = vt::DType::bf16;
    cases.push_back(vt::opcheck::make_case("conv_fwd", p, 1));
  }
  {
    vt::opcheck::ConvUpdateParams p;
    p.tokens = 2;
    p.in_place = true;
    cases.push_back(vt::opcheck::make_case("conv_update", p, 2));
  }
  {
    vt::opcheck::PostConvParams p;
    p.in = p.out = vt::DType::f16;
    cases.push_back(vt::opcheck::make_case("post_conv", p, 3));
  }
  cases.push_back(vt::opcheck::make_case("l2norm", vt::opcheck::L2NormParams{}, 4));
  cases.push_back(vt::opcheck::make_case("gating", vt::opcheck::GatingParams{}, 5));
  cases.push_back(vt::opcheck::make_case("split", vt::opcheck::SplitParams{}, 6));
  int failures = 0;
  vt::Event start = dev.create_event(), end = dev.create_event();
  q.record(start);
  for (auto& c : cases) {
    c->bind(q);
    c->run(q);
    const vt::opcheck::Report r = vt::opcheck::compare(c->memory(), c->expected(), c->download(q), {});
    if (!r.passed) {
      ++failures;
      std::printf("workload: %s differs: %s\n", c->name().c_str(), r.summary().c_str());
    }
  }
  // Copies in every direction and a fill with unaligned ends.
  std::vector<uint8_t> host(4099), back(4099);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint8_t>(i * 7);
  vt::Buffer a = dev.alloc(host.size()), b = dev.alloc(host.size());
  q.upload(a, 0, host.data(), host.size());
  q.fill(a, 3, 0x7f, 4000);
  std::fill_n(host.begin() + 3, 4000, uint8_t{0x7f});
  q.copy(b, 0, a, 0, host.size());
  q.download(back.data(), b, 0, back.size());
  q.record(end);
  end.sync();
  if (back != host) {
    ++failures;
    std::printf("workload: copies differ\n");
  }
  std::printf("workload: %zu cases, %d differ, %.3f ms\n", cases.size(), failures,
              static_cast<double>(vt::Event::elapsed_ms(start, end)));
  return failures == 0 ? 0 : 1;
}

std::set<std::string> mapped_objects() {
  std::set<std::string> names;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        if (info->dlpi_name && info->dlpi_name[0]) static_cast<std::set<std::string>*>(out)->insert(info->dlpi_name);
        return 0;
      },
      &names);
  return names;
}

std::set<std::string> g_mapped_by_plugin;

// Runs after the plugin's own exit handler (registered later, so run earlier), which destroys
// the Vulkan instance; exits with the verdict.
void check_still_mapped() {
  const std::set<std::string> now = mapped_objects();
  int gone = 0;
  for (const std::string& name : g_mapped_by_plugin) {
    if (now.count(name)) continue;
    std::printf("resident: unmapped at exit: %s\n", name.c_str());
    ++gone;
  }
  std::printf("resident: %zu libraries, %d unmapped at exit\n", g_mapped_by_plugin.size(), gone);
  std::fflush(stdout);
  _exit(gone == 0 ? 0 : 5);
}

int resident() {
  std::atexit(check_still_mapped);
  const std::set<std::string> before = mapped_objects();
  vt::Runtime rt(plugins({VT_VULKAN_PLUGIN}));
  rt.load();
  if (rt.devices("vulkan").empty()) {
    std::printf("resident: no Vulkan device\n");
    return 2;
  }
  for (const std::string& name : mapped_objects())
    if (!before.count(name)) g_mapped_by_plugin.insert(name);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "report") return report();
    if (mode == "workload") return workload();
    if (mode == "resident") return resident();
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 3;
  }
  std::fprintf(stderr, "usage: vulkan_child report|workload|resident\n");
  return 64;
}
