#include "vt/opcheck/random.hpp"

#include <cmath>

namespace vt::opcheck {

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int64_t Rng::uniform_int(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int64_t>(next() % span);  // the bias is irrelevant at these spans
}

float Rng::unit() { return static_cast<float>(next() >> 40) * 0x1p-24f; }

float Rng::positive_binade(int lo_exp, int hi_exp) {
  const auto e = static_cast<int>(uniform_int(lo_exp, hi_exp));
  return std::ldexp(1.0f + unit(), e);
}

float Rng::normal() {
  for (;;) {
    const double u1 = 1.0 - static_cast<double>(unit());  // (0, 1]: the log stays finite
    const double u2 = static_cast<double>(unit());
    const auto v = static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
    if (v != 0.0f) return v;
  }
}

float Rng::binade(int lo_exp, int hi_exp) {
  const float v = positive_binade(lo_exp, hi_exp);
  return (next() & 1) ? -v : v;
}

uint64_t case_seed(uint64_t base, std::string_view case_name) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
  for (const char c : case_name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  Rng mix(base ^ h);
  return mix.next();
}

}  // namespace vt::opcheck
