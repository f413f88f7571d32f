// Graph capture and replay (runtime.md, "graph capture"; vt/device.hpp): on every device that
// advertises the capability, each representative case's op call is captured once into a graph
// on a queue, then replayed several times with new random contents written into the same
// buffers before each replay (outputs poisoned again). Every replay must equal, byte for
// byte, an eager call on the same inputs, and the reference under the backend's parity
// contract; the call must not run during capture, and the provider it reports must be the
// one the expectation table names.
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "case_catalog.hpp"
#include "case_run.hpp"
#include "device_axis.hpp"
#include "expectations.hpp"
#include "vt/error.hpp"
#include "vt/op_id.hpp"
#include "vt/opcheck/compare.hpp"
#include "vt/opcheck/random.hpp"

namespace vt::parity {
namespace {

// Replay 0 sees the inputs the call was captured with; every later one new contents.
constexpr int kReplays = 3;
const opcheck::Tolerance kBytes{opcheck::Tolerance::Mode::bytes, 0};

std::string seed_text(uint64_t seed) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%016llx", static_cast<unsigned long long>(seed));
  return s;
}

// The seed of replay r's contents, derived from the case's seed (so the printed base seed
// replays every replay).
uint64_t replay_seed(uint64_t case_seed, int replay) {
  return opcheck::case_seed(case_seed, "replay " + std::to_string(replay));
}

// Captures one case and replays it; failures are reported against the case.
void capture_and_replay(const CaseSpec& spec, const Device& device, const BackendExpectation& expect, uint64_t base) {
  const uint64_t seed = opcheck::case_seed(base, spec.name);
  auto c = spec.make(seed);
  SCOPED_TRACE(replay_hint(spec, base, seed) + "\n  shape: " + c->shape());
  Queue queue = device.create_queue();
  c->bind(queue);  // the case's images in the buffers the graph will use, outputs poisoned

  std::string provider;
  Graph graph;
  try {
    queue.capture_begin();
  } catch (const Error& e) {
    ADD_FAILURE() << device.name() << " advertises graph capture but capture_begin threw: " << e.what();
    return;
  }
  try {
    provider = std::string(c->run(queue));
    graph = queue.capture_end();
  } catch (const Error& e) {
    try {
      queue.capture_end();  // leave the queue out of capture mode
    } catch (const Error&) {
    }
    ADD_FAILURE() << op_name(spec.op) << " could not be captured on " << device.name() << ": " << e.what();
    return;
  }
  EXPECT_EQ(check_provider(expect, spec.op, provider), "") << "(the provider the captured call reported)";

  try {
    // Capture records the call instead of running it: after the queue drains, every buffer
    // still holds exactly what bind() uploaded, outputs poisoned.
    queue.sync();
    const opcheck::Report untouched = opcheck::compare(c->memory(), c->memory().initial(), c->download(queue), kBytes);
    EXPECT_TRUE(untouched.passed) << "the captured call ran during capture (or wrote before any launch): "
                                  << untouched.summary() << "\n"
                                  << untouched.details();

    for (int r = 0; r < kReplays; ++r) {
      const uint64_t contents = r == 0 ? seed : replay_seed(seed, r);
      SCOPED_TRACE("replay " + std::to_string(r) + " of " + std::to_string(kReplays) + ", contents from seed " +
                   seed_text(contents));
      if (r > 0) c->refill_from(*spec.make(contents));  // new inputs and state, same buffers
      c->reset(queue);                                  // inputs, state and poisoned outputs into the captured buffers
      queue.launch(graph);
      const opcheck::Images replayed = c->download(queue);

      c->reset(queue);  // the same inputs again, for an eager call
      const std::string eager_provider(c->run(queue));
      const opcheck::Images eager = c->download(queue);

      EXPECT_EQ(eager_provider, provider) << "an eager call chose another provider than the captured one";
      const opcheck::Report same = opcheck::compare(c->memory(), eager, replayed, kBytes);
      EXPECT_TRUE(same.passed) << "replay against an eager call on the same inputs: " << same.summary() << "\n"
                               << same.details();
      EXPECT_EQ(judge(*c, replayed, provider, expect), "") << "replay against the reference";
    }
  } catch (const Error& e) {
    ADD_FAILURE() << op_name(spec.op) << " on " << device.name()
                  << ", replaying the captured graph threw: " << e.what();
  }
}

TEST(ParityCaseSelection, CoversEveryOp) {
  const CaseSelection selection = representative_cases();
  for (const std::string& pattern : selection.missing)
    ADD_FAILURE() << "representative_cases(): pattern '" << pattern << "' matches no catalog case any more";
  for (vt_op_id op : kAllOps) {
    size_t n = 0;
    for (const CaseSpec* spec : selection.cases) n += spec->op == op ? 1 : 0;
    EXPECT_GT(n, 0u) << "representative_cases() has no case of " << op_name(op);
  }
}

class ParityGraph : public testing::TestWithParam<std::string> {};

TEST_P(ParityGraph, ReplaysMatchEagerAndReference) {
  const Device device = parity_runtime().device(GetParam());
  if (!device.properties().graph_capture)
    GTEST_SKIP() << device.name() << " does not advertise graph capture (DeviceProperties::graph_capture)";
  const CaseSelection selection = representative_cases();
  ASSERT_TRUE(selection.missing.empty()) << "the case selection is stale (ParityCaseSelection.CoversEveryOp says how)";
  const BackendExpectation expect = expectation_for(device);
  const uint64_t base = base_seed();

  std::map<std::string, int> per_op;
  for (const CaseSpec* spec : selection.cases) {
    if (const CaseRule* gap = declared_gap(expect, spec->name)) {
      std::cout << "  " << spec->name << ": not captured, a declared gap of " << device.backend() << " (" << gap->reason
                << ")\n";
      continue;
    }
    capture_and_replay(*spec, device, expect, base);
    ++per_op[std::string(op_name(spec->op))];
  }
  std::cout << device.name() << ": captured once and replayed " << kReplays << " times (base seed " << base << "):";
  for (const auto& [op, n] : per_op) std::cout << " " << op << " " << n;
  std::cout << "\n";
  ASSERT_FALSE(per_op.empty()) << "every representative case is a declared gap of " << device.backend();
}

INSTANTIATE_TEST_SUITE_P(Graph, ParityGraph, testing::ValuesIn(device_names()), DeviceTestName());
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParityGraph);  // no device loaded: the backend tests say why

}  // namespace
}  // namespace vt::parity
