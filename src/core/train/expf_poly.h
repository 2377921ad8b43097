/* expf_poly.h (internal to src/core/train and its tests): e^x in float,
 * four at a time in SSE-width vectors (GCC's vector extension, which
 * clang shares), for the float32 trainer's loops (softmax, GELU,
 * cross-entropy); libm's expf is a call per element, and was 8-14% of a
 * float32 step's CPU (perf, 2026-12-06).  Written as vectors because GCC
 * does not vectorise the scalar form's selects (-ftrapping-math).  The
 * float64 trainer keeps libm's exp.
 *
 * e^x = 2^n e^r, n = round(x / ln 2), r = x - n ln 2 in two parts (Cody
 * and Waite: n ln2_hi is exact, ln2_hi having 9 significant bits), so
 * |r| <= ln(2)/2 + a few ulp; e^r by its Taylor polynomial to r^7
 * (truncation below 4e-9 relative at |r| = 0.347, under a tenth of an
 * ulp), Horner in float; 2^n built in the exponent bits.
 * Measured against exp in double over every float x whose e^x is a
 * normal float (2.24e9 of them, 2026-12-06): relative error at most
 * 1.03e-7 (at x = 4.5056, under 2 ulp), glibc's expf 5.96e-8 (0.5 ulp);
 * tests/train/test_f32_layers.c checks a sample of them against 1.2e-7.
 * Edges: x > 88.722839 (past ln FLT_MAX) gives +inf, x < -87.336544
 * (below ln FLT_MIN) gives 0 where libm gives a subnormal (an absolute
 * error below 1.2e-38), NaN gives NaN.  Each lane is computed alone, so
 * an element's value does not depend on its neighbours or the array's
 * length. */
#ifndef RL_TRAIN_EXPF_POLY_H
#define RL_TRAIN_EXPF_POLY_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef float rl_v4f __attribute__((vector_size(16)));
typedef int32_t rl_v4i __attribute__((vector_size(16)));

/* mask ? a : b, lane by lane (mask lanes all ones or zero) */
static inline rl_v4f rl_v4_select(rl_v4i mask, rl_v4f a, rl_v4f b)
{
  return (rl_v4f)((mask & (rl_v4i)a) | (~mask & (rl_v4i)b));
}

static inline rl_v4f rl_expf4(rl_v4f x)
{
  const rl_v4f hi = {88.7228394f, 88.7228394f, 88.7228394f, 88.7228394f};
  const rl_v4f lo = {-87.3365448f, -87.3365448f, -87.3365448f, -87.3365448f};
  const rl_v4f magic = {12582912.0f, 12582912.0f, 12582912.0f, 12582912.0f};
  rl_v4i over = x > hi, under = x < lo; /* false for NaN: it passes */
  /* clamped so that 2^n stays a normal float */
  rl_v4f xc = rl_v4_select(over, hi, rl_v4_select(under, lo, x));
  /* round to nearest integer: adding 1.5 2^23 leaves n in the low bits */
  rl_v4f t = xc * 1.44269504f + magic, n = t - magic;
  rl_v4i k = (rl_v4i)t - 0x4B400000; /* n, -126..128 */
  rl_v4f r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  rl_v4f p = r * (1.0f / 5040.0f) + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  /* 2^128 is no float: 2 2^127 then */
  rl_v4i big = k > 127;
  p = rl_v4_select(big, p * 2.0f, p);
  k = (k & ~big) | (big & 127);
  rl_v4f e = p * (rl_v4f)((k + 127) << 23);
  const rl_v4f zero = {0, 0, 0, 0}, inf = {HUGE_VALF, HUGE_VALF, HUGE_VALF, HUGE_VALF};
  return rl_v4_select(over, inf, rl_v4_select(under, zero, e));
}

/* y[i] = e^x[i] for i < n (y may be x) */
static inline void rl_expf_array(float *y, const float *x, size_t n)
{
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    rl_v4f v;
    memcpy(&v, x + i, sizeof v);
    v = rl_expf4(v);
    memcpy(y + i, &v, sizeof v);
  }
  if (i < n) {
    rl_v4f v = {0, 0, 0, 0};
    memcpy(&v, x + i, (n - i) * sizeof *x);
    v = rl_expf4(v);
    memcpy(y + i, &v, (n - i) * sizeof *y);
  }
}

/* one value (the same lane arithmetic) */
static inline float rl_expf_poly(float x)
{
  rl_v4f v = {x, x, x, x};
  return rl_expf4(v)[0];
}

#endif
