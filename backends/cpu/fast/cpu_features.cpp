#include "cpu_features.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace vt::cpu::fast {

CpuFeatures read_cpu_features() {
  CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    f.fma = (c & bit_FMA) != 0;
    f.osxsave = (c & bit_OSXSAVE) != 0;
    f.avx = (c & bit_AVX) != 0;
  }
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) f.avx2 = (b & bit_AVX2) != 0;
  if (f.osxsave) {
    // XGETBV is only defined once the OS has set CR4.OSXSAVE, which CPUID's OSXSAVE mirrors.
    uint32_t lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    f.xcr0 = (static_cast<uint64_t>(hi) << 32) | lo;
  }
#endif
  return f;
}

Isa choose_isa(const CpuFeatures& f) {
  constexpr uint64_t kSseAndYmmState = (1u << 1) | (1u << 2);
  const bool os_saves_ymm = f.osxsave && (f.xcr0 & kSseAndYmmState) == kSseAndYmmState;
  return f.avx && f.avx2 && f.fma && os_saves_ymm ? Isa::avx2 : Isa::baseline;
}

Isa detected_isa() {
#if VT_FAST_HAVE_AVX2
  static const Isa isa = choose_isa(read_cpu_features());
  return isa;
#else
  return Isa::baseline;
#endif
}

const char* isa_name(Isa isa) { return isa == Isa::avx2 ? "avx2" : "baseline"; }

}  // namespace vt::cpu::fast
