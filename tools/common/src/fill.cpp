#include "fill.hpp"

#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <utility>

namespace vt::opcheck::detail {

float subnormal(Rng& rng, DType dtype) {
  switch (dtype) {
    case DType::f16: return rng.binade(-24, -15);
    case DType::bf16: return rng.binade(-133, -127);
    default: return rng.binade(-149, -127);
  }
}

float special_value(Rng& rng, DType dtype) {
  switch (rng.uniform_int(0, 3)) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    case 2: return -std::numeric_limits<float>::infinity();
    default: return subnormal(rng, dtype);
  }
}

float activation_or_special(Rng& rng, DType dtype, float p) {
  return rng.chance(p) ? special_value(rng, dtype) : activation(rng);
}

void shuffle(Rng& rng, std::vector<int32_t>& v) {
  for (size_t i = v.size(); i > 1; --i)  // Fisher-Yates
    std::swap(v[i - 1], v[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(i) - 1))]);
}

std::vector<int32_t> distinct_slots(Rng& rng, int64_t num_slots, int64_t count) {
  std::vector<int32_t> all(static_cast<size_t>(num_slots));
  std::iota(all.begin(), all.end(), 0);
  shuffle(rng, all);
  all.resize(static_cast<size_t>(count));
  return all;
}

std::vector<int64_t> padded_strides(const std::vector<int64_t>& shape, int64_t row_extra) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size() - 1; d-- > 0;)
    s[d] = d + 2 == shape.size() ? shape[d + 1] + row_extra : s[d + 1] * shape[d + 1];
  return s;
}

RowKind row_kind(int64_t t, bool special_rows) {
  if (!special_rows) return RowKind::normal;
  constexpr RowKind kCycle[] = {RowKind::normal, RowKind::overflow, RowKind::nan,
                                RowKind::large,  RowKind::tiny,     RowKind::subnormal};
  return kCycle[static_cast<size_t>(t) % std::size(kCycle)];
}

float row_value(Rng& rng, RowKind kind, DType dtype, bool nan_here) {
  const bool narrow_range = dtype == DType::f16;
  switch (kind) {
    case RowKind::normal: return activation(rng);
    case RowKind::nan: return nan_here ? std::numeric_limits<float>::quiet_NaN() : activation(rng);
    case RowKind::overflow: return narrow_range ? rng.binade(14, 15) : rng.binade(66, 72);  // squares > 2^128
    case RowKind::large: return narrow_range ? rng.binade(12, 14) : rng.binade(50, 60);
    case RowKind::tiny: return narrow_range ? rng.binade(-14, -12) : rng.binade(-90, -70);  // smallest normals in f16
    case RowKind::subnormal: return subnormal(rng, dtype);
  }
  return 1.0f;
}

void fill_gates(CaseMemory& m, int a, int b, int A_log, int dt_bias, Rng& rng, bool threshold, bool specials) {
  std::vector<float> bias(static_cast<size_t>(m.slot(dt_bias).shape[0]));
  for (float& v : bias) v = rng.binade(-4, 1);
  m.fill(dt_bias, [&](const Index& i) { return bias[static_cast<size_t>(i[0])]; });
  m.fill(A_log, [&](const Index&) { return rng.binade(-4, 1); });
  m.fill(a, [&](const Index& i) {
    if (specials && rng.chance(0.1f)) return special_value(rng, m.slot(a).dtype);
    if (!threshold) return rng.binade(-8, 4);
    // 20 has an ulp of 2^-19: step a few of them around 20 - dt_bias (rounded to a's dtype).
    return (20.0f - bias[static_cast<size_t>(i[1])]) + static_cast<float>(rng.uniform_int(-3, 3)) * 0x1p-19f;
  });
  m.fill(b, [&](const Index&) {
    return specials && rng.chance(0.1f) ? special_value(rng, m.slot(b).dtype) : rng.binade(-8, 4);
  });
}

std::string dtype_text(DType t) { return std::string(dtype_name(t)); }

std::string dims_text(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

}  // namespace vt::opcheck::detail
