// sm_90's bulk copy engine: rows copied from global into shared memory, completing on an
// mbarrier, so that the bytes in flight take no registers and no per-thread instructions.
// Device code only, with no other dependency, so that the benches (backends/cuda/bench) can
// include it alone.
#pragma once
#include <cstdint>

namespace vt::cuda::kern {

#if __CUDA_ARCH__ >= 900
__device__ __forceinline__ uint32_t shared_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(uint64_t* bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_addr(bar)), "r"(arrivals) : "memory");
}
// After the initialisations, before the barrier that publishes them: visible to the copy engine.
__device__ __forceinline__ void mbar_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
__device__ __forceinline__ void mbar_expect_bytes(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;" ::"r"(shared_addr(bar)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(shared_addr(bar)) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t* bar, uint32_t parity) {
  asm volatile(
      "{\n .reg .pred done;\n wait:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n @!done bra wait;\n}" ::
          "r"(shared_addr(bar)),
      "r"(parity)
      : "memory");
}
// `bytes` (a multiple of 16) from global src to shared dst, both 16-byte aligned; bar counts them.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, uint32_t bytes, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(shared_addr(dst)),
      "l"(src), "r"(bytes), "r"(shared_addr(bar))
      : "memory");
}
#endif

}  // namespace vt::cuda::kern
