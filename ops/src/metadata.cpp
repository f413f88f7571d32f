#include "metadata.hpp"

#include <algorithm>
#include <cstddef>
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
  // The slots seen so far, a byte each in a table of the S slots that the thread keeps and
  // clears again on the way out, however the check ends: one pass, and once warm no
  // allocation. Bytes, not bits: a bitmap's few words take most of the marks, and each mark
  // then waits for the one before it in the same word. S bytes are a small fraction of the
  // state cache they index (a slot holds at least 4 bytes for each of C*(K-1) > 0 values).
  // The std::unordered_map this replaces took 26 to 40 us a call at B = 512 on the
  // development VM, longer than the decode update itself takes on the H200 (34 us);
  // scripts/slot_check_bench.sh times them.
  thread_local std::vector<uint8_t> seen;
  if (seen.size() < static_cast<size_t>(num_slots)) seen.resize(static_cast<size_t>(num_slots));  // new bytes are 0
  // One read of the thread-local's address: in libvt (position-independent code) each read is
  // a call to __tls_get_addr, and a byte store may alias the vector, so the loops would read
  // it again on every slot (slower than the hash table before it on the H200 machine's host:
  // docs/benchmarks.md, twenty-second session).
  uint8_t* const marks = seen.data();
  size_t done = 0;  // slots[0, done) are in range and marked
  struct ClearOnExit {
    std::span<const int32_t> slots;
    uint8_t* marks;
    const size_t& done;
    ~ClearOnExit() {
      for (size_t i = 0; i < done; ++i)
        if (slots[i] >= 0) marks[slots[i]] = 0;
    }
  } const clear_on_exit{slots, marks, done};
  for (; done < slots.size(); ++done) {
    const int32_t s = slots[done];
    if (s < 0) continue;  // padding
    if (s >= num_slots)
      c.fail("state_indices", "state_indices[" + std::to_string(done) + "]=" + std::to_string(s) + " >= S = " +
                                  std::to_string(num_slots));
    uint8_t& mark = marks[s];
    if (mark) {
      const auto first = std::find(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(done), s) - slots.begin();
      c.fail("state_indices", "state_indices[" + std::to_string(done) + "] and state_indices[" + std::to_string(first) +
                                  "] both name slot " + std::to_string(s));
    }
    mark = 1;
  }
}

}  // namespace vt::ops::detail
