// Running one catalog case on one device, and the seed that makes it replayable.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "case_catalog.hpp"
#include "expectations.hpp"
#include "vt/device.hpp"
#include "vt/opcheck/case_memory.hpp"

namespace vt::parity {

// The run's base seed: gtest's random seed, drawn from the clock for every run (fresh
// inputs) unless --gtest_random_seed=N fixes it; failure messages print it for replay.
uint64_t base_seed();
// The case's seed and how to replay it.
std::string replay_hint(const CaseSpec& spec, uint64_t base, uint64_t seed);

struct DeviceRun {
  std::string provider;  // the name the op call returned
  opcheck::Images images;
};
// Binds the case to a fresh queue of the device, runs the op through the public API and
// downloads every buffer.
DeviceRun run_on_device(opcheck::OpCase& c, const Device& device);

// A device's result of a case judged as the parity suite judges it: every buffer against the
// reference under the backend's tolerance, and the provider that ran. Empty when both hold,
// else what is wrong.
std::string judge(opcheck::OpCase& c, const opcheck::Images& actual, std::string_view provider,
                  const BackendExpectation& expect);

}  // namespace vt::parity
