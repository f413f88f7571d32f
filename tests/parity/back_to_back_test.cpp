// Calls that depend on each other through device memory, enqueued back to back on one queue
// with nothing between them (runtime.md, "queues"): a conv case whose state the op rewrites is
// called twice, so the second call reads the state the first one wrote. A backend that lets
// a kernel start before the one before it has finished (CUDA's early start, VT_EARLY_LAUNCH)
// must still give the second call the first call's results: the device's buffers after both
// calls must equal the reference applied twice (the case's state fed from the reference's
// first call), under the backend's parity contract.
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>

#include "case_catalog.hpp"
#include "case_run.hpp"
#include "device_axis.hpp"
#include "expectations.hpp"
#include "vt/error.hpp"
#include "vt/op_id.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/opcheck/random.hpp"

namespace vt::parity {
namespace {

constexpr const char* kState = "conv_state";

// Whether a representative case is run twice here: it must rewrite its state and nothing
// else it reads (an in-place update would feed its outputs back as inputs, which the
// interleaved and chained tests already cover), and hold no NaN (whose payload parity.md
// leaves open, so a fed state could differ from the device's own in bits).
bool rewrites_only_its_state(const opcheck::OpCase& c) {
  const opcheck::CaseMemory& m = c.memory();
  bool state = false;
  for (int i = 0; i < m.count(); ++i) {
    if (m.slot(i).role != opcheck::Role::inout) continue;
    if (m.slot(i).name != kState) return false;
    state = true;
  }
  return state && c.name().find("nan") == std::string::npos;
}

class ParityBackToBack : public testing::TestWithParam<std::string> {};

TEST_P(ParityBackToBack, SecondCallReadsTheFirstCallsState) {
  const Device device = parity_runtime().device(GetParam());
  const CaseSelection selection = representative_cases();
  ASSERT_TRUE(selection.missing.empty()) << "the case selection is stale (ParityCaseSelection.CoversEveryOp says how)";
  const BackendExpectation expect = expectation_for(device);
  const uint64_t base = base_seed();
  Queue queue = device.create_queue();
  int ran = 0;
  for (const CaseSpec* spec : selection.cases) {
    if (declared_gap(expect, spec->name)) continue;
    const uint64_t seed = opcheck::case_seed(base, spec->name);
    std::unique_ptr<opcheck::OpCase> twice = spec->make(seed);
    if (!rewrites_only_its_state(*twice)) continue;
    SCOPED_TRACE(replay_hint(*spec, base, seed) + "\n  shape: " + twice->shape() + "\n  called twice, back to back");
    try {
      // The second call's reference: the same case with the state the first call leaves.
      twice->bind(queue);
      std::unique_ptr<opcheck::OpCase> second = spec->make(seed);
      second->feed(kState, *twice, kState);
      second->bind(queue);
      const std::string first_provider(twice->run(queue));
      const std::string provider(twice->run(queue));  // no wait: it reads what the first call writes
      EXPECT_EQ(provider, first_provider) << "the two calls chose different providers";
      EXPECT_EQ(judge(*second, twice->download(queue), provider, expect), "");
      ++ran;
    } catch (const Error& e) {
      ADD_FAILURE() << op_name(spec->op) << " on " << device.name() << " threw: " << e.what();
    }
  }
  EXPECT_GT(ran, 0) << "no representative case rewrites only its state: the selection lost the conv cases";
  std::cout << device.name() << ": " << ran << " stateful cases called twice back to back (base seed " << base << ")\n";
}

INSTANTIATE_TEST_SUITE_P(OneQueue, ParityBackToBack, testing::ValuesIn(device_names()), DeviceTestName());
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParityBackToBack);  // no device loaded: the backend tests say why

}  // namespace
}  // namespace vt::parity
