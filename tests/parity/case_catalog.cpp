#include "case_catalog.hpp"

#include <fnmatch.h>

#include <algorithm>

#include "vt/opcheck/gdn_cases.hpp"
#include "vt/ops/launch_geometry.hpp"

namespace vt::parity {
namespace {

using opcheck::ConvFwdParams;
using opcheck::ConvUpdateParams;
using opcheck::GatingParams;
using opcheck::L2NormParams;
using opcheck::PostConvParams;
using opcheck::SplitParams;

constexpr vt_op_id op_of(const ConvFwdParams&) { return VT_OP_CAUSAL_CONV1D_FWD; }
constexpr vt_op_id op_of(const ConvUpdateParams&) { return VT_OP_CAUSAL_CONV1D_UPDATE; }
constexpr vt_op_id op_of(const PostConvParams&) { return VT_OP_GDN_POST_CONV; }
constexpr vt_op_id op_of(const L2NormParams&) { return VT_OP_L2NORM; }
constexpr vt_op_id op_of(const GatingParams&) { return VT_OP_GDN_GATING; }
constexpr vt_op_id op_of(const SplitParams&) { return VT_OP_GDN_SPLIT; }

class Catalog {
 public:
  // A case: the op's default parameters changed by `edit`.
  template <class Params, class Edit>
  void add(const std::string& name, Edit edit) {
    Params p;
    edit(p);
    cases_.push_back({name, op_of(p), [name, p](uint64_t seed) { return opcheck::make_case(name, p, seed); }});
  }
  std::vector<CaseSpec> take() { return std::move(cases_); }

 private:
  std::vector<CaseSpec> cases_;
};

std::string tag(DType t) { return std::string(dtype_name(t)); }

constexpr DType kActivations[] = {DType::f32, DType::f16, DType::bf16};

// "f32 or x's dtype": one choice when x is f32.
std::vector<DType> f32_or(DType x) {
  return x == DType::f32 ? std::vector<DType>{DType::f32} : std::vector<DType>{DType::f32, x};
}

// Every conv dtype combination: x f32, f16 or bf16; weight, out and state each f32 or x's.
template <class F>
void for_each_conv_dtypes(F f) {
  for (DType x : kActivations)
    for (DType w : f32_or(x))
      for (DType o : f32_or(x))
        for (DType s : f32_or(x)) f(x, w, o, s);
}

void conv_fwd_cases(Catalog& c) {
  for (int64_t k = 2; k <= 8; ++k)
    c.add<ConvFwdParams>("fwd_k" + std::to_string(k), [k](ConvFwdParams& p) {
      p.width = k;
      p.lengths = {6, 1, 9, 2};  // lengths below W once K > 3
      p.silu = k % 2 == 0;
    });
  for_each_conv_dtypes([&](DType x, DType w, DType o, DType s) {
    c.add<ConvFwdParams>("fwd_x" + tag(x) + "_w" + tag(w) + "_out" + tag(o) + "_state" + tag(s), [=](ConvFwdParams& p) {
      p.channels = 100;
      p.x = x, p.weight = w, p.out = o, p.state = s;
      p.lengths = {7, 3, 0, 5};
    });
  });
  c.add<ConvFwdParams>("fwd_c3", [](ConvFwdParams& p) { p.channels = 3; });
  c.add<ConvFwdParams>("fwd_short_seqs", [](ConvFwdParams& p) {
    p.width = 6;
    p.lengths = {1, 2, 1, 4};
    p.initial = ConvFwdParams::Initial::all;
  });
  c.add<ConvFwdParams>("fwd_empty_seqs", [](ConvFwdParams& p) { p.lengths = {0, 4, 0, 3, 0}; });
  c.add<ConvFwdParams>("fwd_t0", [](ConvFwdParams& p) { p.lengths = {0, 0}; });
  c.add<ConvFwdParams>("fwd_n0", [](ConvFwdParams& p) { p.lengths = {}; });
  c.add<ConvFwdParams>("fwd_padding", [](ConvFwdParams& p) {
    p.lengths = {4, 5, 2, 3, 6};
    p.slots = {3, -1, 0, -7, 5};
    p.num_slots = 7;
  });
  c.add<ConvFwdParams>("fwd_slot_out_of_range", [](ConvFwdParams& p) {
    p.lengths = {4, 3, 5};
    p.slots = {1, 9, 0};
    p.num_slots = 4;
    p.host_indices = false;  // validation would reject the slot; the kernel must skip it
  });
  c.add<ConvFwdParams>("fwd_initial_absent", [](ConvFwdParams& p) { p.initial = ConvFwdParams::Initial::absent; });
  c.add<ConvFwdParams>("fwd_initial_all", [](ConvFwdParams& p) { p.initial = ConvFwdParams::Initial::all; });
  c.add<ConvFwdParams>("fwd_initial_i32", [](ConvFwdParams& p) {
    p.lengths = {3, 4, 5, 6};
    p.initial_dtype = DType::i32;
  });
  c.add<ConvFwdParams>("fwd_stateless", [](ConvFwdParams& p) {
    p.stateless = true;
    p.initial = ConvFwdParams::Initial::absent;
    p.lengths = {5, 0, 8};
  });
  c.add<ConvFwdParams>("fwd_stateless_plan", [](ConvFwdParams& p) {
    p.stateless = true;
    p.initial = ConvFwdParams::Initial::absent;
    p.lengths = {5, 0, 19};
    p.plan_chunk = 8;
  });
  for (int32_t chunk : {1, 3, 8})
    c.add<ConvFwdParams>("fwd_plan_chunk" + std::to_string(chunk), [chunk](ConvFwdParams& p) {
      p.lengths = {9, 0, 17, 1, 4};
      p.slots = {2, 4, -1, 0, 1};
      p.num_slots = 6;
      p.plan_chunk = chunk;
    });
  c.add<ConvFwdParams>("fwd_state_swc", [](ConvFwdParams& p) { p.transposed_state = true; });
  c.add<ConvFwdParams>("fwd_state_swc_bf16", [](ConvFwdParams& p) {
    p.transposed_state = true;
    p.x = p.state = p.out = DType::bf16;
    p.width = 3;
  });
  c.add<ConvFwdParams>("fwd_row_views", [](ConvFwdParams& p) {
    p.x_row_extra = 13;
    p.out_row_extra = 5;
    p.x = DType::bf16;
  });
  c.add<ConvFwdParams>("fwd_no_silu_no_bias", [](ConvFwdParams& p) {
    p.silu = false;
    p.bias = false;
  });
  c.add<ConvFwdParams>("fwd_nan_inf_silu", [](ConvFwdParams& p) {
    p.specials = true;
    p.lengths = {12, 9};
  });
  c.add<ConvFwdParams>("fwd_nan_inf_bf16", [](ConvFwdParams& p) {  // the GPUs' bf16 SiLU packets
    p.specials = true;
    p.channels = 64;
    p.x = p.weight = p.out = DType::bf16;
    p.lengths = {12, 9, 20};
  });
  c.add<ConvFwdParams>("fwd_nan_inf_f16", [](ConvFwdParams& p) {
    p.specials = true;
    p.silu = false;
    p.x = p.out = p.state = DType::f16;
    p.lengths = {12, 9};
  });
  c.add<ConvFwdParams>("fwd_medium", [](ConvFwdParams& p) {  // a few hundred tokens over a wider row
    p.channels = 200;
    p.x = p.out = DType::bf16;
    p.lengths = {90, 1, 0, 64, 33};
    p.plan_chunk = 8;
  });
  c.add<ConvFwdParams>("fwd_long_programs", [](ConvFwdParams& p) {  // 64-token programs when the plan is followed
    p.channels = 260;
    p.x = p.weight = p.out = DType::bf16;
    p.lengths = {300, 5, 0, 131, 2};
    p.plan_chunk = 64;
  });
  c.add<ConvFwdParams>("fwd_many_seqs", [](ConvFwdParams& p) {  // long no-plan sequence searches; warps partly past C
    p.channels = 66;
    p.x = p.weight = p.out = DType::bf16;
    p.lengths.clear();
    for (int32_t n = 0; n < 1100; ++n) p.lengths.push_back(n * 7 % 11 == 3 ? 0 : n * 5 % 13);  // 0..12, some empty
    p.plan_chunk = 8;
  });
  // CUDA's staged x (VT_CONV_STAGE_X=1: 128-token programs): two whole channel blocks and a
  // partial one, 16-byte rows, programs of 8 stages, of 2 and a rest, and shorter than one.
  c.add<ConvFwdParams>("fwd_staged_x", [](ConvFwdParams& p) {
    p.channels = 520;
    p.x = p.weight = p.out = DType::bf16;
    p.lengths = {300, 5, 0, 131, 19, 2};
    p.slots = {3, 0, 5, 1, -1, 2};
    p.num_slots = 6;
  });
  // The same block shape with NaN, inf and subnormal x: the special-value cases above are one
  // channel block wide or less, so they never reach the staged loop's SiLU.
  c.add<ConvFwdParams>("fwd_staged_x_nan_inf", [](ConvFwdParams& p) {
    p.specials = true;
    p.channels = 520;
    p.x = p.weight = p.out = DType::bf16;
    p.lengths = {300, 131, 7};
  });
  // CUDA's whole short programs (the arms test's VT_CONV_STAGE_X=1 arm, where sequences
  // average at most 64 tokens): two whole channel blocks and a partial one; a 150-token
  // sequence whose first 128-token program takes two 64-row pieces and whose second reads
  // its context from x; a program of exactly 64 rows, programs of one row, an empty
  // sequence, a padded one.
  c.add<ConvFwdParams>("fwd_whole_x", [](ConvFwdParams& p) {
    p.channels = 520;
    p.x = p.weight = p.out = DType::bf16;
    p.lengths = {150, 5, 0, 64, 40, 2, 9, 33, 1, 17};
    p.slots = {3, 0, 9, 6, 5, -1, 8, 2, 7, 4};
    p.num_slots = 10;
  });
  // CUDA's guided programs (the arms test's VT_CONV_GUIDED=0, 1 and 2 with VT_CONV_STAGE_X=1):
  // one sequence of 9000 tokens, in 71 programs a channel block (1: 43 of 176 tokens, 22 of
  // 64 and one of 24, the rest empty) or 135 (2: 68 of 80, 48 of 64, 15 of 32 and one of 8);
  // two whole channel blocks and a partial one; the old state read by the first program and
  // rolled by it.
  c.add<ConvFwdParams>("fwd_guided", [](ConvFwdParams& p) {
    p.channels = 520;
    p.x = p.weight = p.out = DType::bf16;
    p.lengths = {9000};
    p.initial = ConvFwdParams::Initial::all;
  });
  // Over 65535 programs (CUDA's grid needs a z slice) and 167k tokens on one channel block,
  // so that programs without a plan are as long as CUDA makes them (128 tokens).
  c.add<ConvFwdParams>("fwd_grid_z", [](ConvFwdParams& p) {
    p.channels = 2;
    p.x = p.weight = p.out = DType::bf16;
    p.lengths.assign(66000, 1);
    for (size_t n = 0; n < p.lengths.size(); n += 97) p.lengths[n] = n % 2 ? 0 : 300;
  });
  // One sequence (CUDA's one-sequence kernel, where its programs are 4 or 8 tokens): two whole
  // channel blocks and part of one, a length that is no multiple of a program, and below
  // the states and layouts that kernel leaves to the general one.
  auto one_seq = [&c](std::string name, std::vector<int32_t> lengths, auto more) {
    c.add<ConvFwdParams>("fwd_one_seq" + name, [lengths, more](ConvFwdParams& p) {
      p.channels = 520;
      p.x = p.weight = p.out = DType::bf16;
      p.lengths = lengths;
      p.initial = ConvFwdParams::Initial::all;
      more(p);
    });
  };
  auto as_is = [](ConvFwdParams&) {};
  one_seq("", {37}, as_is);
  one_seq("_f16_linear", {21}, [](ConvFwdParams& p) {
    p.x = p.weight = p.out = DType::f16;
    p.silu = false;
    p.bias = false;
    p.initial = ConvFwdParams::Initial::absent;
  });
  one_seq("_shorter_than_state", {2}, as_is);  // the new state keeps an old column
  one_seq("_linear_shorter_than_state", {2}, [](ConvFwdParams& p) { p.silu = false; });  // the roller's last program
  one_seq("_one_token_fresh", {1}, [](ConvFwdParams& p) { p.initial = ConvFwdParams::Initial::absent; });
  one_seq("_i32_initial", {11}, [](ConvFwdParams& p) { p.initial_dtype = DType::i32; });
  one_seq("_padding", {9}, [](ConvFwdParams& p) {
    p.slots = {-1};
    p.num_slots = 3;
  });
  one_seq("_slot_out_of_range", {9}, [](ConvFwdParams& p) {
    p.slots = {5};
    p.num_slots = 3;
    p.host_indices = false;  // validation would reject the slot; the kernel must skip it
  });
  one_seq("_stateless", {13}, [](ConvFwdParams& p) {
    p.stateless = true;
    p.initial = ConvFwdParams::Initial::absent;
  });
  one_seq("_nan_inf", {40}, [](ConvFwdParams& p) { p.specials = true; });
  one_seq("_row_views", {19}, [](ConvFwdParams& p) {
    p.x_row_extra = 14;
    p.out_row_extra = 6;
  });
  one_seq("_chunk8", {1700}, [](ConvFwdParams& p) { p.channels = 1032; });  // 5 channel blocks: 8-token programs
  one_seq("_chunk8_linear", {1700}, [](ConvFwdParams& p) {                  // the 8-token programs without SiLU
    p.channels = 1032;
    p.silu = false;
  });
  one_seq("_bf16_state", {10}, [](ConvFwdParams& p) { p.state = DType::bf16; });     // the general kernel
  one_seq("_state_swc", {10}, [](ConvFwdParams& p) { p.transposed_state = true; });  // the general kernel
  one_seq("_f32_weights", {10}, [](ConvFwdParams& p) { p.weight = DType::f32; });    // the general kernel
  c.add<ConvFwdParams>("fwd_model_values", [](ConvFwdParams& p) {  // vt-bench's inputs: every SiLU on its fast path
    p.channels = 200;
    p.x = p.weight = p.out = DType::bf16;
    p.lengths = {70, 9};
    p.model_values = true;
  });
}

void conv_update_cases(Catalog& c) {
  for (int64_t k = 2; k <= 8; ++k)
    c.add<ConvUpdateParams>("upd_k" + std::to_string(k), [k](ConvUpdateParams& p) {
      p.width = k;
      p.tokens = k % 2 ? 0 : 2;
    });
  for_each_conv_dtypes([&](DType x, DType w, DType o, DType s) {
    c.add<ConvUpdateParams>("upd_x" + tag(x) + "_w" + tag(w) + "_out" + tag(o) + "_state" + tag(s),
                            [=](ConvUpdateParams& p) {
                              p.x = x, p.weight = w, p.out = o, p.state = s;
                              p.tokens = 2;
                            });
  });
  c.add<ConvUpdateParams>("upd_bc", [](ConvUpdateParams& p) { p.tokens = 0; });
  c.add<ConvUpdateParams>("upd_blc", [](ConvUpdateParams& p) { p.tokens = 4; });
  c.add<ConvUpdateParams>("upd_in_place_bc", [](ConvUpdateParams& p) { p.in_place = true; });
  c.add<ConvUpdateParams>("upd_in_place_blc_bf16", [](ConvUpdateParams& p) {
    p.in_place = true;
    p.tokens = 3;
    p.x = p.state = DType::bf16;
  });
  c.add<ConvUpdateParams>("upd_no_indices", [](ConvUpdateParams& p) {
    p.indices = false;
    p.tokens = 2;
  });
  c.add<ConvUpdateParams>("upd_no_indices_in_place", [](ConvUpdateParams& p) {
    p.indices = false;
    p.in_place = true;
  });
  c.add<ConvUpdateParams>("upd_padding", [](ConvUpdateParams& p) {
    p.batch = 7;
    p.padding = 3;
    p.tokens = 2;
  });
  c.add<ConvUpdateParams>("upd_all_padding", [](ConvUpdateParams& p) { p.padding = p.batch; });
  c.add<ConvUpdateParams>("upd_model_values", [](ConvUpdateParams& p) {  // as vt-bench's decode inputs
    p.channels = 200;
    p.x = p.weight = p.out = DType::bf16;
    p.model_values = true;
  });
  c.add<ConvUpdateParams>("upd_state_swc", [](ConvUpdateParams& p) {
    p.transposed_state = true;
    p.tokens = 3;
  });
  c.add<ConvUpdateParams>("upd_row_view", [](ConvUpdateParams& p) {
    p.x_row_extra = 11;
    p.tokens = 2;
  });
  c.add<ConvUpdateParams>("upd_no_silu_no_bias", [](ConvUpdateParams& p) {
    p.silu = false;
    p.bias = false;
  });
  c.add<ConvUpdateParams>("upd_nan_inf", [](ConvUpdateParams& p) {
    p.specials = true;
    p.tokens = 3;
  });
  c.add<ConvUpdateParams>("upd_no_host_indices", [](ConvUpdateParams& p) { p.host_indices = false; });
  c.add<ConvUpdateParams>("upd_medium", [](ConvUpdateParams& p) {
    p.channels = 300;
    p.batch = 24;
    p.padding = 4;
    p.x = p.out = DType::bf16;
  });
  // Channels in groups of four, an f32 state with dense rows, x and out of one type and
  // weights of x's type or f32: the calls whose channels a kernel may take four at a time
  // (launch_geometry.hpp, ConvUpdateShape). 1028 channels: 257 groups, not a whole number of
  // blocks.
  // Each such case runs at two batches, either side of the CUDA kernel's state hint, which it
  // gives where the grid holds more blocks than the device runs at once (ConvUpdateShape::
  // wave_blocks), so that both of its forms run on any current GPU: the large batch's grid
  // outgrows 170 SMs of 8 blocks (the most 256-thread blocks an SM of 2048 threads holds), the
  // small one's fits 48 SMs of 2 (K = 8's 93 registers a thread on sm_90 leave room for 2).
  constexpr int64_t kWordsChannels = 1028, kWordsBatch = 1024, kWordsSmallBatch = 64;
  constexpr auto words_blocks = [](int64_t batch) {
    const auto g = vt::ops::geometry::conv_update_geometry({batch, kWordsChannels, true});
    return g.grid_x * g.grid_y;
  };
  static_assert(words_blocks(kWordsBatch) > 170 * 8 && words_blocks(kWordsSmallBatch) <= 48 * 2,
                "the word cases' two batches lie on either side of the state hint's wave");
  auto words = [](ConvUpdateParams& p) {
    p.channels = kWordsChannels;
    p.batch = kWordsBatch;
  };
  for (const int64_t batch : {kWordsBatch, kWordsSmallBatch}) {
    const bool small = batch == kWordsSmallBatch;
    for (int64_t k = 2; k <= 8; ++k)
      c.add<ConvUpdateParams>((small ? "upd_words_small_batch_k" : "upd_words_k") + std::to_string(k),
                              [k, batch, small, words](ConvUpdateParams& p) {
                                words(p);
                                p.batch = batch;
                                if (small) p.padding = 2;
                                p.width = k;
                                p.x = p.out = p.weight = DType::bf16;
                                // Each width with a token axis at one batch and without at the other.
                                p.tokens = (k % 2 != 0) == small ? 3 : 0;
                              });
  }
  for (DType x : kActivations) {
    const DType weights[] = {x, DType::f32};
    for (int i = 0; i < (x == DType::f32 ? 1 : 2); ++i) {
      const DType w = weights[i];
      for (const int64_t batch : {kWordsBatch, kWordsSmallBatch})
        c.add<ConvUpdateParams>(
            "upd_words_x" + tag(x) + "_w" + tag(w) + (batch == kWordsSmallBatch ? "_small_batch" : ""),
            [=](ConvUpdateParams& p) {
              words(p);
              p.batch = batch;
              p.x = p.out = x;
              p.weight = w;
              p.tokens = 2;
            });
    }
  }
  c.add<ConvUpdateParams>("upd_words_in_place", [=](ConvUpdateParams& p) {
    words(p);
    p.x = p.out = p.weight = DType::bf16;
    p.in_place = true;
    p.tokens = 3;
  });
  c.add<ConvUpdateParams>("upd_words_nan_inf", [=](ConvUpdateParams& p) {
    words(p);
    p.x = p.out = DType::bf16;
    p.specials = true;
    p.tokens = 3;
  });
  // An odd batch: the four-channel kernel's block holds kUpdateWordsSequences sequences, so
  // its last block's second lies past the call; padding sequences around it.
  c.add<ConvUpdateParams>("upd_words_odd_batch", [=](ConvUpdateParams& p) {
    words(p);
    p.batch = 257;
    p.padding = 5;
    p.x = p.out = p.weight = DType::bf16;
  });
  // Decode of one sequence, and of one padding sequence: a block whose second sequence lies
  // past the call, and one that writes nothing.
  for (int64_t padding : {0, 1})
    c.add<ConvUpdateParams>(padding ? "upd_words_one_padding" : "upd_words_one_sequence", [=](ConvUpdateParams& p) {
      words(p);
      p.batch = 1;
      p.padding = padding;
      p.x = p.out = p.weight = DType::bf16;
    });
  c.add<ConvUpdateParams>("upd_words_no_silu_no_bias_f16", [=](ConvUpdateParams& p) {
    words(p);
    p.x = p.out = DType::f16;
    p.silu = false;
    p.bias = false;
  });
}

void post_conv_cases(Catalog& c) {
  for (DType in : kActivations)
    for (DType gate : f32_or(in))
      for (DType out : f32_or(in)) {
        c.add<PostConvParams>("post_in" + tag(in) + "_gate" + tag(gate) + "_out" + tag(out),
                              [=](PostConvParams& p) { p.in = in, p.gate = gate, p.out = out; });
      }
  c.add<PostConvParams>("post_no_l2norm", [](PostConvParams& p) { p.l2norm = false; });
  c.add<PostConvParams>("post_no_l2norm_bf16", [](PostConvParams& p) {
    p.l2norm = false;
    p.in = p.out = DType::bf16;
  });
  for (DType in : kActivations)
    c.add<PostConvParams>("post_special_rows_" + tag(in), [in](PostConvParams& p) {
      p.in = p.out = in;
      p.tokens = 10;
      p.special_rows = true;
    });
  c.add<PostConvParams>("post_softplus_threshold", [](PostConvParams& p) { p.softplus_threshold = true; });
  c.add<PostConvParams>("post_softplus_threshold_bf16", [](PostConvParams& p) {
    p.softplus_threshold = true;
    p.in = p.gate = DType::bf16;
  });
  c.add<PostConvParams>("post_row_views", [](PostConvParams& p) { p.row_extra = 9; });
  c.add<PostConvParams>("post_hv_eq_hk", [](PostConvParams& p) {
    p.key_heads = p.value_heads = 3;
    p.key_dim = 40;
    p.value_dim = 24;
  });
  c.add<PostConvParams>("post_hv_3hk_dk8_dv256", [](PostConvParams& p) {
    p.tokens = 3;
    p.key_heads = 1;
    p.value_heads = 3;
    p.key_dim = 8;
    p.value_dim = 256;
  });
  // Rows of up to 256 (the longest a kernel may read in one go) and ragged lengths, and more
  // q/k rows than one block pass covers, in 16-bit and f32 rows.
  for (DType in : {DType::f32, DType::bf16}) {
    c.add<PostConvParams>("post_dk256_" + tag(in), [in](PostConvParams& p) {
      p.tokens = 3;
      p.key_heads = p.value_heads = 2;
      p.key_dim = 256;
      p.value_dim = 16;
      p.in = p.out = in;
    });
    c.add<PostConvParams>("post_dk200_" + tag(in), [in](PostConvParams& p) {
      p.tokens = 3;
      p.key_heads = 1;
      p.value_heads = 2;
      p.key_dim = 200;
      p.in = p.out = in;
    });
    c.add<PostConvParams>("post_many_heads_" + tag(in), [in](PostConvParams& p) {
      p.tokens = 3;
      p.key_heads = p.value_heads = 40;
      p.key_dim = 16;
      p.value_dim = 8;
      p.in = p.out = in;
    });
  }
  c.add<PostConvParams>("post_medium_dk128", [](PostConvParams& p) {
    p.tokens = 24;
    p.key_dim = p.value_dim = 128;
    p.in = p.out = p.gate = DType::bf16;
  });
}

void l2norm_cases(Catalog& c) {
  for (DType in : kActivations)
    for (DType out : f32_or(in)) {
      c.add<L2NormParams>("l2n_rank2_in" + tag(in) + "_out" + tag(out),
                          [=](L2NormParams& p) { p.in = in, p.out = out; });
    }
  c.add<L2NormParams>("l2n_rank3", [](L2NormParams& p) {
    p.rows = 4;
    p.heads = 3;
    p.dim = 40;
  });
  c.add<L2NormParams>("l2n_rank3_row_view_bf16", [](L2NormParams& p) {
    p.rows = 4;
    p.heads = 3;
    p.dim = 24;
    p.row_extra = 8;
    p.in = DType::bf16;
  });
  c.add<L2NormParams>("l2n_rank2_row_view", [](L2NormParams& p) { p.row_extra = 5; });
  for (int64_t d : {1, 8, 33, 256})
    c.add<L2NormParams>("l2n_dim" + std::to_string(d), [d](L2NormParams& p) { p.dim = d; });
  c.add<L2NormParams>("l2n_special_rows", [](L2NormParams& p) {
    p.rows = 10;
    p.special_rows = true;
  });
  c.add<L2NormParams>("l2n_special_rows_eps0", [](L2NormParams& p) {  // a tiny row's norm is 0: 1/sqrt(0) = inf
    p.rows = 10;
    p.special_rows = true;
    p.eps = 0.0f;
  });
}

void gating_cases(Catalog& c) {
  for (DType gate : kActivations) c.add<GatingParams>("gate_" + tag(gate), [gate](GatingParams& p) { p.gate = gate; });
  c.add<GatingParams>("gate_softplus_threshold", [](GatingParams& p) { p.softplus_threshold = true; });
  c.add<GatingParams>("gate_row_view_bf16", [](GatingParams& p) {
    p.row_extra = 6;
    p.gate = DType::bf16;
  });
  c.add<GatingParams>("gate_nan_inf", [](GatingParams& p) {
    p.specials = true;
    p.tokens = 12;
  });
}

void split_cases(Catalog& c) {
  for (DType in : kActivations)
    for (DType out : f32_or(in)) {
      c.add<SplitParams>("split_in" + tag(in) + "_out" + tag(out), [=](SplitParams& p) { p.in = in, p.out = out; });
    }
  c.add<SplitParams>("split_row_view", [](SplitParams& p) { p.row_extra = 7; });
  c.add<SplitParams>("split_nan_inf_bf16", [](SplitParams& p) {
    p.specials = true;
    p.in = DType::bf16;
  });
}

}  // namespace

const std::vector<CaseSpec>& case_catalog() {
  static const std::vector<CaseSpec> cases = [] {
    Catalog c;
    conv_fwd_cases(c);
    conv_update_cases(c);
    post_conv_cases(c);
    l2norm_cases(c);
    gating_cases(c);
    split_cases(c);
    return c.take();
  }();
  return cases;
}

CaseSelection representative_cases() {
  static constexpr const char* kPatterns[] = {
      // causal_conv1d_fwd
      "fwd_k4", "fwd_k7", "fwd_xf16_wf32_outf16_statef16", "fwd_xbf16_wbf16_outbf16_statebf16", "fwd_empty_seqs",
      "fwd_padding", "fwd_slot_out_of_range", "fwd_initial_i32", "fwd_stateless", "fwd_stateless_plan",
      "fwd_plan_chunk*", "fwd_state_swc_bf16", "fwd_row_views", "fwd_nan_inf_silu",
      // causal_conv1d_update
      "upd_k3", "upd_k8", "upd_xbf16_wbf16_outbf16_statebf16", "upd_blc", "upd_in_place_bc", "upd_in_place_blc_bf16",
      "upd_no_indices", "upd_padding", "upd_all_padding", "upd_state_swc", "upd_row_view", "upd_no_host_indices",
      "upd_nan_inf", "upd_words_k4", "upd_words_in_place", "upd_words_nan_inf", "upd_words_odd_batch",
      "upd_words_one_sequence", "upd_words_one_padding",
      // gdn_post_conv
      "post_inf32_gatef32_outf32", "post_inf16_gatef16_outf16", "post_inbf16_gatebf16_outbf16", "post_no_l2norm",
      "post_special_rows_*", "post_softplus_threshold", "post_row_views", "post_hv_3hk_dk8_dv256",
      // l2norm, gdn_gating, gdn_split
      "l2n_rank2_inf32_outf32", "l2n_rank2_inbf16_outbf16", "l2n_rank3_row_view_bf16", "l2n_dim33", "l2n_special_rows",
      "gate_*", "split_*"};
  CaseSelection out;
  for (const char* pattern : kPatterns) {
    bool matched = false;
    for (const CaseSpec& spec : case_catalog()) {
      if (fnmatch(pattern, spec.name.c_str(), 0) != 0) continue;
      matched = true;
      if (std::find(out.cases.begin(), out.cases.end(), &spec) == out.cases.end()) out.cases.push_back(&spec);
    }
    if (!matched) out.missing.push_back(pattern);
  }
  return out;
}

}  // namespace vt::parity
