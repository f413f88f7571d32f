#include "bench_cases.hpp"

#include "vt/opcheck/gdn_cases.hpp"
#include "vt/opcheck/random.hpp"

namespace vt::bench {
namespace {

// The CPU's fast provider against the scalar reference it stands in for.
const Variant kWithoutFast{"reference", {}, {"fast"}};

// A variant switch of performance.md ("Variants"). Providers without that variant ignore it,
// so on their devices the row times the default again (vt-bench --device narrows the run).
Variant switched(std::string name, std::string knob, int64_t value) {
  return {std::move(name), {{std::move(knob), value}}, {}};
}

// Qwen3.5 shapes (ops.md): K = 4, Dk = Dv = 128, Hk = 16, C = 2*Hk*Dk + Hv*Dv.
int64_t channels_for(int64_t hv) { return 2 * 16 * 128 + hv * 128; }

opcheck::ConvFwdParams prefill(int64_t channels, std::vector<int32_t> lengths, int32_t plan_chunk, bool model_values,
                               DType activations) {
  opcheck::ConvFwdParams p;
  p.channels = channels;
  p.width = 4;
  p.x = p.weight = p.out = activations;
  p.state = DType::f32;
  p.lengths = std::move(lengths);
  p.initial = opcheck::ConvFwdParams::Initial::all;
  p.silu = true;
  p.plan_chunk = plan_chunk;
  p.model_values = model_values;
  return p;
}

BenchCase conv_fwd_case(std::string name, std::string group, int64_t channels, std::vector<int32_t> lengths,
                        bool model_values, DType activations = DType::bf16) {
  BenchCase c;
  c.name = std::move(name);
  c.group = std::move(group);
  c.op = VT_OP_CAUSAL_CONV1D_FWD;
  c.make = [=](uint64_t seed) {
    return opcheck::make_case(c.name, prefill(channels, lengths, 8, model_values, activations), seed);
  };
  // The backend's default, then each variant forced on its own where a provider reads its
  // knobs (main.cpp): with and without the chunk plan, then each kernel (with the default
  // mapping), so a row names what it timed.
  c.variants = {{"default", {}, {}},
                {"plan", {{"VT_CONV_EXACT_CHUNKS", 1}}, {}},
                {"no-plan", {{"VT_CONV_EXACT_CHUNKS", 0}}, {}},
                {"reg", {{"VT_CONV_REG", 1}, {"VT_CONV_CHANNEL_TILE", 0}}, {}},
                {"tiled", {{"VT_CONV_REG", 0}, {"VT_CONV_CHANNEL_TILE", 0}}, {}},
                switched("tile1", "VT_CONV_CHANNEL_TILE", 1),
                switched("tile2", "VT_CONV_CHANNEL_TILE", 2),
                // x staged by bulk copies or not, whatever the shape (whole-sequence mapping,
                // which the default measures fastest).
                {"staged", {{"VT_CONV_EXACT_CHUNKS", 0}, {"VT_CONV_STAGE_X", 1}}, {}},
                {"unstaged", {{"VT_CONV_EXACT_CHUNKS", 0}, {"VT_CONV_STAGE_X", 0}}, {}},
                // One sequence by the general kernel (a short prompt takes its own by default).
                {"general", {{"VT_CONV_EXACT_CHUNKS", 0}, {"VT_CONV_ONE_SEQUENCE", 0}}, {}},
                // One long sequence in the mapping's own programs, or guided in its grid (form 1); the
                // default is form 2 (launch_geometry.hpp's conv_fwd_guided).
                {"unguided", {{"VT_CONV_EXACT_CHUNKS", 0}, {"VT_CONV_GUIDED", 0}}, {}},
                {"guided1", {{"VT_CONV_EXACT_CHUNKS", 0}, {"VT_CONV_GUIDED", 1}}, {}},
                kWithoutFast};
  return c;
}

BenchCase update_case(int64_t batch, bool model_values) {
  BenchCase c;
  c.name = "conv_update/C8192/B" + std::to_string(batch);
  c.group = "causal_conv1d_update";
  c.op = VT_OP_CAUSAL_CONV1D_UPDATE;
  c.make = [=, name = c.name](uint64_t seed) {
    opcheck::ConvUpdateParams p;
    p.channels = channels_for(32);
    p.width = 4;
    p.x = p.weight = p.out = DType::bf16;
    p.state = DType::f32;
    p.batch = batch;
    p.padding = 0;
    p.silu = true;
    p.model_values = model_values;
    return opcheck::make_case(name, p, seed);
  };
  c.variants = {{"default", {}, {}}, switched("generic", "VT_CONV_REG", 0), kWithoutFast};
  return c;
}

BenchCase post_conv_case(int64_t tokens, int64_t hv) {
  BenchCase c;
  c.name = "post_conv/C" + std::to_string(channels_for(hv)) + "/T" + std::to_string(tokens);
  c.group = "gdn_post_conv";
  c.op = VT_OP_GDN_POST_CONV;
  c.make = [=, name = c.name](uint64_t seed) {
    opcheck::PostConvParams p;
    p.tokens = tokens;
    p.key_heads = 16;
    p.value_heads = hv;
    p.key_dim = p.value_dim = 128;
    p.in = p.gate = p.out = DType::bf16;
    p.l2norm = true;
    return opcheck::make_case(name, p, seed);
  };
  c.variants = {{"default", {}, {}}, switched("tok-tile", "VT_GDN_POSTCONV_TOKEN_TILE", 1), kWithoutFast};
  return c;
}

// N sequences with lengths drawn from [lo, hi], seeded so every run times the same batch.
std::vector<int32_t> short_sequences(int n, int lo, int hi) {
  opcheck::Rng rng(7);
  std::vector<int32_t> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<int32_t>(rng.uniform_int(lo, hi)));
  return v;
}

}  // namespace

std::vector<BenchCase> catalogue(bool quick, bool model_values) {
  std::vector<BenchCase> cases;
  const std::vector<int32_t> prefill_tokens =
      quick ? std::vector<int32_t>{128, 1024} : std::vector<int32_t>{128, 256, 1024, 8192, 16384, 65536};
  for (int32_t t : prefill_tokens)
    cases.push_back(conv_fwd_case("conv_fwd/C8192/T" + std::to_string(t), "causal_conv1d_fwd, one sequence",
                                  channels_for(32), {t}, model_values));
  if (!quick) {
    for (int64_t hv : {16, 48, 64})
      cases.push_back(conv_fwd_case("conv_fwd/C" + std::to_string(channels_for(hv)) + "/T16384",
                                    "causal_conv1d_fwd, one sequence", channels_for(hv), {16384}, model_values));
  }
  // f16 activations and weights, which the kernels treat apart from bf16 (SiLU's narrowing):
  // prompts too short for bf16's staged kernel and long enough for it, and short sequences,
  // each a shape the f16 staging rule (conv_fwd_stages_x) decides.
  if (!quick)
    for (int32_t t : {1024, 8192, 16384, 65536})
      cases.push_back(conv_fwd_case("conv_fwd/f16/C8192/T" + std::to_string(t), "causal_conv1d_fwd, one sequence, f16",
                                    channels_for(32), {t}, model_values, DType::f16));
  for (DType activations : quick ? std::vector<DType>{DType::bf16} : std::vector<DType>{DType::bf16, DType::f16}) {
    const bool f16 = activations == DType::f16;
    cases.push_back(conv_fwd_case(std::string("conv_fwd/") + (f16 ? "f16/" : "") + "C8192/N256xL8-64",
                                  std::string("causal_conv1d_fwd, 256 short sequences") + (f16 ? ", f16" : ""),
                                  channels_for(32), short_sequences(quick ? 16 : 256, 8, 64), model_values,
                                  activations));
  }
  for (int64_t b : quick ? std::vector<int64_t>{1, 64} : std::vector<int64_t>{1, 8, 64, 128, 256, 512})
    cases.push_back(update_case(b, model_values));
  for (int64_t t : quick ? std::vector<int64_t>{128, 1024} : std::vector<int64_t>{128, 1024, 8192, 65536})
    cases.push_back(post_conv_case(t, 32));
  if (!quick) cases.push_back(post_conv_case(8192, 64));
  return cases;
}

}  // namespace vt::bench
