// Loader fault injection: each broken test plugin is skipped with its reason while the healthy
// ones keep working in the same runtime, and VT_REQUIRE turns the same skips into errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "vt/device.hpp"
#include "vt/error.hpp"
#include "vt/log.hpp"
#include "vt/registry.hpp"
#include "vt/runtime.hpp"
#include "vt_test/expect_error.hpp"

namespace {

namespace fs = std::filesystem;

std::string plugin(const std::string& name) {
  return std::string(VT_TEST_PLUGIN_DIR) + "/libvt-backend-" + name + ".so";
}

const vt::PluginReport* find_report(const vt::Runtime& rt, const std::string& path) {
  for (const auto& r : rt.plugins())
    if (r.path == path) return &r;
  return nullptr;
}

using vt::test::expect_error;
using vt::test::expect_words;

// The healthy plugins' providers (see fault_plugin.cpp) take a rank-1 i32 tensor: "fast"
// marks it 1 and takes at most 4 elements, "ref" marks 2 and takes the rest.
std::string mark(vt::Queue& q, const vt::Buffer& buf, int64_t first, int64_t n) {
  vt_tensor t{};
  t.mem = buf.handle();
  t.offset = static_cast<uint64_t>(first) * sizeof(int32_t);
  t.dtype = VT_DTYPE_I32;
  t.rank = 1;
  t.shape[0] = n;
  t.strides[0] = 1;
  return std::string(q.run_op(VT_OP_L2NORM, &t));
}

void expect_device_works(vt::Runtime& rt, const std::string& name) {
  SCOPED_TRACE(name);
  const vt::Device dev = rt.device(name);
  vt::Buffer buf = dev.alloc(8 * sizeof(int32_t));
  vt::Queue q = dev.create_queue();
  std::vector<int32_t> host(8, -1);
  q.upload(buf, 0, host.data(), buf.size());
  EXPECT_EQ(mark(q, buf, 0, 8), "ref");
  EXPECT_EQ(mark(q, buf, 0, 2), "fast");
  q.download(host.data(), buf, 0, buf.size());
  q.sync();
  EXPECT_EQ(host, (std::vector<int32_t>{1, 1, 2, 2, 2, 2, 2, 2}));
}

struct SkipCase {
  const char* file;     // libvt-backend-<file>.so
  const char* backend;  // declared, or guessed from the file name
  std::vector<std::string> words;
};

void PrintTo(const SkipCase& c, std::ostream* os) { *os << c.file; }  // for failure messages

std::vector<SkipCase> skip_cases() {
  const std::string core = std::to_string(VT_ABI_MAJOR) + "." + std::to_string(VT_ABI_MINOR);
  const std::string major = std::to_string(VT_ABI_MAJOR);
  return {
      {"fault-noentry", "fault-noentry", {"no entry symbol 'vt_plugin_entry'", "undefined symbol: vt_plugin_entry"}},
      {"fault-entrynull", "fault-entrynull", {"entry returned no table"}},
      {"fault-entrythrows", "fault-entrythrows", {"entry threw: fault plugin entry exploded"}},
      {"fault-entrythrowsother", "fault-entrythrowsother", {"entry threw an unknown exception"}},
      {"fault-abimajor", "fault-abimajor", {"ABI major version 2.", "core speaks " + core}},
      {"fault-shorttable",
       "fault-shorttable",
       {"plugin table too short: " + std::to_string(offsetof(vt_plugin_api, provider_count)) + " bytes",
        "at least " + std::to_string(VT_PLUGIN_API_V1_SIZE)}},
      // The declared name is refused, so the report keeps the one guessed from the file.
      {"fault-badname", "fault-badname", {"invalid backend name"}},
      {"fault-noinit", "fault-noinit", {"the plugin table has no init function"}},
      {"fault-nodevicetable", "fault-nodevicetable", {"the plugin table has no device table"}},
      {"fault-noproviderlist", "fault-noproviderlist", {"provider_count is 2 but the provider list is missing"}},
      {"fault-initunavailable", "fault-initunavailable", {"unavailable: no test device"}},
      {"fault-initfailed", "fault-initfailed", {"init failed: test device is broken"}},
      {"fault-initthrows", "fault-initthrows", {"init threw: fault plugin init exploded"}},
      {"fault-initthrowsother", "fault-initthrowsother", {"init threw an unknown exception"}},
      {"fault-initunknownresult", "fault-initunknownresult", {"init returned unknown result 7"}},
      {"fault-deviceabimajor", "fault-deviceabimajor", {"device table ABI major version 2, core speaks " + major}},
      {"fault-deviceshorttable",
       "fault-deviceshorttable",
       {"device table too short: " + std::to_string(offsetof(vt_device_api, event_sync)) + " bytes",
        "ABI " + major + ".0 needs at least " + std::to_string(VT_DEVICE_API_V1_SIZE)}},
      {"fault-devicenoeventsync", "fault-devicenoeventsync", {"device table entry 'event_sync' is missing"}},
      {"fault-hostalloconly",
       "fault-hostalloconly",
       {"device table entry 'host_free' is missing", "host_alloc and host_free come together"}},
      {"fault-capturehalf",
       "fault-capturehalf",
       {"device table entry 'graph_destroy' is missing (the capture entries come together)"}},
      {"fault-captureclaimonly",
       "fault-captureclaimonly",
       {"device 0 claims graph capture, but the device table has no capture entries"}},
      {"fault-propsfail",
       "fault-propsfail",
       {"device_props(0) failed: fault-propsfail: the properties are unreadable"}},
      {"fault-enumerationthrows",
       "fault-enumerationthrows",
       {"device enumeration threw: fault plugin enumeration exploded"}},
      {"fault-unknownop", "fault-unknownop", {"provider #2 'from-the-future' names unknown op id 99"}},
      {"fault-providershort",
       "fault-providershort",
       {"provider #0 'fast': descriptor too short: 4 bytes, needs at least " +
        std::to_string(VT_PROVIDER_DESC_V1_SIZE)}},
      {"fault-providernoname", "fault-providernoname", {"provider #1 has no name"}},
      {"fault-providernorun", "fault-providernorun", {"provider #1 'ref' has no run function"}},
      {"fault-providertwice", "fault-providertwice", {"provider #2 'ref' is registered twice for l2norm"}},
      {"fault-knobemptyname", "fault-knobemptyname", {"provider #0 'fast': knob #1 has an empty name"}},
      {"fault-knobstoomany",
       "fault-knobstoomany",
       {"provider #0 'fast' lists more than 32 knobs", "does the list end with a null pointer?"}},
      {"fault-dup2", "fault-dup", {"duplicate backend 'fault-dup'", "already loaded from " + plugin("fault-dup")}},
  };
}

// Every case in one runtime, the healthy plugins first and last.
vt::Runtime& everything() {
  static vt::Runtime rt([] {
    vt::Knobs k;
    k.plugins = std::vector<std::string>{plugin("fault-dup"), plugin("fault-minor"), plugin("fault-unknownop-newer")};
    for (const SkipCase& c : skip_cases()) k.plugins->push_back(plugin(c.file));
    k.plugins->push_back(plugin("fault-good"));
    return k;
  }());
  rt.load();  // once; later calls return at once
  return rt;
}

class Skipped : public ::testing::TestWithParam<SkipCase> {};

TEST_P(Skipped, ReportsTheReasonAndTheOthersKeepWorking) {
  const SkipCase& c = GetParam();
  vt::Runtime& rt = everything();
  const vt::PluginReport* r = find_report(rt, plugin(c.file));
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->loaded);
  EXPECT_EQ(r->backend, c.backend);
  expect_words(r->reason, c.words);
  EXPECT_EQ(r->device_count, 0u);

  const auto backends = rt.backends();
  EXPECT_EQ(std::count(backends.begin(), backends.end(), c.backend), c.backend == std::string("fault-dup") ? 1 : 0);
  EXPECT_EQ(rt.devices(c.backend).size(), c.backend == std::string("fault-dup") ? 1u : 0u);
  expect_device_works(rt, "fault-good:0");
  expect_device_works(rt, "fault-minor:0");
}

TEST_P(Skipped, IsAnErrorWhenRequired) {
  const SkipCase& c = GetParam();
  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-good"), plugin("fault-dup"), plugin(c.file)};
  k.require = {c.backend};
  vt::Runtime rt(k);
  try {
    rt.load();
    ADD_FAILURE() << "load() accepted a required backend that was skipped";
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), vt::Status::plugin_required);
    std::vector<std::string> words = c.words;
    words.push_back("required backend '" + std::string(c.backend) + "'");
    words.push_back(plugin(c.file));
    expect_words(e.what(), words);
  }
  // The error is the answer of every later call too; the healthy plugin still loaded.
  EXPECT_THROW(rt.load(), vt::Error);
  expect_device_works(rt, "fault-good:0");
}

std::string case_name(const ::testing::TestParamInfo<SkipCase>& p) {
  std::string n = p.param.file;
  std::replace(n.begin(), n.end(), '-', '_');  // test names allow only [A-Za-z0-9_]
  return n;
}

INSTANTIATE_TEST_SUITE_P(Faults, Skipped, ::testing::ValuesIn(skip_cases()), case_name);

// Device::alloc_host (ABI 1.1): the plugin's memory where its table has host_alloc, else the
// core's; fault-good's host_alloc takes at most 1 MiB and its memory is freed by host_free
// alone (LeakSanitizer, in the sanitizer build, would report one that was not).
void expect_host_round_trip(const vt::Device& dev, bool pinned) {
  SCOPED_TRACE(dev.name());
  EXPECT_EQ(dev.properties().pinned_host, pinned);
  vt::HostBuffer src = dev.alloc_host(100), dst = dev.alloc_host(100);
  for (const vt::HostBuffer* h : {&src, &dst}) {
    ASSERT_NE(h->data(), nullptr);
    EXPECT_EQ(h->size(), 100u);
    EXPECT_EQ(h->pinned(), pinned);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(h->data()) % 64, 0u);
    EXPECT_EQ(h->device(), dev);
  }
  auto* in = static_cast<uint8_t*>(src.data());
  for (int i = 0; i < 100; ++i) in[i] = static_cast<uint8_t>(7 * i + 1);
  std::memset(dst.data(), 0xee, 100);  // poisoned
  vt::Buffer buf = dev.alloc(100);
  vt::Queue q = dev.create_queue();
  q.upload(buf, 0, src.data(), 100);
  q.download(dst.data(), buf, 0, 100);
  q.sync();
  EXPECT_EQ(std::memcmp(src.data(), dst.data(), 100), 0);

  // Moves hand the memory over; the moved-from buffer is empty and frees nothing.
  void* const p = src.data();
  vt::HostBuffer moved(std::move(src));
  EXPECT_EQ(moved.data(), p);
  EXPECT_EQ(moved.pinned(), pinned);
  EXPECT_EQ(src.data(), nullptr);  // the moved-from state is the point
  EXPECT_EQ(src.size(), 0u);
  dst = std::move(moved);  // dst's own memory is freed here
  EXPECT_EQ(dst.data(), p);
  EXPECT_EQ(static_cast<uint8_t*>(dst.data())[99], static_cast<uint8_t>(7 * 99 + 1));

  const vt::HostBuffer none = dev.alloc_host(0);
  EXPECT_EQ(none.data(), nullptr);
  EXPECT_EQ(none.size(), 0u);
  EXPECT_FALSE(none.pinned());
}

TEST(HostMemory, ThePluginsOwnWhereItsTableHasIt) { expect_host_round_trip(everything().device("fault-good:0"), true); }

TEST(HostMemory, ThePluginsFailureIsThrownWithItsMessage) {
  expect_error([] { everything().device("fault-good:0").alloc_host(2u << 20); }, vt::Status::out_of_memory,
               {"fault-good:0: alloc_host of 2097152 bytes failed", "fault-good: host_alloc over 1 MiB"});
}

TEST(HostMemory, AnAbi10TableIsNotReadPastItsEnd) {
  // fault-abi10's table ends before host_alloc, whose entry is set and fails when called: the
  // core must serve alloc_host itself.
  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-abi10")};
  vt::Runtime rt(k);
  rt.load();
  const vt::PluginReport* r = find_report(rt, plugin("fault-abi10"));
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->loaded) << r->reason;
  expect_device_works(rt, "fault-abi10:0");
  expect_host_round_trip(rt.device("fault-abi10:0"), false);
}

TEST(DeviceMemory, MoreThanTheDeviceHoldsIsRefusedBeforeThePluginIsAsked) {
  // fault-good's device has 1 MiB; its mem_alloc would hand out any size (calloc).
  const vt::Device dev = everything().device("fault-good:0");
  const uint64_t memory = dev.properties().memory_bytes;
  ASSERT_EQ(memory, 1u << 20);
  expect_error([&] { dev.alloc(memory + 1); }, vt::Status::out_of_memory,
               {"fault-good:0: alloc of 1048577 bytes: more than the device's 1048576 bytes of memory"});
  EXPECT_EQ(dev.alloc(memory).size(), memory);  // all of it is fine
}

// Graph capture through the queue API. The healthy fault plugins capture op calls: a call
// made while a queue captures is recorded, and each launch of the graph makes it again.
std::vector<int32_t> contents(vt::Queue& q, const vt::Buffer& buf) {
  std::vector<int32_t> host(buf.size() / sizeof(int32_t));
  q.download(host.data(), buf, 0, buf.size());
  q.sync();
  return host;
}

TEST(GraphCapture, RecordsTheCallsAndReplaysThemAtEachLaunch) {
  const vt::Device dev = everything().device("fault-good:0");
  ASSERT_TRUE(dev.properties().graph_capture);
  vt::Buffer buf = dev.alloc(8 * sizeof(int32_t));
  vt::Queue q = dev.create_queue(), other = dev.create_queue();
  const std::vector<int32_t> poison(8, -1), marked{1, 1, 2, 2, 2, 2, 2, 2};
  q.fill(buf, 0, 0xff, buf.size());
  q.capture_begin();
  EXPECT_EQ(mark(q, buf, 0, 2), "fast");  // the provider is chosen when the call is captured
  EXPECT_EQ(mark(q, buf, 2, 6), "ref");
  vt::Graph g = q.capture_end();
  ASSERT_NE(g.handle(), nullptr);
  EXPECT_EQ(g.device(), dev);
  EXPECT_EQ(contents(q, buf), poison);  // captured, not run

  q.launch(g);
  EXPECT_EQ(contents(q, buf), marked);
  q.fill(buf, 0, 0xff, buf.size());
  other.launch(g);  // any queue of the device
  EXPECT_EQ(contents(other, buf), marked);
  q.fill(buf, 0, 0xff, buf.size());
  EXPECT_EQ(mark(q, buf, 0, 1), "fast");  // after the capture, calls run again
  EXPECT_EQ(contents(q, buf), (std::vector<int32_t>{1, -1, -1, -1, -1, -1, -1, -1}));

  // Moves hand the graph over (the plugin's graph_destroy runs once for each graph: a leak
  // shows under LeakSanitizer, a double destroy under AddressSanitizer).
  vt::Graph moved(std::move(g));
  EXPECT_EQ(g.handle(), nullptr);  // the moved-from state is the point
  expect_error([&] { q.launch(g); }, vt::Status::invalid_argument, {"fault-good:0: launch: empty or moved-from graph"});
  q.capture_begin();
  vt::Graph empty = q.capture_end();  // a graph of nothing
  empty = std::move(moved);           // the empty graph is destroyed here
  q.fill(buf, 0, 0xff, buf.size());
  q.launch(empty);
  EXPECT_EQ(contents(q, buf), marked);
  expect_error([&] { q.launch(vt::Graph{}); }, vt::Status::invalid_argument, {"empty or moved-from graph"});
}

TEST(GraphCapture, AGraphRunsOnlyOnTheDeviceThatCapturedIt) {
  vt::Runtime& rt = everything();
  const vt::Device dev = rt.device("fault-good:0");
  vt::Buffer buf = dev.alloc(8 * sizeof(int32_t));
  vt::Queue q = dev.create_queue();
  q.capture_begin();
  mark(q, buf, 0, 2);
  const vt::Graph g = q.capture_end();
  // Another plugin's queue would be handed a graph handle it does not know.
  vt::Queue foreign = rt.device("fault-minor:0").create_queue();
  expect_error([&] { foreign.launch(g); }, vt::Status::invalid_argument,
               {"fault-minor:0: launch: the graph was captured on fault-good:0"});
}

TEST(GraphCapture, ThePluginsRefusalsAreThrownWithTheirMessages) {
  vt::Queue q = everything().device("fault-good:0").create_queue();
  expect_error([&] { q.capture_end(); }, vt::Status::invalid_argument,
               {"fault-good:0: capture_end failed", "fault-good: the queue is not capturing"});
  q.capture_begin();
  expect_error([&] { q.capture_begin(); }, vt::Status::invalid_argument,
               {"fault-good:0: capture_begin failed", "fault-good: the queue is capturing already"});
  EXPECT_NO_THROW(q.capture_end());  // the first capture is still open and ends normally
}

TEST(Accepted, NewerMinorVersionLoadsAndWorks) {
  const vt::PluginReport* r = find_report(everything(), plugin("fault-minor"));
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->loaded) << r->reason;
  EXPECT_EQ(r->abi_major, VT_ABI_MAJOR);
  EXPECT_EQ(r->abi_minor, VT_ABI_MINOR + 1);
  EXPECT_EQ(r->device_count, 1u);
  EXPECT_TRUE(r->notes.empty());

  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-minor")};
  k.require = {"fault-minor"};
  vt::Runtime rt(k);
  EXPECT_NO_THROW(rt.load());
  expect_device_works(rt, "fault-minor:0");
}

TEST(Accepted, NewerMinorUnknownOpSkipsOnlyThatProvider) {
  vt::Runtime& all = everything();
  const vt::PluginReport* r = find_report(all, plugin("fault-unknownop-newer"));
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->loaded) << r->reason;
  ASSERT_EQ(r->notes.size(), 1u);
  expect_words(r->notes[0], {"'from-the-future'", "unknown op id 99", "provider skipped"});

  std::vector<std::string> names;
  for (const auto& p : all.registry().providers(VT_OP_L2NORM, "fault-unknownop-newer")) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"fast", "ref"}));
  expect_device_works(all, "fault-unknownop-newer:0");

  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-unknownop-newer")};
  k.require = {"fault-unknownop-newer"};
  vt::Runtime rt(k);
  EXPECT_NO_THROW(rt.load());
}

// A knob no core knows, and one the core knows but no provider reads on its calls (the
// Vulkan plugin's device choice, read once at its start): each a note, and the list kept.
TEST(Accepted, AnUnknownOrNonSwitchKnobIsANote) {
  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-knobunknown")};
  k.require = {"fault-knobunknown"};
  vt::Runtime rt(k);
  EXPECT_NO_THROW(rt.load());
  const vt::PluginReport* r = find_report(rt, plugin("fault-knobunknown"));
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->notes.size(), 2u);
  expect_words(r->notes[0],
               {"provider #0 'fast' declares knob 'VT_NO_SUCH_KNOB'", "this core does not know", "it reads as unset"});
  expect_words(r->notes[1], {"provider #0 'fast' declares knob 'VT_VULKAN_DEVICE'", "no provider switch"});
  const auto providers = rt.registry().providers(VT_OP_L2NORM, "fault-knobunknown");
  ASSERT_EQ(providers.size(), 2u);
  EXPECT_EQ(providers[0].knobs,
            std::optional<std::vector<std::string>>(std::vector<std::string>{"VT_NO_SUCH_KNOB", "VT_VULKAN_DEVICE"}));
  EXPECT_EQ(providers[1].knobs, std::optional<std::vector<std::string>>(std::vector<std::string>{}));
  expect_device_works(rt, "fault-knobunknown:0");
}

// fault-knobprobe's providers add to their mark 10 when their host table answers VT_CONV_REG
// and 100 for VT_CONV_GUIDED: "fast" declares VT_CONV_REG alone, "ref" (an ABI 1.1
// descriptor) declares nothing and sees every knob.
TEST(Accepted, AProviderSeesOnlyTheKnobsItDeclares) {
  for (const bool set : {false, true}) {
    SCOPED_TRACE(set ? "both knobs set" : "no knob set");
    vt::Knobs k;
    k.plugins = std::vector<std::string>{plugin("fault-knobprobe")};
    if (set) k.ints = {{"VT_CONV_REG", 0}, {"VT_CONV_GUIDED", 1}};
    vt::Runtime rt(k);
    rt.load();
    const auto providers = rt.registry().providers(VT_OP_L2NORM, "fault-knobprobe");
    ASSERT_EQ(providers.size(), 2u);
    EXPECT_EQ(providers[0].knobs, std::optional<std::vector<std::string>>(std::vector<std::string>{"VT_CONV_REG"}));
    EXPECT_EQ(providers[1].knobs, std::nullopt);

    const vt::Device dev = rt.device("fault-knobprobe:0");
    vt::Buffer buf = dev.alloc(8 * sizeof(int32_t));
    vt::Queue q = dev.create_queue();
    EXPECT_EQ(mark(q, buf, 0, 8), "ref");
    EXPECT_EQ(mark(q, buf, 0, 2), "fast");
    std::vector<int32_t> host(8, -1);
    q.download(host.data(), buf, 0, buf.size());
    q.sync();
    const int32_t fast = set ? 1 + 10 : 1, ref = set ? 2 + 10 + 100 : 2;
    EXPECT_EQ(host, (std::vector<int32_t>{fast, fast, ref, ref, ref, ref, ref, ref}));
  }
}

// A provider switch that no loaded provider lists is warned about at load; one that some
// provider lists, the core's knobs and a plugin's start-up knob are not, and nothing is where
// a provider without a list (fault-knobprobe's "ref", ABI 1.1) may read any knob.
TEST(Accepted, ASwitchNoLoadedProviderListsIsAWarning) {
  const std::map<std::string, int64_t, std::less<>> set = {{"VT_CPU_THREADS", 1},
                                                           {"VT_CONV_REG", 0},
                                                           {"VT_CONV_GUIDED", 1},
                                                           {"VT_VULKAN_DEVICE", 0},
                                                           {"VT_DEEP_VALIDATE", 1}};
  auto warnings_for = [&](const std::string& path) {
    std::vector<std::string> warnings;
    vt::set_log_callback([&](vt::LogLevel level, std::string_view m) {
      if (level == vt::LogLevel::warn) warnings.emplace_back(m);
    });
    vt::Knobs k;
    k.plugins = std::vector<std::string>{path};
    k.ints = set;
    vt::Runtime rt(k);
    rt.load();
    vt::set_log_callback({});
    return warnings;
  };
  // The CPU plugin's providers list VT_CPU_THREADS (fast ones) or nothing (the reference).
  const auto cpu = warnings_for(VT_TEST_CPU_PLUGIN);
  ASSERT_EQ(cpu.size(), 2u);
  EXPECT_EQ(cpu[0], "VT_CONV_GUIDED=1 is set, but no loaded provider lists it: it changes nothing");
  EXPECT_EQ(cpu[1], "VT_CONV_REG=0 is set, but no loaded provider lists it: it changes nothing");
  EXPECT_EQ(warnings_for(plugin("fault-knobprobe")), std::vector<std::string>{});
}

TEST(Accepted, DevicesPastTheRegistrysLimitAreLeftOutWithAWarning) {
  std::vector<std::string> warnings;
  vt::set_log_callback([&](vt::LogLevel level, std::string_view m) {
    if (level == vt::LogLevel::warn) warnings.emplace_back(m);
  });
  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-manydevices"), plugin("fault-good")};
  vt::Runtime rt(k);
  rt.load();
  vt::set_log_callback({});
  const uint32_t limit = vt::Registry::kMaxDevices;
  EXPECT_EQ(find_report(rt, plugin("fault-manydevices"))->device_count, limit + 1);
  EXPECT_EQ(rt.devices("fault-manydevices").size(), limit);
  EXPECT_EQ(rt.devices("fault-good").size(), 0u);  // no slot is left for it either
  ASSERT_EQ(warnings.size(), 2u);
  expect_words(warnings[0], {"fault-manydevices:" + std::to_string(limit) + " and later devices ignored",
                             "more than " + std::to_string(limit) + " devices"});
  expect_words(warnings[1], {"fault-good:0 and later devices ignored"});
  expect_device_works(rt, "fault-manydevices:" + std::to_string(limit - 1));
}

TEST(Accepted, FirstOfADuplicateBackendWins) {
  vt::Runtime& rt = everything();
  const vt::PluginReport* first = find_report(rt, plugin("fault-dup"));
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(first->loaded) << first->reason;
  ASSERT_EQ(rt.devices("fault-dup").size(), 1u);
  expect_device_works(rt, "fault-dup:0");
}

TEST(Require, ABackendNobodyOffersIsAnError) {
  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-good")};
  k.require = {"fault-good", "nosuch"};
  vt::Runtime rt(k);
  try {
    rt.load();
    ADD_FAILURE() << "load() accepted a required backend that does not exist";
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), vt::Status::plugin_required);
    expect_words(e.what(), {"required backend 'nosuch' did not load", "no plugin for it was found"});
    EXPECT_EQ(std::string(e.what()).find("'fault-good'"), std::string::npos) << e.what();
  }
}

TEST(Discovery, ExplicitListIsExclusive) {
  vt::Knobs k;
  k.plugins = std::vector<std::string>{plugin("fault-good")};
  vt::Runtime only(k);
  only.load();
  EXPECT_EQ(only.backends(), std::vector<std::string>{"fault-good"});
  ASSERT_EQ(only.plugins().size(), 1u);
  EXPECT_THROW(only.device("cpu:0"), vt::Error);

  // The CPU plugin does load when listed, and is found without a list.
  k.plugins->push_back(VT_TEST_CPU_PLUGIN);
  vt::Runtime both(k);
  both.load();
  EXPECT_EQ(both.backends(), (std::vector<std::string>{"fault-good", "cpu"}));
  vt::Runtime searched{vt::Knobs{}};
  searched.load();
  const auto found = searched.backends();
  EXPECT_NE(std::find(found.begin(), found.end(), "cpu"), found.end());
}

TEST(Discovery, MissingFileIsReported) {
  const std::string path = std::string(VT_TEST_PLUGIN_DIR) + "/libvt-backend-nosuch.so";
  vt::Knobs k;
  k.plugins = std::vector<std::string>{path, plugin("fault-good")};
  vt::Runtime rt(k);
  rt.load();
  ASSERT_EQ(rt.plugins().size(), 2u);
  EXPECT_EQ(rt.plugins()[0].path, path);
  EXPECT_EQ(rt.plugins()[0].backend, "nosuch");
  EXPECT_FALSE(rt.plugins()[0].loaded);
  EXPECT_EQ(rt.plugins()[0].reason, "file not found");
  EXPECT_TRUE(rt.plugins()[1].loaded);
}

// A fresh folder under the test temp dir, removed afterwards.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    path_ = fs::path(::testing::TempDir()) / ("vt-loader-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string str() const { return path_.string(); }
  std::string copy(const std::string& from, const std::string& name) const {
    fs::copy_file(from, path_ / name);
    return (path_ / name).string();
  }

 private:
  fs::path path_;
};

TEST(Discovery, PluginPathFindsOnlyPluginFilesInFolderOrder) {
  TempDir first("path1"), second("path2");
  const std::string a = first.copy(plugin("fault-good"), "libvt-backend-a.so");
  const std::string b = first.copy(plugin("fault-initunavailable"), "libvt-backend-b.so");
  first.copy(plugin("fault-minor"), "libvt-backend-c.so.1");  // not a .so name
  first.copy(plugin("fault-minor"), "vt-backend-d.so");       // no lib prefix
  std::ofstream(first.str() + "/README.txt") << "not a plugin\n";
  // Sorts before everything in the first folder, but folders go in VT_PLUGIN_PATH order.
  const std::string zero = second.copy(plugin("fault-good"), "libvt-backend-0.so");

  vt::Knobs k;
  k.plugin_path = {first.str(), second.str()};
  vt::Runtime rt(k);
  rt.load();
  EXPECT_EQ(rt.search_path().at(0), first.str());
  EXPECT_EQ(rt.search_path().at(1), second.str());
  const auto& reps = rt.plugins();
  ASSERT_GE(reps.size(), 3u);
  EXPECT_EQ(reps[0].path, a);
  EXPECT_TRUE(reps[0].loaded) << reps[0].reason;
  EXPECT_EQ(reps[0].backend, "fault-good");
  EXPECT_EQ(reps[1].path, b);
  expect_words(reps[1].reason, {"no test device"});
  EXPECT_EQ(reps[2].path, zero);
  expect_words(reps[2].reason, {"duplicate backend 'fault-good'", a});
  for (const auto& r : reps) {
    EXPECT_EQ(r.path.find(".so.1"), std::string::npos) << r.path;
    EXPECT_EQ(r.path.find("/vt-backend-d.so"), std::string::npos) << r.path;
    EXPECT_EQ(r.path.find("README"), std::string::npos) << r.path;
  }
  // The core's own folder comes after VT_PLUGIN_PATH: the CPU plugin is found there.
  const auto names = rt.backends();
  EXPECT_EQ(names.front(), "fault-good");
  EXPECT_NE(std::find(names.begin(), names.end(), "cpu"), names.end());
  expect_device_works(rt, "fault-good:0");
}

TEST(Discovery, FileThatDlopenRejectsCarriesDlerror) {
  TempDir dir("junk");
  const std::string junk = dir.str() + "/libvt-backend-junk.so";
  std::ofstream(junk) << std::string(256, '#') << "\nthis is a text file, not a shared object\n";
  vt::Knobs k;
  k.plugins = std::vector<std::string>{junk, plugin("fault-good")};
  vt::Runtime rt(k);
  rt.load();
  const vt::PluginReport* r = find_report(rt, junk);
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->loaded);
  EXPECT_EQ(r->backend, "junk");
  // dlerror() names the file and what is wrong with it.
  expect_words(r->reason, {"dlopen failed: ", junk, "invalid ELF header"});
  expect_device_works(rt, "fault-good:0");
}

}  // namespace
