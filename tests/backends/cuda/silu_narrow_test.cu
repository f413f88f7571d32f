// The CUDA kernels' SiLU narrowing (backends/cuda/kernels/common.cuh) over every f32 input,
// on the device: silu_narrow<bf16> and <f16> against the reference's bits, vt::math::silu
// compiled for the device with IEEE division and narrowed exactly; and silu_narrow2, the packed
// pair (each of its rare paths), against silu_narrow, with every input once in each half. Also
// measures how far the hardware estimates (the first, and the rare path's second) lie from
// silu(x), against the slacks their rounding tests assume. Skips without a CUDA device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>

#include "kernels/common.cuh"

namespace vt::cuda::kern {
namespace {

struct Tally {
  unsigned long long bf16_wrong, f16_wrong, pair_wrong, bf16_second, bf16_exact_path, fast_inputs;
  unsigned int max_steps, max_refined_steps, first_bf16_wrong, first_f16_wrong;
};

__device__ uint32_t steps_between(float a, float b) {
  const uint32_t ua = __float_as_uint(a) & 0x7fffffffu, ub = __float_as_uint(b) & 0x7fffffffu;
  return ua > ub ? ua - ub : ub - ua;  // a and b have x's sign
}

// How many of the bf16 and f16 pairs with rare path R differ from the singles' results.
template <SiluRare R>
__device__ unsigned pairs_unlike(float x, float y, uint32_t bf16_singles, uint32_t f16_singles) {
  return unsigned{silu_narrow2<Elem::bf16, R>(x, y) != bf16_singles} +
         unsigned{silu_narrow2<Elem::f16, R>(x, y) != f16_singles};
}

__global__ void check_every_input(Tally* t) {
  unsigned long long bf16_wrong = 0, f16_wrong = 0, pair_wrong = 0, second = 0, exact_path = 0, fast = 0;
  uint32_t max_steps = 0, max_refined = 0;
  const uint64_t stride = uint64_t{gridDim.x} * blockDim.x;
  for (uint64_t i = uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < (uint64_t{1} << 32); i += stride) {
    const uint32_t u = static_cast<uint32_t>(i);
    const float x = __uint_as_float(u);
    const float exact = vt::math::silu(x);
    if (silu_narrow<Elem::bf16>(x) != vt::math::f32_to_bf16(exact)) {
      if (bf16_wrong++ == 0) atomicCAS(&t->first_bf16_wrong, 0u, u);
    }
    if (silu_narrow<Elem::f16>(x) != vt::math::f32_to_f16(exact)) {
      if (f16_wrong++ == 0) atomicCAS(&t->first_f16_wrong, 0u, u);
    }
    // x's partner: u -> u * odd + c is a bijection, so every input is also a second half.
    const float y = __uint_as_float(u * 2654435761u + 0x9e3779b9u);
    const uint32_t bf16_singles = silu_narrow<Elem::bf16>(x) | uint32_t{silu_narrow<Elem::bf16>(y)} << 16;
    const uint32_t f16_singles = silu_narrow<Elem::f16>(x) | uint32_t{silu_narrow<Elem::f16>(y)} << 16;
    // Every rare path: exact and through the second estimate, each inlined and as one call.
    pair_wrong += pairs_unlike<SiluRare::exact>(x, y, bf16_singles, f16_singles);
    pair_wrong += pairs_unlike<SiluRare::exact_call>(x, y, bf16_singles, f16_singles);
    pair_wrong += pairs_unlike<SiluRare::second>(x, y, bf16_singles, f16_singles);
    pair_wrong += pairs_unlike<SiluRare::second_call>(x, y, bf16_singles, f16_singles);
    if (fabsf(x) <= kSiluFastMax) {
      ++fast;
      const float s = silu_estimate(x);
      const uint32_t d = steps_between(s, exact);
      max_steps = d > max_steps ? d : max_steps;
      const float s2 = silu_estimate_refined(x);
      const uint32_t dr = steps_between(s2, exact);
      max_refined = dr > max_refined ? dr : max_refined;
      uint16_t out;
      if (!narrow_if_clear<Elem::bf16>(s, kSiluSlack, &out)) {
        ++second;
        exact_path += !narrow_if_clear<Elem::bf16>(s2, kSiluRefinedSlack, &out);
      }
    }
  }
  atomicAdd(&t->bf16_wrong, bf16_wrong);
  atomicAdd(&t->f16_wrong, f16_wrong);
  atomicAdd(&t->pair_wrong, pair_wrong);
  atomicAdd(&t->bf16_second, second);
  atomicAdd(&t->bf16_exact_path, exact_path);
  atomicAdd(&t->fast_inputs, fast);
  atomicMax(&t->max_steps, max_steps);
  atomicMax(&t->max_refined_steps, max_refined);
}

TEST(SiluNarrow, EveryInputNarrowsLikeTheReference) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    GTEST_SKIP() << "no CUDA device: " << cudaGetErrorString(cudaGetDeviceCount(&devices));
  }
  Tally* t = nullptr;
  ASSERT_EQ(cudaMallocManaged(&t, sizeof(Tally)), cudaSuccess);
  *t = Tally{};
  check_every_input<<<132 * 16, 256>>>(t);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::cout << "2^32 inputs: bf16 wrong " << t->bf16_wrong << ", f16 wrong " << t->f16_wrong
            << ", pairs unlike singles " << t->pair_wrong << "; for |x| <= " << kSiluFastMax << " (" << t->fast_inputs
            << " inputs) the estimate lies within " << t->max_steps << " steps of silu(x) (slack " << kSiluSlack
            << ") and the second within " << t->max_refined_steps << " (slack " << kSiluRefinedSlack
            << "); bf16 second estimate for " << t->bf16_second << " ("
            << 100.0 * static_cast<double>(t->bf16_second) / static_cast<double>(t->fast_inputs)
            << "%), exact path for " << t->bf16_exact_path << " ("
            << 100.0 * static_cast<double>(t->bf16_exact_path) / static_cast<double>(t->fast_inputs) << "%)\n";
  EXPECT_EQ(t->bf16_wrong, 0u) << "first at bits 0x" << std::hex << t->first_bf16_wrong;
  EXPECT_EQ(t->f16_wrong, 0u) << "first at bits 0x" << std::hex << t->first_f16_wrong;
  EXPECT_EQ(t->pair_wrong, 0u);
  EXPECT_LE(t->max_steps, kSiluSlack) << "the hardware estimate is outside the bound the test relies on";
  EXPECT_LE(t->max_refined_steps, kSiluRefinedSlack) << "the second estimate is outside the bound its test relies on";
  EXPECT_LT(t->bf16_exact_path, t->bf16_second) << "the second estimate settled none of the first one's failures";
  EXPECT_GT(t->fast_inputs, 0u);
  cudaFree(t);
}

}  // namespace
}  // namespace vt::cuda::kern
