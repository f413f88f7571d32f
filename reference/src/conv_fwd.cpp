// causal_conv1d_fwd (ops.md section 1): prefill over a variable-length batch.
#include <algorithm>

#include "conv_channel.hpp"
#include "vt/reference/reference.hpp"

namespace vt::reference {

// The chunk plan only schedules work; whole sequences give the same bits, so it is unused.
vt_status causal_conv1d_fwd(const vt_causal_conv1d_fwd_args& args) {
  const int64_t T = args.num_tokens, C = args.channels;
  const bool stateful = present(args.conv_state) && present(args.state_indices);
  for (int64_t n = 0; n < args.num_seqs; ++n) {
    // Clamped so inconsistent offsets can never reach outside x or out.
    const int64_t begin = std::clamp<int64_t>(load_int(args.query_start_loc, n), 0, T);
    const int64_t end = std::clamp<int64_t>(load_int(args.query_start_loc, n + 1), begin, T);
    if (end == begin) continue;  // L = 0 touches nothing, its slot included
    int64_t slot = -1;
    if (stateful) {
      slot = load_int(args.state_indices, n);
      if (slot < 0 || slot >= args.num_slots) continue;  // padding or out of range: skipped
    }
    const bool initial = stateful && present(args.has_initial_state) && load_int(args.has_initial_state, n) != 0;
    for (int64_t c = 0; c < C; ++c) {
      detail::ConvChannel ch(args.weight, args.bias, c, args.activation);
      if (initial) {
        ch.load_context(args.conv_state, slot);
      } else {
        ch.zero_context();
      }
      for (int64_t t = begin; t < end; ++t) store_float(args.out, ch.step(load_float(args.x, t, c)), t, c);
      // Per channel, after its outputs: they saw the old state, and no other channel reads it.
      if (stateful) ch.store_context(args.conv_state, slot);
    }
  }
  return VT_OK;
}

}  // namespace vt::reference
