// The fast provider against the scalar reference through the public API: many seeded random
// cases of every op, each run under every setting (settings.hpp) and compared byte for byte,
// NaN payloads, guards, gaps and untouched state slots included. Every setting must give the
// reference's bytes, so thread counts and variants give each other's too.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "random_cases.hpp"
#include "settings.hpp"
#include "vt/op_id.hpp"
#include "vt/opcheck/compare.hpp"
#include "vt/opcheck/random.hpp"

namespace vt::cpu_fast_test {
namespace {

constexpr int kCasesPerOp = 48;

std::string replay(uint64_t base, const std::string& name, uint64_t seed) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%016llx", static_cast<unsigned long long>(seed));
  return name + " seed " + s + " (replay: --gtest_random_seed=" + std::to_string(base) + ")";
}

class FastParity : public testing::TestWithParam<vt_op_id> {};

TEST_P(FastParity, EverySettingGivesTheReferenceBytes) {
  const vt_op_id op = GetParam();
  const auto base = static_cast<uint64_t>(testing::UnitTest::GetInstance()->random_seed());
  const opcheck::Tolerance bytes{opcheck::Tolerance::Mode::bytes, 0};
  for (int i = 0; i < kCasesPerOp; ++i) {
    const uint64_t seed = opcheck::case_seed(base, std::string(op_name(op)) + std::to_string(i));
    const auto c = random_case(op, i, seed);
    for (const Setting& s : settings()) {
      Queue queue = s.runtime->device("cpu:0").create_queue();
      c->bind(queue);
      std::string provider;
      s.around([&] { provider = std::string(c->run(queue)); });
      const opcheck::Images result = c->download(queue);
      ASSERT_EQ(provider, s.provider) << s.name;
      const opcheck::Report r = opcheck::compare(c->memory(), c->expected(), result, bytes);
      ASSERT_TRUE(r.passed) << replay(base, c->name(), seed) << "\n  " << c->shape() << "\n  setting " << s.name << ": "
                            << r.summary() << "\n"
                            << r.details();
    }
  }
}

std::string op_test_name(const testing::TestParamInfo<vt_op_id>& info) { return std::string(op_name(info.param)); }

INSTANTIATE_TEST_SUITE_P(Ops, FastParity, testing::ValuesIn(kAllOps), op_test_name);

}  // namespace
}  // namespace vt::cpu_fast_test
