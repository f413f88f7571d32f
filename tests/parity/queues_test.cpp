// Queues and devices used together (runtime.md, capabilities "second compute queue"; several
// devices per backend), each result judged against the reference as the parity suite judges
// it (provider and comparison mode from the expectation table):
// - two queues of one device, on every device that advertises a second queue: op calls on
//   independent buffers enqueued alternately on both before either queue is waited for, and
//   chained calls where an event recorded on one queue orders a device-side copy of its
//   result into the input of a call on the other;
// - every device of a backend with two or more (cuda:0 and cuda:1), concurrently: one host
//   thread and one queue each, the representative cases on all of them at once.
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <thread>
#include <tuple>

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

// The representative cases the backend is expected to get right (its declared gaps left out).
std::vector<const CaseSpec*> cases_for(const BackendExpectation& expect) {
  std::vector<const CaseSpec*> out;
  for (const CaseSpec* spec : representative_cases().cases)
    if (!declared_gap(expect, spec->name)) out.push_back(spec);
  return out;
}

class ParityQueues : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    device_ = parity_runtime().device(GetParam());
    if (!device_.properties().second_queue)
      GTEST_SKIP() << device_.name() << " does not advertise a second compute queue (DeviceProperties::second_queue)";
    const CaseSelection selection = representative_cases();
    ASSERT_TRUE(selection.missing.empty())
        << "the case selection is stale (ParityCaseSelection.CoversEveryOp says how)";
    expect_ = expectation_for(device_);
  }
  Device device_;
  BackendExpectation expect_;
};

TEST_P(ParityQueues, InterleavedCallsMatchReference) {
  const std::vector<const CaseSpec*> cases = cases_for(expect_);
  ASSERT_FALSE(cases.empty()) << "every representative case is a declared gap of " << device_.backend();
  const uint64_t base = base_seed();
  Queue queues[2] = {device_.create_queue(), device_.create_queue()};
  auto queue_of = [&](size_t i) -> Queue& { return queues[i % 2]; };

  std::vector<std::unique_ptr<opcheck::OpCase>> cs;
  std::vector<std::string> providers;
  try {
    for (size_t i = 0; i < cases.size(); ++i) {
      cs.push_back(cases[i]->make(opcheck::case_seed(base, cases[i]->name)));
      cs.back()->bind(queue_of(i));
    }
    // Every call enqueued, alternating between the queues, before either is waited for.
    for (size_t i = 0; i < cs.size(); ++i) providers.emplace_back(cs[i]->run(queue_of(i)));
  } catch (const Error& e) {
    FAIL() << "enqueueing on two queues of " << device_.name() << " threw: " << e.what();
  }
  for (size_t i = 0; i < cs.size(); ++i) {
    const CaseSpec& spec = *cases[i];
    SCOPED_TRACE(replay_hint(spec, base, cs[i]->seed()) + "\n  shape: " + cs[i]->shape() + "\n  on queue " +
                 std::to_string(i % 2));
    try {
      EXPECT_EQ(judge(*cs[i], cs[i]->download(queue_of(i)), providers[i], expect_), "");
    } catch (const Error& e) {
      ADD_FAILURE() << "download threw: " << e.what();
    }
  }
  std::cout << device_.name() << ": " << cs.size() << " calls interleaved on two queues (base seed " << base << ")\n";
}

// A producer whose output feeds a consumer's input: the consumer's reference input is the
// producer's reference output (OpCase::feed); on the device, a copy after an event.
struct Chain {
  CaseSpec producer, consumer;
  const char* output;  // the producer's
  const char* input;   // the consumer's
};

// Post-conv's default heads: conv_out has 2 * 2 * 24 + 4 * 40 channels.
constexpr int64_t kPostConvChannels = 256;

std::vector<Chain> chains() {
  auto spec = [](std::string name, auto params) {
    const vt_op_id op = opcheck::make_case(name, params, 0)->op();
    return CaseSpec{name, op, [name, params](uint64_t seed) { return opcheck::make_case(name, params, seed); }};
  };
  opcheck::ConvFwdParams prefill;
  prefill.channels = kPostConvChannels;
  prefill.lengths = {4, 2};  // 6 tokens, post-conv's default
  prefill.plan_chunk = 2;
  opcheck::PostConvParams post_prefill;  // tokens = 6
  opcheck::ConvUpdateParams decode;
  decode.channels = kPostConvChannels;
  decode.batch = 5;
  decode.padding = 0;  // every row of out is written
  opcheck::PostConvParams post_decode;
  post_decode.tokens = decode.batch;
  return {{spec("chain_prefill_conv", prefill), spec("chain_prefill_post_conv", post_prefill), "out", "conv_out"},
          {spec("chain_decode_conv", decode), spec("chain_decode_post_conv", post_decode), "out", "conv_out"}};
}

TEST_P(ParityQueues, EventsOrderChainedCalls) {
  // The chains' random rows reach subnormal values, which no rule by case name can declare.
  if (device_.properties().flushes_subnormals)
    GTEST_SKIP() << device_.name() << " flushes f32 subnormals: the chained outputs pass through subnormal values and "
                 << "differ from the reference there (parity.md); the interleaved test covers its queues";
  const uint64_t base = base_seed();
  Queue queues[2] = {device_.create_queue(), device_.create_queue()};
  const std::vector<Chain> all = chains();

  struct Live {
    std::unique_ptr<opcheck::OpCase> producer, consumer;
    Queue *pq, *cq;
    Event ready;
    std::string producer_provider, consumer_provider;
  };
  std::vector<Live> live;
  try {
    for (size_t i = 0; i < all.size(); ++i) {  // chain i produces on queue i % 2, consumes on the other
      const Chain& ch = all[i];
      Live l{ch.producer.make(opcheck::case_seed(base, ch.producer.name)),
             ch.consumer.make(opcheck::case_seed(base, ch.consumer.name)),
             &queues[i % 2],
             &queues[(i + 1) % 2],
             device_.create_event(),
             "",
             ""};
      l.producer->bind(*l.pq);
      l.consumer->feed(ch.input, *l.producer, ch.output);
      l.consumer->bind(*l.cq);
      l.consumer->poison(*l.cq, ch.input);  // until the producer's result arrives
      l.cq->sync();
      live.push_back(std::move(l));
    }
    // Both producers first, then each consumer behind an event of the other queue.
    for (Live& l : live) {
      l.producer_provider = std::string(l.producer->run(*l.pq));
      l.pq->record(l.ready);
    }
    for (size_t i = 0; i < live.size(); ++i) {
      Live& l = live[i];
      l.cq->wait(l.ready);
      l.consumer->copy_from(*l.cq, all[i].input, *l.producer, all[i].output);
      l.consumer_provider = std::string(l.consumer->run(*l.cq));
    }
  } catch (const Error& e) {
    FAIL() << "chained calls on two queues of " << device_.name() << " threw: " << e.what();
  }
  for (size_t i = 0; i < live.size(); ++i) {
    Live& l = live[i];
    for (auto [c, spec, q, provider, role] :
         {std::tuple{l.producer.get(), &all[i].producer, l.pq, &l.producer_provider, "producer"},
          std::tuple{l.consumer.get(), &all[i].consumer, l.cq, &l.consumer_provider, "consumer"}}) {
      SCOPED_TRACE(replay_hint(*spec, base, c->seed()) + "\n  shape: " + c->shape() + "\n  the chain's " + role +
                   ", on queue " + std::to_string(q == &queues[0] ? 0 : 1));
      try {
        EXPECT_EQ(judge(*c, c->download(*q), *provider, expect_), "");
      } catch (const Error& e) {
        ADD_FAILURE() << "download threw: " << e.what();
      }
    }
  }
  std::cout << device_.name() << ": " << live.size() << " chains across two queues (base seed " << base << ")\n";
}

INSTANTIATE_TEST_SUITE_P(TwoQueues, ParityQueues, testing::ValuesIn(device_names()), DeviceTestName());
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParityQueues);  // no device loaded: the backend tests say why

// All of one device's work, run on its own host thread: every case bound and enqueued on one
// queue, then each downloaded and judged. Returns the failures, empty when all pass.
std::string run_all(const Device& device, const std::vector<const CaseSpec*>& cases, const BackendExpectation& expect,
                    uint64_t base) {
  std::string failures;
  try {
    Queue queue = device.create_queue();
    std::vector<std::unique_ptr<opcheck::OpCase>> cs;
    for (const CaseSpec* spec : cases) {
      cs.push_back(spec->make(opcheck::case_seed(base, spec->name)));
      cs.back()->bind(queue);
    }
    std::vector<std::string> providers;
    for (auto& c : cs) providers.emplace_back(c->run(queue));
    for (size_t i = 0; i < cs.size(); ++i) {
      const std::string problem = judge(*cs[i], cs[i]->download(queue), providers[i], expect);
      if (!problem.empty())
        failures +=
            replay_hint(*cases[i], base, cs[i]->seed()) + "\n  shape: " + cs[i]->shape() + "\n" + problem + "\n";
    }
  } catch (const std::exception& e) {
    failures += std::string("threw: ") + e.what() + "\n";
  }
  return failures;
}

class ParityDevices : public testing::TestWithParam<BackendState> {};

TEST_P(ParityDevices, ConcurrentlyMatchReference) {
  const BackendState& state = GetParam();
  const std::string& backend = state.backend;
  if (!state.runs) GTEST_SKIP() << backend << " does not run: " << state.reason;
  const std::vector<Device> devices = parity_runtime().devices(backend);
  if (devices.size() < 2)
    GTEST_SKIP() << backend << " has " << devices.size()
                 << " device(s) loaded; running on several devices at once needs two or more (e.g. cuda:0 and cuda:1)";
  const CaseSelection selection = representative_cases();
  ASSERT_TRUE(selection.missing.empty()) << "the case selection is stale (ParityCaseSelection.CoversEveryOp says how)";
  const BackendExpectation expect = expectation_for(backend);
  const std::vector<const CaseSpec*> cases = cases_for(expect);
  ASSERT_FALSE(cases.empty()) << "every representative case is a declared gap of " << backend;
  const uint64_t base = base_seed();

  std::vector<std::string> failures(devices.size());
  std::vector<std::thread> threads;
  for (size_t d = 0; d < devices.size(); ++d)
    threads.emplace_back([&, d] { failures[d] = run_all(devices[d], cases, expect, base); });
  for (std::thread& t : threads) t.join();
  for (size_t d = 0; d < devices.size(); ++d) EXPECT_EQ(failures[d], "") << "on " << devices[d].name();
  std::cout << backend << ": " << cases.size() << " cases on " << devices.size()
            << " devices at once, a host thread and a queue each (base seed " << base << ")\n";
}

// Every backend the suite knows of; one that does not run or has fewer than two devices
// skips and says so.
std::string backend_param_name(const testing::TestParamInfo<BackendState>& info) {
  return test_name_part(info.param.backend);
}

INSTANTIATE_TEST_SUITE_P(MultiDevice, ParityDevices, testing::ValuesIn(backend_states()), backend_param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParityDevices);

}  // namespace
}  // namespace vt::parity
