#include "settings.hpp"

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>

namespace vt::cpu_fast_test {
namespace {

Runtime* make_runtime(Knobs knobs) {
  static std::vector<std::unique_ptr<Runtime>> runtimes;
  runtimes.push_back(std::make_unique<Runtime>(std::move(knobs)));
  runtimes.back()->load();
  return runtimes.back().get();
}

Knobs threads(int64_t n) {
  Knobs k;
  k.ints["VT_CPU_THREADS"] = n;
  return k;
}

void direct(const std::function<void()>& call) { call(); }

// A host arena of `threads`; above the core count oneTBB must be allowed more workers first.
std::function<void(const std::function<void()>&)> in_arena(int threads) {
  return [threads](const std::function<void()>& call) {
    const tbb::global_control allow(
        tbb::global_control::max_allowed_parallelism,
        std::max<size_t>(static_cast<size_t>(threads), tbb::this_task_arena::max_concurrency()));
    tbb::task_arena arena(threads);
    arena.execute(call);
  };
}

}  // namespace

const std::vector<Setting>& settings() {
  static const std::vector<Setting> all = [] {
    Knobs baseline_only;
    baseline_only.disable_providers = {"fast", "reference"};
    Runtime* plain = make_runtime(Knobs{});
    return std::vector<Setting>{
        {"default_threads", "fast", plain, direct},
        {"VT_CPU_THREADS=1", "fast", make_runtime(threads(1)), direct},
        {"VT_CPU_THREADS=2", "fast", make_runtime(threads(2)), direct},
        {"host_arena_of_1", "fast", plain, in_arena(1)},
        {"host_arena_of_8", "fast", plain, in_arena(8)},
        {"baseline_variant", "fast.baseline", make_runtime(baseline_only), direct},
    };
  }();
  return all;
}

}  // namespace vt::cpu_fast_test
