// Seeded random inputs for op cases. splitmix64 and exact bit arithmetic only, so a seed
// gives the same values with any compiler or standard library (a printed seed replays).
#pragma once
#include <cstdint>
#include <string_view>

namespace vt::opcheck {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next();
  // Uniform in [lo, hi], both inclusive.
  int64_t uniform_int(int64_t lo, int64_t hi);
  // Uniform in [0, 1) on a 2^-24 grid (exact in f32).
  float unit();
  bool chance(float p) { return unit() < p; }
  // sign * 2^e * m with e uniform in [lo_exp, hi_exp] and m in [1, 2): several binades,
  // never zero.
  float binade(int lo_exp, int hi_exp);
  // As binade(), positive.
  float positive_binade(int lo_exp, int hi_exp);
  // Standard normal (Box-Muller over two unit() draws), never zero.
  float normal();

 private:
  uint64_t state_;
};

// A case's seed: the run's base seed mixed with the case's name, so every case gets its own
// inputs and one case replays alone.
uint64_t case_seed(uint64_t base, std::string_view case_name);

}  // namespace vt::opcheck
