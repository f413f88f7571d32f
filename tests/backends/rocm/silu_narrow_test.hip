// The ROCm kernels' SiLU narrowing (backends/rocm/kernels/common.hpp) over every f32 input,
// on the device: silu_narrow<bf16> and <f16> against the reference's bits, vt::math::silu
// compiled for the device with IEEE division and narrowed exactly. Also measures how far the
// hardware estimate lies from silu(x), against the slack the rounding test assumes, and how
// often the exact path runs. Built with clang's HIP for AMD GPUs, or with nvcc for an NVIDIA
// GPU (then it tests the PTX estimates); skips without a device.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>

#include "kernels/common.hpp"

namespace vt::rocm::kern {
namespace {

struct Tally {
  unsigned long long bf16_wrong, f16_wrong, bf16_exact_path, f16_exact_path, fast_inputs;
  unsigned int max_steps, first_bf16_wrong, first_f16_wrong;
};

__device__ uint32_t steps_between(float a, float b) {
  const uint32_t ua = vt::math::bits(a) & 0x7fffffffu, ub = vt::math::bits(b) & 0x7fffffffu;
  return ua > ub ? ua - ub : ub - ua;  // a and b have x's sign
}

__global__ void check_every_input(Tally* t) {
  unsigned long long bf16_wrong = 0, f16_wrong = 0, bf16_exact = 0, f16_exact = 0, fast = 0;
  uint32_t max_steps = 0;
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < (uint64_t{1} << 32); i += stride) {
    const uint32_t u = static_cast<uint32_t>(i);
    const float x = vt::math::from_bits(u);
    const float exact = vt::math::silu(x);
    if (silu_narrow<Elem::bf16>(x) != vt::math::f32_to_bf16(exact)) {
      if (bf16_wrong++ == 0) atomicCAS(&t->first_bf16_wrong, 0u, u);
    }
    if (silu_narrow<Elem::f16>(x) != vt::math::f32_to_f16(exact)) {
      if (f16_wrong++ == 0) atomicCAS(&t->first_f16_wrong, 0u, u);
    }
    if (fabsf(x) <= kSiluFastMax) {
      ++fast;
      const float s = silu_estimate(x);
      const uint32_t d = steps_between(s, exact);
      max_steps = d > max_steps ? d : max_steps;
      uint16_t out;
      bf16_exact += !narrow_if_clear<Elem::bf16>(s, kSiluSlack, &out);
      f16_exact += !narrow_if_clear<Elem::f16>(s, kSiluSlack, &out);
    }
  }
  atomicAdd(&t->bf16_wrong, bf16_wrong);
  atomicAdd(&t->f16_wrong, f16_wrong);
  atomicAdd(&t->bf16_exact_path, bf16_exact);
  atomicAdd(&t->f16_exact_path, f16_exact);
  atomicAdd(&t->fast_inputs, fast);
  atomicMax(&t->max_steps, max_steps);
}

double percent(unsigned long long part, unsigned long long whole) {
  return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

TEST(SiluNarrow, EveryInputNarrowsLikeTheReference) {
  int devices = 0;
  const hipError_t err = hipGetDeviceCount(&devices);
  if (err != hipSuccess || devices == 0) {
    (void)hipGetLastError();  // clears the sticky error
    GTEST_SKIP() << "no HIP device: " << hipGetErrorString(err);
  }
  hipDeviceProp_t prop{};
  ASSERT_EQ(hipGetDeviceProperties(&prop, 0), hipSuccess);
  Tally* d = nullptr;
  ASSERT_EQ(hipMalloc(reinterpret_cast<void**>(&d), sizeof(Tally)), hipSuccess);
  ASSERT_EQ(hipMemsetAsync(d, 0, sizeof(Tally), nullptr), hipSuccess);
  const unsigned blocks = static_cast<unsigned>(prop.multiProcessorCount > 0 ? prop.multiProcessorCount * 16 : 1024);
  hipLaunchKernelGGL(check_every_input, dim3(blocks), dim3(256), 0, nullptr, d);
  ASSERT_EQ(hipGetLastError(), hipSuccess);
  Tally t{};
  ASSERT_EQ(hipMemcpyAsync(&t, d, sizeof t, hipMemcpyDeviceToHost, nullptr), hipSuccess);
  ASSERT_EQ(hipStreamSynchronize(nullptr), hipSuccess);
  ASSERT_EQ(hipFree(d), hipSuccess);
  std::cout << prop.name << " (" << prop.gcnArchName << "), 2^32 inputs: bf16 wrong " << t.bf16_wrong << ", f16 wrong "
            << t.f16_wrong << "; for |x| <= " << kSiluFastMax << " (" << t.fast_inputs
            << " inputs) the estimate lies within " << t.max_steps << " steps of silu(x) (slack " << kSiluSlack
            << "), exact path for bf16 " << t.bf16_exact_path << " (" << percent(t.bf16_exact_path, t.fast_inputs)
            << "%), for f16 " << t.f16_exact_path << " (" << percent(t.f16_exact_path, t.fast_inputs)
            << "%, mostly |silu(x)| below f16's normal range)\n";
  EXPECT_EQ(t.bf16_wrong, 0u) << "first at bits 0x" << std::hex << t.first_bf16_wrong;
  EXPECT_EQ(t.f16_wrong, 0u) << "first at bits 0x" << std::hex << t.first_f16_wrong;
  EXPECT_LE(t.max_steps, kSiluSlack) << "the hardware estimate is outside the bound the rounding test relies on";
  EXPECT_GT(t.fast_inputs, 0u);
  // About (2 slack + 1) / 2^16 of bf16 results lie near a rounding boundary; many more means
  // the rounding test declines what it should take, which is correct but slow.
  EXPECT_LT(percent(t.bf16_exact_path, t.fast_inputs), 0.5);
}

}  // namespace
}  // namespace vt::rocm::kern
