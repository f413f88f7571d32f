#include "invariants.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace fuzz {
namespace {

using vt::DType;
using Named = std::pair<const vt::TensorView*, const char*>;

constexpr int64_t kBruteForceLimit = 1 << 14;
constexpr __int128 kSaturated = static_cast<__int128>(1) << 100;

bool is_empty(const vt::TensorView& v) {
  for (uint32_t d = 0; d < v.rank(); ++d)
    if (v.size(d) == 0) return true;
  return false;
}

// One past the last byte the view can touch, in exact arithmetic.
__int128 exact_end(const vt::TensorView& v) {
  if (is_empty(v)) return v.first_byte();
  __int128 last = 0;
  for (uint32_t d = 0; d < v.rank(); ++d) {
    last += static_cast<__int128>(v.size(d) - 1) * v.stride(d);
    if (last > kSaturated) break;  // past any buffer; keeps the sum from overflowing
  }
  return v.first_byte() + (last + 1) * vt::dtype_size(v.dtype());
}

// Present, on the queue's device, well formed, inside its buffer, and what the provider gets.
void sound(const char* op, const char* arg, const vt::TensorView& v, const vt_tensor& passed) {
  require(v.present(), "%s: %s: accepted while absent", op, arg);
  require(v.device() == Env::get().home, "%s: %s: accepted on another device", op, arg);
  require(vt::dtype_is_valid(static_cast<uint32_t>(v.dtype())) && v.rank() <= VT_MAX_RANK, "%s: %s: bad header", op,
          arg);
  for (uint32_t d = 0; d < v.rank(); ++d)
    require(v.size(d) >= 0 && v.stride(d) >= 0, "%s: %s: negative extent or stride", op, arg);
  require(v.first_byte() % vt::dtype_size(v.dtype()) == 0, "%s: %s: misaligned offset", op, arg);
  const __int128 end = exact_end(v);
  if (end > static_cast<__int128>(v.buffer_bytes()))
    fail("%s: %s: %s at offset %llu reaches past its %llu-byte buffer", op, arg, v.describe().c_str(),
         static_cast<unsigned long long>(v.first_byte()), static_cast<unsigned long long>(v.buffer_bytes()));
  if (!is_empty(v) && static_cast<__int128>(v.end_byte()) != end)
    fail("%s: %s: end_byte() is wrong for %s", op, arg, v.describe().c_str());
  const vt_tensor& raw = v.raw();
  bool same =
      passed.mem == raw.mem && passed.offset == raw.offset && passed.dtype == raw.dtype && passed.rank == raw.rank;
  for (uint32_t d = 0; same && d < raw.rank; ++d)
    same = passed.shape[d] == raw.shape[d] && passed.strides[d] == raw.strides[d];
  require(same, "%s: %s: the provider's struct differs from the validated view", op, arg);
}

void absent(const char* op, const char* arg, const vt_tensor& passed) {
  require(passed.mem == nullptr && passed.rank == 0, "%s: %s: absent but passed as present", op, arg);
}

void optional(const char* op, const char* arg, const vt::TensorView& v, const vt_tensor& passed) {
  if (v.present()) sound(op, arg, v, passed);
  else absent(op, arg, passed);
}

void shape_is(const char* op, const char* arg, const vt::TensorView& v, std::initializer_list<int64_t> dims) {
  bool ok = v.rank() == dims.size();
  for (uint32_t d = 0; ok && d < v.rank(); ++d) ok = v.size(d) == dims.begin()[d];
  if (!ok) fail("%s: %s: accepted with shape %s", op, arg, v.describe().c_str());
}

void dtype_in(const char* op, const char* arg, const vt::TensorView& v, std::initializer_list<DType> allowed) {
  if (std::find(allowed.begin(), allowed.end(), v.dtype()) == allowed.end())
    fail("%s: %s: accepted dtype %s", op, arg, std::string(vt::dtype_name(v.dtype())).c_str());
}

// ops.md: the innermost dimension is contiguous.
void inner_contiguous(const char* op, const char* arg, const vt::TensorView& v) {
  if (v.rank() == 0 || is_empty(v) || v.size(v.rank() - 1) == 1) return;
  if (v.stride(v.rank() - 1) != 1) fail("%s: %s: accepted with strides %s", op, arg, v.describe().c_str());
}

// Every element at its own address: the condition for a race-free write.
void distinct(const char* op, const char* arg, const vt::TensorView& v) {
  if (is_empty(v)) return;
  int64_t n = 1;
  for (uint32_t d = 0; d < v.rank(); ++d)
    if (__builtin_mul_overflow(n, v.size(d), &n)) n = kBruteForceLimit + 1;
  if (n <= kBruteForceLimit) {
    std::vector<__int128> at;
    at.reserve(static_cast<size_t>(n));
    std::vector<int64_t> idx(v.rank(), 0);
    for (int64_t i = 0; i < n; ++i) {
      __int128 off = 0;
      for (uint32_t d = 0; d < v.rank(); ++d) off += static_cast<__int128>(idx[d]) * v.stride(d);
      at.push_back(off);
      for (uint32_t d = v.rank(); d-- > 0;) {
        if (++idx[d] < v.size(d)) break;
        idx[d] = 0;
      }
    }
    std::sort(at.begin(), at.end());
    if (std::adjacent_find(at.begin(), at.end()) != at.end())
      fail("%s: %s: accepted with aliasing elements: %s", op, arg, v.describe().c_str());
    return;
  }
  // Too many to list: each dimension must step over everything the finer ones cover.
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, extent) of dims longer than 1
  for (uint32_t d = 0; d < v.rank(); ++d)
    if (v.size(d) > 1) dims.emplace_back(v.stride(d), v.size(d));
  std::sort(dims.begin(), dims.end());
  __int128 covered = 1;
  for (auto [stride, extent] : dims) {
    if (stride < covered) fail("%s: %s: accepted with aliasing elements: %s", op, arg, v.describe().c_str());
    covered = static_cast<__int128>(stride) * extent;
  }
}

bool overlap(const vt::TensorView& a, const vt::TensorView& b) {
  if (!a.present() || !b.present() || !a.same_memory(b) || is_empty(a) || is_empty(b)) return false;
  return static_cast<__int128>(a.first_byte()) < exact_end(b) && static_cast<__int128>(b.first_byte()) < exact_end(a);
}

void apart(const char* op, std::initializer_list<Named> outs, std::initializer_list<Named> ins) {
  for (auto [o, on] : outs)
    for (auto [i, in] : ins) require(o == i || !overlap(*o, *i), "%s: %s accepted overlapping %s", op, on, in);
}

void eps_ok(const char* op, float eps) { require(std::isfinite(eps) && eps >= 0.0f, "%s: accepted eps %g", op, eps); }

bool head_dim_ok(int64_t d) { return d >= 8 && d <= 256 && d % 8 == 0; }

constexpr std::initializer_list<DType> kActivations = {DType::f32, DType::f16, DType::bf16};

// Host metadata the call carried: a prefix sum of T over N sequences; live slots in range, once.
void host_offsets_ok(const char* op, std::span<const int32_t> qsl, int64_t N, int64_t T) {
  if (qsl.empty()) return;
  require(static_cast<int64_t>(qsl.size()) == N + 1 && qsl[0] == 0 && qsl.back() == T, "%s: host offsets accepted", op);
  for (size_t i = 1; i < qsl.size(); ++i) require(qsl[i] >= qsl[i - 1], "%s: decreasing host offsets accepted", op);
}

void host_slots_ok(const char* op, std::span<const int32_t> slots, int64_t count, int64_t S) {
  if (slots.empty()) return;
  require(static_cast<int64_t>(slots.size()) == count, "%s: host slot count accepted", op);
  std::set<int32_t> seen;
  for (int32_t s : slots)
    require(s < 0 || (s < S && seen.insert(s).second), "%s: host slot %d accepted (S=%lld)", op, s,
            static_cast<long long>(S));
}

// weight [C, K] with K in 2..8, bias [C] of weight's dtype.
int64_t conv_weights_ok(const char* op, const vt::TensorView& w, const vt::TensorView& bias, const vt_tensor& rw,
                        const vt_tensor& rb, DType xt, int64_t C) {
  sound(op, "weight", w, rw);
  optional(op, "bias", bias, rb);
  const int64_t K = w.rank() == 2 ? w.size(1) : -1;
  require(K >= VT_CONV_MIN_WIDTH && K <= VT_CONV_MAX_WIDTH, "%s: weight: accepted K=%lld", op,
          static_cast<long long>(K));
  shape_is(op, "weight", w, {C, K});
  dtype_in(op, "weight", w, {DType::f32, xt});
  inner_contiguous(op, "weight", w);
  if (bias.present()) {
    shape_is(op, "bias", bias, {C});
    require(bias.dtype() == w.dtype(), "%s: bias: accepted another dtype than weight's", op);
  }
  return K;
}

}  // namespace

void check_accepted(const vt::ops::CausalConv1dFwd& a, const vt_causal_conv1d_fwd_args& r) {
  const char* op = "causal_conv1d_fwd";
  sound(op, "x", a.x, r.x);
  require(a.x.rank() == 2, "%s: x: rank", op);
  const int64_t T = a.x.size(0), C = a.x.size(1);
  dtype_in(op, "x", a.x, kActivations);
  inner_contiguous(op, "x", a.x);
  const int64_t K = conv_weights_ok(op, a.weight, a.bias, r.weight, r.bias, a.x.dtype(), C);
  sound(op, "out", a.out, r.out);
  shape_is(op, "out", a.out, {T, C});
  dtype_in(op, "out", a.out, {DType::f32, a.x.dtype()});
  inner_contiguous(op, "out", a.out);
  distinct(op, "out", a.out);
  sound(op, "query_start_loc", a.query_start_loc, r.query_start_loc);
  require(a.query_start_loc.rank() == 1 && a.query_start_loc.size(0) >= 1, "%s: query_start_loc: shape", op);
  const int64_t N = a.query_start_loc.size(0) - 1;
  dtype_in(op, "query_start_loc", a.query_start_loc, {DType::i32});
  inner_contiguous(op, "query_start_loc", a.query_start_loc);

  const bool stateful = a.conv_state.present();
  require(stateful == a.state_indices.present(), "%s: conv_state without state_indices or the reverse", op);
  int64_t S = 0;
  optional(op, "conv_state", a.conv_state, r.conv_state);
  optional(op, "state_indices", a.state_indices, r.state_indices);
  optional(op, "has_initial_state", a.has_initial_state, r.has_initial_state);
  if (stateful) {
    S = a.conv_state.rank() == 3 ? a.conv_state.size(0) : -1;
    shape_is(op, "conv_state", a.conv_state, {S, C, K - 1});
    dtype_in(op, "conv_state", a.conv_state, {DType::f32, a.x.dtype()});
    distinct(op, "conv_state", a.conv_state);
    shape_is(op, "state_indices", a.state_indices, {N});
    dtype_in(op, "state_indices", a.state_indices, {DType::i32});
    inner_contiguous(op, "state_indices", a.state_indices);
  }
  if (a.has_initial_state.present()) {
    require(stateful, "%s: has_initial_state accepted in a stateless call", op);
    shape_is(op, "has_initial_state", a.has_initial_state, {N});
    dtype_in(op, "has_initial_state", a.has_initial_state, {DType::u8, DType::i32});
    inner_contiguous(op, "has_initial_state", a.has_initial_state);
  }
  apart(op, {{&a.out, "out"}, {&a.conv_state, "conv_state"}},
        {{&a.x, "x"},
         {&a.weight, "weight"},
         {&a.bias, "bias"},
         {&a.query_start_loc, "query_start_loc"},
         {&a.state_indices, "state_indices"},
         {&a.has_initial_state, "has_initial_state"}});
  apart(op, {{&a.out, "out"}}, {{&a.conv_state, "conv_state"}});

  require(r.struct_size == sizeof r && r.num_tokens == T && r.channels == C && r.width == K && r.num_seqs == N &&
              r.num_slots == S && r.activation == static_cast<vt_activation>(a.activation),
          "%s: derived fields", op);
  if (a.plan) {
    require(a.plan->uploaded() && a.plan->device() == Env::get().home && a.plan->num_seqs() == N &&
                a.plan->num_tokens() == T && r.plan == &a.plan->raw(),
            "%s: chunk_plan accepted for another call", op);
  } else {
    require(r.plan == nullptr, "%s: chunk_plan: invented", op);
  }
  host_offsets_ok(op, a.host_query_start_loc, N, T);
  require(a.host_state_indices.empty() || stateful, "%s: host slots accepted in a stateless call", op);
  host_slots_ok(op, a.host_state_indices, N, S);
}

void check_accepted(const vt::ops::CausalConv1dUpdate& a, const vt_causal_conv1d_update_args& r) {
  const char* op = "causal_conv1d_update";
  sound(op, "x", a.x, r.x);
  require(a.x.rank() == 2 || a.x.rank() == 3, "%s: x: rank", op);
  const bool multi = a.x.rank() == 3;
  const int64_t B = a.x.size(0), L = multi ? a.x.size(1) : 1, C = a.x.size(a.x.rank() - 1);
  require(L >= 1, "%s: x: L=0 accepted", op);
  dtype_in(op, "x", a.x, kActivations);
  inner_contiguous(op, "x", a.x);
  const int64_t K = conv_weights_ok(op, a.weight, a.bias, r.weight, r.bias, a.x.dtype(), C);
  sound(op, "out", a.out, r.out);
  if (multi) shape_is(op, "out", a.out, {B, L, C});
  else shape_is(op, "out", a.out, {B, C});
  dtype_in(op, "out", a.out, {DType::f32, a.x.dtype()});
  inner_contiguous(op, "out", a.out);
  distinct(op, "out", a.out);
  bool in_place = a.out.same_memory(a.x) && a.out.first_byte() == a.x.first_byte() && a.out.dtype() == a.x.dtype();
  for (uint32_t d = 0; in_place && d < a.x.rank(); ++d) in_place = a.out.stride(d) == a.x.stride(d);
  require(in_place || !overlap(a.out, a.x), "%s: out accepted overlapping x, not in place", op);

  sound(op, "conv_state", a.conv_state, r.conv_state);
  const int64_t S = a.conv_state.rank() == 3 ? a.conv_state.size(0) : -1;
  shape_is(op, "conv_state", a.conv_state, {S, C, K - 1});
  dtype_in(op, "conv_state", a.conv_state, {DType::f32, a.x.dtype()});
  distinct(op, "conv_state", a.conv_state);
  optional(op, "state_indices", a.state_indices, r.state_indices);
  if (a.state_indices.present()) {
    shape_is(op, "state_indices", a.state_indices, {B});
    dtype_in(op, "state_indices", a.state_indices, {DType::i32});
    inner_contiguous(op, "state_indices", a.state_indices);
  } else {
    require(S >= B, "%s: S < B accepted without state_indices", op);
    require(a.host_state_indices.empty(), "%s: host slots accepted without the tensor", op);
  }
  host_slots_ok(op, a.host_state_indices, B, S);
  apart(op, {{&a.out, "out"}, {&a.conv_state, "conv_state"}},
        {{&a.weight, "weight"}, {&a.bias, "bias"}, {&a.state_indices, "state_indices"}});
  apart(op, {{&a.conv_state, "conv_state"}}, {{&a.x, "x"}, {&a.out, "out"}});

  require(r.struct_size == sizeof r && r.batch == B && r.tokens_per_seq == L && r.channels == C && r.width == K &&
              r.num_slots == S && r.x_seq_stride == a.x.stride(0) && r.out_seq_stride == a.out.stride(0) &&
              r.x_tok_stride == (multi ? a.x.stride(1) : 0) && r.out_tok_stride == (multi ? a.out.stride(1) : 0) &&
              r.activation == static_cast<vt_activation>(a.activation),
          "%s: derived fields", op);
}

namespace {

struct Heads {
  int64_t T, Hk, Dk, Hv, Dv;
};

// conv_out [T, 2*Hk*Dk + Hv*Dv] split into q, k [T, Hk, Dk] and v [T, Hv, Dv].
Heads split_ok(const char* op, const vt::TensorView& co, const vt::TensorView& q, const vt::TensorView& k,
               const vt::TensorView& v, const vt_tensor& rco, const vt_tensor& rq, const vt_tensor& rk,
               const vt_tensor& rv) {
  sound(op, "conv_out", co, rco);
  sound(op, "q_out", q, rq);
  sound(op, "k_out", k, rk);
  sound(op, "v_out", v, rv);
  require(co.rank() == 2 && q.rank() == 3 && v.rank() == 3, "%s: ranks", op);
  const Heads h{co.size(0), q.size(1), q.size(2), v.size(1), v.size(2)};
  require(h.Hk >= 1 && h.Hv % h.Hk == 0, "%s: Hk=%lld Hv=%lld accepted", op, static_cast<long long>(h.Hk),
          static_cast<long long>(h.Hv));
  require(head_dim_ok(h.Dk) && head_dim_ok(h.Dv), "%s: Dk=%lld Dv=%lld accepted", op, static_cast<long long>(h.Dk),
          static_cast<long long>(h.Dv));
  shape_is(op, "conv_out", co, {h.T, 2 * h.Hk * h.Dk + h.Hv * h.Dv});
  shape_is(op, "q_out", q, {h.T, h.Hk, h.Dk});
  shape_is(op, "k_out", k, {h.T, h.Hk, h.Dk});
  shape_is(op, "v_out", v, {h.T, h.Hv, h.Dv});
  dtype_in(op, "conv_out", co, kActivations);
  dtype_in(op, "q_out", q, {DType::f32, co.dtype()});
  require(k.dtype() == q.dtype() && v.dtype() == q.dtype(), "%s: q, k, v dtypes differ", op);
  for (auto [t, name] : {Named{&co, "conv_out"}, {&q, "q_out"}, {&k, "k_out"}, {&v, "v_out"}})
    inner_contiguous(op, name, *t);
  for (auto [t, name] : {Named{&q, "q_out"}, {&k, "k_out"}, {&v, "v_out"}}) distinct(op, name, *t);
  apart(op, {{&q, "q_out"}, {&k, "k_out"}, {&v, "v_out"}}, {{&co, "conv_out"}});
  apart(op, {{&q, "q_out"}}, {{&k, "k_out"}, {&v, "v_out"}});
  apart(op, {{&k, "k_out"}}, {{&v, "v_out"}});
  return h;
}

// a, b [T, Hv] of one dtype; A_log, dt_bias [Hv] f32; g, beta [T, Hv] f32.
void gating_ok(const char* op, const vt::ops::GdnGating& g, const vt_tensor* raw, int64_t T, int64_t Hv) {
  const Named all[] = {{&g.a, "a"},         {&g.b, "b"},
                       {&g.A_log, "A_log"}, {&g.dt_bias, "dt_bias"},
                       {&g.g_out, "g_out"}, {&g.beta_out, "beta_out"}};
  for (size_t i = 0; i < std::size(all); ++i) sound(op, all[i].second, *all[i].first, raw[i]);
  for (auto [t, name] : {all[0], all[1], all[4], all[5]}) {
    shape_is(op, name, *t, {T, Hv});
    inner_contiguous(op, name, *t);
  }
  for (auto [t, name] : {all[2], all[3], all[4], all[5]}) dtype_in(op, name, *t, {DType::f32});
  for (auto [t, name] : {all[2], all[3]}) {
    shape_is(op, name, *t, {Hv});
    inner_contiguous(op, name, *t);
  }
  dtype_in(op, "a", g.a, kActivations);
  require(g.b.dtype() == g.a.dtype(), "%s: b accepted with another dtype than a", op);
  distinct(op, "g_out", g.g_out);
  distinct(op, "beta_out", g.beta_out);
  apart(op, {all[4], all[5]}, {all[0], all[1], all[2], all[3]});
  apart(op, {all[4]}, {all[5]});
}

}  // namespace

void check_accepted(const vt::ops::GdnPostConv& a, const vt_gdn_post_conv_args& r) {
  const char* op = "gdn_post_conv";
  const Heads h = split_ok(op, a.conv_out, a.q_out, a.k_out, a.v_out, r.conv_out, r.q_out, r.k_out, r.v_out);
  const vt::ops::GdnGating g{a.a, a.b, a.A_log, a.dt_bias, a.g_out, a.beta_out};
  const vt_tensor raw[] = {r.a, r.b, r.A_log, r.dt_bias, r.g_out, r.beta_out};
  gating_ok(op, g, raw, h.T, h.Hv);
  dtype_in(op, "a", a.a, {DType::f32, a.conv_out.dtype()});
  eps_ok(op, a.eps);
  apart(op, {{&a.q_out, "q_out"}, {&a.k_out, "k_out"}, {&a.v_out, "v_out"}},
        {{&a.a, "a"},
         {&a.b, "b"},
         {&a.A_log, "A_log"},
         {&a.dt_bias, "dt_bias"},
         {&a.g_out, "g_out"},
         {&a.beta_out, "beta_out"}});
  apart(op, {{&a.g_out, "g_out"}, {&a.beta_out, "beta_out"}}, {{&a.conv_out, "conv_out"}});
  require(r.struct_size == sizeof r && r.num_tokens == h.T && r.key_heads == h.Hk && r.value_heads == h.Hv &&
              r.key_dim == h.Dk && r.value_dim == h.Dv && r.l2norm == (a.l2norm ? 1 : 0) &&
              std::memcmp(&r.eps, &a.eps, sizeof r.eps) == 0,
          "%s: derived fields", op);
}

void check_accepted(const vt::ops::GdnGating& a, const vt_gdn_gating_args& r) {
  const char* op = "gdn_gating";
  require(a.a.rank() == 2, "%s: a: rank", op);
  const int64_t T = a.a.size(0), Hv = a.a.size(1);
  const vt_tensor raw[] = {r.a, r.b, r.A_log, r.dt_bias, r.g_out, r.beta_out};
  gating_ok(op, a, raw, T, Hv);
  require(r.struct_size == sizeof r && r.num_tokens == T && r.value_heads == Hv, "%s: derived fields", op);
}

void check_accepted(const vt::ops::GdnSplit& a, const vt_gdn_split_args& r) {
  const char* op = "gdn_split";
  const Heads h = split_ok(op, a.conv_out, a.q_out, a.k_out, a.v_out, r.conv_out, r.q_out, r.k_out, r.v_out);
  require(r.struct_size == sizeof r && r.num_tokens == h.T && r.key_heads == h.Hk && r.value_heads == h.Hv &&
              r.key_dim == h.Dk && r.value_dim == h.Dv,
          "%s: derived fields", op);
}

void check_accepted(const vt::ops::L2Norm& a, const vt_l2norm_args& r) {
  const char* op = "l2norm";
  sound(op, "x", a.x, r.x);
  sound(op, "out", a.out, r.out);
  require((a.x.rank() == 2 || a.x.rank() == 3) && a.out.rank() == a.x.rank(), "%s: ranks", op);
  for (uint32_t d = 0; d < a.x.rank(); ++d) require(a.out.size(d) == a.x.size(d), "%s: out: extents", op);
  dtype_in(op, "x", a.x, kActivations);
  dtype_in(op, "out", a.out, {DType::f32, a.x.dtype()});
  inner_contiguous(op, "x", a.x);
  inner_contiguous(op, "out", a.out);
  distinct(op, "out", a.out);
  apart(op, {{&a.out, "out"}}, {{&a.x, "x"}});
  eps_ok(op, a.eps);
  const bool three = a.x.rank() == 3;
  const int64_t D = a.x.size(a.x.rank() - 1);
  require(D >= 1, "%s: rows of length 0 accepted", op);
  require(r.struct_size == sizeof r && r.outer == (three ? a.x.size(0) : 1) &&
              r.inner == (three ? a.x.size(1) : a.x.size(0)) && r.dim == D &&
              std::memcmp(&r.eps, &a.eps, sizeof r.eps) == 0,
          "%s: derived fields", op);
}

}  // namespace fuzz
