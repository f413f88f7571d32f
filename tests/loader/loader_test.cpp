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
#include <ostream>
#include <string>
#include <vector>

#include "vt/device.hpp"
#include "vt/error.hpp"
#include "vt/runtime.hpp"

namespace {

namespace fs = std::filesystem;

std::string plugin(const std::string& name) { return std::string(VT_TEST_PLUGIN_DIR) + "/libvt-backend-" + name + ".so"; }

const vt::PluginReport* find_report(const vt::Runtime& rt, const std::string& path) {
  for (const auto& r : rt.plugins())
    if (r.path == path) return &r;
  return nullptr;
}

void expect_words(const std::string& text, const std::vector<std::string>& words) {
  for (const auto& w : words) EXPECT_NE(text.find(w), std::string::npos) << "missing '" << w << "' in: " << text;
}

// The healthy plugins' providers (see fault_plugin.cpp): "fast" marks 1 and takes at most 4
// elements, "ref" marks 2 and takes the rest.
void expect_device_works(vt::Runtime& rt, const std::string& name) {
  SCOPED_TRACE(name);
  const vt::Device dev = rt.device(name);
  vt::Buffer buf = dev.alloc(8 * sizeof(int32_t));
  vt::Queue q = dev.create_queue();
  std::vector<int32_t> host(8, -1);
  q.upload(buf, 0, host.data(), buf.size());
  auto run = [&](int64_t n) {
    vt_tensor t{};
    t.mem = buf.handle();
    t.dtype = VT_DTYPE_I32;
    t.rank = 1;
    t.shape[0] = n;
    t.strides[0] = 1;
    return std::string(q.run_op(VT_OP_L2NORM, &t));
  };
  EXPECT_EQ(run(8), "ref");
  EXPECT_EQ(run(2), "fast");
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
  return {
      {"fault-noentry", "fault-noentry", {"no entry symbol 'vt_plugin_entry'", "undefined symbol: vt_plugin_entry"}},
      {"fault-major", "fault-major", {"ABI major version 2.", "core speaks " + core}},
      {"fault-failed", "fault-failed", {"init failed: test device is broken"}},
      {"fault-unavailable", "fault-unavailable", {"unavailable: no test device"}},
      {"fault-short",
       "fault-short",
       {"plugin table too short: " + std::to_string(offsetof(vt_plugin_api, provider_count)) + " bytes",
        "at least " + std::to_string(VT_PLUGIN_API_V1_SIZE)}},
      {"fault-dup2", "fault-dup", {"duplicate backend 'fault-dup'", "already loaded from " + plugin("fault-dup")}},
      {"fault-unknownop", "fault-unknownop", {"provider #2 'from-the-future' names unknown op id 99"}},
      {"fault-throw", "fault-throw", {"init threw: fault plugin init exploded"}},
      {"fault-hostalloc",
       "fault-hostalloc",
       {"device table entry 'host_free' is missing", "host_alloc and host_free come together"}},
  };
}

// Every case in one runtime, the healthy plugins in between and last.
vt::Runtime& everything() {
  static vt::Runtime rt([] {
    vt::Knobs k;
    k.plugins = std::vector<std::string>{};
    for (const char* f : {"fault-noentry", "fault-major", "fault-dup", "fault-failed", "fault-unavailable", "fault-minor",
                          "fault-short", "fault-dup2", "fault-unknownop", "fault-unknownop-newer", "fault-throw",
                          "fault-hostalloc", "fault-good"})
      k.plugins->push_back(plugin(f));
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

TEST(HostMemory, ThePluginsOwnWhereItsTableHasIt) {
  expect_host_round_trip(everything().device("fault-good:0"), true);
}

TEST(HostMemory, ThePluginsFailureIsThrownWithItsMessage) {
  try {
    everything().device("fault-good:0").alloc_host(2u << 20);
    ADD_FAILURE() << "alloc_host over the plugin's limit returned";
  } catch (const vt::Error& e) {
    EXPECT_EQ(e.code(), vt::Status::out_of_memory);
    expect_words(e.what(), {"fault-good:0: alloc_host of 2097152 bytes failed", "fault-good: host_alloc over 1 MiB"});
  }
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
  const std::string b = first.copy(plugin("fault-unavailable"), "libvt-backend-b.so");
  first.copy(plugin("fault-minor"), "libvt-backend-c.so.1");  // not a .so name
  first.copy(plugin("fault-minor"), "vt-backend-d.so");        // no lib prefix
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
