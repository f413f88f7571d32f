#include "threading.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

namespace vt::cpu::fast {
namespace {

tbb::task_arena& capped_arena(int threads) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  const std::lock_guard lock(mutex);
  std::unique_ptr<tbb::task_arena>& arena = arenas[threads];
  if (!arena) arena = std::make_unique<tbb::task_arena>(threads);
  return *arena;
}

}  // namespace

int thread_limit(const vt_host_api* host) {
  const int current = tbb::this_task_arena::max_concurrency();
  int64_t cap = 0;
  if (vt_host_knob_int(host, kThreadsKnob, &cap) && cap >= 1 && cap < current) return static_cast<int>(cap);
  return current;
}

void run_tasks(const vt_host_api* host, int64_t count, int64_t task_work, const TaskBody& body) {
  if (count <= 0) return;
  const int64_t grain = std::max<int64_t>(1, kGrainWork / std::max<int64_t>(task_work, 1));
  const int threads = count > grain ? thread_limit(host) : 1;
  if (threads <= 1) {
    body(0, count);
    return;
  }
  const auto loop = [&] {
    tbb::parallel_for(tbb::blocked_range<int64_t>(0, count, static_cast<size_t>(grain)),
                      [&](const tbb::blocked_range<int64_t>& r) { body(r.begin(), r.end()); });
  };
  if (threads < tbb::this_task_arena::max_concurrency()) {
    capped_arena(threads).execute(loop);
  } else {
    loop();
  }
}

}  // namespace vt::cpu::fast
