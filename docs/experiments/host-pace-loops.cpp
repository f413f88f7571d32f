// The fifty-eighth session's measurement of what the host's slow stretches slow
// (docs/benchmarks.md, docs/results/vm-host-pace-session58.txt): four fixed loops, each the
// median of 51 samples of 64 passes, in microseconds a pass. Not part of the build:
//   g++ -O2 -o pace docs/experiments/host-pace-loops.cpp
//   for i in $(seq 1 12); do ./pace; sleep 0.3; done
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

volatile uint32_t seed = 0x9e3779b9u;  // read so that no loop is folded
volatile uint64_t sink;                // written so that no result is dropped

template <class Pass>
double median_us_per_pass(Pass pass) {
  using clock = std::chrono::steady_clock;
  std::vector<double> us;
  for (int s = 0; s < 51; ++s) {
    const auto t0 = clock::now();
    for (int i = 0; i < 64; ++i) pass();
    const auto t1 = clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / 64);
  }
  std::nth_element(us.begin(), us.begin() + 25, us.end());
  return us[25];
}

}  // namespace

int main() {
  std::vector<uint32_t> next(65536);  // a permutation over 256 KiB
  std::iota(next.begin(), next.end(), 0u);
  std::mt19937 g(1);
  std::shuffle(next.begin(), next.end(), g);
  std::vector<uint32_t> table(8192, 1);  // 32 KiB
  std::unordered_map<std::string, int> map;
  std::vector<std::string> keys;
  for (int i = 0; i < 256; ++i) {
    keys.push_back("conv_fwd_provider_" + std::to_string(i));
    map[keys.back()] = i;
  }
  const double xs = median_us_per_pass([] {
    uint32_t x = seed;
    for (int i = 0; i < 512; ++i) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
    }
    sink = x;
  });
  const double chase = median_us_per_pass([&] {
    uint32_t x = seed & 65535;
    for (int i = 0; i < 256; ++i) x = next[x];
    sink = x;
  });
  const double sum = median_us_per_pass([&] {
    uint64_t s = 0;
    for (uint32_t i = 0; i < 8192; i += 8) s += table[(i + seed) & 8191];
    sink = s;
  });
  const double lookups = median_us_per_pass([&] {
    uint64_t s = 0;
    for (uint32_t i = 0; i < 16; ++i) s += static_cast<uint64_t>(map.find(keys[(i * 37 + seed) & 255])->second);
    sink = s;
  });
  std::printf("xs %.3f chase %.3f sum %.3f map %.3f\n", xs, chase, sum, lookups);
}
