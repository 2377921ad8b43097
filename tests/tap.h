/* tap.h: the few assertions the test programs share (header-only).
 *
 * Each check prints one TAP-like line,
 *   ok N - name: err=E tol=T       or       not ok N - name: err=E tol=T
 * and tap_done() returns the exit status (1 when anything failed), so
 * `return tap_done();` ends main.  Errors in ulps are measured against
 * the spacing of doubles at the expected value. */
#ifndef RL_TESTS_TAP_H
#define RL_TESTS_TAP_H

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count_;
static int tap_failed_;

/* The spacing of doubles at |x| (the subnormal spacing at 0). */
static inline double tap_ulp(double x)
{
  x = fabs(x);
  if (x < DBL_MIN)
    return DBL_TRUE_MIN;
  return ldexp(DBL_EPSILON, ilogb(x));
}

/* |got - want| in ulps of want; inf when exactly one is NaN. */
static inline double tap_ulps(double got, double want)
{
  if (isnan(got) || isnan(want))
    return isnan(got) && isnan(want) ? 0.0 : HUGE_VAL;
  if (got == want)
    return 0.0;
  return fabs(got - want) / tap_ulp(want);
}

/* The general form: pass when err <= tol (false for NaN). */
static inline int tap_vreport(int pass, double err, double tol, const char *fmt, va_list ap)
{
  tap_count_++;
  if (!pass)
    tap_failed_++;
  printf("%sok %d - ", pass ? "" : "not ", tap_count_);
  vprintf(fmt, ap);
  printf(": err=%.3g tol=%.3g\n", err, tol);
  return pass;
}

static inline int tap_report(int pass, double err, double tol, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  tap_vreport(pass, err, tol, fmt, ap);
  va_end(ap);
  return pass;
}

/* tap_ok's body: the condition arrives evaluated once (a condition that
 * allocates must not run twice). */
static inline int tap_bool(int pass, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  tap_vreport(pass, pass ? 0.0 : 1.0, 0.0, fmt, ap);
  va_end(ap);
  return pass;
}

#define tap_le(err, tol, ...) tap_report((err) <= (tol), (err), (tol), __VA_ARGS__)
#define tap_ulp_close(got, want, tol_ulps, ...) \
  tap_le(tap_ulps((got), (want)), (tol_ulps), __VA_ARGS__)
#define tap_abs_close(got, want, tol, ...) \
  tap_le(fabs((double)(got) - (double)(want)), (tol), __VA_ARGS__)
/* A yes/no fact: err 0 when true, 1 when false, tolerance 0. */
#define tap_ok(cond, ...) tap_bool(!!(cond), __VA_ARGS__)

/* A part of a test that cannot run here. */
static inline void tap_skip(const char *why)
{
  printf("# skip: %s\n", why);
}

#ifdef ROPELAB_H
/* The RoPE schedule a test needs; a test that cannot build it stops. */
static inline rl_schedule *tap_rope(size_t dim, size_t rot, double base)
{
  rl_schedule *f;
  if (rl_schedule_rope(dim, rot, base, &f)) {
    printf("# cannot build the schedule d=%zu rot=%zu base=%g\n", dim, rot, base);
    exit(1);
  }
  return f;
}
#endif

static inline int tap_done(void)
{
  printf("1..%d\n", tap_count_);
  if (tap_failed_)
    printf("# %d of %d failed\n", tap_failed_, tap_count_);
  return tap_failed_ ? 1 : 0;
}

#endif
