#!/usr/bin/env bash
# Host cost of the duplicate-slot check (ops/src/metadata.cpp, check_state_indices), against
# the version at an older revision, on this machine's CPU; then both versions' messages
# compared on random calls under ASan.
#
#   scripts/slot_check_bench.sh [OLD_REV]        (default c9ae589: the std::unordered_map check)
#
# Prints the microseconds a call at B = 1, 64, 256 and 512 (distinct slots, S = B + 2; the
# fastest of seven turns that alternate between the two versions) and the number of random
# calls whose outcome differs (0 expected).
set -euo pipefail
cd "$(dirname "$0")/.."
old_rev=${1:-c9ae589}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git show "$old_rev:ops/src/metadata.cpp" | sed 's/namespace vt::ops::detail {/namespace old_impl { using vt::ops::detail::Checker;/' >"$work/old.cpp"
cat >"$work/main.cpp" <<'CPP'
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "metadata.hpp"

namespace vt::ops::detail {
void Checker::fail(std::string_view, const std::string& rule) const { throw std::runtime_error(rule); }
}  // namespace vt::ops::detail
namespace old_impl {
void check_state_indices(const vt::ops::detail::Checker&, std::span<const int32_t>, int64_t, int64_t);
}

int main(int argc, char** argv) {
  // Only fail() is called, which the stub above defines without touching the checker.
  alignas(vt::ops::detail::Checker) unsigned char storage[sizeof(vt::ops::detail::Checker)] = {};
  const auto& c = *reinterpret_cast<const vt::ops::detail::Checker*>(storage);
  auto outcome = [&](bool old, const std::vector<int32_t>& v, int64_t S) -> std::string {
    try {
      if (old) old_impl::check_state_indices(c, v, static_cast<int64_t>(v.size()), S);
      else vt::ops::detail::check_state_indices(c, v, static_cast<int64_t>(v.size()), S);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "ok";
  };
  if (argc > 1) {  // the comparison
    std::mt19937 rng(1);
    long differ = 0;
    for (int it = 0; it < 300000; ++it) {
      std::vector<int32_t> v(rng() % 40);
      const int64_t S = 1 + rng() % 60;
      for (auto& x : v) x = static_cast<int32_t>(rng() % (S + 8)) - 4;
      if (rng() % 3 == 0)
        for (auto& x : v) x = x >= 0 ? static_cast<int32_t>(int64_t{x} * 100003 % 2000000000) : x;
      differ += outcome(true, v, S) != outcome(false, v, S);
    }
    std::printf("random calls whose outcome differs: %ld of 300000\n", differ);
    return differ != 0;
  }
  for (int B : {1, 64, 256, 512}) {
    std::vector<int32_t> slots(B);
    std::iota(slots.begin(), slots.end(), 0);
    std::shuffle(slots.begin(), slots.end(), std::mt19937(7));
    // The fastest of 7 turns each, taken in alternation: on a shared VM whole turns run slow.
    double best[2] = {1e30, 1e30};
    for (int turn = 0; turn < 7; ++turn)
      for (bool old : {true, false}) {
        constexpr int n = 5000;
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < n; ++r) outcome(old, slots, B + 2);
        const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
        best[old] = std::min(best[old], us);
      }
    for (bool old : {true, false}) std::printf("B = %3d  %-5s %8.3f us a call\n", B, old ? "old" : "now", best[old]);
  }
}
CPP
flags=(-std=c++20 -Iops/src -Ivt/include -Iops/include)
# Both checks in a shared library built as libvt is (position-independent code, where each
# read of a thread_local's address is a call), not in the executable.
g++ "${flags[@]}" -O2 -DNDEBUG -fPIC -shared "$work/old.cpp" ops/src/metadata.cpp -o "$work/libchecks.so"
g++ "${flags[@]}" -O2 -DNDEBUG "$work/main.cpp" -L"$work" -lchecks -Wl,-rpath,"$work" -o "$work/bench"
"$work/bench"
g++ "${flags[@]}" -O1 -fsanitize=address "$work/main.cpp" "$work/old.cpp" ops/src/metadata.cpp -o "$work/compare"
"$work/compare" compare
