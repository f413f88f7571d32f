// The seam between the dispatcher (ops.cpp: threads, work split) and the kernels of one
// instruction-set variant (compiled twice, variant.hpp). A kernel runs tasks [first, end) of a
// call; what a task computes depends only on its index, never on the thread that runs it or
// on the other tasks in its range, so any partition gives the same bits.
#pragma once
#include <cstdint>

#include "vt/ops/gdn_args.h"

namespace vt::cpu::fast {

// Channels per conv task: a multiple of every vector width, and small enough that a task's
// buffers (K widened input rows, K tap rows) stay in L1.
inline constexpr int64_t kChannelBlock = 256;

// Prefill tasks: program p in [0, programs) x channel block b, task = p * blocks + b. Program
// p is a run of `chunk` tokens of one sequence (launch_geometry.hpp's sequence_chunk_of), and
// chunk >= W, so only a sequence's first program reads its old state: that program also
// writes the rolled state.
struct ConvFwdWork {
  const vt_causal_conv1d_fwd_args* args;
  int64_t chunk, blocks, programs;
};

// Decode tasks: sequence b x channel block, task = b * blocks + block.
struct ConvUpdateWork {
  const vt_causal_conv1d_update_args* args;
  int64_t blocks;
};

struct Kernels {
  void (*conv_fwd)(const ConvFwdWork& work, int64_t first, int64_t end);
  void (*conv_update)(const ConvUpdateWork& work, int64_t first, int64_t end);
  // Tasks are tokens (post-conv, split, gating) or rows (l2norm).
  void (*gdn_post_conv)(const vt_gdn_post_conv_args& args, int64_t first, int64_t end);
  void (*gdn_split)(const vt_gdn_split_args& args, int64_t first, int64_t end);
  void (*l2norm)(const vt_l2norm_args& args, int64_t first, int64_t end);
  void (*gdn_gating)(const vt_gdn_gating_args& args, int64_t first, int64_t end);
};

namespace baseline {
extern const Kernels kKernels;
}
namespace avx2 {
extern const Kernels kKernels;  // defined only where VT_FAST_HAVE_AVX2 is
}

}  // namespace vt::cpu::fast
