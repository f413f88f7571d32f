// libFuzzer target over the GDN ops' argument validation. The first byte picks the op; the
// rest decodes (fuzz_input.hpp) into sizes, dtypes and tensors around a valid call. Properties:
// no crash or sanitizer report, nothing but vt::Error(invalid_argument) escapes, and every
// accepted call keeps the promises re-checked in invariants.cpp.
#include <optional>

#include "fuzz_input.hpp"
#include "invariants.hpp"

namespace fuzz {
namespace {

template <class Args>
void validate_and_check(const Args& args) {
  std::optional<decltype(vt::ops::validate(args, Env::get().home))> accepted;
  try {
    accepted = vt::ops::validate(args, Env::get().home);
  } catch (const vt::Error& e) {
    require(e.code() == vt::Status::invalid_argument, "validate threw %s: %s", vt::status_name(e.code()), e.what());
  } catch (const std::exception& e) {
    require(false, "validate threw a non-vt exception: %s", e.what());
  }
  if (accepted) check_accepted(args, *accepted);
}

// Offsets that spread T tokens over N sequences, and distinct slots (padding past S).
std::vector<int32_t> offsets(int64_t N, int64_t T) {
  std::vector<int32_t> q(static_cast<size_t>(N + 1));
  for (int64_t i = 0; i <= N; ++i) q[static_cast<size_t>(i)] = static_cast<int32_t>(N ? i * T / N : 0);
  return q;
}

std::vector<int32_t> slots(int64_t count, int64_t S) {
  std::vector<int32_t> s(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) s[static_cast<size_t>(i)] = i < S ? static_cast<int32_t>(S - 1 - i) : -1;
  return s;
}

constexpr std::initializer_list<vt::DType> kActivations = {vt::DType::bf16, vt::DType::f16, vt::DType::f32};

void fuzz_fwd(Reader& r, Views& v) {
  const int64_t T = r.around(7, 40), C = r.around(16, 64), K = r.around(4, 11), N = r.around(3, 9), S = r.around(4, 9);
  const vt::DType xt = r.pick(kActivations), wt = r.pick({xt, vt::DType::f32}), ot = r.pick({xt, vt::DType::f32}),
                  st = r.pick({vt::DType::f32, xt}), ht = r.pick({vt::DType::u8, vt::DType::i32});
  vt::ops::CausalConv1dFwd a;
  a.x = v.next(r, xt, {{T, C}});
  a.weight = v.next(r, wt, {{C, K}});
  a.bias = v.next(r, wt, {{C}});
  a.out = v.next(r, ot, {{T, C}});
  a.conv_state = v.next(r, st, {{S, C, K - 1}, {0, 2, 1}});
  a.state_indices = v.next(r, vt::DType::i32, {{N}});
  a.has_initial_state = v.next(r, ht, {{N}});
  a.query_start_loc = v.next(r, vt::DType::i32, {{N + 1}});
  a.activation = r.byte() & 1 ? vt::ops::Activation::silu : vt::ops::Activation::none;
  const std::vector<int32_t> host_qsl = v.host(r, offsets(N, T)), host_slots = v.host(r, slots(N, S));
  a.host_query_start_loc = host_qsl;
  a.host_state_indices = host_slots;

  std::optional<vt::ops::ConvChunkPlan> plan;
  Env& env = Env::get();
  try {
    switch (r.byte() % 5) {
      case 1:  // uploaded, for this call's offsets (or the input's edit of them)
        plan = vt::ops::make_conv_chunk_plan(host_qsl.empty() ? offsets(N, T) : host_qsl, 1 + r.byte() % 9);
        plan->upload(env.home_queue);
        break;
      case 2:  // never uploaded
        plan = vt::ops::make_conv_chunk_plan(offsets(N, T));
        break;
      case 3:  // another device's
        plan = vt::ops::make_conv_chunk_plan(offsets(N, T));
        plan->upload(env.foreign_queue);
        break;
      case 4:  // a chunk size that may be bad
        plan = vt::ops::make_conv_chunk_plan(offsets(N, T), static_cast<int8_t>(r.byte()));
        plan->upload(env.home_queue);
        break;
      default: break;
    }
  } catch (const vt::Error& e) {
    require(e.code() == vt::Status::invalid_argument, "chunk plan: %s", e.what());
    plan.reset();
  }
  if (plan) a.plan = &*plan;
  validate_and_check(a);
}

void fuzz_update(Reader& r, Views& v) {
  const int64_t B = r.around(3, 9), L = r.around(1, 4), C = r.around(16, 64), K = r.around(4, 11), S = r.around(4, 9);
  const bool multi = r.byte() & 1;
  const vt::DType xt = r.pick(kActivations), wt = r.pick({xt, vt::DType::f32}), ot = r.pick({xt, vt::DType::f32}),
                  st = r.pick({xt, vt::DType::f32});
  const Shape xs = multi ? Shape{{B, L, C}} : Shape{{B, C}};
  vt::ops::CausalConv1dUpdate a;
  a.x = v.next(r, xt, xs);
  a.weight = v.next(r, wt, {{C, K}});
  a.bias = v.next(r, wt, {{C}});
  a.out = r.byte() % 4 == 1 ? a.x : v.next(r, ot, xs);  // 1: exactly in place
  a.conv_state = v.next(r, st, {{S, C, K - 1}, {0, 2, 1}});
  a.state_indices = v.next(r, vt::DType::i32, {{B}});
  a.activation = r.byte() & 1 ? vt::ops::Activation::silu : vt::ops::Activation::none;
  const std::vector<int32_t> host_slots = v.host(r, slots(B, S));
  a.host_state_indices = host_slots;
  validate_and_check(a);
}

struct HeadSizes {
  int64_t T, Hk, Dk, Hv, Dv;
  static HeadSizes read(Reader& r) {
    return {r.around(5, 24), r.around(2, 6), r.head_dim(8), r.around(4, 13), r.head_dim(16)};
  }
  int64_t C() const { return 2 * Hk * Dk + Hv * Dv; }
};

void fuzz_post_conv(Reader& r, Views& v) {
  const HeadSizes h = HeadSizes::read(r);
  const vt::DType ct = r.pick(kActivations), qt = r.pick({ct, vt::DType::f32}), at = r.pick({ct, vt::DType::f32});
  vt::ops::GdnPostConv a;
  a.conv_out = v.next(r, ct, {{h.T, h.C()}});
  a.a = v.next(r, at, {{h.T, h.Hv}});
  a.b = v.next(r, at, {{h.T, h.Hv}});
  a.A_log = v.next(r, vt::DType::f32, {{h.Hv}});
  a.dt_bias = v.next(r, vt::DType::f32, {{h.Hv}});
  a.q_out = v.next(r, qt, {{h.T, h.Hk, h.Dk}});
  a.k_out = v.next(r, qt, {{h.T, h.Hk, h.Dk}});
  a.v_out = v.next(r, qt, {{h.T, h.Hv, h.Dv}});
  a.g_out = v.next(r, vt::DType::f32, {{h.T, h.Hv}});
  a.beta_out = v.next(r, vt::DType::f32, {{h.T, h.Hv}});
  a.l2norm = !(r.byte() & 1);
  a.eps = r.eps();
  validate_and_check(a);
}

void fuzz_gating(Reader& r, Views& v) {
  const int64_t T = r.around(5, 24), Hv = r.around(4, 13);
  const vt::DType at = r.pick(kActivations);
  vt::ops::GdnGating a;
  a.a = v.next(r, at, {{T, Hv}});
  a.b = v.next(r, at, {{T, Hv}});
  a.A_log = v.next(r, vt::DType::f32, {{Hv}});
  a.dt_bias = v.next(r, vt::DType::f32, {{Hv}});
  a.g_out = v.next(r, vt::DType::f32, {{T, Hv}});
  a.beta_out = v.next(r, vt::DType::f32, {{T, Hv}});
  validate_and_check(a);
}

void fuzz_split(Reader& r, Views& v) {
  const HeadSizes h = HeadSizes::read(r);
  const vt::DType ct = r.pick(kActivations), qt = r.pick({ct, vt::DType::f32});
  vt::ops::GdnSplit a;
  a.conv_out = v.next(r, ct, {{h.T, h.C()}});
  a.q_out = v.next(r, qt, {{h.T, h.Hk, h.Dk}});
  a.k_out = v.next(r, qt, {{h.T, h.Hk, h.Dk}});
  a.v_out = v.next(r, qt, {{h.T, h.Hv, h.Dv}});
  validate_and_check(a);
}

void fuzz_l2norm(Reader& r, Views& v) {
  const int64_t R = r.around(6, 40), H = r.around(2, 8), D = r.around(32, 257);
  const vt::DType xt = r.pick(kActivations), ot = r.pick({xt, vt::DType::f32});
  const Shape s = r.byte() & 1 ? Shape{{R, H, D}} : Shape{{R, D}};
  vt::ops::L2Norm a;
  a.x = v.next(r, xt, s);
  a.out = r.byte() % 8 == 1 ? a.x : v.next(r, ot, s);  // 1: in place, which l2norm refuses
  a.eps = r.eps();
  validate_and_check(a);
}

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader r(data, size);
  fuzz::Views views(fuzz::Env::get());
  switch (r.byte() % 6) {
    case 0: fuzz::fuzz_fwd(r, views); break;
    case 1: fuzz::fuzz_update(r, views); break;
    case 2: fuzz::fuzz_post_conv(r, views); break;
    case 3: fuzz::fuzz_gating(r, views); break;
    case 4: fuzz::fuzz_split(r, views); break;
    default: fuzz::fuzz_l2norm(r, views); break;
  }
  return 0;
}
