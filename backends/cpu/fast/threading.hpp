// The threads of the fast provider: oneTBB's default, which already keeps to a task_arena
// the host runs the call in, capped further by VT_CPU_THREADS through an arena of that many
// threads, made once per count and kept (making one per call would cost more than the ops).
#pragma once
#include <concepts>
#include <cstdint>
#include <type_traits>

#include "vt/plugin_abi.h"

namespace vt::cpu::fast {

// A non-owning view of a callable body(first, end), valid for the call it is passed to.
class TaskBody {
 public:
  template <class F>
  requires(!std::same_as<std::remove_cvref_t<F>, TaskBody>)
      TaskBody(const F& f)  // implicit: a lambda is passed where a TaskBody is expected
      : object_(&f),
        call_([](const void* o, int64_t first, int64_t end) { (*static_cast<const F*>(o))(first, end); }) {}
  void operator()(int64_t first, int64_t end) const { call_(object_, first, end); }

 private:
  const void* object_;
  void (*call_)(const void*, int64_t, int64_t);
};

// The threads a call may use: the concurrency of the arena the caller is in, or
// VT_CPU_THREADS (read through `host`) when that is smaller.
inline constexpr char kThreadsKnob[] = "VT_CPU_THREADS";
int thread_limit(const vt_host_api* host);

// Calls body over disjoint ranges that cover tasks [0, count) once, on at most
// thread_limit(host) threads. A range holds tasks worth at least about kGrainWork elements
// (`task_work` each), so a small call runs as body(0, count) on the calling thread, as does
// any call with one thread.
inline constexpr int64_t kGrainWork = 16384;
void run_tasks(const vt_host_api* host, int64_t count, int64_t task_work, const TaskBody& body);

}  // namespace vt::cpu::fast
