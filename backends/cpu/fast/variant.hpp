// The kernel sources are compiled twice: as the baseline (plain x86-64) and, with
// VT_FAST_AVX2 defined, for AVX2 and FMA. Only code between VT_FAST_BEGIN and VT_FAST_END is
// built for the variant's instruction set, in a namespace of its own. Whatever the headers
// included before it define (the standard library, oneTBB, the dtype conversions, the
// portable math) stays baseline code: the linker keeps one copy of each inline function, so
// a copy built for AVX2 could otherwise end up serving the baseline path on a CPU without it.
// Baseline functions still inline into AVX2 code, and std::fma there becomes vfmadd.
#pragma once

#if defined(VT_FAST_AVX2)
#define VT_FAST_NS avx2
#define VT_FAST_TARGET _Pragma("GCC target(\"avx2,fma\")")
#else
#define VT_FAST_NS baseline
#define VT_FAST_TARGET
#endif

// After every #include of a kernel file, around its code.
#define VT_FAST_BEGIN _Pragma("GCC push_options") VT_FAST_TARGET namespace vt::cpu::fast::VT_FAST_NS {
#define VT_FAST_END \
  }                 \
  _Pragma("GCC pop_options")
