// causal_conv1d_update tasks: one sequence's L tokens for one block of channels, from the old
// state to the rolled one. Token t's input is read into the window before out[t] is written,
// and out[t] is the only element of x's storage that step may overwrite, so an in-place call
// (out = x) reads every input before it is replaced.
#include <algorithm>
#include <cstdint>

#include "conv_taps.hpp"
#include "entries.hpp"
#include "vt/reference/element.hpp"

VT_FAST_BEGIN
namespace {

using reference::element;
using reference::element_size;
using reference::load_int;
using reference::present;

// Token t of sequence b at channel c0, in x or out viewed as [B, L, C].
char* token(const vt_tensor& v, int64_t seq_stride, int64_t tok_stride, int64_t b, int64_t t, int64_t c0) {
  return element(v) + (b * seq_stride + t * tok_stride + c0) * element_size(v.dtype);
}

void update_task(const ConvUpdateWork& work, int64_t task) {
  const vt_causal_conv1d_update_args& a = *work.args;
  const int64_t b = task / work.blocks;
  const int64_t slot = present(a.state_indices) ? load_int(a.state_indices, b) : b;
  if (slot < 0 || slot >= a.num_slots) return;  // padding or out of range: skipped
  const int k = static_cast<int>(a.width), w = k - 1;
  const int64_t c0 = task % work.blocks * kChannelBlock;
  const int64_t n = std::min(kChannelBlock, a.channels - c0);
  const int64_t state_stride = a.conv_state.strides[1];
  Taps taps;
  load_taps(a.weight, a.bias, c0, n, k, taps);
  // Positions: the old state's columns are 0..W-1, token t is W + t.
  Window window;
  for (int j = 0; j < w; ++j)
    widen(a.conv_state.dtype, element(a.conv_state, slot, c0, j), state_stride, n, window.rows[j]);
  alignas(64) float acc[kChannelBlock];
  const int64_t length = a.tokens_per_seq;
  for (int64_t t = 0; t < length; ++t) {
    widen(a.x.dtype, token(a.x, a.x_seq_stride, a.x_tok_stride, b, t, c0), 1, n, window.rows[(t + w) % k]);
    conv_row(taps, window, k, t + w, n, a.activation == VT_ACTIVATION_SILU, acc);
    narrow(a.out.dtype, acc, n, token(a.out, a.out_seq_stride, a.out_tok_stride, b, t, c0), 1);
  }
  // The window now ends at position L+W-1, so it holds the rolled state L..L+W-1.
  for (int j = 0; j < w; ++j)
    narrow(a.conv_state.dtype, window.rows[(length + j) % k], n, element(a.conv_state, slot, c0, j), state_stride);
}

}  // namespace

void conv_update_tasks(const ConvUpdateWork& work, int64_t first, int64_t end) {
  for (int64_t task = first; task < end; ++task) update_task(work, task);
}

VT_FAST_END
