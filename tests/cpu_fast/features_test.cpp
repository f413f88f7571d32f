// Variant selection (backends/cpu/fast/cpu_features.hpp): the rule, what this CPU gets, and
// the debug log line that says so.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cpu_features.hpp"
#include "vt/log.hpp"
#include "vt/ops/gdn.hpp"
#include "vt/runtime.hpp"

namespace vt::cpu_fast_test {
namespace {

using cpu::fast::CpuFeatures;
using cpu::fast::Isa;

constexpr uint64_t kSseAndYmm = 0x6;

TEST(FastVariant, Avx2NeedsTheCpuAndTheOs) {
  const CpuFeatures all{true, true, true, true, 0x7};
  EXPECT_EQ(cpu::fast::choose_isa(all), Isa::avx2);
  CpuFeatures f = all;
  f.xcr0 = 0x3;  // the OS saves SSE state but not the upper YMM halves
  EXPECT_EQ(cpu::fast::choose_isa(f), Isa::baseline);
  f = all;
  f.osxsave = false;  // XCR0 unreadable: the registers may not be enabled
  EXPECT_EQ(cpu::fast::choose_isa(f), Isa::baseline);
  f = all;
  f.fma = false;
  EXPECT_EQ(cpu::fast::choose_isa(f), Isa::baseline);
  f = all;
  f.avx2 = false;
  EXPECT_EQ(cpu::fast::choose_isa(f), Isa::baseline);
  f = all;
  f.avx = false;
  EXPECT_EQ(cpu::fast::choose_isa(f), Isa::baseline);
}

// GCC's own detection (which also asks the OS) must agree with ours.
TEST(FastVariant, ThisCpuGetsAvx2WhereItHasIt) {
  const bool usable = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  EXPECT_EQ(cpu::fast::choose_isa(cpu::fast::read_cpu_features()) == Isa::avx2, usable);
  if (!usable) GTEST_SKIP() << "no AVX2+FMA here: the baseline variant runs";
  EXPECT_EQ(cpu::fast::read_cpu_features().xcr0 & kSseAndYmm, kSseAndYmm);
  EXPECT_EQ(cpu::fast::detected_isa(), Isa::avx2);
}

// Captures the log at debug level while it lives.
class LogCapture {
 public:
  LogCapture() : saved_(log_level()) {
    set_log_level(LogLevel::debug);
    set_log_callback([this](LogLevel, std::string_view m) { lines_.emplace_back(m); });
  }
  ~LogCapture() {
    set_log_callback({});
    set_log_level(saved_);
  }
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;
  bool contains(const std::string& s) const {
    for (const std::string& l : lines_)
      if (l.find(s) != std::string::npos) return true;
    return false;
  }

 private:
  LogLevel saved_;
  std::vector<std::string> lines_;
};

TEST(FastVariant, TheDebugLogNamesIt) {
  const LogCapture log;
  Runtime rt{Knobs{}};
  rt.load();
  const Device cpu = rt.device("cpu:0");
  Queue q = cpu.create_queue();
  Buffer x = cpu.alloc(64), out = cpu.alloc(64);
  q.fill(x, 0, 0x3f, 64);
  ops::L2Norm call;
  call.x = TensorView::contiguous(x, DType::f32, {1, 8});
  call.out = TensorView::contiguous(out, DType::f32, {1, 8});
  EXPECT_EQ(ops::l2norm(q, call), "fast");
  const std::string want =
      std::string("cpu: fast provider: ") + cpu::fast::isa_name(cpu::fast::detected_isa()) + " kernels";
  EXPECT_TRUE(log.contains(want)) << "no debug line containing '" << want << "'";
}

}  // namespace
}  // namespace vt::cpu_fast_test
