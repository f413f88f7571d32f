// The registry on its own: selection order, predicates, decline chains, switches, stats.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vt/error.hpp"
#include "vt/registry.hpp"
#include "vt_test/expect_error.hpp"

namespace {

using vt::test::expect_error;

// Providers record which of them ran, so a test can see the order of attempts.
thread_local std::vector<std::string> g_trace;

template <int Id>
vt_status ok_run(const vt_op_call*) {
  g_trace.push_back("ok" + std::to_string(Id));
  return VT_OK;
}
template <int Id>
vt_status decline_run(const vt_op_call*) {
  g_trace.push_back("decline" + std::to_string(Id));
  return VT_STATUS_DECLINED;
}
vt_status failing_run(const vt_op_call*) { return VT_STATUS_DEVICE_ERROR; }

int needs_16bit(const vt_device_props* p) { return (p->caps & VT_CAP_16BIT_STORAGE) != 0; }

vt_device_props props_with(uint32_t caps) {
  vt_device_props p{};
  p.struct_size = sizeof p;
  p.caps = caps;
  return p;
}

struct Fixture : ::testing::Test {
  vt_device_props plain = props_with(0);
  vt_device_props fp16 = props_with(VT_CAP_16BIT_STORAGE);
  vt::DispatchTarget dev0{0, "be", "be:0", &plain};
  vt::DispatchTarget dev1{1, "be", "be:1", &fp16};
  vt_op_call call{sizeof(vt_op_call), VT_OP_L2NORM, 0, nullptr, nullptr, nullptr};
  void SetUp() override { g_trace.clear(); }
};

using RegistryTest = Fixture;

std::vector<std::string> names(const std::vector<vt::ProviderCounts>& v) {
  std::vector<std::string> out;
  for (const auto& p : v) out.push_back(p.name);
  return out;
}

TEST_F(RegistryTest, SelectionIsIndependentOfRegistrationOrder) {
  const vt::ProviderSpec specs[] = {
      {"slow", 1, nullptr, ok_run<1>}, {"fast", 10, nullptr, ok_run<2>}, {"mid", 5, nullptr, ok_run<3>}};
  std::vector<int> order = {0, 1, 2};
  std::vector<std::string> first;
  do {
    vt::Registry r;
    for (int i : order) r.add(VT_OP_L2NORM, "be", specs[i]);
    const auto sel = r.selection(VT_OP_L2NORM, dev0);
    EXPECT_EQ(sel, (std::vector<std::string>{"fast", "mid", "slow"}));
    EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev0, call), "fast");
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST_F(RegistryTest, TiesAreBrokenByName) {
  vt::Registry r;
  r.add(VT_OP_L2NORM, "be", {"zeta", 7, nullptr, ok_run<1>});
  r.add(VT_OP_L2NORM, "be", {"alpha", 7, nullptr, ok_run<2>});
  r.add(VT_OP_L2NORM, "be", {"mu", 7, nullptr, ok_run<3>});
  EXPECT_EQ(names(r.providers(VT_OP_L2NORM, "be")), (std::vector<std::string>{"alpha", "mu", "zeta"}));
  EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev0, call), "alpha");
}

TEST_F(RegistryTest, DuplicateNameIsRejected) {
  vt::Registry r;
  r.add(VT_OP_L2NORM, "be", {"ref", 0, nullptr, ok_run<1>});
  expect_error(
      [&] {
        r.add(VT_OP_L2NORM, "be", {"ref", 5, nullptr, ok_run<2>});
      },
      vt::Status::invalid_argument, "already registered");
  // The same name on another op or another backend is a different key.
  EXPECT_NO_THROW(r.add(VT_OP_GDN_GATING, "be", {"ref", 0, nullptr, ok_run<1>}));
  EXPECT_NO_THROW(r.add(VT_OP_L2NORM, "other", {"ref", 0, nullptr, ok_run<1>}));
}

TEST_F(RegistryTest, RejectsMalformedProviders) {
  vt::Registry r;
  EXPECT_THROW(r.add(static_cast<vt_op_id>(VT_OP_LAST_ + 1), "be", {"x", 0, nullptr, ok_run<1>}), vt::Error);
  EXPECT_THROW(r.add(VT_OP_L2NORM, "be", {"", 0, nullptr, ok_run<1>}), vt::Error);
  EXPECT_THROW(r.add(VT_OP_L2NORM, "be", {"norun", 0, nullptr, nullptr}), vt::Error);
  expect_error(
      [&] {
        r.add(VT_OP_L2NORM, "be", {"blank", 0, nullptr, ok_run<1>, std::vector<std::string>{"VT_CONV_REG", ""}});
      },
      vt::Status::invalid_argument, {"provider 'blank'", "an empty knob name"});
}

// A host table that knows two knobs, and providers that record which of three their host
// table answers, then pass the call on.
int two_knobs(const vt_host_api*, const char* name, int64_t* value) {
  const std::string_view n = name;
  if (n == "VT_CONV_REG") *value = 1;
  else if (n == "VT_CONV_GUIDED") *value = 2;
  else return 0;
  return 1;
}
template <int Id>
vt_status record_knobs(const vt_op_call* call) {
  std::string seen = std::to_string(Id) + ":";
  for (const char* knob : {"VT_CONV_REG", "VT_CONV_GUIDED", "VT_CONV_STAGE_X"}) {
    int64_t v = 0;
    if (vt_host_knob_int(call->host, knob, &v)) seen += std::string(" ") + knob + "=" + std::to_string(v);
  }
  g_trace.push_back(seen);
  return VT_STATUS_DECLINED;
}

TEST_F(RegistryTest, AProviderSeesTheKnobsItDeclares) {
  vt_host_api host{VT_ABI_MAJOR, VT_ABI_MINOR, sizeof(vt_host_api), nullptr, nullptr, two_knobs};
  vt::Registry r({}, false, &host);
  using Knobs = std::vector<std::string>;
  r.add(VT_OP_L2NORM, "be", {"declares", 3, nullptr, record_knobs<1>, Knobs{"VT_CONV_REG", "VT_CONV_STAGE_X"}});
  r.add(VT_OP_L2NORM, "be", {"older", 2, nullptr, record_knobs<2>});  // no list: every knob
  r.add(VT_OP_L2NORM, "be", {"none", 1, nullptr, record_knobs<3>, Knobs{}});
  r.add(VT_OP_L2NORM, "be", {"last", 0, nullptr, ok_run<4>});

  call.host = &host;
  EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev0, call), "last");
  EXPECT_EQ(g_trace, (std::vector<std::string>{"1: VT_CONV_REG=1", "2: VT_CONV_REG=1 VT_CONV_GUIDED=2", "3:", "ok4"}));

  // A call made with another host table reaches every provider as it came.
  vt_host_api other = host;
  call.host = &other;
  g_trace.clear();
  r.dispatch(VT_OP_L2NORM, dev0, call);
  EXPECT_EQ(g_trace, (std::vector<std::string>{"1: VT_CONV_REG=1 VT_CONV_GUIDED=2", "2: VT_CONV_REG=1 VT_CONV_GUIDED=2",
                                               "3: VT_CONV_REG=1 VT_CONV_GUIDED=2", "ok4"}));

  const auto p = r.providers(VT_OP_L2NORM, "be");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].knobs, std::optional<Knobs>(Knobs{"VT_CONV_REG", "VT_CONV_STAGE_X"}));
  EXPECT_EQ(p[1].knobs, std::nullopt);
  EXPECT_EQ(p[2].knobs, std::optional<Knobs>(Knobs{}));
}

TEST_F(RegistryTest, PredicateIsRespectedPerDevice) {
  vt::Registry r;
  r.add(VT_OP_L2NORM, "be", {"half", 10, needs_16bit, ok_run<1>});
  r.add(VT_OP_L2NORM, "be", {"generic", 1, nullptr, ok_run<2>});
  EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev0, call), "generic");
  EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev1, call), "half");
  EXPECT_EQ(r.selection(VT_OP_L2NORM, dev0), (std::vector<std::string>{"generic"}));
  EXPECT_EQ(r.selection(VT_OP_L2NORM, dev1), (std::vector<std::string>{"half", "generic"}));
}

TEST_F(RegistryTest, DeclineForwardsToTheNextProvider) {
  vt::Registry r;
  r.add(VT_OP_L2NORM, "be", {"picky", 10, nullptr, decline_run<1>});
  r.add(VT_OP_L2NORM, "be", {"fallback", 1, nullptr, ok_run<2>});
  EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev0, call), "fallback");
  EXPECT_EQ(g_trace, (std::vector<std::string>{"decline1", "ok2"}));
}

TEST_F(RegistryTest, DeclineChainEndsInAClearError) {
  vt::Registry r;
  r.add(VT_OP_L2NORM, "be", {"a", 2, nullptr, decline_run<1>});
  r.add(VT_OP_L2NORM, "be", {"b", 1, nullptr, decline_run<2>});
  expect_error([&] { r.dispatch(VT_OP_L2NORM, dev0, call); }, vt::Status::unsupported,
               {"l2norm on be:0", "every provider declined", "a, b"});
}

TEST_F(RegistryTest, NoProviderIsAClearError) {
  vt::Registry r;
  expect_error([&] { r.dispatch(VT_OP_GDN_GATING, dev0, call); }, vt::Status::not_found,
               "no provider is registered for backend 'be'");
  r.add(VT_OP_GDN_GATING, "be", {"half", 10, needs_16bit, ok_run<1>});
  expect_error([&] { r.dispatch(VT_OP_GDN_GATING, dev0, call); }, vt::Status::not_found, "supports this device");
}

TEST_F(RegistryTest, ProviderFailureIsReported) {
  vt::Registry r;
  r.add(VT_OP_L2NORM, "be", {"broken", 1, nullptr, failing_run});
  expect_error([&] { r.dispatch(VT_OP_L2NORM, dev0, call); }, vt::Status::device_error, "provider 'broken' failed");
}

TEST_F(RegistryTest, DisableSwitchRemovesProviders) {
  vt::Registry r({"fast"});
  r.add(VT_OP_L2NORM, "be", {"fast", 10, nullptr, ok_run<1>});
  r.add(VT_OP_L2NORM, "be", {"ref", 0, nullptr, ok_run<2>});
  EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev0, call), "ref");
  const auto listed = r.providers(VT_OP_L2NORM, "be");
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_TRUE(listed[0].disabled);
  EXPECT_FALSE(listed[1].disabled);

  vt::Registry all_off({"fast", "ref"});
  all_off.add(VT_OP_L2NORM, "be", {"fast", 10, nullptr, ok_run<1>});
  all_off.add(VT_OP_L2NORM, "be", {"ref", 0, nullptr, ok_run<2>});
  expect_error([&] { all_off.dispatch(VT_OP_L2NORM, dev0, call); }, vt::Status::not_found, "disabled: fast, ref");
}

TEST_F(RegistryTest, StatsCountCallsAndDeclines) {
  vt::Registry r;
  r.add(VT_OP_L2NORM, "be", {"picky", 10, nullptr, decline_run<1>});
  r.add(VT_OP_L2NORM, "be", {"ref", 0, nullptr, ok_run<2>});
  for (int i = 0; i < 5; ++i) r.dispatch(VT_OP_L2NORM, dev0, call);
  const auto s = r.stats();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "picky");
  EXPECT_EQ(s[0].calls, 0u);
  EXPECT_EQ(s[0].declines, 5u);
  EXPECT_EQ(s[1].name, "ref");
  EXPECT_EQ(s[1].calls, 5u);
  EXPECT_EQ(s[1].declines, 0u);
  const std::string table = r.stats_table();
  EXPECT_NE(table.find("picky"), std::string::npos);
  EXPECT_NE(table.find("l2norm"), std::string::npos);
}

TEST_F(RegistryTest, StrictModeRefusesAFallback) {
  vt::Registry strict({}, true);
  strict.add(VT_OP_L2NORM, "be", {"picky", 10, nullptr, decline_run<1>});
  strict.add(VT_OP_L2NORM, "be", {"ref", 0, nullptr, ok_run<2>});
  expect_error([&] { strict.dispatch(VT_OP_L2NORM, dev0, call); }, vt::Status::strict_fallback, "'picky' declined");
  EXPECT_EQ(g_trace, (std::vector<std::string>{"decline1"}));  // 'ref' never ran

  // A predicate that excludes the best provider is a fallback too.
  vt::Registry strict2({}, true);
  strict2.add(VT_OP_L2NORM, "be", {"half", 10, needs_16bit, ok_run<1>});
  strict2.add(VT_OP_L2NORM, "be", {"ref", 0, nullptr, ok_run<2>});
  EXPECT_EQ(strict2.dispatch(VT_OP_L2NORM, dev1, call), "half");
  EXPECT_THROW(strict2.dispatch(VT_OP_L2NORM, dev0, call), vt::Error);

  // Explicitly disabled providers are the user's choice, not a fallback.
  vt::Registry strict3({"half"}, true);
  strict3.add(VT_OP_L2NORM, "be", {"half", 10, nullptr, ok_run<1>});
  strict3.add(VT_OP_L2NORM, "be", {"ref", 0, nullptr, ok_run<2>});
  EXPECT_EQ(strict3.dispatch(VT_OP_L2NORM, dev0, call), "ref");
}

TEST_F(RegistryTest, LateRegistrationRefreshesTheCachedChain) {
  vt::Registry r;
  r.add(VT_OP_L2NORM, "be", {"ref", 0, nullptr, ok_run<1>});
  EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev0, call), "ref");
  r.add(VT_OP_L2NORM, "be", {"fast", 5, nullptr, ok_run<2>});
  EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev0, call), "fast");
}

TEST_F(RegistryTest, BackendsAreSeparate) {
  vt::Registry r;
  r.add(VT_OP_L2NORM, "other", {"theirs", 100, nullptr, ok_run<1>});
  r.add(VT_OP_L2NORM, "be", {"ours", 0, nullptr, ok_run<2>});
  EXPECT_EQ(r.dispatch(VT_OP_L2NORM, dev0, call), "ours");
}

}  // namespace
