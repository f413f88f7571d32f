// Host memory from Device::alloc_host on every loaded device (docs/runtime.md, Memory): page-locked
// where the expectation table says the backend offers it (HostBuffer::pinned), ordinary host
// memory elsewhere, and either way a source and destination of the queue's copies that gives
// back every byte: random bytes (seeded, printed) uploaded from one host buffer, copied on the
// device, and downloaded into another that was poisoned first. The size is not a multiple of
// any copy unit, and large enough (a few MiB) that a backend's staged path would show.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>

#include "case_run.hpp"
#include "device_axis.hpp"
#include "expectations.hpp"
#include "vt/device.hpp"
#include "vt/opcheck/random.hpp"

namespace vt::parity {
namespace {

constexpr uint64_t kBytes = (3u << 20) + 13;
constexpr uint8_t kPoison = 0xa5;

class ParityHostMemory : public testing::TestWithParam<std::string> {};

TEST_P(ParityHostMemory, CopiesThroughHostBuffersKeepEveryByte) {
  const Device device = parity_runtime().device(GetParam());
  const BackendExpectation expect = expectation_for(device);
  EXPECT_EQ(device.properties().pinned_host, expect.pinned_host)
      << device.name() << ": DeviceProperties::pinned_host against the expectation table's";

  HostBuffer src = device.alloc_host(kBytes), dst = device.alloc_host(kBytes);
  for (const HostBuffer* h : {&src, &dst}) {
    ASSERT_NE(h->data(), nullptr);
    ASSERT_EQ(h->size(), kBytes);
    EXPECT_EQ(h->pinned(), expect.pinned_host) << device.name() << ": HostBuffer::pinned";
    EXPECT_EQ(reinterpret_cast<uintptr_t>(h->data()) % 64, 0u) << "the ABI promises 64-byte alignment";
  }
  const uint64_t seed = opcheck::case_seed(base_seed(), "host_memory");
  SCOPED_TRACE("seed " + std::to_string(seed) + " (base seed " + std::to_string(base_seed()) +
               "; --gtest_random_seed replays it)");
  opcheck::Rng rng(seed);
  auto* in = static_cast<uint8_t*>(src.data());
  for (uint64_t i = 0; i < kBytes; ++i) in[i] = static_cast<uint8_t>(rng.next() >> 56);
  std::memset(dst.data(), kPoison, kBytes);

  Buffer a = device.alloc(kBytes), b = device.alloc(kBytes);
  Queue q = device.create_queue();
  q.upload(a, 0, src.data(), kBytes);
  q.copy(b, 0, a, 0, kBytes);
  q.download(dst.data(), b, 0, kBytes);
  q.sync();
  const auto* out = static_cast<const uint8_t*>(dst.data());
  uint64_t first = kBytes;
  for (uint64_t i = 0; i < kBytes && first == kBytes; ++i)
    if (out[i] != in[i]) first = i;
  EXPECT_EQ(first, kBytes) << device.name() << ": first differing byte at " << first << " of " << kBytes;
  std::cout << device.name() << ": " << kBytes << " bytes through " << (src.pinned() ? "pinned" : "ordinary")
            << " host buffers\n";
}

INSTANTIATE_TEST_SUITE_P(HostMemory, ParityHostMemory, testing::ValuesIn(device_names()), DeviceTestName());
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ParityHostMemory);  // no device loaded: the backend tests say why

}  // namespace
}  // namespace vt::parity
