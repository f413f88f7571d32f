// One op of the step on one device: parity with the scalar reference (the first call), then
// the median time of repeated calls between device events, and bandwidth at the floor bytes.
#pragma once
#include <cstdint>
#include <string>

#include "vt/device.hpp"
#include "vt/opcheck/op_case.hpp"

namespace vt::demo {

struct Row {
  std::string device, step, op, provider, shape;
  double median_ms = 0;
  int runs = 0;
  uint64_t floor_bytes = 0;
  double gb_per_s = 0;
  std::string parity;      // "identical", "worst N ulp at out[i, j]", or the problem
  bool identical = false;  // bitwise equal to the reference (NaN matching NaN)
  bool failed = false;     // the op threw, wrote outside its outputs or left one unwritten
};

Row measure(opcheck::OpCase& c, const std::string& step, const Device& device, Queue& queue);

}  // namespace vt::demo
