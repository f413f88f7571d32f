#include "vt/opcheck/compare.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>

namespace vt::opcheck {
namespace {

constexpr size_t kKeptProblems = 8;
constexpr uint64_t kNanDistance = std::numeric_limits<uint64_t>::max();

uint32_t load_bits(DType dtype, const uint8_t* p) {
  if (dtype_size(dtype) == 2) {
    uint16_t h;
    std::memcpy(&h, p, sizeof h);
    return h;
  }
  uint32_t u;
  std::memcpy(&u, p, sizeof u);
  return u;
}

bool is_nan(DType dtype, uint32_t bits) {
  switch (dtype) {
    case DType::f32: return (bits & 0x7fffffffu) > 0x7f800000u;
    case DType::f16: return (bits & 0x7fffu) > 0x7c00u;
    case DType::bf16: return (bits & 0x7fffu) > 0x7f80u;
    default: return false;
  }
}

bool is_float(DType dtype) { return dtype == DType::f32 || dtype == DType::f16 || dtype == DType::bf16; }

std::string hex_and_value(DType dtype, uint32_t bits) {
  uint8_t raw[4];
  std::memcpy(raw, &bits, sizeof raw);  // little-endian: the low bytes hold a 16-bit value
  char buf[64];
  std::snprintf(buf, sizeof buf, dtype_size(dtype) == 2 ? "0x%04" PRIx32 " (%.9g)" : "0x%08" PRIx32 " (%.9g)", bits,
                static_cast<double>(CaseMemory::load(dtype, raw)));
  return buf;
}

std::string byte_place(const TensorSlot& s, uint64_t byte) {
  if (byte < CaseMemory::kGuardBytes) return "guard byte " + std::to_string(byte) + " before " + s.name;
  if (byte >= s.bytes - CaseMemory::kGuardBytes)
    return "guard byte " + std::to_string(byte - (s.bytes - CaseMemory::kGuardBytes)) + " after " + s.name;
  return s.name + " gap byte " + std::to_string(byte - CaseMemory::kGuardBytes);
}

class Checker {
 public:
  Checker(const Tolerance& tol, Report& report) : tol_(tol), r_(report) {}

  // A problem other than a value off by some ulp: a guard, a gap, an unwritten element.
  void structural(std::string text) {
    if (r_.first_structural.empty()) r_.first_structural = text;
    problem(std::move(text));
  }

  void problem(std::string text) {
    r_.passed = false;
    if (r_.problems.size() < kKeptProblems) r_.problems.push_back(std::move(text));
    ++r_.problem_count;
  }

  // One element the op may write: initial, expected and actual bits.
  void element(const TensorSlot& s, const Index& index, uint32_t init, uint32_t exp, uint32_t act) {
    if (act == exp) return;
    const std::string where = s.element_name(index);
    const std::string values = ": expected " + hex_and_value(s.dtype, exp) + ", got " + hex_and_value(s.dtype, act);
    if (exp == init) return structural(where + " was changed; the reference leaves it untouched" + values);
    if (act == init) return structural(where + " was not written (still holds its initial bytes)" + values);
    if (tol_.mode == Tolerance::Mode::bytes) return structural(where + values);
    if (is_nan(s.dtype, exp) && is_nan(s.dtype, act)) return;  // NaN matches NaN
    const uint64_t ulp = ulp_distance(s.dtype, exp, act);
    if (r_.worst_at.empty() || ulp > r_.worst_ulp) {
      r_.worst_ulp = ulp;
      r_.worst_at = where;
    }
    if (tol_.mode == Tolerance::Mode::bitwise || ulp > tol_.max_ulp)
      problem(where + values + (ulp == kNanDistance ? ", NaN against a number" : ", " + std::to_string(ulp) + " ulp"));
  }

 private:
  const Tolerance& tol_;
  Report& r_;
};

}  // namespace

std::string Tolerance::describe() const {
  switch (mode) {
    case Mode::bytes: return "byte-identical";
    case Mode::bitwise: return "bitwise";
    case Mode::ulp: return "<= " + std::to_string(max_ulp) + " ulp";
  }
  return "?";
}

uint64_t ulp_distance(DType dtype, uint32_t a_bits, uint32_t b_bits) {
  const bool na = is_nan(dtype, a_bits), nb = is_nan(dtype, b_bits);
  if (na || nb) return na && nb ? 0 : kNanDistance;
  const uint32_t sign = dtype_size(dtype) == 2 ? 0x8000u : 0x80000000u;
  auto key = [&](uint32_t bits) {
    const int64_t mag = bits & (sign - 1);
    return (bits & sign) ? -mag - 1 : mag;
  };
  const int64_t d = key(a_bits) - key(b_bits);
  return static_cast<uint64_t>(d < 0 ? -d : d);
}

Report compare(const CaseMemory& memory, const Images& expected, const Images& actual, const Tolerance& tolerance) {
  Report report;
  Checker check(tolerance, report);
  for (int id = 0; id < memory.count(); ++id) {
    const TensorSlot& s = memory.slot(id);
    const Image& init = memory.initial()[static_cast<size_t>(id)];
    const Image& exp = expected[static_cast<size_t>(id)];
    const Image& act = actual[static_cast<size_t>(id)];
    if (exp.size() != act.size()) {
      check.structural(s.name + ": downloaded " + std::to_string(act.size()) + " bytes, expected " +
                       std::to_string(exp.size()));
      continue;
    }
    if (std::memcmp(exp.data(), act.data(), exp.size()) == 0) continue;

    // Bytes of elements the op may write are judged per element; every other byte exactly.
    std::vector<bool> element_byte(exp.size(), false);
    if (s.role != Role::input && is_float(s.dtype)) {
      const uint64_t size = dtype_size(s.dtype);
      memory.for_each(id, [&](const Index& index, uint64_t at) {
        for (uint64_t b = 0; b < size; ++b) element_byte[at + b] = true;
        check.element(s, index, load_bits(s.dtype, init.data() + at), load_bits(s.dtype, exp.data() + at),
                      load_bits(s.dtype, act.data() + at));
      });
    }
    for (uint64_t b = 0; b < exp.size(); ++b) {
      if (element_byte[b] || exp[b] == act[b]) continue;
      char values[48];
      std::snprintf(values, sizeof values, ": expected 0x%02x, got 0x%02x", exp[b], act[b]);
      const bool in_view = b >= s.offset && b < s.bytes - CaseMemory::kGuardBytes;
      check.structural((s.role == Role::input && in_view
                            ? "input " + s.name + " byte " + std::to_string(b - s.offset) + " was modified"
                            : byte_place(s, b) + " was overwritten") +
                       values);
    }
  }
  return report;
}

std::string Report::summary() const {
  if (!first_structural.empty())
    return first_structural + (problem_count > 1 ? " (and " + std::to_string(problem_count - 1) + " more)" : "");
  if (worst_at.empty()) return "identical";
  return "worst " + (worst_ulp == kNanDistance ? std::string("NaN-vs-number") : std::to_string(worst_ulp) + " ulp") +
         " at " + worst_at;
}

std::string Report::details() const {
  std::string s;
  for (const auto& p : problems) s += "  " + p + "\n";
  if (problem_count > problems.size()) s += "  ... " + std::to_string(problem_count - problems.size()) + " more\n";
  return s;
}

}  // namespace vt::opcheck
