// The kernels one variant defines (kernels.hpp's table lists them).
#pragma once
#include <cstdint>

#include "kernels.hpp"
#include "variant.hpp"

VT_FAST_BEGIN

void conv_fwd_tasks(const ConvFwdWork& work, int64_t first, int64_t end);
void conv_update_tasks(const ConvUpdateWork& work, int64_t first, int64_t end);
void gdn_post_conv_tokens(const vt_gdn_post_conv_args& args, int64_t first, int64_t end);
void gdn_split_tokens(const vt_gdn_split_args& args, int64_t first, int64_t end);
void l2norm_rows(const vt_l2norm_args& args, int64_t first, int64_t end);
void gdn_gating_tokens(const vt_gdn_gating_args& args, int64_t first, int64_t end);

VT_FAST_END
