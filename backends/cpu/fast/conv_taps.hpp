// The conv's arithmetic for a block of channels at once: the reference's ConvChannel::step
// (reference/src/conv_channel.hpp) with the channel loop innermost, so that it vectorises,
// and the same order per channel: acc = bias, acc = fma(w[j], in[j], acc) for j = 0..K-1
// (oldest input first), then SiLU.
#pragma once
#include <cmath>
#include <cstdint>
#include <utility>

#include "kernels.hpp"
#include "row_io.hpp"
#include "variant.hpp"
#include "vt/ops/portable_math.h"
#include "vt/reference/element.hpp"

VT_FAST_BEGIN

// A block's weights with tap j of every channel in one row, and its biases.
struct Taps {
  alignas(64) float w[VT_CONV_MAX_WIDTH][kChannelBlock];
  alignas(64) float bias[kChannelBlock];
};

// The last K inputs of a block as f32 rows: the input at position p lives in rows[p % K].
struct Window {
  alignas(64) float rows[VT_CONV_MAX_WIDTH][kChannelBlock];
};

inline void load_taps(const vt_tensor& weight, const vt_tensor& bias, int64_t c0, int64_t n, int k, Taps& taps) {
  for (int j = 0; j < k; ++j) widen(weight.dtype, reference::element(weight, c0, j), weight.strides[0], n, taps.w[j]);
  if (reference::present(bias)) {
    widen(bias.dtype, reference::element(bias, c0), 1, n, taps.bias);
  } else {
    for (int64_t c = 0; c < n; ++c) taps.bias[c] = 0.0f;
  }
}

inline void zero_row(float* row, int64_t n) {
  for (int64_t c = 0; c < n; ++c) row[c] = 0.0f;
}

// The taps unrolled at compile time (a fold over J), so the channel loop is the one that
// vectorises.
template <size_t... J>
void taps_row(std::index_sequence<J...>, const Taps& taps, const float* const* in, int64_t n, float* __restrict acc) {
  const float* const rows[] = {in[J]...};
  for (int64_t c = 0; c < n; ++c) {
    float a = taps.bias[c];
    ((a = std::fma(taps.w[J][c], rows[J][c], a)), ...);
    acc[c] = a;
  }
}

// acc[c] for the K input rows in[0..K-1], oldest first.
inline void taps_row(int k, const Taps& taps, const float* const* in, int64_t n, float* __restrict acc) {
  switch (k) {
    case 2: return taps_row(std::make_index_sequence<2>{}, taps, in, n, acc);
    case 3: return taps_row(std::make_index_sequence<3>{}, taps, in, n, acc);
    case 4: return taps_row(std::make_index_sequence<4>{}, taps, in, n, acc);
    case 5: return taps_row(std::make_index_sequence<5>{}, taps, in, n, acc);
    case 6: return taps_row(std::make_index_sequence<6>{}, taps, in, n, acc);
    case 7: return taps_row(std::make_index_sequence<7>{}, taps, in, n, acc);
    default: return taps_row(std::make_index_sequence<8>{}, taps, in, n, acc);
  }
}

// vt::math::silu(x) = x / (1 + exp(-x)), with exp's argument raised to -17 first: from there
// down exp(-x) <= 2^-24, so 1 + exp(-x) rounds to 1 either way and the bits are the same,
// but exp no longer makes the subnormals that cost a microcode assist per vector. NaN passes.
inline float silu(float x) {
  const float m = -x < -17.0f ? -17.0f : -x;
  return x / (1.0f + vt::math::exp(m));
}

// The output of the input at position p (already in the window), before rounding to out's dtype.
inline void conv_row(const Taps& taps, const Window& window, int k, int64_t p, int64_t n, bool apply_silu,
                     float* __restrict acc) {
  const float* in[VT_CONV_MAX_WIDTH];
  for (int j = 0; j < k; ++j) in[j] = window.rows[(p - (k - 1) + j) % k];
  taps_row(k, taps, in, n, acc);
  if (apply_silu)
    for (int64_t c = 0; c < n; ++c) acc[c] = silu(acc[c]);
}

VT_FAST_END
