// The fast provider's entry points: how each call splits into tasks, and which variant's
// kernels run them.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>

#include "fast.hpp"
#include "kernels.hpp"
#include "threading.hpp"

namespace vt::cpu::fast {
namespace {

// Tokens per prefill program: long runs amortise the W-token halo every program re-reads.
// Never below W (at most 7), so only a sequence's first program touches its state.
constexpr int64_t kConvChunk = 64;
// A gate (three exps, a log1p, two divisions) costs about as much as this many elements.
constexpr int64_t kGateWork = 16;

const Kernels& kernels(Isa isa) {
#if VT_FAST_HAVE_AVX2
  if (isa == Isa::avx2) return avx2::kKernels;
#endif
  (void)isa;
  return baseline::kKernels;
}

int64_t channel_blocks(int64_t channels) { return (channels + kChannelBlock - 1) / kChannelBlock; }

// The detected variant, at debug level, once per host (a runtime).
void announce(const vt_host_api* host) {
  static std::atomic<const vt_host_api*> last{nullptr};
  if (!host || host->struct_size < offsetof(vt_host_api, log) + sizeof host->log || !host->log) return;
  if (last.load(std::memory_order_relaxed) == host || last.exchange(host) == host) return;
  const CpuFeatures f = read_cpu_features();
  char message[192];
  std::snprintf(message, sizeof message,
                "cpu: fast provider: %s kernels (cpuid avx2=%d fma=%d osxsave=%d, xcr0=0x%llx)",
                isa_name(detected_isa()), f.avx2, f.fma, f.osxsave, static_cast<unsigned long long>(f.xcr0));
  host->log(3, message);
}

}  // namespace

Context context(const vt_host_api* host, Isa ceiling) {
  announce(host);
  return {std::min(detected_isa(), ceiling), host};
}

vt_status causal_conv1d_fwd(const vt_causal_conv1d_fwd_args& args, const Context& ctx) {
  if (args.num_tokens == 0 || args.num_seqs == 0 || args.channels == 0) return VT_OK;
  ConvFwdWork work{&args, std::max<int64_t>(kConvChunk, args.width - 1), channel_blocks(args.channels), 0};
  work.programs = args.num_tokens / work.chunk + args.num_seqs;  // launch_geometry.hpp's B_N
  const Kernels& k = kernels(ctx.isa);
  const int64_t task_work = work.chunk * std::min(kChannelBlock, args.channels);
  run_tasks(ctx.host, work.programs * work.blocks, task_work,
            [&](int64_t first, int64_t end) { k.conv_fwd(work, first, end); });
  return VT_OK;
}

vt_status causal_conv1d_update(const vt_causal_conv1d_update_args& args, const Context& ctx) {
  const ConvUpdateWork work{&args, channel_blocks(args.channels)};
  const Kernels& k = kernels(ctx.isa);
  const int64_t task_work = args.tokens_per_seq * std::min(kChannelBlock, args.channels);
  run_tasks(ctx.host, args.batch * work.blocks, task_work,
            [&](int64_t first, int64_t end) { k.conv_update(work, first, end); });
  return VT_OK;
}

vt_status gdn_post_conv(const vt_gdn_post_conv_args& args, const Context& ctx) {
  const Kernels& k = kernels(ctx.isa);
  const int64_t task_work = 2 * args.key_heads * args.key_dim + args.value_heads * (args.value_dim + kGateWork);
  run_tasks(ctx.host, args.num_tokens, task_work,
            [&](int64_t first, int64_t end) { k.gdn_post_conv(args, first, end); });
  return VT_OK;
}

vt_status l2norm(const vt_l2norm_args& args, const Context& ctx) {
  const Kernels& k = kernels(ctx.isa);
  run_tasks(ctx.host, args.outer * args.inner, args.dim,
            [&](int64_t first, int64_t end) { k.l2norm(args, first, end); });
  return VT_OK;
}

vt_status gdn_gating(const vt_gdn_gating_args& args, const Context& ctx) {
  const Kernels& k = kernels(ctx.isa);
  run_tasks(ctx.host, args.num_tokens, args.value_heads * kGateWork,
            [&](int64_t first, int64_t end) { k.gdn_gating(args, first, end); });
  return VT_OK;
}

vt_status gdn_split(const vt_gdn_split_args& args, const Context& ctx) {
  const Kernels& k = kernels(ctx.isa);
  const int64_t task_work = 2 * args.key_heads * args.key_dim + args.value_heads * args.value_dim;
  run_tasks(ctx.host, args.num_tokens, task_work, [&](int64_t first, int64_t end) { k.gdn_split(args, first, end); });
  return VT_OK;
}

}  // namespace vt::cpu::fast
