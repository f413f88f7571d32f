#include "case_run.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include "vt/opcheck/compare.hpp"
#include "vt/opcheck/op_case.hpp"

namespace vt::parity {

uint64_t base_seed() { return static_cast<uint64_t>(testing::UnitTest::GetInstance()->random_seed()); }

std::string replay_hint(const CaseSpec& spec, uint64_t base, uint64_t seed) {
  char s[32];
  std::snprintf(s, sizeof s, "0x%016llx", static_cast<unsigned long long>(seed));
  return "case " + spec.name + ", seed " + s + " (from base seed " + std::to_string(base) +
         "; replay with --gtest_random_seed=" + std::to_string(base) + " and a --gtest_filter naming the case)";
}

DeviceRun run_on_device(opcheck::OpCase& c, const Device& device) {
  Queue queue = device.create_queue();
  c.bind(queue);
  DeviceRun r;
  r.provider = std::string(c.run(queue));
  r.images = c.download(queue);
  return r;
}

std::string judge(opcheck::OpCase& c, const opcheck::Images& actual, std::string_view provider,
                  const BackendExpectation& expect) {
  std::string problem = check_provider(expect, c.op(), provider);
  const opcheck::Report r = opcheck::compare(c.memory(), c.expected(), actual, expect.tolerance);
  if (!r.passed) {
    // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on the chain of +.
    if (!problem.empty()) problem += '\n';
    problem.append("provider '").append(provider).append("', ").append(expect.tolerance.describe());
    problem.append(": ").append(r.summary()).append("\n").append(r.details());
  }
  return problem;
}

}  // namespace vt::parity
