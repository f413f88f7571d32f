#include "metadata.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vt::ops::detail {

void check_query_start_loc(const Checker& c, std::span<const int32_t> qsl, int64_t num_seqs, int64_t num_tokens) {
  if (static_cast<int64_t>(qsl.size()) != num_seqs + 1)
    c.fail("query_start_loc",
           "host copy has " + std::to_string(qsl.size()) + " values, expected N+1 = " + std::to_string(num_seqs + 1));
  if (qsl[0] != 0) c.fail("query_start_loc", "query_start_loc[0]=" + std::to_string(qsl[0]) + ", must be 0");
  for (size_t i = 1; i < qsl.size(); ++i)
    if (qsl[i] < qsl[i - 1])
      c.fail("query_start_loc", "query_start_loc[" + std::to_string(i) + "]=" + std::to_string(qsl[i]) +
                                    " < query_start_loc[" + std::to_string(i - 1) + "]=" + std::to_string(qsl[i - 1]));
  if (qsl.back() != num_tokens)
    c.fail("query_start_loc", "query_start_loc[" + std::to_string(num_seqs) + "]=" + std::to_string(qsl.back()) +
                                  ", must equal T = " + std::to_string(num_tokens));
}

namespace {

// slots[i] repeats an earlier slot.
[[noreturn]] void fail_duplicate(const Checker& c, std::span<const int32_t> slots, size_t i) {
  const int32_t s = slots[i];
  const auto first = std::find(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(i), s) - slots.begin();
  c.fail("state_indices", "state_indices[" + std::to_string(i) + "] and state_indices[" + std::to_string(first) +
                              "] both name slot " + std::to_string(s));
}

}  // namespace

void check_state_indices(const Checker& c, std::span<const int32_t> slots, int64_t count, int64_t num_slots) {
  if (static_cast<int64_t>(slots.size()) != count)
    c.fail("state_indices",
           "host copy has " + std::to_string(slots.size()) + " values, expected " + std::to_string(count));
  // The slots seen in this call: stamps in a table the thread keeps, where a slot is marked
  // when its stamp equals this call's number. Each call takes a new number, so nothing is
  // cleared afterwards, whether the check passes or fails, and 64-bit numbers never wrap
  // (2^64 calls). One pass, and once warm no allocation. The std::unordered_map this replaces
  // took 26 to 40 us a call at B = 512 on the development VM, longer than the decode update
  // itself takes on the H200 (34 us); scripts/slot_check_bench.sh times them.
  // The table holds S stamps up to kTableSlots; slots above that (a cache of over a million
  // slots) are checked by sorting instead. A state cache of no channels holds any number of
  // slots in no memory: the fuzzer's call had S = 2^59 and asked for a table of 2^62 bytes.
  constexpr int64_t kTableSlots = int64_t{1} << 20;  // 8 MiB of stamps at most
  thread_local std::vector<uint64_t> stamps;
  thread_local uint64_t calls = 0;
  const auto need = static_cast<size_t>(std::min(num_slots, kTableSlots));
  if (stamps.size() < need) stamps.resize(need);  // new stamps are 0
  // One read of each thread-local's address: in libvt (position-independent code) each read
  // is a call to __tls_get_addr, which a loop may repeat for every slot where its stores could
  // alias the vector (a byte table's did: docs/benchmarks.md, twenty-second session).
  uint64_t* const stamp = stamps.data();
  // Slots below `in_table` are in range and in the table: one unsigned test lets them through
  // (a negative slot, as unsigned, is 2^31 or more, above any table), and the rest take the
  // slower tests. Three tests a slot made the loop 15 instructions a slot; this makes it 11
  // (GCC 12 at -O2 and -O3; docs/benchmarks.md, sixty-second session).
  const size_t size = stamps.size();  // above every slot below both S and kTableSlots
  const auto in_table = static_cast<uint32_t>(std::min(size, static_cast<size_t>(num_slots)));
  // A slot the table does not reach. A flag, with a second pass for those slots: pushed into
  // a vector in this loop, they made the check 0.38 us a call at B = 512 instead of 0.27 on
  // the development VM, with no such slot in the call (scripts/slot_check_bench.sh).
  bool beyond = false;
  const uint64_t now = ++calls;
  for (size_t i = 0; i < slots.size(); ++i) {
    const int32_t s = slots[i];
    const auto slot = static_cast<uint32_t>(s);
    if (slot >= in_table) {
      if (s < 0) continue;  // padding
      if (s >= num_slots)
        c.fail("state_indices", "state_indices[" + std::to_string(i) + "]=" + std::to_string(s) +
                                    " >= S = " + std::to_string(num_slots));
      beyond = true;  // in range, above the table
      continue;
    }
    if (stamp[slot] == now) fail_duplicate(c, slots, i);
    stamp[slot] = now;
  }
  if (beyond) {  // sorted, the slots beyond the table (a second pass, only for such caches)
    std::vector<int32_t> high;
    for (const int32_t s : slots)
      if (s >= 0 && static_cast<size_t>(s) >= size) high.push_back(s);
    std::sort(high.begin(), high.end());
    const auto twice = std::adjacent_find(high.begin(), high.end());
    if (twice != high.end()) {  // the second place that names it
      const auto first = std::find(slots.begin(), slots.end(), *twice);
      fail_duplicate(c, slots, static_cast<size_t>(std::find(first + 1, slots.end(), *twice) - slots.begin()));
    }
  }
}

}  // namespace vt::ops::detail
