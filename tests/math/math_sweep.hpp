// Helpers shared by the portable-math tests: float ranges walked by bit pattern, split over
// threads, and the worst result kept with the input that produced it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "vt/ops/portable_math.h"

namespace vt::math::test {

inline bool exhaustive_enabled() {
  const char* v = std::getenv("VT_MATH_EXHAUSTIVE");
  return v != nullptr && std::string(v) == "1";
}

// Bit patterns [first, last] visited every `stride`; `last` itself is always visited.
struct BitRange {
  uint32_t first;
  uint32_t last;
  uint32_t stride;
};

inline BitRange magnitudes(float lo, float hi, uint32_t stride, bool negative) {
  const uint32_t s = negative ? 0x80000000u : 0u;
  return {bits(lo) | s, bits(hi) | s, stride};
}

// Every pattern within `radius` of the pattern of x (clamped to x's sign half).
inline BitRange around(float x, uint32_t radius) {
  const uint32_t b = bits(x), s = b & 0x80000000u, m = b & 0x7fffffffu;
  const uint32_t lo = m > radius ? m - radius : 0u;
  const uint32_t hi = m + radius < 0x7f800000u ? m + radius : 0x7f800000u;
  return {lo | s, hi | s, 1u};
}

// The worst result of a sweep: the largest real-valued error, the largest integer ulp
// distance, each with its input, and the inputs that broke the bound.
struct Worst {
  double error = -1.0;
  float error_input = 0.0f;
  uint32_t distance = 0;
  float distance_input = 0.0f;
  uint64_t count = 0;
  uint64_t failures = 0;
  float first_failure = 0.0f;

  void add(float x, double err, uint32_t dist, bool failed) {
    ++count;
    if (err > error) {
      error = err;
      error_input = x;
    }
    if (dist > distance) {
      distance = dist;
      distance_input = x;
    }
    if (failed && failures++ == 0) first_failure = x;
  }
  void merge(const Worst& o) {
    if (o.error > error) {
      error = o.error;
      error_input = o.error_input;
    }
    if (o.distance > distance) {
      distance = o.distance;
      distance_input = o.distance_input;
    }
    if (o.failures != 0 && failures == 0) first_failure = o.first_failure;
    failures += o.failures;
    count += o.count;
  }
};

inline unsigned worker_count() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1u : n;
}

// Calls check(x, worst) for every float of every range, in parallel; returns the merged worst.
template <class Check>
Worst sweep(const std::vector<BitRange>& ranges, Check check) {
  // Flatten into (range, index) work split evenly by count.
  std::vector<uint64_t> counts;
  uint64_t total = 0;
  for (const BitRange& r : ranges) {
    const uint64_t c = r.last >= r.first ? (uint64_t{r.last} - r.first) / r.stride + 1 : 0;
    counts.push_back(c);
    total += c;
  }
  const unsigned workers = worker_count();
  std::vector<Worst> results(workers);
  std::vector<std::thread> threads;
  for (unsigned w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      const uint64_t begin = total * w / workers, end = total * (w + 1) / workers;
      uint64_t base = 0;
      for (size_t i = 0; i < ranges.size(); ++i) {
        const uint64_t lo = std::max(begin, base), hi = std::min(end, base + counts[i]);
        for (uint64_t j = lo; j < hi; ++j) {
          const uint64_t offset = (j - base) * ranges[i].stride;
          const uint32_t b = static_cast<uint32_t>(uint64_t{ranges[i].first} + offset);
          check(from_bits(b), results[w]);
        }
        base += counts[i];
      }
      // The last pattern of a strided range may fall between two steps.
      if (w == 0) {
        for (const BitRange& r : ranges) {
          if (r.stride > 1 && (uint64_t{r.last} - r.first) % r.stride != 0) check(from_bits(r.last), results[w]);
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  Worst all;
  for (const Worst& r : results) all.merge(r);
  return all;
}

// Every one of the 2^32 bit patterns.
inline std::vector<BitRange> all_floats() { return {{0u, 0x7fffffffu, 1u}, {0x80000000u, 0xffffffffu, 1u}}; }

// Distance in ulps of the correctly rounded result cr, as a real number: how far the exact
// value is from `got`, in units of the spacing of floats at cr.
inline double ulp_of(float cr) {
  const float m = std::fabs(cr);
  if (m < 0x1p-126f) return 0x1p-149;
  int e = 0;
  std::frexp(m, &e);
  return std::ldexp(1.0, e - 24);
}

inline std::string hex(float x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a (0x%08x)", static_cast<double>(x), bits(x));
  return buf;
}

// Small fast generator for reproducible random inputs.
struct SplitMix64 {
  uint64_t state;
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t next32() { return static_cast<uint32_t>(next() >> 32); }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>((next() >> 32) % n); }
};

}  // namespace vt::math::test
