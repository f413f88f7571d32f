// The parity suite (parity.md): every catalog case on every loaded device, against the
// scalar reference run on host copies of the same inputs, judged by the backend's
// expectations: the provider that ran, the comparison mode, declared gaps.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <utility>

#include "case_catalog.hpp"
#include "case_run.hpp"
#include "device_axis.hpp"
#include "expectations.hpp"
#include "vt/error.hpp"
#include "vt/op_id.hpp"
#include "vt/opcheck/compare.hpp"
#include "vt/opcheck/random.hpp"
#include "vt/runtime.hpp"

namespace vt::parity {
namespace {

struct ParityParam {
  const CaseSpec* spec;
  std::string device;
};

void PrintTo(const ParityParam& p, std::ostream* os) { *os << p.spec->name << " on " << p.device; }

std::vector<ParityParam> parity_params() {
  std::vector<ParityParam> out;
  for (const std::string& device : device_names())
    for (const CaseSpec& spec : case_catalog()) out.push_back({&spec, device});
  return out;
}

// What the run says at its end for each device and op (parity.md, the Vulkan issue): whether
// every case was bit-identical or the worst ulp distance seen, and the declared gaps.
struct OpTally {
  int ran = 0, identical = 0, failed = 0, expected_failures = 0, unsupported = 0;
  uint64_t worst_ulp = 0;
  std::string worst;  // "case: summary" of the worst difference
};

std::map<std::pair<std::string, std::string>, OpTally>& tallies() {
  static std::map<std::pair<std::string, std::string>, OpTally> t;
  return t;
}

void tally(const std::string& device, const CaseSpec& spec, const opcheck::Report* report, bool passed,
           bool expected_failure) {
  OpTally& t = tallies()[{device, std::string(op_name(spec.op))}];
  if (!report) {
    ++t.unsupported;
    return;
  }
  ++t.ran;
  if (expected_failure) ++t.expected_failures;
  else if (!passed) ++t.failed;
  if (report->worst_at.empty() && report->passed) {
    ++t.identical;
  } else if (report->worst_ulp >= t.worst_ulp) {
    t.worst_ulp = report->worst_ulp;
    t.worst = spec.name + ": " + report->summary();
  }
}

class ParityByOp : public testing::Environment {
 public:
  void TearDown() override {
    if (tallies().empty()) return;
    std::cout << "parity by device and op (cases run; identical; the worst difference; declared gaps):\n";
    for (const auto& [key, t] : tallies()) {
      std::cout << "  " << key.first << " " << key.second << ": " << t.ran << " run, ";
      if (t.identical == t.ran) std::cout << "all bit-identical";
      else std::cout << t.identical << " bit-identical, worst " << t.worst;
      if (t.expected_failures) std::cout << "; " << t.expected_failures << " expected failure(s)";
      if (t.unsupported) std::cout << "; " << t.unsupported << " unsupported";
      if (t.failed) std::cout << "; " << t.failed << " FAILED";
      std::cout << "\n";
    }
  }
};
testing::Environment* const kParityByOp = testing::AddGlobalTestEnvironment(new ParityByOp);

class Parity : public testing::TestWithParam<ParityParam> {};

TEST_P(Parity, MatchesReference) {
  const CaseSpec& spec = *GetParam().spec;
  const Device device = parity_runtime().device(GetParam().device);
  const BackendExpectation expect = expectation_for(device);
  if (const CaseRule* rule = find_rule(expect.unsupported, spec.name)) {
    tally(device.name(), spec, nullptr, false, false);
    GTEST_SKIP() << device.backend() << " does not support " << spec.name << ": " << rule->reason;
  }

  const uint64_t base = base_seed(), seed = opcheck::case_seed(base, spec.name);
  auto c = spec.make(seed);
  SCOPED_TRACE(replay_hint(spec, base, seed) + "\n  shape: " + c->shape());

  DeviceRun run;
  try {
    run = run_on_device(*c, device);
  } catch (const Error& e) {
    FAIL() << op_name(spec.op) << " on " << device.name() << " threw: " << e.what();
  }
  const opcheck::Report report = opcheck::compare(c->memory(), c->expected(), run.images, expect.tolerance);
  const std::string provider_problem = check_provider(expect, spec.op, run.provider);

  const CaseRule* expected_failure = find_rule(expect.expected_failures, spec.name);
  tally(device.name(), spec, &report, report.passed && provider_problem.empty(), expected_failure != nullptr);
  if (const CaseRule* rule = expected_failure) {
    if (report.passed && provider_problem.empty())
      FAIL() << "unexpected pass of an expected failure (" << rule->reason
             << "): take it out of tests/backends/parity_expectations.cpp";
    GTEST_SKIP() << "expected failure (" << rule->reason << "): " << report.summary();
  }
  RecordProperty("parity", report.summary());
  if (report.passed && !report.worst_at.empty())  // a pass under a ulp bound: say how close
    std::cout << "within " << expect.tolerance.describe() << ": " << report.summary() << "\n";
  EXPECT_EQ(provider_problem, "");
  EXPECT_TRUE(report.passed) << "provider '" << run.provider << "', " << expect.tolerance.describe() << ": "
                             << report.summary() << "\n"
                             << report.details();
}

std::string parity_name(const testing::TestParamInfo<ParityParam>& info) {
  return info.param.spec->name + "__" + test_name_part(info.param.device);
}

INSTANTIATE_TEST_SUITE_P(Cases, Parity, testing::ValuesIn(parity_params()), parity_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Parity);  // no device loaded: the backend tests say why

}  // namespace
}  // namespace vt::parity
