// The CPU plugin through the public API: devices, memory, copies, queues, events.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

#include "vt/vt.hpp"
#include "vt_test/expect_error.hpp"

namespace {

using vt::test::expect_error;

vt::Knobs only_cpu() {
  vt::Knobs k;
  k.plugins = std::vector<std::string>{VT_CPU_PLUGIN};
  return k;
}

TEST(Device, DefaultDiscoveryFindsTheCpuPluginBesideTheCore) {
  vt::Runtime rt{vt::Knobs{}};
  rt.load();
  const auto backends = rt.backends();
  EXPECT_NE(std::find(backends.begin(), backends.end(), "cpu"), backends.end());
  EXPECT_EQ(rt.device("cpu:0").backend(), "cpu");
}

TEST(Device, CpuDeviceAndProperties) {
  vt::Runtime rt(only_cpu());
  rt.load();
  ASSERT_EQ(rt.plugins().size(), 1u);
  EXPECT_TRUE(rt.plugins()[0].loaded) << rt.plugins()[0].reason;
  ASSERT_EQ(rt.devices().size(), 1u);
  const vt::Device d = rt.devices()[0];
  EXPECT_EQ(d.name(), "cpu:0");
  EXPECT_EQ(d.index(), 0u);
  const auto& p = d.properties();
  EXPECT_TRUE(p.unified_memory);
  EXPECT_TRUE(p.storage_16bit);
  EXPECT_FALSE(p.graph_capture);
  EXPECT_GT(p.memory_bytes, 0u);
  EXPECT_GE(p.compute_units, 1u);
  EXPECT_FALSE(p.name.empty());
  try {
    rt.device("cpu:1");
    FAIL();
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), vt::Status::not_found);
    EXPECT_NE(std::string(e.what()).find("devices: cpu:0"), std::string::npos) << e.what();
  }
}

TEST(Device, CopiesInEveryDirection) {
  vt::Runtime rt(only_cpu());
  rt.load();
  const vt::Device d = rt.device("cpu:0");
  vt::Queue q = d.create_queue();
  std::vector<uint8_t> src(1000);
  std::iota(src.begin(), src.end(), uint8_t{3});
  vt::Buffer a = d.alloc(1000), b = d.alloc(1200);
  q.upload(a, 0, src.data(), src.size());
  q.fill(b, 0, 0xab, 1200);
  q.copy(b, 100, a, 10, 900);
  std::vector<uint8_t> out(1200);
  q.download(out.data(), b, 0, 1200);
  q.sync();
  for (size_t i = 0; i < 100; ++i) ASSERT_EQ(out[i], 0xab);
  for (size_t i = 0; i < 900; ++i) ASSERT_EQ(out[100 + i], src[10 + i]);
  for (size_t i = 1000; i < 1200; ++i) ASSERT_EQ(out[i], 0xab);
  ASSERT_NE(a.host_ptr(), nullptr);  // unified memory
  EXPECT_EQ(std::memcmp(a.host_ptr(), src.data(), src.size()), 0);
}

TEST(Device, OutOfRangeCopiesAreRejectedBeforeTheDevice) {
  vt::Runtime rt(only_cpu());
  rt.load();
  const vt::Device d = rt.device("cpu:0");
  vt::Queue q = d.create_queue();
  vt::Buffer a = d.alloc(64);
  std::vector<uint8_t> host(128, 7);
  try {
    q.upload(a, 32, host.data(), 64);
    FAIL();
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), vt::Status::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("bytes [32, 96) outside a 64-byte buffer"), std::string::npos) << e.what();
  }
  EXPECT_THROW(q.download(host.data(), a, 65, 0), vt::Error);
  EXPECT_THROW(q.fill(a, UINT64_MAX, 0, 2), vt::Error);  // offset + bytes would wrap
  vt::Buffer moved = std::move(a);
  EXPECT_THROW(q.upload(a, 0, host.data(), 1), vt::Error);  // moved-from buffer
  EXPECT_NO_THROW(q.upload(moved, 0, host.data(), 64));
}

TEST(Device, BuffersOfAnotherRuntimeAreRejected) {
  vt::Runtime r1(only_cpu()), r2(only_cpu());
  r1.load();
  r2.load();
  vt::Buffer b = r2.device("cpu:0").alloc(16);
  vt::Queue q = r1.device("cpu:0").create_queue();
  uint8_t x[16] = {};
  EXPECT_THROW(q.upload(b, 0, x, 16), vt::Error);
}

TEST(Device, EventsMeasureTime) {
  vt::Runtime rt(only_cpu());
  rt.load();
  const vt::Device d = rt.device("cpu:0");
  vt::Queue q = d.create_queue();
  vt::Event start = d.create_event(), end = d.create_event();
  EXPECT_THROW(vt::Event::elapsed_ms(start, end), vt::Error);  // never recorded
  q.record(start);
  vt::Buffer big = d.alloc(1 << 20);
  q.fill(big, 0, 1, 1 << 20);
  q.record(end);
  q.wait(end);
  end.sync();
  EXPECT_GE(vt::Event::elapsed_ms(start, end), 0.0f);
}

TEST(Device, GraphCaptureIsRefusedWhereUnsupported) {
  vt::Runtime rt(only_cpu());
  rt.load();
  vt::Queue q = rt.device("cpu:0").create_queue();
  expect_error([&] { q.capture_begin(); }, vt::Status::unsupported,
               "cpu:0: capture_begin: the device does not offer graph capture");
  expect_error([&] { q.capture_end(); }, vt::Status::unsupported,
               "cpu:0: capture_end: the device does not offer graph capture");
  EXPECT_THROW(q.launch(vt::Graph{}), vt::Error);  // nothing to launch
}

TEST(Device, QueuesAndEventsMoveAndTheMovedFromAreEmpty) {
  vt::Runtime rt(only_cpu());
  rt.load();
  const vt::Device d = rt.device("cpu:0");
  vt::Queue a = d.create_queue(), b = d.create_queue();
  const vt_queue qa = a.handle();
  b = std::move(a);  // b's own queue is destroyed here (LeakSanitizer sees one that is not)
  EXPECT_EQ(b.handle(), qa);
  EXPECT_EQ(a.handle(), nullptr);  // the moved-from state is the point
  vt::Event e = d.create_event(), f = d.create_event();
  const vt_event ee = e.handle();
  f = std::move(e);
  EXPECT_EQ(f.handle(), ee);
  EXPECT_EQ(e.handle(), nullptr);
  b.record(f);
  b.sync();
  EXPECT_NO_THROW(f.sync());
  for (const auto& call : std::vector<std::function<void()>>{[&] { a.sync(); }, [&] { e.sync(); }, [&] { b.record(e); },
                                                             [&] { b.wait(e); }})
    expect_error(call, vt::Status::invalid_argument, "empty or moved-from");
}

TEST(Device, AnOpWithoutUsableProvidersIsAClearError) {
  // Disable whatever the CPU plugin registers for gdn_split: the error must name the op,
  // the device and what was disabled.
  vt::Runtime probe(only_cpu());
  probe.load();
  vt::Knobs k = only_cpu();
  for (const auto& p : probe.registry().providers(VT_OP_GDN_SPLIT, "cpu")) k.disable_providers.push_back(p.name);
  vt::Runtime rt(k);
  rt.load();
  vt::Queue q = rt.device("cpu:0").create_queue();
  try {
    q.run_op(VT_OP_GDN_SPLIT, nullptr);
    FAIL();
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), vt::Status::not_found);
    EXPECT_NE(std::string(e.what()).find("gdn_split on cpu:0"), std::string::npos) << e.what();
  }
}

TEST(Device, SelectionIsAskedOfTheDevicesOwnRuntime) {
  vt::Runtime a(only_cpu()), b(only_cpu());
  a.load();
  b.load();
  EXPECT_FALSE(a.selection(VT_OP_L2NORM, a.device("cpu:0")).empty());
  for (const vt::Device& d : {b.device("cpu:0"), vt::Device{}})
    expect_error([&] { a.selection(VT_OP_L2NORM, d); }, vt::Status::invalid_argument,
                 "the device does not belong to this runtime");
}

TEST(Device, ProviderStatsArePrintedWhenTheRuntimeEnds) {
  vt::Knobs k = only_cpu();
  k.provider_stats = true;
  testing::internal::CaptureStderr();
  {
    vt::Runtime rt(k);
    rt.load();
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("vt provider stats"), std::string::npos) << err;
  testing::internal::CaptureStderr();
  {
    vt::Runtime rt(only_cpu());
    rt.load();
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr().find("vt provider stats"), std::string::npos);
}

TEST(Device, RequireOfALoadedBackendPasses) {
  vt::Knobs k = only_cpu();
  k.require = {"cpu"};
  vt::Runtime rt(k);
  EXPECT_NO_THROW(rt.load());
  vt::Knobs missing = only_cpu();
  missing.require = {"cpu", "nosuch"};
  vt::Runtime rt2(missing);
  try {
    rt2.load();
    FAIL();
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), vt::Status::plugin_required);
    EXPECT_NE(std::string(e.what()).find("'nosuch' did not load"), std::string::npos) << e.what();
  }
  EXPECT_THROW(rt2.load(), vt::Error);  // and again on every later call
  EXPECT_EQ(rt2.devices().size(), 1u);  // what did load stays usable
}

}  // namespace
