// Comparing a device's result with the expected one (parity.md, "How parity is tested").
// Every byte of every buffer is checked: guards, stride gaps and inputs must be unchanged,
// elements the reference left alone (padding rows, untouched state slots) must keep their
// initial bytes, and elements it wrote are compared under the tolerance.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "vt/opcheck/case_memory.hpp"

namespace vt::opcheck {

struct Tolerance {
  enum class Mode {
    bytes,    // every byte equal, NaN payloads included (two arms of one backend)
    bitwise,  // every bit equal, except that any NaN matches any NaN
    ulp,      // written elements within max_ulp units in the last place of their dtype
  };
  Mode mode = Mode::bitwise;
  uint32_t max_ulp = 0;

  std::string describe() const;  // "bitwise", "<= 2 ulp"
};

struct Report {
  bool passed = true;
  uint64_t worst_ulp = 0;  // over written elements that differ; UINT64_MAX for NaN vs number
  std::string worst_at;    // "out[3, 17]", empty when all are identical
  uint64_t problem_count = 0;
  std::vector<std::string> problems;  // the first few, each naming the tensor and index
  std::string first_structural;       // the first problem that is not a value difference

  // "identical", "worst 2 ulp at out[3, 17]", or the first problem that is not a value
  // difference (a guard, a gap, an unwritten element).
  std::string summary() const;
  std::string details() const;  // every kept problem, one a line
};

// Distance in units in the last place between two values of one float dtype, given as raw
// bits; signed zeros are one apart. UINT64_MAX when exactly one is a NaN.
uint64_t ulp_distance(DType dtype, uint32_t a_bits, uint32_t b_bits);

Report compare(const CaseMemory& memory, const Images& expected, const Images& actual, const Tolerance& tolerance);

}  // namespace vt::opcheck
