// How vt-bench times (performance.md, Method): warm-up, device events around many calls,
// the median; inputs rotated among copies larger than the last-level cache; graph replay for
// calls short enough that launch gaps would dominate.
#pragma once
#include <memory>
#include <vector>

#include "vt/device.hpp"
#include "vt/opcheck/op_case.hpp"

namespace vt::bench {

struct Timing {
  double median_ms = 0;  // per call
  int samples = 0;
  bool graph = false;  // replayed from a captured graph
};

// A large device-to-device copy, bytes read plus written, in GB/s (median of several).
double copy_bandwidth(const Device& device, Queue& queue);

// Times `copies` (the same case with different inputs, already bound to `queue`) in rotation.
Timing time_rotation(std::vector<std::unique_ptr<opcheck::OpCase>>& copies, const Device& device, Queue& queue);

}  // namespace vt::bench
