#include "random_cases.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <string>
#include <vector>

#include "vt/op_id.hpp"
#include "vt/opcheck/gdn_cases.hpp"
#include "vt/opcheck/random.hpp"

namespace vt::cpu_fast_test {
namespace {

using opcheck::Rng;

template <class T>
T pick(Rng& r, std::initializer_list<T> choices) {
  return choices.begin()[r.uniform_int(0, static_cast<int64_t>(choices.size()) - 1)];
}

// Dtypes cycle with the case index, so every combination occurs: the activation type is
// index % 3, and the `choice`-th "f32 or the activation's type" argument is bit `choice` of
// index / 3 (conv: 24 combinations, post-conv 12, l2norm and split 6, gating 3).
DType activation_type(int index) {
  return std::array{DType::f32, DType::f16, DType::bf16}[static_cast<size_t>(index % 3)];
}
DType f32_or(int index, int choice, DType t) { return ((index / 3) >> choice) & 1 ? DType::f32 : t; }
int64_t row_extra(Rng& r) { return r.chance(0.3f) ? r.uniform_int(1, 9) : 0; }

// Odd counts and ones that straddle the 256-channel task block.
int64_t channels(Rng& r, bool large) {
  if (large) return pick<int64_t>(r, {600, 1000});
  return r.chance(0.5f) ? pick<int64_t>(r, {37, 100, 1, 7, 256, 257, 300}) : r.uniform_int(1, 320);
}

// 8 to 256 in steps of 8; 128 is the shape to make fast, the others are not powers of two.
int64_t head_dim(Rng& r) { return r.chance(0.3f) ? 128 : 8 * r.uniform_int(1, 32); }

std::unique_ptr<opcheck::OpCase> conv_fwd(const std::string& name, int index, uint64_t seed, bool large) {
  Rng r(seed);
  opcheck::ConvFwdParams p;
  p.channels = channels(r, large);
  p.width = 2 + index % 7;
  const int64_t w = p.width - 1;
  p.x = activation_type(index);
  p.weight = f32_or(index, 0, p.x);
  p.out = f32_or(index, 1, p.x);
  p.state = f32_or(index, 2, p.x);
  const auto n = static_cast<size_t>(large ? r.uniform_int(2, 5) : r.uniform_int(1, 6));
  p.lengths.clear();
  for (size_t i = 0; i < n; ++i) {
    const float kind = r.unit();
    int64_t length = r.uniform_int(1, large ? 300 : 150);  // beyond one 64-token program
    if (kind < 0.1f) length = 0;
    else if (kind < 0.3f) length = r.uniform_int(1, std::max<int64_t>(w - 1, 1));  // T < W
    else if (kind < 0.4f) length = w + r.uniform_int(0, 3);
    p.lengths.push_back(static_cast<int32_t>(length));
  }
  p.stateless = r.chance(0.2f);
  if (!p.stateless) {
    p.num_slots = static_cast<int64_t>(n) + r.uniform_int(0, 3);
    p.slots.resize(n);
    std::vector<int32_t> all(static_cast<size_t>(p.num_slots));
    std::iota(all.begin(), all.end(), 0);
    for (size_t i = all.size(); i > 1; --i)
      std::swap(all[i - 1], all[static_cast<size_t>(r.uniform_int(0, static_cast<int64_t>(i) - 1))]);
    for (size_t i = 0; i < n; ++i) p.slots[i] = r.chance(0.2f) ? -1 : all[i];  // padding
    if (r.chance(0.1f)) {  // out of range: skipped, not written (only without host copies, which reject it)
      p.slots[0] = static_cast<int32_t>(p.num_slots + r.uniform_int(0, 2));
      p.host_indices = false;
    }
    p.initial = pick(r, {opcheck::ConvFwdParams::Initial::absent, opcheck::ConvFwdParams::Initial::mixed,
                         opcheck::ConvFwdParams::Initial::all});
    p.initial_dtype = pick(r, {DType::u8, DType::i32});
    p.transposed_state = r.chance(0.5f);
  }
  p.plan_chunk = r.chance(0.3f) ? pick(r, {1, 3, 8, 64}) : 0;
  p.x_row_extra = row_extra(r);
  p.out_row_extra = row_extra(r);
  p.specials = r.chance(0.3f);
  p.bias = r.chance(0.7f);
  p.silu = r.chance(0.6f);
  return opcheck::make_case(name, p, seed);
}

std::unique_ptr<opcheck::OpCase> conv_update(const std::string& name, int index, uint64_t seed, bool large) {
  Rng r(seed);
  opcheck::ConvUpdateParams p;
  p.channels = channels(r, large);
  p.width = 2 + index % 7;
  p.x = activation_type(index);
  p.weight = f32_or(index, 0, p.x);
  p.state = f32_or(index, 2, p.x);
  p.batch = large ? r.uniform_int(16, 64) : r.uniform_int(1, 9);
  p.tokens = r.chance(0.5f) ? 0 : r.uniform_int(1, 12);
  p.in_place = r.chance(0.3f);
  p.out = p.in_place ? p.x : f32_or(index, 1, p.x);
  p.indices = r.chance(0.8f);
  p.padding = p.indices ? r.uniform_int(0, std::min<int64_t>(2, p.batch)) : 0;
  p.num_slots = r.chance(0.5f) ? 0 : p.batch + r.uniform_int(0, 4);
  p.bias = r.chance(0.7f);
  p.silu = r.chance(0.6f);
  p.transposed_state = r.chance(0.5f);
  p.x_row_extra = row_extra(r);
  p.specials = r.chance(0.3f);
  return opcheck::make_case(name, p, seed);
}

std::unique_ptr<opcheck::OpCase> post_conv(const std::string& name, int index, uint64_t seed, bool large) {
  Rng r(seed);
  opcheck::PostConvParams p;
  p.tokens = large ? 64 : r.uniform_int(0, 12);
  p.key_heads = r.uniform_int(1, 3);
  p.value_heads = p.key_heads * r.uniform_int(1, 3);
  p.key_dim = head_dim(r);
  p.value_dim = head_dim(r);
  p.in = activation_type(index);
  p.gate = f32_or(index, 0, p.in);
  p.out = f32_or(index, 1, p.in);
  p.l2norm = r.chance(0.8f);
  p.eps = pick(r, {1e-6f, 0.0f, 1e-2f});
  p.row_extra = row_extra(r);
  p.special_rows = r.chance(0.4f);
  p.softplus_threshold = r.chance(0.3f);
  return opcheck::make_case(name, p, seed);
}

std::unique_ptr<opcheck::OpCase> l2norm(const std::string& name, int index, uint64_t seed, bool large) {
  Rng r(seed);
  opcheck::L2NormParams p;
  p.rows = large ? 300 : r.uniform_int(0, 12);
  p.heads = r.chance(0.5f) ? 0 : r.uniform_int(1, 4);
  // Any length: short tails of the 32 partials, and rows longer than one 256-element piece.
  p.dim = r.chance(0.5f) ? pick<int64_t>(r, {1, 7, 24, 31, 32, 33, 128, 255, 256, 257, 600}) : r.uniform_int(1, 700);
  p.in = activation_type(index);
  p.out = f32_or(index, 0, p.in);
  p.eps = pick(r, {1e-6f, 0.0f, 1e-2f});
  p.row_extra = row_extra(r);
  p.special_rows = r.chance(0.4f);
  return opcheck::make_case(name, p, seed);
}

std::unique_ptr<opcheck::OpCase> gating(const std::string& name, int index, uint64_t seed, bool large) {
  Rng r(seed);
  opcheck::GatingParams p;
  p.tokens = large ? 500 : r.uniform_int(0, 12);
  p.heads = r.uniform_int(1, 70);
  p.gate = activation_type(index);
  p.row_extra = row_extra(r);
  p.softplus_threshold = r.chance(0.3f);
  p.specials = r.chance(0.3f);
  return opcheck::make_case(name, p, seed);
}

std::unique_ptr<opcheck::OpCase> split(const std::string& name, int index, uint64_t seed, bool large) {
  Rng r(seed);
  opcheck::SplitParams p;
  p.tokens = large ? 64 : r.uniform_int(0, 12);
  p.key_heads = r.uniform_int(1, 3);
  p.value_heads = p.key_heads * r.uniform_int(1, 3);
  p.key_dim = head_dim(r);
  p.value_dim = head_dim(r);
  p.in = activation_type(index);
  p.out = f32_or(index, 0, p.in);
  p.row_extra = row_extra(r);
  p.specials = r.chance(0.3f);
  return opcheck::make_case(name, p, seed);
}

}  // namespace

std::unique_ptr<opcheck::OpCase> random_case(vt_op_id op, int index, uint64_t seed) {
  const std::string name = std::string(op_name(op)) + "_" + std::to_string(index);
  const bool large = index % 8 == 7;
  switch (op) {
    case VT_OP_CAUSAL_CONV1D_FWD: return conv_fwd(name, index, seed, large);
    case VT_OP_CAUSAL_CONV1D_UPDATE: return conv_update(name, index, seed, large);
    case VT_OP_GDN_POST_CONV: return post_conv(name, index, seed, large);
    case VT_OP_L2NORM: return l2norm(name, index, seed, large);
    case VT_OP_GDN_GATING: return gating(name, index, seed, large);
    case VT_OP_GDN_SPLIT: return split(name, index, seed, large);
    default: return nullptr;
  }
}

}  // namespace vt::cpu_fast_test
