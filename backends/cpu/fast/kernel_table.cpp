// This variant's kernels as one table for the dispatcher.
#include "entries.hpp"

VT_FAST_BEGIN

extern const Kernels kKernels = {conv_fwd_tasks,   conv_update_tasks, gdn_post_conv_tokens,
                                 gdn_split_tokens, l2norm_rows,       gdn_gating_tokens};

VT_FAST_END
