// causal_conv1d_fwd tasks: one program (a run of one sequence's tokens) for one block of
// channels. The program holding a sequence's first token reads its old state and writes
// the rolled one; every other program starts >= W tokens in and reads only x.
#include <algorithm>
#include <cstdint>

#include "conv_taps.hpp"
#include "entries.hpp"
#include "vt/ops/launch_geometry.hpp"
#include "vt/reference/element.hpp"

VT_FAST_BEGIN
namespace {

using reference::element;
using reference::load_int;
using reference::present;

void fwd_task(const ConvFwdWork& work, int64_t task) {
  const vt_causal_conv1d_fwd_args& a = *work.args;
  const int64_t T = a.num_tokens;
  const int k = static_cast<int>(a.width), w = k - 1;
  const auto qsl = [&](int64_t i) { return static_cast<int64_t>(load_int(a.query_start_loc, i)); };
  int64_t seq = 0, first = 0;
  ops::geometry::sequence_chunk_of(task / work.blocks, qsl, a.num_seqs, T, work.chunk, &seq, &first);
  // Clamped as the reference does, so inconsistent offsets never reach outside x or out.
  const int64_t begin = std::clamp<int64_t>(qsl(seq), 0, T);
  const int64_t end = std::clamp<int64_t>(qsl(seq + 1), begin, T);
  const int64_t length = end - begin;
  if (first >= length) return;  // past the sequence's end; L = 0 touches nothing, its slot included
  const bool stateful = present(a.conv_state) && present(a.state_indices);
  int64_t slot = -1;
  if (stateful) {
    slot = load_int(a.state_indices, seq);
    if (slot < 0 || slot >= a.num_slots) return;  // padding or out of range: skipped
  }
  const bool initial = stateful && present(a.has_initial_state) && load_int(a.has_initial_state, seq) != 0;

  const int64_t c0 = task % work.blocks * kChannelBlock;
  const int64_t n = std::min(kChannelBlock, a.channels - c0);
  const int64_t state_stride = stateful ? a.conv_state.strides[1] : 0;
  Taps taps;
  load_taps(a.weight, a.bias, c0, n, k, taps);
  // Positions: p = W + local token, so the W inputs left of token 0 are positions 0..W-1.
  Window window;
  for (int64_t i = first - w; i < first; ++i) {
    float* row = window.rows[(i + w) % k];
    if (i >= 0) {
      widen(a.x.dtype, element(a.x, begin + i, c0), 1, n, row);
    } else if (initial) {
      widen(a.conv_state.dtype, element(a.conv_state, slot, c0, w + i), state_stride, n, row);
    } else {
      zero_row(row, n);
    }
  }
  const int64_t last = std::min(first + work.chunk, length);
  alignas(64) float acc[kChannelBlock];
  for (int64_t t = first; t < last; ++t) {
    widen(a.x.dtype, element(a.x, begin + t, c0), 1, n, window.rows[(t + w) % k]);
    conv_row(taps, window, k, t + w, n, a.activation == VT_ACTIVATION_SILU, acc);
    narrow(a.out.dtype, acc, n, element(a.out, begin + t, c0), 1);
  }
  if (!stateful || first != 0) return;
  // The rolled state: positions L..L+W-1. Still in the window when this program reached the
  // end (it then also holds any old-state columns they include); otherwise all are tokens.
  for (int j = 0; j < w; ++j) {
    const float* row = window.rows[(length + j) % k];
    if (last < length) {
      widen(a.x.dtype, element(a.x, begin + length - w + j, c0), 1, n, acc);
      row = acc;
    }
    narrow(a.conv_state.dtype, row, n, element(a.conv_state, slot, c0, j), state_stride);
  }
}

}  // namespace

void conv_fwd_tasks(const ConvFwdWork& work, int64_t first, int64_t end) {
  for (int64_t task = first; task < end; ++task) fwd_task(work, task);
}

VT_FAST_END
