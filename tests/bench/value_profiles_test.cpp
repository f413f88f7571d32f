// The conv cases' value profiles (docs/benchmarks.md): vt-bench's model values keep every
// width-4 SiLU input above -85.9, where the exact division stays on its fast path; the
// parity suite's spread values put a sizeable share below it, which is why a benchmark of
// them times the slow path.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>

#include "vt/opcheck/gdn_cases.hpp"

namespace vt::opcheck {
namespace {

// Share of the conv's pre-activations (bias + sum of w * x over the sequence's own tokens)
// below -85.9, from the case's input images.
double share_below_slow_bound(bool model_values) {
  ConvFwdParams p;
  p.channels = 256;
  p.width = 4;
  p.x = p.weight = p.out = DType::bf16;
  p.lengths = {400};
  p.model_values = model_values;
  const auto c = make_case("value_profile", p, 11);
  const CaseMemory& m = c->memory();
  const int x = m.find("x"), w = m.find("weight"), b = m.find("bias");
  auto at = [&](int id, int64_t i0, int64_t i1) {
    Index ix{};
    ix[0] = i0;
    ix[1] = i1;
    const TensorSlot& s = m.slot(id);
    return static_cast<double>(
        CaseMemory::load(s.dtype, m.initial()[static_cast<size_t>(id)].data() + s.element_offset(ix)));
  };
  int64_t below = 0, count = 0;
  for (int64_t t = p.width - 1; t < p.lengths[0]; ++t)
    for (int64_t ch = 0; ch < p.channels; ++ch) {
      double acc = at(b, ch, 0);
      for (int64_t j = 0; j < p.width; ++j) acc += at(w, ch, j) * at(x, t - (p.width - 1) + j, ch);
      below += acc < -85.9 ? 1 : 0;
      ++count;
    }
  return static_cast<double>(below) / static_cast<double>(count);
}

TEST(ValueProfiles, ModelValuesStayOnSilusFastPath) { EXPECT_EQ(share_below_slow_bound(true), 0.0); }

TEST(ValueProfiles, SpreadValuesReachTheSlowPath) {
  const double share = share_below_slow_bound(false);
  std::cout << "spread values: " << share * 100 << "% of conv outputs below -85.9\n";
  EXPECT_GT(share, 0.05);
}

}  // namespace
}  // namespace vt::opcheck
