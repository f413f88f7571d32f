// The fast provider's thread policy (backends/cpu/fast/threading.hpp), observed from inside
// the task bodies: every task runs once, VT_CPU_THREADS caps the threads, a host arena caps
// them without the knob, and one thread means the caller's thread.
#include "threading.hpp"

#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

namespace vt::cpu_fast_test {
namespace {

// A host table whose only knob is VT_CPU_THREADS.
struct FakeHost {
  vt_host_api api{VT_ABI_MAJOR, VT_ABI_MINOR, sizeof(vt_host_api), nullptr, nullptr, &knob};
  std::optional<int64_t> threads;

  static int knob(const vt_host_api* self, const char* name, int64_t* value) {
    const auto* host = reinterpret_cast<const FakeHost*>(self);
    if (std::strcmp(name, "VT_CPU_THREADS") != 0 || !host->threads) return 0;
    *value = *host->threads;
    return 1;
  }
};

// Tasks worth a whole grain each, so every task may go to its own thread.
constexpr int64_t kHeavy = cpu::fast::kGrainWork;

// The distinct threads that ran `count` tasks, each task long enough for others to join.
size_t threads_used(const FakeHost& host, int64_t count = 64) {
  std::mutex mutex;
  std::set<std::thread::id> ids;
  cpu::fast::run_tasks(&host.api, count, kHeavy, [&](int64_t first, int64_t end) {
    for (int64_t i = first; i < end; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      const std::lock_guard lock(mutex);
      ids.insert(std::this_thread::get_id());
    }
  });
  return ids.size();
}

// Runs f in a host arena of n threads, allowed even where n is above the core count (the
// global limit is only ever raised, so a small arena is capped by the arena alone).
template <class F>
void in_arena(int n, F&& f) {
  const tbb::global_control allow(tbb::global_control::max_allowed_parallelism,
                                  std::max<size_t>(static_cast<size_t>(n), tbb::info::default_concurrency()));
  tbb::task_arena arena(n);
  arena.execute(f);
}

TEST(FastThreads, EveryTaskRunsExactlyOnce) {
  const FakeHost host;
  for (int64_t count : {0, 1, 2, 7, 1000, 10007}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(count));
    cpu::fast::run_tasks(&host.api, count, kHeavy, [&](int64_t first, int64_t end) {
      for (int64_t i = first; i < end; ++i) hits[static_cast<size_t>(i)].fetch_add(1);
    });
    for (int64_t i = 0; i < count; ++i)
      ASSERT_EQ(hits[static_cast<size_t>(i)].load(), 1) << "task " << i << " of " << count;
  }
}

TEST(FastThreads, OneThreadIsTheCallersInOneRange) {
  FakeHost host;
  host.threads = 1;
  std::mutex mutex;  // only ever contended when the test fails
  std::vector<std::pair<int64_t, int64_t>> ranges;
  std::set<std::thread::id> ids;
  in_arena(8, [&] {
    cpu::fast::run_tasks(&host.api, 500, kHeavy, [&](int64_t first, int64_t end) {
      const std::lock_guard lock(mutex);
      ranges.emplace_back(first, end);
      ids.insert(std::this_thread::get_id());
    });
  });
  EXPECT_EQ(ranges, (std::vector<std::pair<int64_t, int64_t>>{{0, 500}}));
  ASSERT_EQ(ids.size(), 1u);
}

TEST(FastThreads, ASmallCallStaysOnTheCaller) {
  const FakeHost host;
  std::mutex mutex;  // only ever contended when the test fails
  std::vector<std::pair<int64_t, int64_t>> ranges;
  std::set<std::thread::id> ids;
  in_arena(8, [&] {
    cpu::fast::run_tasks(&host.api, 32, cpu::fast::kGrainWork / 32, [&](int64_t first, int64_t end) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      const std::lock_guard lock(mutex);
      ranges.emplace_back(first, end);
      ids.insert(std::this_thread::get_id());
    });
  });
  EXPECT_EQ(ranges, (std::vector<std::pair<int64_t, int64_t>>{{0, 32}}));
  EXPECT_EQ(ids.size(), 1u);
}

TEST(FastThreads, TheKnobCapsAWiderArena) {
  FakeHost host;
  size_t uncapped = 0, capped = 0;
  in_arena(8, [&] { uncapped = threads_used(host); });
  host.threads = 2;
  in_arena(8, [&] { capped = threads_used(host); });
  EXPECT_GT(uncapped, 2u) << "without the knob the arena's 8 threads should share the tasks";
  EXPECT_LE(capped, 2u);
  EXPECT_EQ(cpu::fast::thread_limit(&host.api), std::min(2, tbb::this_task_arena::max_concurrency()));
}

TEST(FastThreads, AHostArenaCapsWithoutTheKnob) {
  FakeHost host;
  size_t in_one = 0, in_four = 0;
  in_arena(1, [&] { in_one = threads_used(host); });
  in_arena(4, [&] { in_four = threads_used(host); });
  EXPECT_EQ(in_one, 1u);
  EXPECT_GT(in_four, 1u);
  EXPECT_LE(in_four, 4u);
  host.threads = 4;  // a knob above the host's arena does not widen it
  in_arena(1, [&] { in_one = threads_used(host); });
  EXPECT_EQ(in_one, 1u);
}

TEST(FastThreads, NoHostOrNoKnobMeansTheArenasDefault) {
  EXPECT_EQ(cpu::fast::thread_limit(nullptr), tbb::this_task_arena::max_concurrency());
  const FakeHost host;
  EXPECT_EQ(cpu::fast::thread_limit(&host.api), tbb::this_task_arena::max_concurrency());
}

}  // namespace
}  // namespace vt::cpu_fast_test
