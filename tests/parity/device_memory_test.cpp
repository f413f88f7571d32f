// Device memory on every loaded device: an allocation larger than the device's memory is an
// out_of_memory error that names the device, refused before any allocator is asked (one that
// overcommits would say yes, a sanitizer's would abort), and the device goes on working.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "device_axis.hpp"
#include "vt/device.hpp"
#include "vt/error.hpp"
#include "vt_test/expect_error.hpp"

namespace vt::parity {
namespace {

class ParityDeviceMemory : public testing::TestWithParam<std::string> {};

TEST_P(ParityDeviceMemory, MoreThanTheDeviceHoldsIsAnErrorAndTheDeviceGoesOn) {
  const Device device = parity_runtime().device(GetParam());
  const uint64_t memory = device.properties().memory_bytes;
  ASSERT_GT(memory, 0u) << device.name() << " reports no memory size";
  for (const uint64_t bytes : {memory + 1, UINT64_MAX}) {
    test::expect_error([&] { device.alloc(bytes); }, Status::out_of_memory,
                       device.name() + ": alloc of " + std::to_string(bytes) + " bytes");
  }
  Buffer b = device.alloc(4096);
  Queue q = device.create_queue();
  q.fill(b, 0, 0x5a, 4096);
  std::vector<uint8_t> host(4096);
  q.download(host.data(), b, 0, 4096);
  q.sync();
  EXPECT_EQ(host, std::vector<uint8_t>(4096, 0x5a));
}

INSTANTIATE_TEST_SUITE_P(DeviceMemory, ParityDeviceMemory, testing::ValuesIn(device_names()), DeviceTestName());
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParityDeviceMemory);  // no device loaded: the backend tests say why

}  // namespace
}  // namespace vt::parity
