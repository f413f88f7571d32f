// The portable math of ops/include/vt/ops/portable_math.h in GLSL, operation for operation,
// plus correctly rounded reciprocal and square root for the L2 norm. Every float result is
// `precise` (no contraction, no reassociation) and every fused multiply-add goes through
// vt_fma, so each value is rounded exactly where the reference rounds it.
//
// GLSL's own `/` and `sqrt` are not correctly rounded in Vulkan, and `fma` need not be fused
// (lavapipe splits it). Built with VT_FMA_F64, vt_fma is computed exactly through double
// precision instead; built with VT_DENORM_PRESERVE, subnormals are kept. The plugin probes the
// device and picks the build that gives IEEE results (vk_probe.cpp). Infinities and NaNs are recognised by their bits, and no value is multiplied by a
// constant zero: compilers (lavapipe's among them) fold those even in precise code.
#ifndef VT_VULKAN_MATH_GLSL
#define VT_VULKAN_MATH_GLSL

#ifdef VT_DENORM_PRESERVE
// Keep subnormal f32 values, as the reference does; GPUs flush them unless told otherwise.
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(capabilities = [4464], 4459, 32);  // capability and mode DenormPreserve, 32-bit
#endif

#define VT_F(bits) uintBitsToFloat(bits)
#define VT_INF VT_F(0x7f800000u)

bool vt_is_nan(float x) { return (floatBitsToUint(x) & 0x7fffffffu) > 0x7f800000u; }

#ifdef VT_FMA_F64
// a*b is exact in double; the sum is rounded to double and then, made odd when inexact
// (round to odd), rounds to f32 exactly as the fused result would: 53 >= 24 + 2 bits.
float vt_fma(float a, float b, float c) {
  precise double p = double(a) * double(b);
  precise double dc = double(c);
  precise double s = p + dc;
  uvec2 u = unpackDouble2x32(s);
  if ((u.y & 0x7ff00000u) != 0x7ff00000u) {
    precise double bb = s - p;
    precise double e = (p - (s - bb)) + (dc - bb);  // s + e == p + c exactly (TwoSum)
    if (e != 0.0) {
      if ((e > 0.0) != (s > 0.0)) {  // |s| > |p + c|: truncate one step toward zero
        u.y -= u.x == 0u ? 1u : 0u;
        u.x -= 1u;
      }
      u.x |= 1u;
    }
  }
  precise float r = float(packDouble2x32(u));
  return r;
}
#else
float vt_fma(float a, float b, float c) {
  precise float r = fma(a, b, c);
  return r;
}
#endif

// e^x: Cody-Waite reduction, degree-6 polynomial, 2^k applied as two normal factors.
float vt_exp(float x) {
  if (vt_is_nan(x)) return x;  // the reference's clamps pass NaN through; so does this
  float xc = x > 89.0 ? 89.0 : x;
  xc = xc < -104.0 ? -104.0 : xc;
  const float shift = 12582912.0;  // 0x1.8p23
  precise float t = vt_fma(xc, VT_F(0x3fb8aa3bu), shift);
  precise float k = t - shift;
  precise float r = vt_fma(k, VT_F(0xbf317218u), xc);
  r = vt_fma(k, VT_F(0x3102e308u), r);
  precise float q = VT_F(0x3ab5121fu);
  q = vt_fma(q, r, VT_F(0x3c091ceeu));
  q = vt_fma(q, r, VT_F(0x3d2aac79u));
  q = vt_fma(q, r, VT_F(0x3e2aaa49u));
  q = vt_fma(q, r, VT_F(0x3efffffeu));
  precise float p = vt_fma(q, r, 1.0);
  p = vt_fma(p, r, 1.0);
  uint m = floatBitsToUint(t) - floatBitsToUint(shift) + 150u;
  uint m1 = m >> 1;
  float s1 = VT_F((m1 + 52u) << 23);
  float s2 = VT_F((m - m1 + 52u) << 23);
  precise float ps = p * s1;
  precise float y = ps * s2;
  return y;
}

// log(1 + x): 1 + x = 2^k (1 + f), f exact from x, degree-10 polynomial, k ln2 in two parts.
float vt_log1p(float x) {
  if (vt_is_nan(x)) return x;
  if (!(x > -1.0) || floatBitsToUint(x) == 0x7f800000u) {
    if (x == -1.0) return -VT_INF;
    if (floatBitsToUint(x) == 0x7f800000u) return x;
    return VT_F(0x7fc00000u);
  }
  precise float u = 1.0 + x;
  uint e = (floatBitsToUint(u) + 0x00400000u) >> 23;
  uint e_near = e > 151u ? 151u : e;
  float s = VT_F((254u - e_near) << 23);
  precise float one_minus_s = 1.0 - s;
  precise float f_near = vt_fma(x, s, -one_minus_s);
  precise float f_far = VT_F(floatBitsToUint(u) - ((e - 127u) << 23)) - 1.0;
  precise float f = e > 151u ? f_far : f_near;
  precise float q = VT_F(0xbd37f328u);
  q = vt_fma(q, f, VT_F(0x3dd5fb5cu));
  q = vt_fma(q, f, VT_F(0xbe06c801u));
  q = vt_fma(q, f, VT_F(0x3e144bdbu));
  q = vt_fma(q, f, VT_F(0xbe2a791fu));
  q = vt_fma(q, f, VT_F(0x3e4cb42du));
  q = vt_fma(q, f, VT_F(0xbe800012u));
  q = vt_fma(q, f, VT_F(0x3eaaaad3u));
  q = vt_fma(q, f, VT_F(0xbf000000u));
  precise float fq = f * q;
  precise float p = vt_fma(f, fq, f);
  precise float kf = float(int(e) - 127);
  precise float low = vt_fma(kf, VT_F(0xb102e308u), p);
  precise float with_k = vt_fma(kf, VT_F(0x3f317218u), low);
  return e == 127u ? p : with_k;
}

// ---- Correctly rounded n / d for d in [1, inf] (portable_math.h has the proof). ----

float vt_recip_seed(float d) {
  float y = VT_F(0x7ef311c3u - floatBitsToUint(d));
  precise float e = vt_fma(-d, y, 1.0);
  precise float cubic = vt_fma(e, e, e);
  precise float y1 = vt_fma(y, cubic, y);
  precise float e1 = vt_fma(-d, y1, 1.0);
  precise float y2 = vt_fma(y1, e1, y1);
  return y2;
}

float vt_recip_refine(float d, float y0) {
  precise float e = vt_fma(-d, y0, 1.0);
  precise float y = vt_fma(y0, e, y0);
  uint all_ones = ((floatBitsToUint(d) & 0x7fffffu) + 1u) >> 23;
  return VT_F(floatBitsToUint(y) | all_ones);
}

float vt_quotient_faithful(float n, float d, float y) {
  precise float q0 = n * y;
  precise float residual = vt_fma(d, q0, -n);
  precise float q1 = vt_fma(-residual, y, q0);
  return q1;
}

float vt_quotient_round(float n, float d, float y, float q1) {
  precise float residual = vt_fma(d, q1, -n);
  precise float q2 = vt_fma(-residual, y, q1);
  return q2;
}

float vt_div_ge1_slow(float n, float d) {
  if (vt_is_nan(n) || vt_is_nan(d)) {
    precise float nan_sum = n + d;
    return nan_sum;
  }
  uint sign = floatBitsToUint(n) & 0x80000000u;
  uint ua_bits = floatBitsToUint(n) & 0x7fffffffu;
  // n * 0 for d = inf:
  if (floatBitsToUint(d) == 0x7f800000u) return ua_bits == 0x7f800000u ? VT_F(0x7fc00000u) : VT_F(sign);
  if (ua_bits == 0x7f800000u || ua_bits == 0u) return n;
  precise float a = VT_F(ua_bits);
  int ea = 0;
  if (a < VT_F(0x00800000u)) {
    a = a * VT_F(0x5f800000u);  // 2^64
    ea = -64;
  }
  ea += int(floatBitsToUint(a) >> 23) - 127;
  int ed = int(floatBitsToUint(d) >> 23) - 127;
  float A = VT_F((floatBitsToUint(a) & 0x7fffffu) | 0x3f800000u);
  float D = VT_F((floatBitsToUint(d) & 0x7fffffu) | 0x3f800000u);
  int E = ea - ed;
  float y = vt_recip_refine(D, vt_recip_seed(D));
  float q = vt_quotient_round(A, D, y, vt_quotient_faithful(A, D, y));
  if (int(floatBitsToUint(q) >> 23) + E >= 1) return VT_F((floatBitsToUint(q) + (uint(E) << 23)) | sign);
  // Subnormal or zero: round Q = |n / d| 2^149 to an integer with exact midpoint tests.
  int S = E + 149;
  if (S < -1) return VT_F(sign);
  float scale = VT_F(uint(S + 127) << 23);
  precise float As = A * scale;
  const float big = 8388608.0;  // 2^23
  precise float qs = q * scale;
  precise float c_big = qs + big;
  precise float c = c_big - big;
  precise float c_hi = c + 0.5;
  precise float c_lo = c - 0.5;
  precise float above = vt_fma(-D, c_hi, As);
  precise float below = vt_fma(-D, c_lo, As);
  precise float c_odd_probe = c + big;
  bool c_odd = (floatBitsToUint(c_odd_probe) & 1u) != 0u;
  if (above > 0.0 || (above == 0.0 && c_odd)) {
    c = c + 1.0;
  } else if (below < 0.0 || (below == 0.0 && c_odd)) {
    c = c - 1.0;
  }
  precise float c_bits = c + big;
  return VT_F((floatBitsToUint(c_bits) - floatBitsToUint(big)) | sign);
}

float vt_div_ge1(float n, float d) {
  uint ua = floatBitsToUint(n) & 0x7fffffffu;
  uint ud = floatBitsToUint(d) & 0x7fffffffu;
  bool fast = ud < 0x7d800000u && ua - 0x12800000u < 0x6d000000u && ua + 0x3d800000u >= ud;
  if (!fast) return vt_div_ge1_slow(n, d);
  float y = vt_recip_refine(d, vt_recip_seed(d));
  return vt_quotient_round(n, d, y, vt_quotient_faithful(n, d, y));
}

// The composite functions of the contract, each operation rounded in this order.
float vt_sigmoid(float x) {
  precise float d = 1.0 + vt_exp(-x);
  return vt_div_ge1(1.0, d);
}

float vt_silu(float x) {
  precise float d = 1.0 + vt_exp(-x);
  return vt_div_ge1(x, d);
}

float vt_softplus(float x) { return x > 20.0 ? x : vt_log1p(vt_exp(x)); }

// ---- Correctly rounded 1 / r and sqrt(x) for every input. ----

// |r| >= 1 is a division with d >= 1. Below 1, r = A 2^-k with A in [1, 2): RN(1 / A) is
// in (1/2, 1], and scaling it by 2^k is exact (or overflows, as 1 / r does).
float vt_recip(float r) {
  if (vt_is_nan(r)) return r;
  uint sign = floatBitsToUint(r) & 0x80000000u;
  precise float a = VT_F(floatBitsToUint(r) & 0x7fffffffu);
  if (a >= 1.0) return vt_div_ge1(VT_F(sign | 0x3f800000u), a);
  if (a == 0.0) return VT_F(sign | 0x7f800000u);
  uint extra = 0u;
  if (a < VT_F(0x00800000u)) {
    a = a * VT_F(0x5f800000u);  // 2^64, exact
    extra = 64u;
  }
  uint ua = floatBitsToUint(a);
  float A = VT_F((ua & 0x7fffffu) | 0x3f800000u);
  uint k = 127u - (ua >> 23) + extra;  // 1..149
  uint k1 = k >> 1;
  float q = vt_div_ge1(1.0, A);
  precise float q1 = q * VT_F((127u + k1) << 23);
  precise float q2 = q1 * VT_F((127u + k - k1) << 23);
  return VT_F(floatBitsToUint(q2) | sign);
}

// x = X 2^(2h) with X in [1, 4) and sqrt(X) = m 2^-23 rounded, m in [2^23, 2^24). m is
// right when the midpoints bracket sqrt(X): (2m - 1)^2 < X 2^48 < (2m + 1)^2, checked in
// exact 64-bit integer arithmetic (never equal: odd square against an even number). The
// hardware square root is only the start; the steps below end at the correctly rounded m.
float vt_sqrt(float x) {
  uint ux = floatBitsToUint(x);
  if ((ux & 0x7fffffffu) == 0u || vt_is_nan(x) || ux == 0x7f800000u) return x;  // +-0, NaN, +inf
  if ((ux & 0x80000000u) != 0u) return VT_F(0x7fc00000u);
  int bias = 0;
  precise float a = x;
  if (ux < 0x00800000u) {
    a = x * VT_F(0x5f800000u);  // 2^64, exact
    bias = -32;
  }
  uint ua = floatBitsToUint(a);
  int ex = int(ua >> 23) - 127;
  uint odd = uint(ex) & 1u;
  int h = (ex - int(odd)) / 2;
  uint mx = ((ua & 0x7fffffu) | 0x800000u) << odd;  // X = mx 2^-23
  float X = VT_F((ua & 0x7fffffu) | ((127u + odd) << 23));
  float s0 = sqrt(X);
  uint m = s0 >= 2.0 ? 0xffffffu : (s0 < 1.0 ? 0x800000u : ((floatBitsToUint(s0) & 0x7fffffu) | 0x800000u));
  uint t_hi = mx >> 7, t_lo = mx << 25;  // X 2^48 = mx 2^25
  for (int i = 0; i < 16; ++i) {
    uint hi, lo;
    umulExtended(2u * m + 1u, 2u * m + 1u, hi, lo);
    if (hi > t_hi || (hi == t_hi && lo > t_lo)) break;
    m += 1u;
  }
  for (int i = 0; i < 16; ++i) {
    uint hi, lo;
    umulExtended(2u * m - 1u, 2u * m - 1u, hi, lo);
    if (hi < t_hi || (hi == t_hi && lo < t_lo)) break;
    m -= 1u;
  }
  uint s = (m & 0x7fffffu) | 0x3f800000u;
  return VT_F(s + (uint(h + bias) << 23));
}

#endif
