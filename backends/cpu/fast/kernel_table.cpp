// This variant's kernels as one table for the dispatcher.
#include "entries.hpp"

// Data, not code: the variant's namespace without its target (clang rejects a target region
// that declares no function).
namespace vt::cpu::fast::VT_FAST_NS {

extern const Kernels kKernels = {conv_fwd_tasks,   conv_update_tasks, gdn_post_conv_tokens,
                                 gdn_split_tokens, l2norm_rows,       gdn_gating_tokens};

}  // namespace vt::cpu::fast::VT_FAST_NS
