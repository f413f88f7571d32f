// The host overhead of one op call (performance.md: "validation + dispatch, under 1 us").
// A runtime of its own registers, for every op on every loaded backend, a provider that
// returns at once, ahead of all others: a call through it times only the op's validation and
// the registry's dispatch. Beside that, the host time of the whole call on the device through
// the default providers (for a GPU the enqueue: validation, dispatch, the backend's launch;
// for the CPU backend, which runs the op on the calling thread, the op itself). And the host's
// pace, a fixed workload timed between the null provider's samples: a row timed while the
// host ran slow shows as one whose pace is slow too. With several threads, each calls the op
// at once on a queue and a case of its own, as an engine's threads would: a row's times are
// the median of all their samples together, so what the threads share (the registry's
// counters, a backend's locks, the cores) shows in them.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "bench_cases.hpp"
#include "vt/runtime.hpp"

namespace vt::bench {

inline constexpr const char* kNullProvider = "vt-bench-null";

struct HostRow {
  std::string device, name, op;
  std::string provider;             // the default provider the whole call ran on
  int threads = 1;                  // host threads calling at once
  double validate_dispatch_us = 0;  // median per call, through the null provider
  double whole_call_us = 0;         // median per call, through the default provider
  double host_pace_us = 0;          // median time of a fixed host workload, between the null samples
  int samples = 0;                  // the fewest samples one thread took of either column
  std::string error;                // non-empty: the row failed
};

// Every case on every device of `base` that `wanted` accepts, from `threads` host threads at
// once; `measured` sees each row as soon as it is timed (a run cut off by a time limit still
// leaves the rows it finished).
std::vector<HostRow> time_host_overhead(Runtime& base, const std::vector<BenchCase>& cases, int threads,
                                        const std::function<bool(const Device&)>& wanted,
                                        const std::function<void(const HostRow&)>& measured);

void print_host_header();
void print_host_row(const HostRow& r);  // and flushes it
std::string host_to_json(const std::vector<HostRow>& rows, const std::string& command);

}  // namespace vt::bench
