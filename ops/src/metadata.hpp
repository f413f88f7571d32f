// Checks of the values of index tensors (query_start_loc, state_indices), on host copies.
#pragma once
#include <cstdint>
#include <span>

#include "checker.hpp"

namespace vt::ops::detail {

// qsl[0] = 0, non-decreasing, qsl[N] = T.
void check_query_start_loc(const Checker& c, std::span<const int32_t> qsl, int64_t num_seqs, int64_t num_tokens);
// Every non-negative slot < num_slots, and no slot named twice.
void check_state_indices(const Checker& c, std::span<const int32_t> slots, int64_t count, int64_t num_slots);

}  // namespace vt::ops::detail
