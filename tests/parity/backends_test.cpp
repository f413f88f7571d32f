// Which backends the parity suite runs on: one test per backend, a pass when it loaded with
// devices, a skip with the loader's reason otherwise (never a silent pass). The same list is
// printed once at the start of every run.
#include <gtest/gtest.h>

#include <iostream>

#include "device_axis.hpp"
#include "vt/op_id.hpp"

namespace vt::parity {
namespace {

class BackendListing : public testing::Environment {
 public:
  void SetUp() override {
    std::cout << "parity: backends\n";
    for (const BackendState& b : backend_states())
      std::cout << "  " << b.backend << ": " << (b.runs ? "runs" : "skipped: " + b.reason) << "\n";
    for (const std::string& d : device_names()) std::cout << "  device " << d << "\n";
  }
};

[[maybe_unused]] testing::Environment* const kListing = testing::AddGlobalTestEnvironment(new BackendListing);

class ParityBackend : public testing::TestWithParam<BackendState> {};

TEST_P(ParityBackend, Runs) {
  const BackendState& b = GetParam();
  if (!b.runs) GTEST_SKIP() << b.backend << " does not run: " << b.reason;
  Runtime& rt = parity_runtime();
  const auto devices = rt.devices(b.backend);
  ASSERT_FALSE(devices.empty());
  for (const Device& d : devices) {
    std::cout << d.name() << " (" << d.properties().name << ")\n";
    for (vt_op_id op : kAllOps) {
      std::cout << "  " << op_name(op) << ":";
      for (const std::string& p : rt.selection(op, d)) std::cout << " " << p;
      std::cout << "\n";
    }
  }
}

std::string backend_name(const testing::TestParamInfo<BackendState>& info) {
  return test_name_part(info.param.backend);
}

INSTANTIATE_TEST_SUITE_P(Backends, ParityBackend, testing::ValuesIn(backend_states()), backend_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParityBackend);

}  // namespace
}  // namespace vt::parity
