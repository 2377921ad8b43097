/* test_expf.c: the float trainer's exponentials (rl_tl_expf_inplace,
 * expf_vec.c) against the C library's expf, bit for bit: the reference is
 * expf itself, called one value at a time.  Every float of [-104, 89]
 * (expf's whole finite, nonzero range and the edges of its special path)
 * at a stride of 61, every float of [-1, 1] at a stride of 127, the
 * specials (0, -0, +-inf, nan, the overflow and underflow edges, 88
 * and its neighbours), and arrays of every length 1..40 (the tail
 * through a block of eight).  With an argument `all`, every one of the
 * 2^32 floats (a minute or so: experiments/train_bench/README.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "layers.h"
#include "tap.h"

static float fbits(uint32_t u)
{
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static uint32_t ubits(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* the floats a, a + stride, ... (as bit patterns, same sign) up to b
 * through rl_tl_expf_inplace in blocks of 1000; the count that differ
 * from expf (NaNs: both NaN), the first one in *first */
static size_t sweep(uint32_t a, uint32_t b, uint32_t stride, size_t *n, float *first)
{
  float x[1000], y[1000];
  size_t bad = 0, k = 0;
  for (uint64_t u = a;; u += stride) {
    int last = u + stride > b;
    x[k++] = fbits((uint32_t)u);
    if (k == 1000 || last) {
      memcpy(y, x, k * sizeof *y);
      rl_tl_expf_inplace(y, k);
      for (size_t i = 0; i < k; i++) {
        float e = expf(x[i]);
        if (ubits(e) != ubits(y[i]) && !(isnan(e) && isnan(y[i]))) {
          if (!bad)
            *first = x[i];
          bad++;
        }
      }
      *n += k;
      k = 0;
    }
    if (last)
      break;
  }
  return bad;
}

int main(int argc, char **argv)
{
  size_t n = 0, bad = 0;
  float first = 0;
  printf("# lanes: %s\n", rl_tl_expf_lanes() ? "avx2+fma (glibc's __expf_fma operations)" : "none (expf calls)");
  if (argc > 1 && !strcmp(argv[1], "all")) {
    bad += sweep(0x00000000u, 0x7fffffffu, 1, &n, &first);
    bad += sweep(0x80000000u, 0xffffffffu, 1, &n, &first);
    tap_report(!bad, (double)bad, 0, "every float (%zu), first mismatch %a", n, (double)first);
    return tap_done();
  }
  /* [0, 89] and [-104, 0]: positive and negative bit patterns */
  bad = sweep(0x00000000u, ubits(89.0f), 61, &n, &first);
  bad += sweep(0x80000000u, ubits(-104.0f), 61, &n, &first);
  tap_report(!bad, (double)bad, 0, "[-104, 89] at a stride of 61 (%zu floats), first mismatch %a",
             n, (double)first);
  n = 0;
  bad = sweep(0x00000000u, ubits(1.0f), 127, &n, &first);
  bad += sweep(0x80000000u, ubits(-1.0f), 127, &n, &first);
  tap_report(!bad, (double)bad, 0, "[-1, 1] at a stride of 127 (%zu floats), first mismatch %a", n,
             (double)first);
  /* the specials, each alone and among ordinary values */
  const float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 88.0f, nextafterf(88.0f, 0),
                      nextafterf(88.0f, 100), -88.0f, 0x1.62e42ep6f, nextafterf(0x1.62e42ep6f, 100),
                      -0x1.9fe368p6f, nextafterf(-0x1.9fe368p6f, 0), -0x1.9d1d9ep6f,
                      -104.0f, -150.0f, 1e-30f, -1e-30f, 0x1p-149f, FLT_MAX, -FLT_MAX};
  size_t ns = sizeof sp / sizeof *sp, sbad = 0;
  for (size_t i = 0; i < ns; i++) {
    float blk[8] = {0.5f, -3.0f, 1.25f, -0.1f, 2.0f, -7.5f, 0.0f, 3.0f};
    for (size_t j = 0; j < 8; j++) {
      float y[8];
      memcpy(y, blk, sizeof y);
      y[j] = sp[i];
      rl_tl_expf_inplace(y, 8);
      for (size_t k = 0; k < 8; k++) {
        float x = k == j ? sp[i] : blk[k], e = expf(x);
        sbad += ubits(e) != ubits(y[k]) && !(isnan(e) && isnan(y[k]));
      }
    }
  }
  tap_report(!sbad, (double)sbad, 0, "the specials (%zu) at each lane of a block", ns);
  /* lengths 1..40: each prefix of the same values, the tail's lanes */
  size_t lbad = 0;
  for (size_t len = 1; len <= 40; len++) {
    float y[40];
    for (size_t i = 0; i < len; i++)
      y[i] = -0.37f * (float)i + 1.5f;
    rl_tl_expf_inplace(y, len);
    for (size_t i = 0; i < len; i++) {
      float e = expf(-0.37f * (float)i + 1.5f);
      lbad += ubits(e) != ubits(y[i]);
    }
  }
  tap_report(!lbad, (double)lbad, 0, "every length 1..40");
  return tap_done();
}
