// Device helpers shared by the kernels: element access by run-time dtype, the exact
// conversions of portable_dtype.h, and the portable math compiled for host and device.
#pragma once
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define VT_MATH_FN __host__ __device__ __forceinline__
// Kernels inline div_ge1 once per channel and token; its slow path stays one call.
#define VT_MATH_COLD_FN __host__ __device__ __noinline__ inline
#define VT_GEOMETRY_FN __host__ __device__ inline
#include "vt/ops/launch_geometry.hpp"
#include "vt/ops/portable_dtype.h"
#include "vt/ops/portable_math.h"
#include "vt/plugin_abi.h"
#include "bulk_copy.cuh"
#include "early_start.hpp"  // after_prior_grids, every kernel's first statement
#include "word.cuh"

namespace vt::cuda::kern {

using vt::math::bf16_to_f32;
using vt::math::f32_to_bf16;
using vt::math::f32_to_f16;

// Widening f16 is exact: the hardware conversion gives the reference's value (a NaN's payload
// may differ, which parity.md leaves unspecified).
__device__ __forceinline__ float f16_to_f32(uint16_t h) { return __half2float(__ushort_as_half(h)); }

// Element types known at compile time, for the hot loads and stores.
enum class Elem { f32 = VT_DTYPE_F32, f16 = VT_DTYPE_F16, bf16 = VT_DTYPE_BF16 };

template <Elem E>
struct ElemTraits;
template <>
struct ElemTraits<Elem::f32> {
  using raw = float;
  static __device__ __forceinline__ float widen(float v) { return v; }
  static __device__ __forceinline__ float narrow(float v) { return v; }
};
template <>
struct ElemTraits<Elem::f16> {
  using raw = uint16_t;
  static __device__ __forceinline__ float widen(uint16_t v) { return f16_to_f32(v); }
  static __device__ __forceinline__ uint16_t narrow(float v);
};
template <>
struct ElemTraits<Elem::bf16> {
  using raw = uint16_t;
  static __device__ __forceinline__ float widen(uint16_t v) { return __uint_as_float(uint32_t{v} << 16); }
  static __device__ __forceinline__ uint16_t narrow(float v);
};

// An element of a run-time dtype widened from its raw bits (f32's, or the 16-bit value):
// apart from the load, so that load_many can issue all its loads before widening any.
__device__ __forceinline__ float widen_bits(int dtype, uint32_t b) {
  if (dtype == VT_DTYPE_F32) return __uint_as_float(b);
  return dtype == VT_DTYPE_BF16 ? bf16_to_f32(static_cast<uint16_t>(b)) : f16_to_f32(static_cast<uint16_t>(b));
}
__device__ __forceinline__ float load(int dtype, const char* p) {
  return widen_bits(
      dtype, dtype == VT_DTYPE_F32 ? *reinterpret_cast<const uint32_t*>(p) : *reinterpret_cast<const uint16_t*>(p));
}

// A 32-bit or byte load (read-only path) kept where it stands: plain loads whose values
// are used only past a branch were compiled below it, and so waited for whatever the branch
// tested. conv_fwd's SASS shows these issued ahead of its first test (eighth session).
__device__ __forceinline__ uint32_t load_now_u32(const void* p) {
  uint32_t v;
  asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
// The same with an L2 prefetch-size hint of 128 bytes, for the one-sequence kernel's loads
// alone: on an H100 its T = 128 took 1/1.010 of the time with it and T = 256 1/1.017; 256
// bytes gained less (docs/benchmarks.md, fifty-fifth session). The other kernels keep the
// plain load: on find_segment's loads the hint gave 0.996 to 1.001 (fifty-sixth session).
__device__ __forceinline__ uint32_t load_now_u32_l2_128(const void* p) {
  uint32_t v;
  asm volatile("ld.global.nc.L2::128B.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ uint4 load_now_u128(const void* p) {
  uint4 v;
  asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}
// A 16-byte load through the coherent path (the kernel writes these words later) with an L2
// prefetch-size hint of 256 bytes: the update's state, where its grid is more than one wave
// (launch_geometry.hpp says what it gained and lost).
__device__ __forceinline__ uint4 load_u128_l2_256(const uint4* p) {
  uint4 v;
  asm volatile("ld.global.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}
__device__ __forceinline__ uint32_t load_now_u8(const void* p) {
  uint16_t v;
  asm volatile("ld.global.nc.u8 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}

// Register fences: an empty asm that claims to read and change the bits, so that nothing
// computed from them moves above the point where it stands.
__device__ __forceinline__ void fence_bits(uint32_t& v) { asm volatile("" : "+r"(v)); }
__device__ __forceinline__ void fence_bits(uint4& v) {
  fence_bits(v.x);
  fence_bits(v.y);
  fence_bits(v.z);
  fence_bits(v.w);
}
template <int N>
__device__ __forceinline__ void fence_bits(uint32_t (&v)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) fence_bits(v[i]);
}

// The bits of N elements of one run-time dtype, element e at addr(e) where wanted(e) (else
// 0), all under one dtype branch; widen_bits makes floats of them.
template <int N, class Wanted, class Addr>
__device__ __forceinline__ void load_bits(int dtype, uint32_t (&b)[N], const Wanted& wanted, const Addr& addr) {
  if (dtype == VT_DTYPE_F32) {
#pragma unroll
    for (int e = 0; e < N; ++e) b[e] = wanted(e) ? *reinterpret_cast<const uint32_t*>(addr(e)) : 0u;
  } else {
#pragma unroll
    for (int e = 0; e < N; ++e) b[e] = wanted(e) ? *reinterpret_cast<const uint16_t*>(addr(e)) : 0u;
  }
}

// N elements of one run-time dtype (load_bits), all loaded before any is widened and given
// to put(e, v). With load() per element, the dtype branch around each load and its widening
// made each load wait for the one before (a kernel's setup was a chain of them).
template <int N, class Wanted, class Addr, class Put>
__device__ __forceinline__ void load_many(int dtype, const Wanted& wanted, const Addr& addr, const Put& put) {
  uint32_t b[N];
  load_bits<N>(dtype, b, wanted, addr);
#pragma unroll
  for (int e = 0; e < N; ++e) put(e, widen_bits(dtype, b[e]));
}

__device__ __forceinline__ void store(int dtype, char* p, float v) {
  if (dtype == VT_DTYPE_F32) {
    *reinterpret_cast<float*>(p) = v;
  } else {
    *reinterpret_cast<uint16_t*>(p) = dtype == VT_DTYPE_BF16 ? f32_to_bf16(v) : f32_to_f16(v);
  }
}

__device__ __forceinline__ uint16_t ElemTraits<Elem::f16>::narrow(float v) { return f32_to_f16(v); }
__device__ __forceinline__ uint16_t ElemTraits<Elem::bf16>::narrow(float v) { return f32_to_bf16(v); }

__host__ __device__ __forceinline__ int dtype_bytes(int dtype) {
  return dtype == VT_DTYPE_F32 || dtype == VT_DTYPE_I32 ? 4 : dtype == VT_DTYPE_U8 ? 1 : 2;
}

// SiLU and sigmoid, equal to vt::math::silu and sigmoid bit for bit: div_ge1 seeded with the
// hardware reciprocal estimate (rcp.approx.f32 is within 1 ulp, which the seed contract in
// portable_math.h admits) instead of the portable seed's bit trick and two refinements.
__device__ __forceinline__ float rcp_estimate(float d) {
  float y;
  asm("rcp.approx.f32 %0, %1;" : "=f"(y) : "f"(d));
  return y;
}
__device__ __forceinline__ float silu_exact(float x) {
  const float d = 1.0f + vt::math::exp(-x);
  return vt::math::div_ge1_seeded(x, d, rcp_estimate(d));
}
__device__ __forceinline__ float sigmoid_exact(float x) {
  const float d = 1.0f + vt::math::exp(-x);
  return vt::math::div_ge1_seeded(1.0f, d, rcp_estimate(d));
}

// SiLU narrowed to a 16-bit type, by a rounding test (portable_dtype.h): the hardware's exp2
// and reciprocal estimates give an approximation s, and s's narrowing is kept where it must
// equal silu(x)'s. The rest (about 0.10% of bf16 results, 8 times as many f16 ones) take the
// exact path, or first, where a packet's caller chooses it (SiluRare), a second estimate
// with a tighter slack (silu_estimate_refined); |x| > kSiluFastMax always takes the exact
// path. tests/backends/cuda checks every x on the device.
// The slack with these estimates: portable_dtype.h bounds s and silu(x) within 26.6 steps plus
// twice the two estimates' errors in ulp; ex2.approx is within 2 ulp and rcp.approx within 1,
// so within 32.6, that is 32 whole steps. A slack of 33 keeps every s it passes at least a
// step clear of the tie on silu(x)'s side (tests/backends/cuda measures 17 on the H200), and
// sends (2 * 33 + 1) / 2^16 of bf16 results on to the rare path, where the portable 48 sent 97.
using vt::math::kSiluFastMax;
inline constexpr uint32_t kSiluSlack = 33;

template <Elem E>
__device__ __noinline__ uint16_t silu_narrow_exact(float x) {
  return ElemTraits<E>::narrow(silu_exact(x));
}

// The hardware's estimates the SiLU tests are built on: ex2.approx within 2 ulp, rcp.approx
// within 1 (flushing subnormals, which the estimates' ranges never need).
__device__ __forceinline__ float exp2_approx(float v) {
  float e;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(v));
  return e;
}
__device__ __forceinline__ float rcp_approx_ftz(float v) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}
inline constexpr float kLog2e = 0x1.715476p+0f;  // log2(e) rounded to f32

// The approximation, for |x| <= kSiluFastMax.
__device__ __forceinline__ float silu_estimate(float x) { return x * rcp_approx_ftz(1.0f + exp2_approx(x * -kLog2e)); }

// s is SiLU's estimate for |x| <= kSiluFastMax, so at most 16 in magnitude: bf16 needs no
// test for huge values.
template <Elem E>
__device__ __forceinline__ bool narrow_if_clear(float s, uint32_t slack, uint16_t* out) {
  static_assert(E != Elem::f32, "a 16-bit type");
  return E == Elem::bf16 ? vt::math::bf16_if_clear_bounded(s, slack, out) : vt::math::f16_if_clear(s, slack, out);
}

// f16_if_clear on two SiLU estimates at once (sa in the low half), for |x| <= kSiluFastMax:
// their magnitude stays far below f16's largest normal, so only the lower end of its range
// is tested; where both tests pass no tie lies within the slack, so one round-to-nearest
// conversion of the pair gives f16_if_clear's bits.
__device__ __forceinline__ bool f16_pair_if_clear_bounded(float sa, float sb, uint32_t slack, uint32_t* out) {
  auto clear = [slack](float v) {
    const uint32_t u = __float_as_uint(v);
    return ((u & 0x7fffffffu) >= vt::math::kF16MinNormalBits + slack) & !vt::math::f16_near_tie(u, slack);
  };
  if (!(clear(sa) & clear(sb))) return false;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(*out) : "f"(sb), "f"(sa));
  return true;
}

// A second estimate, for an x whose first one failed its test: the exact path costs some 75
// instructions on the lanes that take it while the warp waits (ncu, fifteenth session), and
// a third of its inputs is left with a tighter slack. e^-x = 2^h (1 + l ln2), with h + l =
// x * -log2(e) to well under a unit (h rounds as in silu_estimate; l is the product's exact
// residual plus log2(e)'s low part), so the first estimate's largest term, 19.6 units of
// e^-x from rounding the exponent, is gone; and the quotient is refined by one step.
// Relative errors in units of 2^-24 (as in portable_dtype.h): exp2 4 (2 ulp), the fma 1,
// 1 + e 1, the refined quotient 1; silu(x) itself 5. That is 12; kSiluRefinedSlack is a step
// more. tests/backends/cuda measures the distance over every input: on the H200, 4 steps
// (the first estimate: 17).
inline constexpr uint32_t kSiluRefinedSlack = 13;

__device__ __forceinline__ float silu_estimate_refined(float x) {
  const float h = x * -kLog2e;
  const float l = fmaf(x, -0x1.4ae0c0p-26f, fmaf(x, -kLog2e, -h));  // log2(e) - kLog2e is 0x1.4ae0c0p-26
  float e = exp2_approx(h);
  e = fmaf(e * l, 0x1.62e430p-1f, e);
  const float d = 1.0f + e;
  const float r = rcp_approx_ftz(d);
  const float q = x * r;
  return fmaf(-fmaf(d, q, -x), r, q);  // the residual negated, so that x = -0 gives -0
}

// Whatever the first test leaves: for |x| <= kSiluFastMax the second estimate's test, then
// the exact path for what that leaves and for larger |x|.
template <Elem E>
__device__ __forceinline__ uint16_t silu_narrow_rest(float x) {
  uint16_t out;
  if (fabsf(x) <= kSiluFastMax && narrow_if_clear<E>(silu_estimate_refined(x), kSiluRefinedSlack, &out)) return out;
  return silu_narrow_exact<E>(x);
}
// As a call, where it is reached from inlined code: inlined there, ptxas computed the rare
// path's tests beside the common path's (thirteenth session, SASS).
template <Elem E>
__device__ __noinline__ uint16_t silu_narrow_rest_call(float x) {
  return silu_narrow_rest<E>(x);
}

// One element: its rare path goes straight to the exact one. The one-channel kernels that
// use it serve small calls, which wait for their slowest lane: with the second estimate
// first, the decode update at B = 1 took 2.65 us against 2.56 (H200, sixteenth session).
template <Elem E>
__device__ __forceinline__ uint16_t silu_narrow(float x) {
  uint16_t out;
  if (fabsf(x) <= kSiluFastMax && narrow_if_clear<E>(silu_estimate(x), kSiluSlack, &out)) return out;  // NaN fails
  return silu_narrow_exact<E>(x);
}

// Where silu_narrow2's rare path goes; each kernel's choice is explained (and measured) where
// it makes it. A call starts again from the inputs and the test words: inlined, the rare
// path's tests were computed beside the common path's. For f16 the two second paths mean
// the second estimate's test first and the exact path, inlined or as one call, for what it
// leaves (silu_narrow2).
enum class SiluRare {
  exact,        // inlined, straight to the exact path
  exact_call,   // the same as one call
  second,       // inlined, an element that failed on to silu_narrow_rest_call
  second_call,  // one call, silu_narrow_rest inlined into it
};

// The exact rare path: only an element that failed its test goes exact where both are in
// range (bf16); otherwise (f16, or an element outside |x| <= kSiluFastMax) both do.
template <Elem E>
__device__ __forceinline__ uint32_t silu_narrow2_rare_exact(float a, float b, uint32_t ta, uint32_t tb) {
  if constexpr (E == Elem::bf16) {
    if ((fabsf(a) <= kSiluFastMax) & (fabsf(b) <= kSiluFastMax)) {  // one of them near a boundary
      const uint32_t na = vt::math::bf16_word_clear(ta, kSiluSlack) ? ta >> 16 : silu_narrow_exact<E>(a);
      const uint32_t nb = vt::math::bf16_word_clear(tb, kSiluSlack) ? tb >> 16 : silu_narrow_exact<E>(b);
      return na | nb << 16;
    }
  }
  return uint32_t{silu_narrow_exact<E>(a)} | uint32_t{silu_narrow_exact<E>(b)} << 16;
}

// bf16's rare path through the second estimate: an element that passed its test (the test
// words hold its narrowing) keeps it, the other goes on to silu_narrow_rest. Called: the body
// of silu_narrow2_rare_call.
template <Elem E, bool Called>
__device__ __forceinline__ uint32_t silu_narrow2_rare_second(float a, float b, uint32_t ta, uint32_t tb) {
  static_assert(E == Elem::bf16, "f16 tests the second estimate first (silu_narrow2)");
  auto rest = [](float v) -> uint32_t {
    if constexpr (Called) return silu_narrow_rest<E>(v);
    else return silu_narrow_rest_call<E>(v);
  };
  const uint32_t na = fabsf(a) <= kSiluFastMax && vt::math::bf16_word_clear(ta, kSiluSlack) ? ta >> 16 : rest(a);
  const uint32_t nb = fabsf(b) <= kSiluFastMax && vt::math::bf16_word_clear(tb, kSiluSlack) ? tb >> 16 : rest(b);
  return na | nb << 16;
}
template <Elem E>
__device__ __noinline__ uint32_t silu_narrow2_rare_call(float a, float b, uint32_t ta, uint32_t tb) {
  return silu_narrow2_rare_second<E, true>(a, b, ta, tb);
}
template <Elem E>
__device__ __noinline__ uint32_t silu_narrow2_rare_exact_call(float a, float b, uint32_t ta, uint32_t tb) {
  return silu_narrow2_rare_exact<E>(a, b, ta, tb);
}

// silu_narrow2 in two steps: a pair's first test (silu_pair_test), then one rarely taken
// branch to its rare path (silu_pair_finish). Written so, f16's kernels kept fewer predicates
// and spilled less than with a return inside each type's test (SASS), and f16 at T = 16384
// took 1/1.05 of the time (H200, thirtieth session). bf16 packs its pair from the test words
// before the branch, not behind it: 256 short sequences 1.006 to 1.024 times as fast, T = 256
// (the one-sequence kernel's batch) 1.031 to 1.035, the rest 1.000 to 1.005 (H200,
// thirty-first session).
struct SiluPairTest {
  float a, b;
  uint32_t ta, tb, pair;  // pair: both results, packed, where `clear`
  bool clear;
};
// Grouped: bf16's two word tests ANDed with each other first, then with in_range: the same
// value, but ptxas compiled the 8-token one-sequence kernel (silu_narrow2_batch) 55
// instructions shorter, and T = 256 ran 1.015 to 1.017 times as fast on an H100 (fifty-first
// session). Applied in every kernel, it also changed T = 128's 4-token kernel, which then ran
// 0.992 to 0.995 times as fast, and gained nothing on the other rows (fifty-second session),
// so the other kernels keep the left-to-right form.
template <Elem E, SiluRare R, bool Grouped = false>
__device__ __forceinline__ SiluPairTest silu_pair_test(float a, float b) {
  SiluPairTest p{a, b, 0, 0, 0, false};
  const bool in_range = (fabsf(a) <= kSiluFastMax) & (fabsf(b) <= kSiluFastMax);  // NaN fails
  if constexpr (E == Elem::bf16) {
    // The first estimate's test words, each narrowing in its high half.
    p.ta = vt::math::bf16_test_word(silu_estimate(a), kSiluSlack);
    p.tb = vt::math::bf16_test_word(silu_estimate(b), kSiluSlack);
    const bool ca = vt::math::bf16_word_clear(p.ta, kSiluSlack), cb = vt::math::bf16_word_clear(p.tb, kSiluSlack);
    p.clear = Grouped ? in_range & (ca & cb) : (in_range & ca) & cb;
    p.pair = __byte_perm(p.ta, p.tb, 0x7632);  // the high halves, a's low
  } else if constexpr (R == SiluRare::second || R == SiluRare::second_call) {
    // f16's first test fails some eight times as often as bf16's (1.2% of the elements at
    // the slack of 48 then, so more than half of a warp's packets), so where the caller takes
    // the second estimate, f16 tests it first (six more instructions an element) and sends
    // what it leaves exact: 1.26 times as fast as the first estimate at T = 16384, and 1.13
    // against the first with the second behind it; the pair's one conversion, 1.11 more (H200,
    // seventeenth session).
    p.clear = in_range &
              f16_pair_if_clear_bounded(silu_estimate_refined(a), silu_estimate_refined(b), kSiluRefinedSlack, &p.pair);
  } else {  // the kernels that take neither (the update, other weights) were not timed with them
    uint16_t na = 0, nb = 0;
    p.clear = in_range & narrow_if_clear<E>(silu_estimate(a), kSiluSlack, &na) &
              narrow_if_clear<E>(silu_estimate(b), kSiluSlack, &nb);
    p.pair = uint32_t{na} | uint32_t{nb} << 16;
  }
  return p;
}
template <Elem E, SiluRare R>
__device__ __forceinline__ uint32_t silu_pair_finish(const SiluPairTest& p) {
  constexpr bool bf16 = E == Elem::bf16;
  if (p.clear) return p.pair;
  if constexpr (bf16 && R == SiluRare::second_call) return silu_narrow2_rare_call<E>(p.a, p.b, p.ta, p.tb);
  if constexpr (bf16 && R == SiluRare::second) return silu_narrow2_rare_second<E, false>(p.a, p.b, p.ta, p.tb);
  if constexpr (R == SiluRare::exact_call || R == SiluRare::second_call)
    return silu_narrow2_rare_exact_call<E>(p.a, p.b, p.ta, p.tb);
  return silu_narrow2_rare_exact<E>(p.a, p.b, p.ta, p.tb);
}

// Two of them packed (a in the low half): both tests first and then one branch, so that a
// packet of SiLU outputs costs one rarely taken branch instead of a branch per element. bf16
// takes both results from the test words (portable_dtype.h) with one byte permutation.
template <Elem E, SiluRare R>
__device__ __forceinline__ uint32_t silu_narrow2(float a, float b) {
  return silu_pair_finish<E, R>(silu_pair_test<E, R>(a, b));
}

// silu_narrow2 over N pairs, the bf16 first or the f16 second estimate (SiluRare::second):
// every pair's estimate and test first, in straight-line code, then one branch for the
// batch, behind which each pair that failed takes its finish (silu_pair_finish). With a branch
// per pair, ptxas could not interleave one pair's dependent chain with the next's.
template <Elem E, int N>
__device__ __forceinline__ void silu_narrow2_batch(const float (&a)[N], const float (&b)[N], uint32_t (&out)[N]) {
  static_assert(E != Elem::f32, "a 16-bit type");
  SiluPairTest t[N];
  bool all = true;
#pragma unroll
  for (int i = 0; i < N; ++i) {
    t[i] = silu_pair_test<E, SiluRare::second, true>(a[i], b[i]);
    out[i] = t[i].pair;
    all &= t[i].clear;
  }
  if (!all) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      if (!t[i].clear) out[i] = silu_pair_finish<E, SiluRare::second>(t[i]);
  }
}

// acc, or SiLU of it, as an element of type E: the value the reference's rounding gives.
template <Elem E>
__device__ __forceinline__ typename ElemTraits<E>::raw activated(float acc, bool silu) {
  if constexpr (E == Elem::f32) {
    return silu ? silu_exact(acc) : acc;  // equal to silu bit for bit
  } else {
    return silu ? silu_narrow<E>(acc) : ElemTraits<E>::narrow(acc);
  }
}

// Stores acc, or SiLU of it, as `dtype`: the value the reference's rounding gives.
__device__ __forceinline__ void store_activated(int dtype, char* p, float acc, bool silu) {
  if (silu && dtype == VT_DTYPE_BF16) {
    *reinterpret_cast<uint16_t*>(p) = silu_narrow<Elem::bf16>(acc);
  } else if (silu && dtype == VT_DTYPE_F16) {
    *reinterpret_cast<uint16_t*>(p) = silu_narrow<Elem::f16>(acc);
  } else {
    store(dtype, p, silu ? silu_exact(acc) : acc);
  }
}

// The contract's conv arithmetic for a token of Vec channels (ops.md): each channel's input
// enters its window's last place, acc = bias, then acc = fma(w[j], window[j], acc) oldest
// first, and the window slides one place for the next token.
// WidenOnce: the input widened into a register that ptxas cannot recompute from the packet
// (it re-widened each tap at every use, even with registers to spare: SASS).
template <int K, int Vec, bool WidenOnce = false, class In>
__device__ __forceinline__ void conv_token(float (&win)[Vec][K], const float (&w)[Vec][K], const float (&bias)[Vec],
                                           const In& in, float (&acc)[Vec]) {
#pragma unroll
  for (int i = 0; i < Vec; ++i) {
    win[i][K - 1] = in.get(i);
    if constexpr (WidenOnce) asm("" : "+f"(win[i][K - 1]));
    acc[i] = bias[i];
#pragma unroll
    for (int j = 0; j < K; ++j) acc[i] = fmaf(w[i][j], win[i][j], acc[i]);
#pragma unroll
    for (int j = 0; j + 1 < K; ++j) win[i][j] = win[i][j + 1];
  }
}

// `Vec` elements of type E, loaded or stored as one word.
template <Elem E, int Vec>
struct alignas(sizeof(typename ElemTraits<E>::raw) * Vec) Packet {
  using raw = typename ElemTraits<E>::raw;
  static constexpr int kBytes = static_cast<int>(sizeof(raw)) * Vec;
  raw v[Vec];
  __device__ __forceinline__ float get(int i) const {
    if constexpr (E == Elem::bf16 && Vec % 2 == 0) {
      // Both halves of a 32-bit word widen with one instruction each (a shift, a mask).
      uint32_t w;
      memcpy(&w, &v[i & ~1], sizeof w);
      return __uint_as_float(i & 1 ? w & 0xffff0000u : w << 16);
    } else if constexpr (E == Elem::f16 && Vec % 2 == 0) {
      __half2 h;  // both halves of a word widened together
      memcpy(&h, &v[i & ~1], sizeof h);
      const float2 f = __half22float2(h);
      return i & 1 ? f.y : f.x;
    } else {
      return ElemTraits<E>::widen(v[i]);
    }
  }
  __device__ __forceinline__ void set(int i, float f) { v[i] = ElemTraits<E>::narrow(f); }
};

// The read-only path's word loads with an L2 prefetch-size hint of 128 bytes. Through
// load_packet, on an H100: conv at T = 1024 (inputs in the L2) took 1/1.050 of the time, other
// conv, update and post-conv rows 0.999 to 1.005 (docs/benchmarks.md, fifty-sixth session).
// Not volatile, as __ldg is not: the compiler may schedule them.
__device__ __forceinline__ unsigned short load_word_l2_128(const unsigned short* p) {
  unsigned short v;
  asm("ld.global.nc.L2::128B.u16 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ unsigned int load_word_l2_128(const unsigned int* p) {
  unsigned int v;
  asm("ld.global.nc.L2::128B.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ uint2 load_word_l2_128(const uint2* p) {
  uint2 v;
  asm("ld.global.nc.L2::128B.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
  return v;
}
__device__ __forceinline__ uint4 load_word_l2_128(const uint4* p) {
  uint4 v;
  asm("ld.global.nc.L2::128B.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// A read-only load through the non-coherent path (the kernels' inputs never alias their
// outputs, validated before any provider runs).
template <Elem E, int Vec>
__device__ __forceinline__ Packet<E, Vec> load_packet(const char* p) {
  using W = typename Word<Packet<E, Vec>::kBytes>::type;
  const W w = load_word_l2_128(reinterpret_cast<const W*>(p));
  Packet<E, Vec> pk;
  memcpy(&pk, &w, sizeof pk);
  return pk;
}

template <Elem E, int Vec>
__device__ __forceinline__ void store_packet(char* p, const Packet<E, Vec>& pk) {
  *reinterpret_cast<Packet<E, Vec>*>(p) = pk;
}

// Vec outputs' SiLU narrowed into a packet of the 16-bit type E, two at a time (silu_narrow2).
template <Elem E, int Vec, SiluRare R>
__device__ __forceinline__ void silu_narrow_packet(const float (&acc)[Vec], Packet<E, Vec>& pk) {
  static_assert(E != Elem::f32 && Vec % 2 == 0, "SiLU packets are narrowed two elements at a time");
#pragma unroll
  for (int i = 0; i < Vec; i += 2) {
    const uint32_t two = silu_narrow2<E, R>(acc[i], acc[i + 1]);
    if constexpr (R == SiluRare::second_call || R == SiluRare::exact_call) {
      memcpy(&pk.v[i], &two, sizeof two);  // as one word: by halves, ptxas took them apart and back (SASS)
    } else {
      pk.v[i] = static_cast<uint16_t>(two);
      pk.v[i + 1] = static_cast<uint16_t>(two >> 16);
    }
  }
}

// A tensor's base address and strides in bytes, as kernels want them.
struct View {
  char* base;
  int64_t s0, s1, s2;  // byte strides of dims 0..2
  int dtype;
};

// The usual state layout, [S, C, W] rows of f32 (a channel's W columns contiguous), in which a
// warp's channels are one run of memory: the launchers of the kernels that move such rows by
// whole words test for it, each with its own alignment test beside it. The window kernel makes
// the same test on the device, written out (conv_fwd.cu).
inline bool f32_state_rows(const View& st, int64_t W) {
  return st.dtype == VT_DTYPE_F32 && st.s2 == 4 && st.s1 == 4 * W;
}

inline View view_of(const vt_tensor& t) {
  View v{};
  if (!t.mem) return v;
  const int64_t e = dtype_bytes(t.dtype);
  v.base = reinterpret_cast<char*>(t.mem) + t.offset;
  v.s0 = t.rank > 0 ? t.strides[0] * e : 0;
  v.s1 = t.rank > 1 ? t.strides[1] * e : 0;
  v.s2 = t.rank > 2 ? t.strides[2] * e : 0;
  v.dtype = t.dtype;
  return v;
}

}  // namespace vt::cuda::kern
