#include "metadata.hpp"

#include <string>
#include <unordered_map>

namespace vt::ops::detail {

void check_query_start_loc(const Checker& c, std::span<const int32_t> qsl, int64_t num_seqs, int64_t num_tokens) {
  if (static_cast<int64_t>(qsl.size()) != num_seqs + 1)
    c.fail("query_start_loc", "host copy has " + std::to_string(qsl.size()) + " values, expected N+1 = " +
                                  std::to_string(num_seqs + 1));
  if (qsl[0] != 0) c.fail("query_start_loc", "query_start_loc[0]=" + std::to_string(qsl[0]) + ", must be 0");
  for (size_t i = 1; i < qsl.size(); ++i)
    if (qsl[i] < qsl[i - 1])
      c.fail("query_start_loc", "query_start_loc[" + std::to_string(i) + "]=" + std::to_string(qsl[i]) + " < query_start_loc[" +
                                    std::to_string(i - 1) + "]=" + std::to_string(qsl[i - 1]));
  if (qsl.back() != num_tokens)
    c.fail("query_start_loc", "query_start_loc[" + std::to_string(num_seqs) + "]=" + std::to_string(qsl.back()) +
                                  ", must equal T = " + std::to_string(num_tokens));
}

void check_state_indices(const Checker& c, std::span<const int32_t> slots, int64_t count, int64_t num_slots) {
  if (static_cast<int64_t>(slots.size()) != count)
    c.fail("state_indices", "host copy has " + std::to_string(slots.size()) + " values, expected " + std::to_string(count));
  std::unordered_map<int32_t, size_t> first;
  for (size_t i = 0; i < slots.size(); ++i) {
    const int32_t s = slots[i];
    if (s < 0) continue;  // padding
    if (s >= num_slots)
      c.fail("state_indices", "state_indices[" + std::to_string(i) + "]=" + std::to_string(s) + " >= S = " +
                                  std::to_string(num_slots));
    const auto [it, fresh] = first.emplace(s, i);
    if (!fresh)
      c.fail("state_indices", "state_indices[" + std::to_string(i) + "] and state_indices[" + std::to_string(it->second) +
                                  "] both name slot " + std::to_string(s));
  }
}

}  // namespace vt::ops::detail
