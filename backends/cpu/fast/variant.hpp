// The kernel sources are compiled twice: as the baseline (plain x86-64) and, with
// VT_FAST_AVX2 defined, for AVX2 and FMA. Only code between VT_FAST_BEGIN and VT_FAST_END is
// built for the variant's instruction set, in a namespace of its own. Whatever the headers
// included before it define (the standard library, oneTBB, the dtype conversions, the
// portable math) stays baseline code: the linker keeps one copy of each inline function, so
// a copy built for AVX2 could otherwise end up serving the baseline path on a CPU without it.
// Baseline functions still inline into AVX2 code, and std::fma there becomes vfmadd.
#pragma once

// GCC takes the target as an option pushed around the code; clang knows no such pragma (it
// warned and built the AVX2 variant as baseline code) and instead applies a target attribute
// to every function declared in between.
#if defined(VT_FAST_AVX2)
#define VT_FAST_NS avx2
#if defined(__clang__)
#define VT_FAST_PUSH _Pragma("clang attribute push(__attribute__((target(\"avx2,fma\"))), apply_to = function)")
#define VT_FAST_POP _Pragma("clang attribute pop")
#else
#define VT_FAST_PUSH _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,fma\")")
#define VT_FAST_POP _Pragma("GCC pop_options")
#endif
#else
#define VT_FAST_NS baseline
#define VT_FAST_PUSH
#define VT_FAST_POP
#endif

// After every #include of a kernel file, around its code.
#define VT_FAST_BEGIN VT_FAST_PUSH namespace vt::cpu::fast::VT_FAST_NS {
#define VT_FAST_END \
  }                 \
  VT_FAST_POP
