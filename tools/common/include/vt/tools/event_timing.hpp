// Timing with device events (performance.md, Method): `body` between two events, again and
// again until a time budget or a sample cap, and the median of the samples.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

#include "vt/device.hpp"

namespace vt::tools {

struct SampleLimits {
  size_t min_samples = 5, max_samples = 200;
  double budget_seconds = 1.0;
};

template <class Body>
std::vector<double> sample_ms(const Device& device, Queue& queue, Body&& body, const SampleLimits& limits = {}) {
  Event start = device.create_event(), end = device.create_event();
  std::vector<double> ms;
  const auto begin = std::chrono::steady_clock::now();
  auto spent = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count(); };
  while (ms.size() < limits.max_samples && (ms.size() < limits.min_samples || spent() < limits.budget_seconds)) {
    queue.record(start);
    body();
    queue.record(end);
    end.sync();
    ms.push_back(Event::elapsed_ms(start, end));
  }
  return ms;
}

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace vt::tools
