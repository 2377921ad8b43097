/* expf_vec.c: y[i] = expf(y[i]) over an array, eight at a time, with the
 * bits of the C library's own expf (layers.h, rl_tl_expf_inplace).
 *
 * The float32 trainer's exponentials (softmax, GELU, cross-entropy) were
 * 12-13% of a step's CPU as calls to glibc's expf (perf, 2026-12-06),
 * and the defaults' >= 99% was measured on those bits, so a faster expf
 * must give exactly the same floats.  glibc (2.27 on) computes expf in
 * double: k = round(x 32/ln 2), r = x 32/ln 2 - k, 2^(k/32) from a table
 * of 32, a cubic in r (sysdeps/ieee754/flt-32/e_expf.c, from ARM's
 * optimized-routines); on x86-64 with FMA and AVX2 its ifunc runs the
 * build of that source with fused multiply-adds (__expf_fma).  This file
 * does the same double operations, in the same order and with the same
 * fusions (read off glibc 2.36's __expf_fma disassembly), four lanes of
 * double per AVX2 register; each lane's result is then the same double,
 * rounded to float the same way.  Inputs on glibc's special path (|x|
 * >= 88, inf, nan: its top-12-bit test) go to expf itself.
 *
 * The lanes are used only where they hold: x86-64, glibc, a CPU with FMA
 * and AVX2 (where glibc picks __expf_fma), and a probe at first use of
 * 4096 inputs over expf's whole range that must match expf bit for bit;
 * anywhere else, and on any mismatch, the loop of expf calls as before.
 * tests/train/test_expf.c compares every float in [-104, 89] with a
 * stride against expf; experiments/train_bench/expf_exhaustive.sh runs
 * every float. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "layers.h"

#if defined(__x86_64__) && defined(__GNUC__) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 27))
#define RL_EXPF_LANES 1
#include <immintrin.h>
#include <pthread.h>

/* glibc's __exp2f_data as expf reads it: 2^(i/32) less i << 47 (the
 * table), 32/ln 2, the cubic's coefficients scaled by 32^-3, 32^-2,
 * 32^-1, and the rounding shift 1.5 2^52 (glibc's e_exp2f_data.c) */
static const uint64_t tab[32] = {
  0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
  0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
  0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
  0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
  0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
  0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
  0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
  0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540};
static const uint64_t invln2n = 0x40471547652b82fe, shift = 0x4338000000000000;
static const uint64_t c0 = 0x3ebc6af84b912394, c1 = 0x3f2ebfce50fac4f3,
                      c2 = 0x3f962e42ff0c52d6;

static double dbits(uint64_t u)
{
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* four floats' expf, none on the special path: e_expf.c's lines as
 * __expf_fma runs them (kd = fma(N/ln 2, x, shift), r = fma(N/ln 2, x,
 * -kd): the product x N/ln 2 is never rounded) */
__attribute__((target("avx2,fma"))) static __m128 exp4(__m128 x)
{
  __m256d xd = _mm256_cvtps_pd(x), inv = _mm256_set1_pd(dbits(invln2n));
  __m256d sh = _mm256_set1_pd(dbits(shift));
  __m256d kd = _mm256_fmadd_pd(inv, xd, sh);
  __m256i ki = _mm256_castpd_si256(kd);
  kd = _mm256_sub_pd(kd, sh);
  __m256d r = _mm256_fmsub_pd(inv, xd, kd);
  __m256i t = _mm256_i64gather_epi64((const long long *)tab,
                                     _mm256_and_si256(ki, _mm256_set1_epi64x(31)), 8);
  t = _mm256_add_epi64(t, _mm256_slli_epi64(ki, 47));
  __m256d s = _mm256_castsi256_pd(t);
  __m256d z = _mm256_fmadd_pd(r, _mm256_set1_pd(dbits(c0)), _mm256_set1_pd(dbits(c1)));
  __m256d r2 = _mm256_mul_pd(r, r);
  __m256d y = _mm256_fmadd_pd(r, _mm256_set1_pd(dbits(c2)), _mm256_set1_pd(1.0));
  y = _mm256_fmadd_pd(z, r2, y);
  y = _mm256_mul_pd(y, s);
  return _mm256_cvtpd_ps(y);
}

/* eight floats in place; any on glibc's special path (its test: the top
 * 12 bits of |x| above those of 88) and all eight go to expf */
__attribute__((target("avx2,fma"))) static void exp8(float *y)
{
  __m256 x = _mm256_loadu_ps(y);
  __m256i top = _mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(x), 20),
                                 _mm256_set1_epi32(0x7ff));
  if (!_mm256_testz_si256(_mm256_cmpgt_epi32(top, _mm256_set1_epi32(0x42a)),
                          _mm256_set1_epi32(-1))) {
    for (int i = 0; i < 8; i++)
      y[i] = expf(y[i]);
    return;
  }
  __m128 lo = exp4(_mm256_castps256_ps128(x)), hi = exp4(_mm256_extractf128_ps(x, 1));
  _mm256_storeu_ps(y, _mm256_set_m128(hi, lo));
}

__attribute__((target("avx2,fma"))) static void exp_lanes(float *y, size_t n)
{
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    exp8(y + i);
  if (i < n) { /* the tail through a block of eight (zeros past n) */
    float b[8] = {0};
    memcpy(b, y + i, (n - i) * sizeof *b);
    exp8(b);
    memcpy(y + i, b, (n - i) * sizeof *b);
  }
}

static int lanes_ok;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* the probe: 4096 floats spread over every exponent of expf's range
 * (both signs, |x| from 2^-30 to 104, and the edges of the special
 * path), each against expf */
static void probe(void)
{
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
    return;
  float x[4096], y[4096];
  uint32_t lo = 0x30800000u, hi = 0x42d00000u; /* 2^-30 .. 104 */
  for (size_t i = 0; i < 4096; i++) {
    uint32_t u = lo + (uint32_t)((uint64_t)(hi - lo) * (i / 2) / 2048) + (uint32_t)(i * 2654435761u % 977u);
    u |= (uint32_t)(i & 1) << 31;
    memcpy(&x[i], &u, sizeof u);
  }
  memcpy(y, x, sizeof x);
  exp_lanes(y, 4096);
  for (size_t i = 0; i < 4096; i++) {
    float e = expf(x[i]);
    if (memcmp(&e, &y[i], sizeof e))
      return;
  }
  lanes_ok = 1;
}
#endif

void rl_tl_expf_inplace(float *y, size_t n)
{
#ifdef RL_EXPF_LANES
  pthread_once(&once, probe);
  if (lanes_ok) {
    exp_lanes(y, n);
    return;
  }
#endif
  for (size_t i = 0; i < n; i++)
    y[i] = expf(y[i]);
}

int rl_tl_expf_lanes(void)
{
#ifdef RL_EXPF_LANES
  pthread_once(&once, probe);
  return lanes_ok;
#else
  return 0;
#endif
}
