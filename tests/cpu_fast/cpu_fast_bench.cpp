// cpu_fast_bench: the fast provider against the scalar reference (and the fast provider's
// baseline variant) on the Qwen3-Next shapes of performance.md, C = 8192, K = 4, bf16
// activations, f32 state: time per call (median), GB/s of the floor bytes, that as a
// percentage of this machine's copy bandwidth measured in the same run, and the speedup
// over the reference. Each case's first result is checked bytewise against the reference.
// Not a ctest: run it from a Release build on a quiet machine.
//   cpu_fast_bench [fwd] [update] [post] [--fast-only]   (no case named: all three)
#include <tbb/parallel_for.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "vt/opcheck/compare.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/runtime.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Medians over at least `min_runs` calls of f (more while under `budget` seconds): wall
// seconds, and CPU seconds of all threads, which other load on the machine inflates less.
struct Timing {
  double wall = 0, cpu = 0;
};

Timing time_median(const std::function<void()>& f, int min_runs, double budget) {
  f();  // warm-up
  std::vector<double> wall, cpu;
  const auto begin = Clock::now();
  while (wall.size() < static_cast<size_t>(min_runs) ||
         (wall.size() < 50 && std::chrono::duration<double>(Clock::now() - begin).count() < budget)) {
    const auto t0 = Clock::now();
    const double c0 = cpu_seconds();
    f();
    cpu.push_back(cpu_seconds() - c0);
    wall.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return {median(wall), median(cpu)};
}

// Bytes read plus written per second of a large copy: one thread, and all threads.
struct CopyBandwidth {
  double one_thread = 0, all_threads = 0;
};

CopyBandwidth copy_bandwidth() {
  constexpr size_t kBytes = size_t{512} << 20;  // far beyond the last-level cache
  std::vector<char> a(kBytes, 1), b(kBytes, 2);
  CopyBandwidth bw;
  bw.one_thread = 2.0 * kBytes / time_median([&] { std::memcpy(b.data(), a.data(), kBytes); }, 5, 2.0).wall;
  constexpr size_t kPiece = size_t{1} << 20;
  bw.all_threads = 2.0 * kBytes /
                   time_median(
                       [&] {
                         tbb::parallel_for(size_t{0}, kBytes / kPiece, [&](size_t i) {
                           std::memcpy(b.data() + i * kPiece, a.data() + i * kPiece, kPiece);
                         });
                       },
                       5, 2.0)
                       .wall;
  return bw;
}

struct Provider {
  std::string name;
  std::unique_ptr<vt::Runtime> runtime;
};

std::vector<Provider> providers(bool fast_only) {
  std::vector<Provider> p;
  const auto add = [&](std::string name, std::vector<std::string> disabled) {
    vt::Knobs k;
    k.disable_providers = std::move(disabled);
    p.push_back({std::move(name), std::make_unique<vt::Runtime>(k)});
    p.back().runtime->load();
  };
  add("fast", {});
  if (fast_only) return p;
  add("fast.baseline", {"fast", "reference"});
  add("reference", {"fast", "fast.baseline"});
  return p;
}

void run_case(const char* label, vt::opcheck::OpCase& c, std::vector<Provider>& ps, double copy_bw) {
  std::printf("%s\n  %s, floor %.1f MB\n", label, c.shape().c_str(), static_cast<double>(c.floor_bytes()) / 1e6);
  double reference_s = 0;
  std::vector<std::pair<std::string, Timing>> times;
  for (Provider& p : ps) {
    vt::Queue q = p.runtime->device("cpu:0").create_queue();
    c.bind(q);
    const std::string ran(c.run(q));
    const vt::opcheck::Report r =
        vt::opcheck::compare(c.memory(), c.expected(), c.download(q), {vt::opcheck::Tolerance::Mode::bytes, 0});
    const bool slow = p.name == "reference";
    const Timing s = time_median([&] { c.run(q); }, slow ? 2 : 5, slow ? 4.0 : 2.0);
    if (slow) reference_s = s.wall;
    if (!slow && !r.passed) std::printf("%s\n", r.details().c_str());
    times.emplace_back(ran + (r.passed ? "" : " (DIFFERS FROM THE REFERENCE: " + r.summary() + ")"), s);
  }
  for (const auto& [name, s] : times) {
    const double gbs = static_cast<double>(c.floor_bytes()) / s.wall / 1e9;
    std::printf("  %-14s %9.3f ms (cpu %9.3f ms)  %7.2f GB/s  %5.1f%% of copy  %6.1fx the reference\n", name.c_str(),
                s.wall * 1e3, s.cpu * 1e3, gbs, 100.0 * gbs * 1e9 / copy_bw,
                reference_s > 0 ? reference_s / s.wall : 0.0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using vt::DType;
  bool fast_only = false;
  std::vector<std::string> wanted;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--fast-only") {
      fast_only = true;
    } else {
      wanted.push_back(a);
    }
  }
  const auto want = [&](const char* name) {
    return wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end();
  };
  std::vector<Provider> ps = providers(fast_only);
  const CopyBandwidth bw = copy_bandwidth();
  std::printf(
      "memcpy of 512 MiB (bytes read + written): %.2f GB/s on one thread, %.2f GB/s on %d threads (the ceiling "
      "below)\n",
      bw.one_thread / 1e9, bw.all_threads / 1e9, tbb::this_task_arena::max_concurrency());

  vt::opcheck::ConvFwdParams fwd;
  fwd.channels = 8192;
  fwd.width = 4;
  fwd.x = fwd.weight = fwd.out = DType::bf16;
  fwd.state = DType::f32;
  fwd.lengths = {4096};
  fwd.initial = vt::opcheck::ConvFwdParams::Initial::all;
  auto fwd_case = vt::opcheck::make_case("conv_fwd", fwd, 1);
  if (want("fwd")) run_case("causal_conv1d_fwd, one sequence of 4096 tokens", *fwd_case, ps, bw.all_threads);

  vt::opcheck::ConvUpdateParams update;
  update.channels = 8192;
  update.width = 4;
  update.x = update.weight = update.out = DType::bf16;
  update.state = DType::f32;
  update.batch = 256;
  update.padding = 0;
  auto update_case = vt::opcheck::make_case("conv_update", update, 2);
  if (want("update")) run_case("causal_conv1d_update, B = 256", *update_case, ps, bw.all_threads);

  vt::opcheck::PostConvParams post;
  post.tokens = 2048;
  post.key_heads = 16;
  post.value_heads = 32;
  post.key_dim = post.value_dim = 128;
  post.in = post.gate = post.out = DType::bf16;
  auto post_case = vt::opcheck::make_case("post_conv", post, 3);
  if (want("post"))
    run_case("gdn_post_conv, 2048 tokens, Hk = 16, Hv = 32, Dk = Dv = 128", *post_case, ps, bw.all_threads);
  return 0;
}
