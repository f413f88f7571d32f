#include "metadata.hpp"

#include <cstdint>
#include <string>
#include <vector>

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
  if (slots.size() > size_t{INT32_MAX})  // the table below holds 32-bit indices
    c.fail("state_indices", "host copy has " + std::to_string(slots.size()) + " values, more than 2^31 - 1");
  // The slots seen so far, as their indices in an open-addressing table the thread keeps (a
  // power of two, at least twice the slots; -1 is empty) and empties again on the way out,
  // however the check ends: one pass and, once warm, no allocation. The std::unordered_map it
  // replaces took 26 to 40 us a call at B = 512 on the development VM, longer than the decode
  // update itself takes on the H200 (34 us); this table takes 1.4 to 1.9 us there
  // (scripts/slot_check_bench.sh).
  thread_local std::vector<int32_t> table;
  int bits = 4;
  while ((size_t{1} << bits) < 2 * slots.size()) ++bits;
  if (table.size() < (size_t{1} << bits)) table.assign(size_t{1} << bits, -1);
  const size_t mask = (size_t{1} << bits) - 1;
  auto home = [bits](int32_t s) {
    return static_cast<size_t>((uint64_t{static_cast<uint32_t>(s)} * 0x9e3779b97f4a7c15ull) >> (64 - bits));
  };
  size_t done = 0;  // slots[0, done) have been looked at: their indices are in the table
  auto empty_table = [&] {
    for (size_t i = 0; i < done; ++i) {
      if (slots[i] < 0) continue;
      size_t h = home(slots[i]);
      while (table[h] != static_cast<int32_t>(i)) h = (h + 1) & mask;
      table[h] = -1;
    }
  };
  struct AtExit {
    decltype(empty_table)& run;
    ~AtExit() { run(); }
  } const at_exit{empty_table};
  for (; done < slots.size(); ++done) {
    const size_t i = done;
    const int32_t s = slots[i];
    if (s < 0) continue;  // padding
    if (s >= num_slots)
      c.fail("state_indices", "state_indices[" + std::to_string(i) + "]=" + std::to_string(s) + " >= S = " +
                                  std::to_string(num_slots));
    size_t h = home(s);
    while (table[h] >= 0 && slots[static_cast<size_t>(table[h])] != s) h = (h + 1) & mask;
    if (table[h] >= 0)
      c.fail("state_indices", "state_indices[" + std::to_string(i) + "] and state_indices[" + std::to_string(table[h]) +
                                  "] both name slot " + std::to_string(s));
    table[h] = static_cast<int32_t>(i);
  }
}

}  // namespace vt::ops::detail
