// causal_conv1d_update (ops.md section 2): decode, L >= 1 tokens per sequence, in place or not.
#include <new>
#include <vector>

#include "conv_channel.hpp"
#include "vt/reference/reference.hpp"

namespace vt::reference {
namespace {

// Element [b, t, c] of x or out viewed as [B, L, C] through the derived strides.
char* token(const vt_tensor& v, int64_t seq_stride, int64_t tok_stride, int64_t b, int64_t t, int64_t c) {
  return element(v) + (b * seq_stride + t * tok_stride + c * v.strides[v.rank - 1]) * element_size(v.dtype);
}

}  // namespace

vt_status causal_conv1d_update(const vt_causal_conv1d_update_args& args) {
  const int64_t L = args.tokens_per_seq, C = args.channels;
  // A sequence's tokens are read in full before any of its outputs is written, so out may
  // be x itself; later tokens then see earlier ones at x's precision.
  std::vector<float> tokens;
  try {
    tokens.resize(static_cast<size_t>(L * C));
  } catch (const std::bad_alloc&) {
    return VT_STATUS_OUT_OF_MEMORY;
  }
  for (int64_t b = 0; b < args.batch; ++b) {
    const int64_t slot = present(args.state_indices) ? load_int(args.state_indices, b) : b;
    if (slot < 0 || slot >= args.num_slots) continue;  // padding or out of range: skipped
    for (int64_t t = 0; t < L; ++t)
      for (int64_t c = 0; c < C; ++c)
        tokens[t * C + c] = load_float(args.x.dtype, token(args.x, args.x_seq_stride, args.x_tok_stride, b, t, c));
    for (int64_t c = 0; c < C; ++c) {
      detail::ConvChannel ch(args.weight, args.bias, c, args.activation);
      ch.load_context(args.conv_state, slot);
      for (int64_t t = 0; t < L; ++t)
        store_float(args.out.dtype, token(args.out, args.out_seq_stride, args.out_tok_stride, b, t, c),
                    ch.step(tokens[t * C + c]));
      ch.store_context(args.conv_state, slot);
    }
  }
  return VT_OK;
}

}  // namespace vt::reference
