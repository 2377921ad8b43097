/* test_rope_freqs.c: RoFormer's schedule theta_i = base^(-2i/r) (eq. 15). */
#include <float.h>
#include <math.h>
#include "ropelab.h"
#include "tap.h"

#ifdef RL_HAVE_QUADMATH
#pragma GCC diagnostic ignored "-Wpedantic"
#include <quadmath.h>
#endif

/* Closed forms that need no power function at all. */
static void test_closed_forms(void)
{
  rl_schedule *f;
  if (rl_schedule_rope(2, 2, 10000.0, &f) == RL_OK) {
    /* base^0 = 1 exactly */
    tap_ok(f->n == 1 && f->theta[0] == 1.0, "d=2: theta_0 == 1");
    /* 2*pi/1 = 2*pi: the double 2*M_PI (doubling is exact) within 1 ulp */
    tap_ulp_close(rl_schedule_wavelength(f, 0), 2 * 3.14159265358979323846, 1.0,
                  "d=2: wavelength_0 = 2 pi");
    rl_schedule_free(f);
  } else {
    tap_ok(0, "rl_schedule_rope(2, 2, 1e4)");
  }
  if (rl_schedule_rope(4, 4, 100.0, &f) == RL_OK) {
    /* 100^(-1/2) = 1/10: must be the double nearest 0.1, i.e. 0.1 itself */
    tap_ok(f->theta[0] == 1.0 && f->theta[1] == 0.1, "d=4 base 100: theta = {1, 0.1}");
    rl_schedule_free(f);
  } else {
    tap_ok(0, "rl_schedule_rope(4, 4, 100)");
  }
  /* partial rotary: r = 4 of d = 8, base 16: 16^(-2i/4) = 4^-i, exact powers of 2 */
  if (rl_schedule_rope(8, 4, 16.0, &f) == RL_OK) {
    tap_ok(f->dim == 8 && f->rot == 4 && f->n == 2 && f->theta[0] == 1.0 &&
               f->theta[1] == 0.25,
           "d=8 r=4 base 16: theta = {1, 1/4} (exponent over r, not d)");
    rl_schedule_free(f);
  } else {
    tap_ok(0, "rl_schedule_rope(8, 4, 16)");
  }
  /* base 2^64, d = 128: theta_i = 2^(-i) exactly */
  if (rl_schedule_rope(128, 128, 0x1p64, &f) == RL_OK) {
    int all = 1;
    for (size_t i = 0; i < f->n; i++)
      all &= f->theta[i] == ldexp(1.0, -(int)i);
    tap_ok(all, "d=128 base 2^64: theta_i == 2^-i for all 64 pairs");
    rl_schedule_free(f);
  } else {
    tap_ok(0, "rl_schedule_rope(128, 128, 2^64)");
  }
}

/* theta_i for d = 128 against an independent power.
 * With libquadmath: powq in 113 bits, then rounded to double; the claim
 * "double nearest to the exact value" means bitwise equality, unless the
 * exact value lies within 2^-60 relative of a rounding boundary (the long
 * double computation's own error) -- then 1 ulp is allowed and counted.
 * Without it: ratio^i by repeated multiplication in long double, whose
 * error (i roundings of 2^-64) stays below 2^-57, so within 1 ulp. */
static void test_schedule(size_t d, double base)
{
  rl_schedule *f;
  if (rl_schedule_rope(d, d, base, &f) != RL_OK) {
    tap_ok(0, "rl_schedule_rope(%zu, %zu, %g)", d, d, base);
    return;
  }
  double worst = 0, worst_wl = 0;
  int exact = 0, near = 0;
#ifdef RL_HAVE_QUADMATH
  for (size_t i = 0; i < f->n; i++) {
    __float128 q = powq((__float128)base, -(__float128)(2 * i) / (__float128)d);
    double want = (double)q;
    if (f->theta[i] == want) {
      exact++;
    } else {
      /* distance of q from the midpoint between the two candidates */
      __float128 mid = ((__float128)f->theta[i] + want) / 2;
      if (fabsq(q - mid) / q < 0x1p-60Q)
        near++;
    }
    worst = fmax(worst, tap_ulps(f->theta[i], want));
    /* wavelength 2*pi/theta in quad, correctly rounded, vs the library */
    __float128 wl = 2 * M_PIq / (__float128)f->theta[i];
    worst_wl = fmax(worst_wl, tap_ulps(rl_schedule_wavelength(f, i), (double)wl));
  }
  tap_ok(exact + near == (int)f->n,
         "d=%zu base %g: %d of %zu theta_i are the nearest double to powq, %d within "
         "2^-60 of a tie", d, base, exact, f->n, near);
  tap_le(worst, 1.0, "d=%zu base %g: theta_i vs powq in ulps", d, base);
  /* 2pi/theta in long double: one division and a rounding, <= 0.5 ulp + tiny */
  tap_le(worst_wl, 0.51, "d=%zu base %g: wavelength vs 2*pi/theta in quad", d, base);
#else
  long double ratio = powl((long double)base, -2.0L / (long double)d), p = 1.0L;
  for (size_t i = 0; i < f->n; i++, p *= ratio) {
    worst = fmax(worst, tap_ulps(f->theta[i], (double)p));
    worst_wl = fmax(worst_wl, tap_ulps(rl_schedule_wavelength(f, i) * f->theta[i],
                                       2 * 3.14159265358979323846));
  }
  (void)exact;
  (void)near;
  tap_le(worst, 1.0, "d=%zu base %g: theta_i vs long double ratio^i in ulps", d, base);
  /* wavelength * theta = 2 pi up to two roundings */
  tap_le(worst_wl, 2.0, "d=%zu base %g: wavelength * theta = 2 pi", d, base);
#endif
  /* strictly decreasing, first 1, last base^(-(d-2)/d) > 1/base */
  int mono = f->theta[0] == 1.0;
  for (size_t i = 1; i < f->n; i++)
    mono &= f->theta[i] < f->theta[i - 1];
  tap_ok(mono && f->theta[f->n - 1] > 1.0 / base, "d=%zu base %g: decreasing from 1", d, base);
  rl_schedule_free(f);
}

static void test_errors(void)
{
  struct {
    size_t dim, rot;
    double base;
    const char *what;
  } cases[] = {
    {3, 2, 10000, "odd dim"},
    {0, 0, 10000, "dim 0"},
    {8, 10, 10000, "rot > dim"},
    {8, 3, 10000, "odd rot"},
    {8, 0, 10000, "rot 0"},
    {8, 8, 1.0, "base 1"},
    {8, 8, 0.5, "base 0.5"},
    {8, 8, -10000, "negative base"},
    {8, 8, NAN, "base nan"},
    {8, 8, INFINITY, "base inf"},
  };
  for (size_t j = 0; j < sizeof cases / sizeof *cases; j++) {
    rl_schedule *f = (rl_schedule *)&f; /* anything but NULL */
    rl_status st = rl_schedule_rope(cases[j].dim, cases[j].rot, cases[j].base, &f);
    tap_ok(st == RL_EINVAL && f == NULL, "%s -> RL_EINVAL, *out = NULL", cases[j].what);
    rl_schedule_free(f);
  }
  rl_schedule *f = NULL;
  tap_ok(rl_schedule_alloc(6, 7, &f) == RL_EINVAL && f == NULL, "alloc rot > dim -> RL_EINVAL");
  rl_schedule_free(NULL); /* must not crash */
}

int main(void)
{
  test_closed_forms();
  test_schedule(128, 10000.0);
  test_schedule(128, 500000.0);
  test_schedule(64, 10000.0);
  test_schedule(256, 1000000.0);
  test_errors();
  return tap_done();
}
