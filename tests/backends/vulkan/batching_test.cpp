// Batching: op calls and copies are recorded into one submission until the host waits or a
// batch fills, and later commands in a batch see what earlier ones wrote. White-box: the
// submission count is read from the plugin's queue object.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "support.hpp"
#include "vk_backend.hpp"
#include "vt/ops/gdn.hpp"

namespace vt::vulkan_test {
namespace {

constexpr int64_t kRows = 12, kDim = 40, kHeads = 8;

uint64_t submissions(const Queue& q) { return reinterpret_cast<const vt_queue_s*>(q.handle())->submissions; }

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

// A chain where each op reads what the one before wrote: l2norm of buffer i into buffer i+1,
// `rounds` times, then gating on the last rows; everything enqueued before one sync.
struct Chain {
  std::vector<Buffer> stages;
  Buffer a_log, dt_bias, g, beta;
};

Chain build_chain(const Device& d, Queue& q, int rounds) {
  Chain c;
  const std::vector<float> x = random_floats(kRows * kDim, 1), params = random_floats(2 * kHeads, 2);
  const uint64_t bytes = kRows * kDim * sizeof(float);
  for (int i = 0; i <= rounds; ++i) c.stages.push_back(d.alloc(bytes));
  c.a_log = d.alloc(kHeads * sizeof(float));
  c.dt_bias = d.alloc(kHeads * sizeof(float));
  c.g = d.alloc(kRows * kDim / kHeads * kHeads * sizeof(float));
  c.beta = d.alloc(kRows * kDim / kHeads * kHeads * sizeof(float));
  q.upload(c.stages[0], 0, x.data(), bytes);
  q.upload(c.a_log, 0, params.data(), kHeads * sizeof(float));
  q.upload(c.dt_bias, 0, params.data() + kHeads, kHeads * sizeof(float));
  q.sync();
  return c;
}

void enqueue_chain(Chain& c, Queue& q) {
  for (size_t i = 0; i + 1 < c.stages.size(); ++i) {
    ops::L2Norm op;
    op.x = TensorView::contiguous(c.stages[i], DType::f32, {kRows, kDim});
    op.out = TensorView::contiguous(c.stages[i + 1], DType::f32, {kRows, kDim});
    ops::l2norm(q, op);
  }
  const int64_t tokens = kRows * kDim / kHeads;
  ops::GdnGating gate;
  gate.a = TensorView::contiguous(c.stages.back(), DType::f32, {tokens, kHeads});
  gate.b = TensorView::contiguous(c.stages[c.stages.size() / 2], DType::f32, {tokens, kHeads});
  gate.A_log = TensorView::contiguous(c.a_log, DType::f32, {kHeads});
  gate.dt_bias = TensorView::contiguous(c.dt_bias, DType::f32, {kHeads});
  gate.g_out = TensorView::contiguous(c.g, DType::f32, {tokens, kHeads});
  gate.beta_out = TensorView::contiguous(c.beta, DType::f32, {tokens, kHeads});
  ops::gdn_gating(q, gate);
}

std::vector<uint8_t> results(const Chain& c, Queue& q) {
  std::vector<uint8_t> out(c.stages.back().size() + c.g.size() + c.beta.size());
  q.download(out.data(), c.stages.back(), 0, c.stages.back().size());
  q.download(out.data() + c.stages.back().size(), c.g, 0, c.g.size());
  q.download(out.data() + c.stages.back().size() + c.g.size(), c.beta, 0, c.beta.size());
  q.sync();
  return out;
}

TEST(VulkanBatching, DependentOpsShareOneSubmissionAndSeeEachOther) {
  VT_SKIP_WITHOUT_VULKAN();
  constexpr int kRounds = 10;
  const Device d = vulkan_device(), cpu = cpu_device();
  Queue q = d.create_queue(), cq = cpu.create_queue();
  Chain vc = build_chain(d, q, kRounds), cc = build_chain(cpu, cq, kRounds);
  const uint64_t before = submissions(q);
  enqueue_chain(vc, q);
  EXPECT_EQ(submissions(q), before) << "op calls were submitted one by one";
  const std::vector<uint8_t> got = results(vc, q);
  EXPECT_EQ(submissions(q), before + 1) << "the chain and its read-backs should be one submission";
  enqueue_chain(cc, cq);
  const std::vector<uint8_t> want = results(cc, cq);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size()), 0) << "differs from the CPU reference";
}

TEST(VulkanBatching, AFullBatchIsSubmittedWithoutWaiting) {
  VT_SKIP_WITHOUT_VULKAN();
  const Device d = vulkan_device();
  Queue q = d.create_queue();
  Chain c = build_chain(d, q, 1);
  const uint64_t before = submissions(q);
  ops::L2Norm op;
  op.x = TensorView::contiguous(c.stages[0], DType::f32, {kRows, kDim});
  op.out = TensorView::contiguous(c.stages[1], DType::f32, {kRows, kDim});
  for (uint32_t i = 0; i < vulkan::kBatchCommands + 5; ++i) ops::l2norm(q, op);
  EXPECT_EQ(submissions(q), before + 1);
  q.sync();
  EXPECT_EQ(submissions(q), before + 2);
}

}  // namespace
}  // namespace vt::vulkan_test
