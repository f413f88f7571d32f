// Seeded random cases of every op for the fast provider: the parameters themselves are drawn
// from the seed (channels, lengths, slots, layouts, edge cases), so many seeds sweep the space
// the parity catalog samples by hand; K and the dtype combination cycle with the index, so 48
// cases cover every K and every combination. Every 8th case is large enough to split into
// many tasks.
#pragma once
#include <cstdint>
#include <memory>

#include "vt/opcheck/op_case.hpp"
#include "vt/plugin_abi.h"

namespace vt::cpu_fast_test {

std::unique_ptr<opcheck::OpCase> random_case(vt_op_id op, int index, uint64_t seed);

}  // namespace vt::cpu_fast_test
