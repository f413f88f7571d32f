// One channel of the causal depthwise convolution, shared by prefill and decode so both
// evaluate exactly the same arithmetic: acc = bias, then acc = fma(w[j], window[j], acc) for
// j = 0..K-1 (oldest input first), then SiLU if asked.
#pragma once
#include <cmath>
#include <cstdint>

#include "vt/ops/gdn_args.h"
#include "vt/ops/portable_math.h"
#include "vt/reference/element.hpp"

namespace vt::reference::detail {

class ConvChannel {
 public:
  ConvChannel(const vt_tensor& weight, const vt_tensor& bias, int64_t channel, vt_activation activation)
      : channel_(channel), k_(static_cast<int>(weight.shape[1])), silu_(activation == VT_ACTIVATION_SILU) {
    for (int j = 0; j < k_; ++j) w_[j] = load_float(weight, channel, j);
    bias_ = present(bias) ? load_float(bias, channel) : 0.0f;
  }

  int width() const { return k_; }

  // The W = K-1 inputs left of the first token: zeros, or a state slot's columns.
  void zero_context() {
    for (int j = 0; j + 1 < k_; ++j) window_[j] = 0.0f;
  }
  void load_context(const vt_tensor& state, int64_t slot) {
    for (int j = 0; j + 1 < k_; ++j) window_[j] = load_float(state, slot, channel_, j);
  }
  // After the last step the window holds the last W inputs of [context | tokens]: the
  // rolled state, rounded here to the state's dtype.
  void store_context(const vt_tensor& state, int64_t slot) const {
    for (int j = 0; j + 1 < k_; ++j) store_float(state, window_[j], slot, channel_, j);
  }

  // Pushes the next token (at x's precision) and returns its output in f32.
  float step(float x) {
    const int w = k_ - 1;
    window_[w] = x;
    float acc = bias_;
    for (int j = 0; j < k_; ++j) acc = std::fma(w_[j], window_[j], acc);
    for (int j = 0; j < w; ++j) window_[j] = window_[j + 1];
    return silu_ ? vt::math::silu(acc) : acc;
  }

 private:
  float w_[VT_CONV_MAX_WIDTH];
  float window_[VT_CONV_MAX_WIDTH];
  float bias_;
  int64_t channel_;
  int k_;
  bool silu_;
};

}  // namespace vt::reference::detail
