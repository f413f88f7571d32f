// Many threads loading, resolving and calling providers at once. These carry the ctest label
// `tsan`: configure with -DVT_SANITIZE=thread and run `ctest -L tsan`.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <latch>
#include <string>
#include <thread>
#include <vector>

#include "vt/error.hpp"
#include "vt/runtime.hpp"

namespace {

constexpr int kThreads = 16;
constexpr int kCalls = 2000;  // per thread

std::string plugin(const std::string& name) {
  return std::string(VT_TEST_PLUGIN_DIR) + "/libvt-backend-" + name + ".so";
}

// Every kLargeEvery-th call is too large for the fast provider, which declines it to "ref".
constexpr int kLargeEvery = 3;
bool is_large(int thread, int call) { return (thread + call) % kLargeEvery == 0; }

template <class F>
void run_threads(int n, F body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < n; ++t) threads.emplace_back(body, t);
  for (auto& th : threads) th.join();
}

const vt::ProviderCounts* find(const std::vector<vt::ProviderCounts>& stats, vt_op_id op, const std::string& name) {
  for (const auto& p : stats)
    if (p.op == op && p.name == name) return &p;
  return nullptr;
}

TEST(Concurrency, LoadFromManyThreadsLoadsOnce) {
  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-good"), plugin("fault-initunavailable")};
  k.require = {"fault-initunavailable"};
  vt::Runtime rt(k);
  std::latch start(kThreads);
  std::atomic<int> required_errors{0};
  run_threads(kThreads, [&](int) {
    start.arrive_and_wait();
    try {
      rt.load();
    } catch (const vt::Error& e) {
      if (e.code() == vt::Status::plugin_required) ++required_errors;
    }
  });
  EXPECT_EQ(required_errors.load(), kThreads);
  EXPECT_EQ(rt.plugins().size(), 2u);
  EXPECT_EQ(rt.devices().size(), 1u);
}

TEST(Concurrency, SameSelectionAndExactCounts) {
  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-good")};
  vt::Runtime rt(k);
  rt.load();
  const vt::Device dev = rt.device("fault-good:0");
  const std::vector<std::string> expected_selection{"fast", "ref"};

  std::latch start(kThreads);
  std::atomic<int> wrong_provider{0}, wrong_selection{0}, wrong_data{0};
  run_threads(kThreads, [&](int t) {
    vt::Queue q = dev.create_queue();
    vt::Buffer buf = dev.alloc(8 * sizeof(int32_t));
    vt_tensor small{}, large{};
    small.mem = large.mem = buf.handle();
    small.dtype = large.dtype = VT_DTYPE_I32;
    small.rank = large.rank = 1;
    small.strides[0] = large.strides[0] = 1;
    small.shape[0] = 2;
    large.shape[0] = 8;
    start.arrive_and_wait();  // so the first lookups race too
    for (int i = 0; i < kCalls; ++i) {
      const bool big = is_large(t, i);
      const std::string_view ran = q.run_op(VT_OP_L2NORM, big ? &large : &small);
      if (ran != (big ? "ref" : "fast")) ++wrong_provider;
      if (i % 256 == 0 && rt.selection(VT_OP_L2NORM, dev) != expected_selection) ++wrong_selection;
      int32_t first = 0;
      q.download(&first, buf, 0, sizeof first);
      q.sync();
      if (first != (big ? 2 : 1)) ++wrong_data;  // the marks of fault_plugin.cpp
    }
  });
  EXPECT_EQ(wrong_provider.load(), 0);
  EXPECT_EQ(wrong_selection.load(), 0);
  EXPECT_EQ(wrong_data.load(), 0);

  uint64_t large_calls = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kCalls; ++i) large_calls += is_large(t, i);
  const uint64_t total = uint64_t{kThreads} * kCalls;
  const auto stats = rt.registry().stats();
  const vt::ProviderCounts* fast = find(stats, VT_OP_L2NORM, "fast");
  const vt::ProviderCounts* ref = find(stats, VT_OP_L2NORM, "ref");
  ASSERT_TRUE(fast && ref);
  EXPECT_EQ(fast->calls, total - large_calls);
  EXPECT_EQ(fast->declines, large_calls);
  EXPECT_EQ(ref->calls, large_calls);
  EXPECT_EQ(ref->declines, 0u);
}

vt_status run_ok(const vt_op_call*) { return VT_OK; }

std::string b_name(int i) {
  char s[16];
  std::snprintf(s, sizeof s, "b-%03d", i);
  return s;
}

// Registration of one op races dispatch of another (and of the same one): readers on op A
// never see a change, and a reader of op B never goes back to an older selection.
TEST(Concurrency, RegisteringWhileDispatching) {
  constexpr int kAdds = 200;
  vt::Registry reg;
  vt_device_props props{};
  props.struct_size = sizeof props;
  const vt::DispatchTarget target{0, "test", "test:0", &props};
  reg.add(VT_OP_L2NORM, "test", {"a-low", 1, nullptr, run_ok});
  reg.add(VT_OP_L2NORM, "test", {"a-best", 9, nullptr, run_ok});
  reg.add(VT_OP_GDN_GATING, "test", {b_name(0), 0, nullptr, run_ok});
  const vt_op_call call_a{sizeof(vt_op_call), VT_OP_L2NORM, 0, nullptr, nullptr, nullptr};
  const vt_op_call call_b{sizeof(vt_op_call), VT_OP_GDN_GATING, 0, nullptr, nullptr, nullptr};

  const int readers_a = kThreads - 2;
  std::latch start(kThreads);
  std::atomic<bool> adding{true};
  std::atomic<int> wrong_a{0}, wrong_b{0}, went_back{0};
  std::atomic<uint64_t> b_calls{0};
  run_threads(kThreads, [&](int t) {
    start.arrive_and_wait();
    if (t < readers_a) {
      for (int i = 0; i < kCalls; ++i)
        if (reg.dispatch(VT_OP_L2NORM, target, call_a) != "a-best") ++wrong_a;
    } else if (t == readers_a) {
      for (int i = 1; i <= kAdds; ++i) {
        reg.add(VT_OP_GDN_GATING, "test", {b_name(i), i, nullptr, run_ok});
        if (reg.dispatch(VT_OP_GDN_GATING, target, call_b) != b_name(i)) ++wrong_b;  // sees its own add
        ++b_calls;
      }
      adding = false;
    } else {
      std::string last = b_name(0);
      while (adding) {
        const std::string now(reg.dispatch(VT_OP_GDN_GATING, target, call_b));
        if (now < last) ++went_back;  // zero-padded: name order is priority order
        last = now;
        ++b_calls;
      }
    }
  });
  EXPECT_EQ(wrong_a.load(), 0);
  EXPECT_EQ(wrong_b.load(), 0);
  EXPECT_EQ(went_back.load(), 0);

  const auto stats = reg.stats();
  const vt::ProviderCounts* best = find(stats, VT_OP_L2NORM, "a-best");
  const vt::ProviderCounts* low = find(stats, VT_OP_L2NORM, "a-low");
  ASSERT_TRUE(best && low);
  EXPECT_EQ(best->calls, uint64_t{readers_a} * kCalls);
  EXPECT_EQ(low->calls, 0u);
  uint64_t b_total = 0;
  for (const auto& p : stats)
    if (p.op == VT_OP_GDN_GATING) b_total += p.calls;
  EXPECT_EQ(b_total, b_calls.load());
  EXPECT_EQ(reg.selection(VT_OP_GDN_GATING, target).front(), b_name(kAdds));
}

}  // namespace
