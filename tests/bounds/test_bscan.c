/* test_bscan.c: the sign scan of Men et al.'s B_r (src/core/bounds/
 * men_scan.c, private bounds_impl.h) against a direct evaluation of every
 * row from exact angles (rl_bscan_exact: rl_angle_sincos per pair, itself
 * tested against __float128 in tests/base), over lengths of many chunks
 * of rows and not a multiple of the chunk or the block.
 *
 * Expected: the first negative row, the smallest B_r and where, from the
 * direct loop.  The scan's smallest value is its fast (recurrence) value
 * unless it was re-checked, so it may differ from the exact one by the
 * scan's error bound (men_scan.c: 2E, below 1e-11 for r < 2^15 and
 * n = 64); we allow 1e-10.  Two rows whose values are that close could
 * swap as argmin; the bases here have no such tie (checked: the test
 * reports the runner-up gap).
 *
 * RL_BSCAN_ANY is checked as a contract, not for its order: on a base
 * with negative rows it returns one of them (first_fail < len and the
 * direct value there < 0), and on a base without it returns len and the
 * smallest value over every row.  It is run after scans of other bases
 * (the remembered chunk order then differs from the plain one) and after
 * rl_bscan_forget. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "bounds_impl.h"
#include "ropelab.h"
#include "tap.h"

typedef struct direct {
  double first_fail, min, argmin, gap, negatives;
  double *v;
} direct;

static void direct_scan(const rl_schedule *s, double len, direct *d)
{
  d->first_fail = len;
  d->min = HUGE_VAL;
  d->argmin = -1;
  d->negatives = 0;
  double second = HUGE_VAL;
  for (double r = 0; r < len; r++) {
    double v = rl_bscan_exact(s->theta, s->n, 0, r, NULL);
    d->v[(size_t)r] = v;
    if (v < 0) {
      d->negatives++;
      if (d->first_fail == len)
        d->first_fail = r;
    }
    if (v < d->min) {
      second = d->min;
      d->min = v;
      d->argmin = r;
    } else if (v < second) {
      second = v;
    }
  }
  d->gap = second - d->min;
}

/* rl_sched_plain_theta (the search's fast RoPE frequencies) against the
 * schedule's own theta (exp2q per pair, tested against MPFR in
 * tests/precision/test_exact_theta.c): the same doubles, bit for bit, at
 * bases log-uniform over (1, 1e300] (and next to 1) and widths from 2 to
 * 8192; the bases are a fixed LCG so a failure reproduces. */
static void plain_theta_same(void)
{
  static const size_t rots[] = {2, 6, 64, 128, 200, 1024, 8192};
  double *t = malloc(4096 * sizeof *t);
  uint64_t x = 88172645463325252u;
  for (size_t j = 0; j < sizeof rots / sizeof *rots; j++) {
    size_t bad = 0, n = 0, nb = rots[j] >= 1024 ? 60 : 1500;
    for (size_t b = 0; b < nb; b++) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      double u = (double)(x >> 11) * 0x1p-53;
      double base = b == 0 ? nextafter(1.0, 2.0) : b == 1 ? 1e300 : b == 2 ? 10000
                    : exp(u * 690.0);
      if (!(base > 1))
        base = 1.5;
      rl_schedule *s = tap_rope(rots[j], rots[j], base);
      rl_sched_plain_theta(base, rots[j], t);
      for (size_t i = 0; i < s->n; i++, n++)
        bad += memcmp(&t[i], &s->theta[i], sizeof *t) != 0;
      rl_schedule_free(s);
    }
    tap_bool(bad == 0, "rl_sched_plain_theta, rot %zu: %zu of %zu frequencies differ from the "
             "schedule's", rots[j], bad, n);
  }
  free(t);
}

int main(void)
{
  plain_theta_same();
  /* d = 128: the staged bases for L = 16384 (feasible there) and the grid
   * point below it (infeasible, first failing at 15643), as the search
   * finds them and Su's 2.3e5 confirms to two digits; and two far from
   * it.  L = 17384 runs past 16384 (68 chunks of 256 rows, the last
   * partial, 271 full blocks and a partial one). */
  const double bases[] = {231644.53558730747, 231642.21893345276, 1e4, 5e5, 3e6};
  const double len = 17384;
  rl_bscan *w;
  if (rl_bscan_alloc(64, &w) != RL_OK)
    return tap_bool(0, "rl_bscan_alloc"), tap_done();
  direct d = {0};
  d.v = malloc((size_t)len * sizeof *d.v);
  for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
    rl_schedule *s = tap_rope(128, 128, bases[i]);
    direct_scan(s, len, &d);
    rl_bscan_out o;

    rl_status st = rl_bscan_run(w, s->theta, s->n, 0, len, RL_BSCAN_ALL, &o);
    tap_bool(!st && o.first_fail == d.first_fail && o.argmin == d.argmin,
             "base %.17g, all rows: first fail %g (direct %g), argmin %g (direct %g, runner-up "
             "%.2g above)", bases[i], o.first_fail, d.first_fail, o.argmin, d.argmin, d.gap);
    tap_report(!st && fabs(o.min - d.min) <= 1e-10, fabs(o.min - d.min), 1e-10,
               "base %.17g, all rows: min %.17g (direct %.17g)", bases[i], o.min, d.min);
    tap_bool(o.rows == len, "base %.17g, all rows: %g rows computed", bases[i], o.rows);

    st = rl_bscan_run(w, s->theta, s->n, 0, len, RL_BSCAN_FIRST, &o);
    tap_bool(!st && o.first_fail == d.first_fail &&
                 (d.first_fail == len || o.fail_value == d.v[(size_t)d.first_fail]),
             "base %.17g, upward to the first failure: %g (direct %g), B = %.6g", bases[i],
             o.first_fail, d.first_fail, o.fail_value);

    /* any failure, with the chunk order left by the scans above, then
     * from a fresh memory */
    for (int fresh = 0; fresh < 2; fresh++) {
      if (fresh)
        rl_bscan_forget(w);
      st = rl_bscan_run(w, s->theta, s->n, 0, len, RL_BSCAN_ANY, &o);
      if (d.negatives > 0) {
        int ok = !st && o.first_fail < len && d.v[(size_t)o.first_fail] < 0 &&
                 o.argmin < len && d.v[(size_t)o.argmin] < 0 && o.rows <= len;
        tap_bool(ok, "base %.17g, any failure (%s): rows %g and %g negative (%g of %g rows "
                 "are), %g rows computed", bases[i], fresh ? "fresh" : "remembered order",
                 o.first_fail, o.argmin, d.negatives, len, o.rows);
      } else {
        tap_bool(!st && o.first_fail == len && o.argmin == d.argmin && o.rows == len &&
                     fabs(o.min - d.min) <= 1e-10,
                 "base %.17g, any failure (%s): none, every row seen, min %.17g at %g (direct "
                 "%.17g at %g)", bases[i], fresh ? "fresh" : "remembered order", o.min,
                 o.argmin, d.min, d.argmin);
      }
    }
    rl_schedule_free(s);
  }

  /* past 2^24 rows the chunks grow (at most 2^16 of them): L = 2^24 +
   * 1000 has chunks of 512 rows.  Half the pairs rotating (c0 = 32, n =
   * 32) keeps B_r > 0 (Su, "partial rotation"), so every row must be
   * scanned; the same minimum as the upward scan, up to the two scans'
   * fast errors (seeded at different rows): each within 2E, whose seed
   * term u r sum_k theta_k is below 1.1e-16 * 1.7e7 * 32 = 6e-8 here. */
  {
    rl_schedule *h = tap_rope(128, 64, 5e5);
    double big = 16777216 + 1000;
    rl_bscan_out all, any;
    rl_status s1 = rl_bscan_run(w, h->theta, h->n, 32, big, RL_BSCAN_ALL, &all);
    rl_status s2 = rl_bscan_run(w, h->theta, h->n, 32, big, RL_BSCAN_ANY, &any);
    tap_bool(!s1 && !s2 && all.first_fail == big && any.first_fail == big && any.rows == big &&
                 all.rows == big && any.argmin == all.argmin,
             "L 2^24 + 1000, rot 64 of 128: every row scanned in either mode (%g, %g rows), "
             "argmin %g, %g", all.rows, any.rows, all.argmin, any.argmin);
    tap_report(fabs(any.min - all.min) <= 2.4e-7, fabs(any.min - all.min), 2.4e-7,
               "L 2^24 + 1000: the same min %.17g, %.17g", all.min, any.min);
    rl_schedule_free(h);
  }

  /* a length of one row and one shorter than a block */
  rl_schedule *s = tap_rope(128, 128, 1e4);
  rl_bscan_out o;
  rl_status st = rl_bscan_run(w, s->theta, s->n, 0, 1, RL_BSCAN_ANY, &o);
  tap_bool(!st && o.first_fail == 1 && o.min == 64 && o.argmin == 0, "L 1: B_0 = 64, feasible");
  st = rl_bscan_run(w, s->theta, s->n, 0, 50, RL_BSCAN_ALL, &o);
  direct_scan(s, 50, &d);
  tap_bool(!st && o.first_fail == d.first_fail && o.argmin == d.argmin && o.rows == 50,
           "L 50: first fail %g (direct %g), argmin %g (direct %g)", o.first_fail,
           d.first_fail, o.argmin, d.argmin);
  rl_schedule_free(s);
  rl_bscan_free(w);
  free(d.v);
  return tap_done();
}
