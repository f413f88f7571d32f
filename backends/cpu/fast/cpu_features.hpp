// Which kernel variant this CPU can run. AVX2 needs the CPU to report AVX2 and FMA (CPUID)
// and the OS to save the YMM registers on a context switch (OSXSAVE, then XCR0 bits 1 and 2
// through XGETBV); a CPU that reports AVX2 under an OS that does not enable it gets baseline.
#pragma once
#include <cstdint>

namespace vt::cpu::fast {

enum class Isa { baseline, avx2 };

struct CpuFeatures {
  bool avx2 = false, fma = false, avx = false, osxsave = false;
  uint64_t xcr0 = 0;  // read only when osxsave
};

// CPUID and XGETBV of this CPU (all false off x86).
CpuFeatures read_cpu_features();
// The best variant the features allow (pure, for tests).
Isa choose_isa(const CpuFeatures& features);
// choose_isa(read_cpu_features()), limited to the variants this build compiled; read once.
Isa detected_isa();
const char* isa_name(Isa isa);

}  // namespace vt::cpu::fast
