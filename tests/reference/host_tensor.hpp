// Host tensors for the reference's own tests: a byte vector and a strided vt_tensor over it,
// and the argument structs with the fields validation would derive filled in.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

#include "vt/ops/gdn_args.h"
#include "vt/reference/element.hpp"

namespace vt::reference::test {

class HostTensor {
 public:
  HostTensor() = default;  // absent
  // Row-major unless strides are given; the storage covers every addressable element.
  HostTensor(vt_dtype dtype, std::vector<int64_t> shape, std::vector<int64_t> strides = {})
      : dtype_(dtype), shape_(std::move(shape)), strides_(std::move(strides)) {
    if (strides_.empty()) {
      strides_.assign(shape_.size(), 1);
      for (size_t d = shape_.size(); d-- > 1;) strides_[d - 1] = strides_[d] * shape_[d];
    }
    int64_t last = 0;  // an empty tensor still gets one element, so it stays present
    for (size_t d = 0; d < shape_.size(); ++d) last += std::max<int64_t>(shape_[d] - 1, 0) * strides_[d];
    bytes_.assign(static_cast<size_t>((last + 1) * element_size(dtype)), 0);
  }

  // A view with its own shape and strides over the storage of `base`, starting at element `first`.
  static vt_tensor view(const HostTensor& base, std::vector<int64_t> shape, std::vector<int64_t> strides,
                        int64_t first = 0) {
    vt_tensor t = base.raw();
    t.rank = static_cast<uint32_t>(shape.size());
    t.offset = static_cast<uint64_t>(first * element_size(base.dtype_));
    for (size_t d = 0; d < shape.size(); ++d) {
      t.shape[d] = shape[d];
      t.strides[d] = strides[d];
    }
    return t;
  }

  vt_tensor raw() const {
    vt_tensor t{};
    if (bytes_.empty()) return t;
    t.mem = reinterpret_cast<vt_mem>(const_cast<uint8_t*>(bytes_.data()));
    t.dtype = dtype_;
    t.rank = static_cast<uint32_t>(shape_.size());
    for (size_t d = 0; d < shape_.size(); ++d) {
      t.shape[d] = shape_[d];
      t.strides[d] = strides_[d];
    }
    return t;
  }
  operator vt_tensor() const { return raw(); }

  template <class... I>
  float get(I... idx) const {
    return load_float(raw(), idx...);
  }
  // The element's value as f32 bits; widening is exact and injective, so equal bits here
  // mean equal stored bits for every float dtype.
  template <class... I>
  uint32_t bits(I... idx) const {
    return std::bit_cast<uint32_t>(get(idx...));
  }
  template <class... I>
  void set(float v, I... idx) {
    store_float(raw(), v, idx...);
  }
  template <class... I>
  void set_int(int32_t v, I... idx) {
    char* p = element(raw(), idx...);
    if (dtype_ == VT_DTYPE_U8) {
      *p = static_cast<char>(v);
    } else {
      std::memcpy(p, &v, sizeof v);
    }
  }

  // Calls f(address, dtype) for every element in row-major index order.
  template <class F>
  void for_each(F f) const {
    const vt_tensor r = raw();
    std::vector<int64_t> idx(shape_.size(), 0);
    for (size_t d = 0; d < shape_.size(); ++d)
      if (shape_[d] == 0) return;
    for (;;) {
      int64_t e = 0;
      for (size_t d = 0; d < idx.size(); ++d) e += idx[d] * strides_[d];
      f(reinterpret_cast<char*>(r.mem) + e * element_size(dtype_), dtype_);
      size_t d = idx.size();
      while (d > 0 && ++idx[d - 1] == shape_[d - 1]) idx[--d] = 0;
      if (d == 0) return;
    }
  }

  // Fills every byte, elements and gaps alike: 0xff makes every float element a NaN.
  void poison(uint8_t byte = 0xff) { std::fill(bytes_.begin(), bytes_.end(), byte); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  const std::vector<int64_t>& shape() const { return shape_; }

 private:
  vt_dtype dtype_ = VT_DTYPE_F32;
  std::vector<int64_t> shape_, strides_;
  std::vector<uint8_t> bytes_;
};

inline std::string_view name_of(vt_dtype dtype) { return dtype_name(static_cast<DType>(dtype)); }

inline bool any_nan(const HostTensor& t) {
  bool nan = false;
  t.for_each([&](char* p, vt_dtype dtype) { nan = nan || std::isnan(load_float(dtype, p)); });
  return nan;
}

inline HostTensor ints(const std::vector<int32_t>& v) {
  HostTensor t(VT_DTYPE_I32, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) t.set_int(v[i], i);
  return t;
}

// Values spread over several binades, never zero, rounded to the tensor's dtype.
inline void fill_random(HostTensor& t, std::mt19937& rng, float scale = 1.0f) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  std::uniform_int_distribution<int> e(-3, 3);
  t.for_each([&](char* p, vt_dtype dtype) {
    const float v = n(rng);
    store_float(dtype, p, scale * std::ldexp(v == 0.0f ? 0.5f : v, e(rng)));
  });
}

struct FwdTensors {
  HostTensor x, weight, bias, out, conv_state, state_indices, has_initial_state, query_start_loc;
};

inline vt_causal_conv1d_fwd_args fwd_args(const FwdTensors& f, vt_activation activation,
                                          const vt_conv_chunk_plan* plan = nullptr) {
  vt_causal_conv1d_fwd_args a{};
  a.struct_size = sizeof a;
  a.x = f.x;
  a.weight = f.weight;
  a.bias = f.bias;
  a.out = f.out;
  a.conv_state = f.conv_state;
  a.state_indices = f.state_indices;
  a.has_initial_state = f.has_initial_state;
  a.query_start_loc = f.query_start_loc;
  a.activation = activation;
  a.plan = plan;
  a.num_tokens = a.x.shape[0];
  a.channels = a.x.shape[1];
  a.width = a.weight.shape[1];
  a.num_seqs = a.query_start_loc.shape[0] - 1;
  a.num_slots = a.conv_state.mem ? a.conv_state.shape[0] : 0;
  return a;
}

// x and out as [B, C] or [B, L, C]; the conv_state may be a view with any strides.
inline vt_causal_conv1d_update_args update_args(const vt_tensor& x, const vt_tensor& weight, const vt_tensor& bias,
                                                const vt_tensor& out, const vt_tensor& conv_state,
                                                const vt_tensor& state_indices, vt_activation activation) {
  vt_causal_conv1d_update_args a{};
  a.struct_size = sizeof a;
  a.x = x;
  a.weight = weight;
  a.bias = bias;
  a.out = out;
  a.conv_state = conv_state;
  a.state_indices = state_indices;
  a.activation = activation;
  const bool tokens = x.rank == 3;
  a.batch = x.shape[0];
  a.tokens_per_seq = tokens ? x.shape[1] : 1;
  a.channels = x.shape[x.rank - 1];
  a.width = weight.shape[1];
  a.num_slots = conv_state.shape[0];
  a.x_seq_stride = x.strides[0];
  a.x_tok_stride = tokens ? x.strides[1] : 0;
  a.out_seq_stride = out.strides[0];
  a.out_tok_stride = tokens ? out.strides[1] : 0;
  return a;
}

inline vt_l2norm_args l2norm_args(const vt_tensor& x, const vt_tensor& out, float eps) {
  vt_l2norm_args a{};
  a.struct_size = sizeof a;
  a.x = x;
  a.out = out;
  a.eps = eps;
  a.outer = x.rank == 3 ? x.shape[0] : 1;
  a.inner = x.shape[x.rank - 2];
  a.dim = x.shape[x.rank - 1];
  return a;
}

inline vt_gdn_gating_args gating_args(const vt_tensor& a_, const vt_tensor& b, const vt_tensor& A_log,
                                      const vt_tensor& dt_bias, const vt_tensor& g_out, const vt_tensor& beta_out) {
  vt_gdn_gating_args a{};
  a.struct_size = sizeof a;
  a.a = a_;
  a.b = b;
  a.A_log = A_log;
  a.dt_bias = dt_bias;
  a.g_out = g_out;
  a.beta_out = beta_out;
  a.num_tokens = a_.shape[0];
  a.value_heads = a_.shape[1];
  return a;
}

}  // namespace vt::reference::test
