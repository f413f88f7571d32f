#include "host_overhead.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <latch>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "vt/error.hpp"
#include "vt/op_id.hpp"
#include "vt/opcheck/random.hpp"
#include "vt/tools/event_timing.hpp"
#include "vt/tools/json.hpp"

namespace vt::bench {
namespace {

vt_status returns_at_once(const vt_op_call*) { return VT_OK; }

struct Sampling {
  int calls_per_sample;
  size_t min_samples, max_samples;
  double budget_seconds;
};
// The null provider's calls cost well under a microsecond: many a sample, many samples.
constexpr Sampling kNullSampling{64, 51, 51, 1.0};
// Whole calls: a few a sample, so a GPU's launch queue never fills (a full queue makes the
// enqueue wait for the device), the queue drained between samples outside the timed span.
constexpr Sampling kWholeSampling{8, 5, 51, 0.5};

// One sample: the host time per call, in microseconds, of `calls` calls of `call` in a row.
template <class Call>
double us_per_call(int calls, Call&& call) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) call();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / calls;
}

// The samples, host time per call in microseconds, of `call` repeated as `s` says; `drain`
// runs after each sample, untimed.
template <class Call, class Drain>
std::vector<double> us_per_call_samples(const Sampling& s, Call&& call, Drain&& drain) {
  using clock = std::chrono::steady_clock;
  std::vector<double> us;
  const auto begin = clock::now();
  while (
      us.size() < s.max_samples &&
      (us.size() < s.min_samples || std::chrono::duration<double>(clock::now() - begin).count() < s.budget_seconds)) {
    us.push_back(us_per_call(s.calls_per_sample, call));
    drain();
  }
  return us;
}

// The host's pace: the time of one pass of a fixed loop (1024 loads from a 32 KiB table, which
// stays in the first-level cache, summed), the mean of 64 passes. On this project's virtual
// machines the host's slow stretches make this loop 1.4 to 2 times slower while a dependent
// chain of arithmetic moves by a few percent (docs/benchmarks.md, fifty-eighth session): what
// slows the call's own code there is its memory accesses, so the pace is taken from loads. The
// table is volatile so that every load is made, and written once before its first use so that
// it has pages of its own (a never-written one reads the kernel's shared zero page); the sum
// leaves through a volatile, one a thread (--threads: no thread writes another's).
constexpr uint32_t kPaceTableWords = 8192;
volatile uint32_t pace_table[kPaceTableWords];
thread_local volatile uint32_t pace_sink = 0;
double host_pace_sample_us() {
  static const bool written = [] {
    for (uint32_t i = 0; i < kPaceTableWords; ++i) pace_table[i] = i;
    return true;
  }();
  (void)written;
  return us_per_call(64, [] {
    uint32_t sum = 0;
    for (uint32_t i = 0; i < kPaceTableWords; i += 8) sum += pace_table[i];
    pace_sink = sum;
  });
}

// The null provider's runtime: the environment's knobs, every backend's providers loaded,
// and the null provider first for every op on every backend with a device.
std::unique_ptr<Runtime> null_runtime() {
  auto rt = std::make_unique<Runtime>(Knobs::environment());
  rt->load();
  std::set<std::string> backends;
  for (const Device& d : rt->devices()) backends.insert(d.backend());
  for (const std::string& b : backends)
    for (const vt_op_id op : kAllOps) rt->registry().add(op, b, {kNullProvider, INT32_MAX, nullptr, returns_at_once});
  return rt;
}

// One host thread's share of a row: a case of its own (threads never share a buffer) and a
// queue of its own, so that what the threads share is what an engine's threads would: the
// runtime, its registry and the backend. Set up on the calling thread, one after another
// (binding allocates; the timed calls are what runs side by side).
struct Worker {
  std::unique_ptr<opcheck::OpCase> c;
  std::optional<Queue> q;
  std::vector<double> dispatch_us, pace_us, whole_us;
  std::string provider;
  std::string error;  // the first failure of this thread's timed calls
};

// `timed(w)` on every worker at once, each on a thread of its own (the first on this one),
// released together once all have started.
template <class Timed>
void run_together(std::vector<Worker>& workers, Timed&& timed) {
  std::latch start(static_cast<std::ptrdiff_t>(workers.size()));
  const auto body = [&](Worker& w) {
    start.arrive_and_wait();
    try {
      timed(w);
    } catch (const std::exception& e) {
      w.error = e.what();
    }
  };
  std::vector<std::thread> threads;
  try {
    for (size_t i = 1; i < workers.size(); ++i) threads.emplace_back(body, std::ref(workers[i]));
  } catch (const std::system_error& e) {
    // Those started are waiting for the rest: release them, and fail the row.
    // (This thread is the first of the row's threads; the one that failed follows those started.)
    workers.front().error = "cannot start host thread " + std::to_string(threads.size() + 2) + " of " +
                            std::to_string(workers.size()) + ": " + e.what();
    start.count_down(static_cast<std::ptrdiff_t>(workers.size() - threads.size()));
    for (std::thread& t : threads) t.join();
    return;
  }
  body(workers.front());
  for (std::thread& t : threads) t.join();
}

// The median of every worker's samples of one column together.
double pooled_median(const std::vector<Worker>& workers, std::vector<double> Worker::*column) {
  std::vector<double> all;
  for (const Worker& w : workers) all.insert(all.end(), (w.*column).begin(), (w.*column).end());
  return tools::median(std::move(all));
}

HostRow time_case(const BenchCase& bc, const Device& whole_device, const Device& null_device, int threads) {
  HostRow r;
  r.device = whole_device.name();
  r.name = bc.name;
  r.op = std::string(op_name(bc.op));
  r.threads = threads;
  const uint64_t seed = opcheck::case_seed(1, bc.name);
  std::vector<Worker> workers(static_cast<size_t>(threads));
  const auto first_error = [&]() -> std::string {
    for (const Worker& w : workers)
      if (!w.error.empty()) return w.error;
    return "";
  };
  try {
    // One case a thread, bound on each device in turn: each thread's inputs are generated once
    // (the large cases' random fill is most of this mode's run time).
    for (Worker& w : workers) {
      w.c = bc.make(seed);
      w.q.emplace(null_device.create_queue());
      w.c->bind(*w.q);
      const std::string_view ran = w.c->run(*w.q);  // also the warm-up: builds the dispatch chain
      if (ran != kNullProvider) {
        r.error = "the null provider did not run (" + std::string(ran) + " did)";
        return r;
      }
    }
    // The pace sampled between the null provider's samples, so both span the same stretch.
    run_together(workers, [](Worker& w) {
      w.dispatch_us = us_per_call_samples(
          kNullSampling, [&] { w.c->run(*w.q); }, [&] { w.pace_us.push_back(host_pace_sample_us()); });
    });
    if (r.error = first_error(); !r.error.empty()) return r;
    for (Worker& w : workers) {
      w.q.reset();
      w.q.emplace(whole_device.create_queue());
      w.c->bind(*w.q);
      for (int i = 0; i < kWholeSampling.calls_per_sample; ++i) w.provider = std::string(w.c->run(*w.q));  // warm-up
      w.q->sync();
    }
    run_together(workers, [](Worker& w) {
      w.whole_us = us_per_call_samples(
          kWholeSampling, [&] { w.c->run(*w.q); }, [&] { w.q->sync(); });
    });
    if (r.error = first_error(); !r.error.empty()) return r;
  } catch (const Error& e) {
    r.error = e.what();
    return r;
  }
  r.provider = workers.front().provider;
  r.validate_dispatch_us = pooled_median(workers, &Worker::dispatch_us);
  r.whole_call_us = pooled_median(workers, &Worker::whole_us);
  r.host_pace_us = pooled_median(workers, &Worker::pace_us);
  r.samples = INT32_MAX;
  for (const Worker& w : workers)
    r.samples = std::min({r.samples, static_cast<int>(w.dispatch_us.size()), static_cast<int>(w.whole_us.size())});
  return r;
}

std::string num(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

std::vector<HostRow> time_host_overhead(Runtime& base, const std::vector<BenchCase>& cases, int threads,
                                        const std::function<bool(const Device&)>& wanted,
                                        const std::function<void(const HostRow&)>& measured) {
  const std::unique_ptr<Runtime> null_rt = null_runtime();
  std::vector<HostRow> rows;
  for (const Device& d : base.devices()) {
    if (!wanted(d)) continue;
    const Device nd = null_rt->device(d.name());
    for (const BenchCase& bc : cases) {
      rows.push_back(time_case(bc, d, nd, threads));
      measured(rows.back());
    }
  }
  return rows;
}

void print_host_header() {
  std::printf("%-8s %-30s %-18s %7s %22s %16s %8s %13s  %s\n", "device", "case", "provider", "threads",
              "validation+dispatch us", "whole call us", "samples", "host pace us", "error");
  std::fflush(stdout);
}

void print_host_row(const HostRow& r) {
  std::printf("%-8s %-30s %-18s %7d %22.3f %16.3f %8d %13.3f  %s\n", r.device.c_str(), r.name.c_str(),
              r.provider.c_str(), r.threads, r.validate_dispatch_us, r.whole_call_us, r.samples, r.host_pace_us,
              r.error.c_str());
  std::fflush(stdout);
}

std::string host_to_json(const std::vector<HostRow>& rows, const std::string& command) {
  std::string j = "{\n  \"command\": " + tools::json_string(command) + ",\n  \"host_overhead\": [";
  for (size_t i = 0; i < rows.size(); ++i) {
    const HostRow& r = rows[i];
    j += (i ? ",\n    {" : "\n    {");
    j += "\"device\": " + tools::json_string(r.device) + ", \"case\": " + tools::json_string(r.name) +
         ", \"op\": " + tools::json_string(r.op) + ", \"provider\": " + tools::json_string(r.provider) +
         ", \"threads\": " + std::to_string(r.threads) +
         ", \"validation_dispatch_us\": " + num(r.validate_dispatch_us, 4) +
         ", \"whole_call_us\": " + num(r.whole_call_us, 4) + ", \"samples\": " + std::to_string(r.samples) +
         ", \"host_pace_us\": " + num(r.host_pace_us, 4) + ", \"error\": " + tools::json_string(r.error) + "}";
  }
  return j + "\n  ]\n}\n";
}

}  // namespace vt::bench
