/* sleef.c: SLEEF's float functions as PyTorch's CPU kernels call them.
 * ATen's Vectorized<float> for AVX2 (aten/src/ATen/cpu/vec/vec256/
 * vec256_float.h) computes pow, cos and sin with Sleef_powf8_u10,
 * Sleef_cosf8_u10 and Sleef_sinf8_u10 (1.0-ulp variants), called through
 * SLEEF's dispatcher as libtorch_cpu does with Debian's libsleef.so.3.  A
 * lane's result DOES depend on the other lanes: SLEEF's cosf/sinf take
 * their short argument reduction only when every lane is below its range
 * limit (125 for the u10 float functions), else the longer one for all
 * eight, so cos(x) of one entry depends on the largest angle of its
 * vector (seen in torch: 10 of 32768 entries of a table differ from the
 * one-lane value).  So the callers pass whole 8-lane vectors, as ATen's
 * loop forms them.  This file is compiled with -mavx2 and -mfma; callers
 * check rl_sleef_usable() first. */
#include <immintrin.h>
#include <sleef.h>
/* declared for the core in precision_impl.h */
int rl_sleef_usable(void);
void rl_sleef_powf8(float x, const float *y, float *out);
void rl_sleef_cossin8(const float *a, float *c, float *s);

int rl_sleef_usable(void)
{
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

void rl_sleef_powf8(float x, const float *y, float *out)
{
  _mm256_storeu_ps(out, Sleef_powf8_u10(_mm256_set1_ps(x), _mm256_loadu_ps(y)));
}

void rl_sleef_cossin8(const float *a, float *c, float *s)
{
  __m256 v = _mm256_loadu_ps(a);
  _mm256_storeu_ps(c, Sleef_cosf8_u10(v));
  _mm256_storeu_ps(s, Sleef_sinf8_u10(v));
}
