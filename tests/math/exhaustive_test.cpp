// Every f32 input of exp, log1p, sigmoid_fast and silu_fast, and the division checks over
// every divisor of one binade. Minutes on a few cores, so it runs only with
// VT_MATH_EXHAUSTIVE=1 (see README.md).
#include <gtest/gtest.h>

#include <iostream>

#include "div_cases.hpp"
#include "math_checks.hpp"

namespace vt::math::test {
namespace {

#define VT_REQUIRE_EXHAUSTIVE() \
  if (!exhaustive_enabled()) GTEST_SKIP() << "set VT_MATH_EXHAUSTIVE=1 to run"

void report(const char* what, const Worst& w) {
  std::cout << what << ": " << w.count << " inputs, max " << w.distance << " ulp from correctly rounded at "
            << hex(w.distance_input) << ", max error " << w.error << " ulp at " << hex(w.error_input) << ", "
            << w.failures << " failures\n";
}

TEST(Exhaustive, ExpAllInputs) {
  VT_REQUIRE_EXHAUSTIVE();
  const Worst w = sweep(all_floats(), check_exp);
  report("exp", w);
  EXPECT_EQ(w.count, uint64_t{1} << 32);
  EXPECT_EQ(w.failures, 0u) << "first failure at " << hex(w.first_failure);
}

TEST(Exhaustive, Log1pAllInputs) {
  VT_REQUIRE_EXHAUSTIVE();
  const Worst w = sweep(all_floats(), check_log1p);
  report("log1p", w);
  EXPECT_EQ(w.count, uint64_t{1} << 32);
  EXPECT_EQ(w.failures, 0u) << "first failure at " << hex(w.first_failure);
}

TEST(Exhaustive, FastCompositesAllInputs) {
  VT_REQUIRE_EXHAUSTIVE();
  const Worst w = sweep(all_floats(), check_fast_composites);
  std::cout << "sigmoid_fast / silu_fast: " << w.count << " inputs, " << w.failures << " differ from sigmoid / silu\n";
  EXPECT_EQ(w.count, uint64_t{1} << 32);
  EXPECT_EQ(w.failures, 0u) << "first failure at " << hex(w.first_failure);
}

TEST(Exhaustive, DivGe1QuotientsNearestToMidpoints) {
  VT_REQUIRE_EXHAUSTIVE();
  run_div_hard_cases(true);
}

TEST(Exhaustive, DivGe1AnySeedWithinTheBound) {
  VT_REQUIRE_EXHAUSTIVE();
  run_div_any_seed(true);
}

TEST(Exhaustive, DivGe1RandomPairs) {
  VT_REQUIRE_EXHAUSTIVE();
  run_div_random_pairs(400000000);
}

}  // namespace
}  // namespace vt::math::test
