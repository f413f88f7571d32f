// What an accepted call promises a provider, re-derived from the raw views without the
// checker's code: every touched byte inside its buffer, outputs apart from inputs and from
// each other, extents that agree, allowed dtypes, and derived fields that match. A broken
// promise traps.
#pragma once
#include "fuzz_input.hpp"

namespace fuzz {

void check_accepted(const vt::ops::CausalConv1dFwd& a, const vt_causal_conv1d_fwd_args& r);
void check_accepted(const vt::ops::CausalConv1dUpdate& a, const vt_causal_conv1d_update_args& r);
void check_accepted(const vt::ops::GdnPostConv& a, const vt_gdn_post_conv_args& r);
void check_accepted(const vt::ops::GdnGating& a, const vt_gdn_gating_args& r);
void check_accepted(const vt::ops::GdnSplit& a, const vt_gdn_split_args& r);
void check_accepted(const vt::ops::L2Norm& a, const vt_l2norm_args& r);

}  // namespace fuzz
