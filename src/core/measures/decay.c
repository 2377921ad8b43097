/* decay.c: RoFormer's long-term decay bound and the similarity B_r of
 * Men et al. over a grid of relative distances r.
 *
 *   bound(r) = (1/n) sum_{j=1..n} |S_j|,  S_j = sum_{k<j} e^{i r theta_k}
 *              (RoFormer, Su et al. 2021, sec. 3.4.3, eq. 37)
 *   B_r      = sum_i cos(r theta_i)
 *              (Men et al. 2024, "Base of RoPE Bounds Context Length", eq. 9)
 *
 * The reference evaluates every e^{i r theta_k} from an accurate angle.
 * The streaming evaluator does the same on log grids and for schedules
 * that map positions or weigh pairs.  On linear grids it works on blocks
 * of BLOCK rows holding z[k][b] = e^{i r_b theta_k}:
 *   - every RL_DECAY_RESEED rows it re-seeds, z[k][b] = C_k * T[k][b],
 *     T[k][b] = e^{i b step theta_k} (b < BLOCK) a table of correctly
 *     rounded values and C_k = e^{i r0 theta_k} for the row r0 (an
 *     accurate angle every MULTI re-seeds, times a table entry in
 *     between, see seed()): about one sincos per frequency per 4096 rows
 *     instead of one per (row, frequency), whose cost the lead measured
 *     to dominate;
 *   - between re-seeds, a block advances to the next by z *= w_k,
 *     w_k = e^{i BLOCK step theta_k}.
 * Each complex product adds at most ~2 ulp to |z - e^{i r theta}|, and a
 * row is at most six products from accurate values, so |S_j| is within
 * ~12 j ulp: relative error of the bound ~1e-15 (measured by
 * tests/measures/test_decay.c against the reference; the header promises
 * 1e-12).  Large evaluations are split across two threads.
 * When the step or start is not dyadic (0.1), the rows are rounded and
 * the recurrence runs on the exact progression instead, each row's
 * phases turned by its rounding (see "positions off the double grid"):
 * the same accuracy (measured ~1.3e-15) at about 1.8x the time of a
 * dyadic grid, where the reference path took 20x.
 *
 * The phases of a row depend only on its index (re-seeds fall on fixed
 * rows), so the results are bitwise the same whatever the call order and
 * however a call is split across threads. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "../base/internal.h"

enum {
  BLOCK = 64,                           /* rows per block */
  PERIOD = RL_DECAY_RESEED / BLOCK,     /* blocks per re-seed */
  MULTI = 16,                           /* re-seeds per accurate angle */
  THREAD_MIN_FAST = 64 * BLOCK,         /* rows before a second thread pays */
  THREAD_MIN_SLOW = 256,
  NTHREADS = 2                          /* the target machines' cores */
};
_Static_assert(RL_DECAY_RESEED % BLOCK == 0, "re-seed on block boundaries");

#define NONE SIZE_MAX

/* What one thread owns: its phases and the last block it computed. */
typedef struct lane {
  double *zr, *zi;     /* n x BLOCK: phases of block `next` */
  size_t next;         /* block whose phases zr, zi hold, or NONE */
  size_t cached;       /* block whose results bnd, sim hold, or NONE */
  double *bnd, *sim;   /* BLOCK results of block `cached` */
  double *ar, *ai;     /* n: e^{i r theta_k} at re-seed number a_idx*MULTI */
  double *cr, *ci;     /* n: seed factors C_k of block `next` (see seed) */
  int fresh;           /* block `next` starts a period: z is C*T, not stored */
  size_t a_idx;        /* or NONE */
  double *sr, *si;     /* BLOCK scratch: running partial sums S_j */
  double *dl;          /* BLOCK: r_j - (from + j step) of block `next` (corr) */
} lane;

struct rl_decay_ws {
  size_t n;
  const rl_schedule *f; /* the caller's: read by the reference path */
  double mult;          /* logit multiplier times query scale */
  double *theta;       /* copy of the schedule's n frequencies */
  rl_grid g;
  int threads;         /* 1 or NTHREADS */
  int exact;           /* fast path applies */
  int corr;            /* ... on a grid whose rows are not exact: see delta() */
  size_t fast_rows;    /* rows 0..fast_rows-1 go the fast way */
  double *tr, *ti;     /* n x BLOCK: e^{i b step theta_k} */
  double *wr, *wi;     /* n: e^{i BLOCK step theta_k} */
  double *br, *bi;     /* n x MULTI: e^{i m RESEED step theta_k} */
  lane lanes[NTHREADS];
};

/* ------------------------------------------------------------------ */
/* reference                                                           */

/* bound and similarity at r from accurate angles, sums in long double,
 * as the schedule computes its logit: the relative position mapped
 * (rerope), each pair weighted by its amplitude (xpos), the whole scaled
 * by the logit multiplier and query scale (mult).
 * Returns nonzero when r is outside the accurate range. */
static int row_ref(const rl_schedule *f, double mult, double r, double *bound, double *sim)
{
  long double sr = 0, si = 0, acc = 0, cs = 0;
  double rm = rl_schedule_relpos(f, r);
  /* the row from the schedule's precision pipeline (the seam); a
   * framework's table carries the attention factor as it rounds it, on
   * the query at r and the key at 0 (cos there: the factor, sin 0), so
   * the product of the two replaces the logit multiplier (mult_of) */
  int fw = !f->prec->exact;
  double row[4 * 256], *cr = f->n <= 256 ? row : malloc(4 * f->n * sizeof *cr);
  if (!cr || (fw ? rl_schedule_cossin(f, rm, cr, cr + f->n) ||
                       rl_schedule_cossin(f, 0.0, cr + 2 * f->n, cr + 3 * f->n)
                 : rl_rope_cossin(f, rm, cr, cr + f->n))) {
    if (cr != row)
      free(cr);
    return 1;
  }
  for (size_t k = 0; k < f->n; k++) {
    double c = cr[k], s = cr[f->n + k], a = rl_schedule_amplitude(f, k, r);
    if (fw) {
      c *= cr[2 * f->n + k];
      s *= cr[2 * f->n + k];
    }
    sr += (long double)a * c;
    si += (long double)a * s;
    cs += (long double)a * c;
    acc += sqrtl(sr * sr + si * si);
  }
  if (cr != row)
    free(cr);
  if (bound)
    *bound = (double)(acc / (long double)f->n) * mult;
  if (sim)
    *sim = (double)cs * mult;
  return 0;
}

static double mult_of(const rl_schedule *f)
{
  return (f->prec->exact ? f->logit_mult : 1.0) * rl_schedule_qscale(f, f->p.seq_len);
}

/* Both return NaN when r or a theta is outside what rl_angle_sincos
 * computes accurately: there is no accurate answer to give. */
double rl_decay_bound_ref(const rl_schedule *f, double r)
{
  double b;
  return row_ref(f, mult_of(f), r, &b, NULL) ? (double)NAN : b;
}

double rl_decay_similarity_ref(const rl_schedule *f, double r)
{
  double s;
  return row_ref(f, mult_of(f), r, NULL, &s) ? (double)NAN : s;
}

/* ------------------------------------------------------------------ */
/* positions off the double grid                                       */

/* On a grid whose step or start is not dyadic (0.1, 1/3, ...) the rows
 * r_j = fma(j, step, from) (rl_grid_at) are rounded: they are not an
 * arithmetic progression, so a recurrence cannot reach them.  It runs
 * instead on the exact progression p_j = from + j step (real numbers,
 * step and from the doubles given), whose phases the tables below hold
 * to within an ulp, and each row's phases are turned by the tiny angle
 * delta_j theta_k, delta_j = r_j - p_j (|delta_j| <= ulp(r_j)/2 <= 2^-22,
 * so |delta_j theta_k| <= 2^-22): e^{i eps} = 1 - eps^2/2 + i (eps -
 * eps^3/6) up to eps^4/24 < 2^-91, far below an ulp.  On dyadic grids
 * every delta is 0 and none of this runs (the bits are those of before). */

/* Rotate (c, s) by the small angle eps (|eps| <= 2^-20): two products
 * of about an ulp each. */
static inline void turn(double *c, double *s, double eps)
{
  double h = 0.5 * eps * eps, se = eps - eps * h / 3.0;
  double x = *c, y = *s;
  *c = x - (x * h + y * se);
  *s = y + (x * se - y * h);
}

/* p = j step + from exactly as hi + lo (|lo| <= ulp(hi)): the product by
 * fma, the sum by TwoSum (Knuth, TAOCP vol. 2, 4.2.2). */
static inline void position(double j, double step, double from, double *hi, double *lo)
{
  double ph = j * step, pl = fma(j, step, -ph);
  double sh = from + ph, t = sh - from, sl = (from - (sh - t)) + (ph - t);
  *hi = sh;
  *lo = sl + pl;
}

/* e^{i (j step + from) theta}, theta = theta + theta_lo (double-double):
 * an accurate angle at hi, turned by lo theta (lo theta_lo is below
 * 2^-100 rad and dropped).  Nonzero when hi is outside the accurate
 * range. */
static int phase_at(double j, double step, double from, double theta, double theta_lo,
                    double *c, double *s)
{
  double hi, lo;
  position(j, step, from, &hi, &lo);
  if (rl_angle_sincos2(hi, theta, theta_lo, c, s))
    return 1;
  if (lo != 0.0)
    turn(c, s, lo * theta);
  return 0;
}

/* delta_j = r_j - p_j for the grid row j (not a clamped last row) */
static inline double delta(const rl_grid *g, size_t j)
{
  double hi, lo, r = fma((double)j, g->step, g->from);
  position((double)j, g->step, g->from, &hi, &lo);
  return (r - hi) - lo; /* r - hi exact: both within an ulp of p_j */
}

/* ------------------------------------------------------------------ */
/* workspace                                                           */

void rl_decay_free(rl_decay_ws *w)
{
  if (!w)
    return;
  for (int t = 0; t < NTHREADS; t++) {
    lane *l = &w->lanes[t];
    free(l->zr);
    free(l->zi);
    free(l->bnd);
    free(l->sim);
    free(l->sr);
    free(l->si);
    free(l->dl);
    free(l->ar);
    free(l->ai);
    free(l->cr);
    free(l->ci);
  }
  free(w->theta);
  free(w->tr);
  free(w->ti);
  free(w->wr);
  free(w->wi);
  free(w->br);
  free(w->bi);
  free(w);
}

rl_status rl_decay_alloc(const rl_schedule *f, const rl_grid *g, rl_decay_ws **out)
{
  *out = NULL;
  if (!f || !g || f->n < 1 || !f->theta || g->points < 1)
    return RL_EINVAL;
  for (size_t k = 0; k < f->n; k++)
    if (!isfinite(f->theta[k]) || fabs(f->theta[k]) > 1.0)
      return RL_ERANGE;
  rl_decay_ws *w = calloc(1, sizeof *w);
  if (!w)
    return RL_ENOMEM;
  size_t n = f->n;
  w->n = n;
  w->f = f;
  w->mult = mult_of(f);
  w->g = *g;
  w->threads = NTHREADS;
  /* the recurrence advances plain phases e^{i r theta} along a linear
   * grid: mapped positions, amplitudes, log grids and framework
   * pipelines take the reference path; rows off the exact progression
   * are turned into place (corr) */
  w->exact = !g->log && rl_schedule_is_plain(f) && f->prec->exact;
  w->corr = !rl_grid_is_exact(g);
  w->theta = rl_dalloc(n);
  if (!w->theta)
    goto nomem;
  memcpy(w->theta, f->theta, n * sizeof *w->theta);
  if (w->exact) {
    w->tr = rl_dalloc(n * BLOCK);
    w->ti = rl_dalloc(n * BLOCK);
    w->wr = rl_dalloc(n);
    w->wi = rl_dalloc(n);
    w->br = rl_dalloc(n * MULTI);
    w->bi = rl_dalloc(n * MULTI);
    if (!w->tr || !w->ti || !w->wr || !w->wi || !w->br || !w->bi)
      goto nomem;
    /* e^{i b step theta}, e^{i BLOCK step theta}, e^{i m RESEED step
     * theta} (for the m < MULTI that a grid row reaches), the products
     * b step etc. taken exactly (phase_at; on dyadic grids they are
     * doubles and the angle is accurate).  They pass RL_POS_MAX only for
     * steps near 2^31; then the slow path takes over. */
    size_t mult = (g->points - 1) / RL_DECAY_RESEED + 1;
    if (mult > MULTI)
      mult = MULTI;
    /* rows of a block past the grid's last are computed and dropped:
     * zeros there, and no sincos for tiny grids */
    size_t tb = g->points < BLOCK ? g->points : BLOCK;
    for (size_t k = 0; k < n && w->exact; k++) {
      double th = w->theta[k];
      for (size_t b = 0; b < BLOCK && w->exact; b++)
        if (b >= tb)
          w->tr[k * BLOCK + b] = w->ti[k * BLOCK + b] = 0.0;
        else if (phase_at((double)b, g->step, 0.0, th, f->theta_lo[k], &w->tr[k * BLOCK + b],
                          &w->ti[k * BLOCK + b]))
          w->exact = 0;
      if (w->exact &&
          phase_at((double)BLOCK, g->step, 0.0, th, f->theta_lo[k], &w->wr[k], &w->wi[k]))
        w->exact = 0;
      for (size_t m = 0; m < mult && w->exact; m++)
        if (phase_at((double)(m * RL_DECAY_RESEED), g->step, 0.0, th, f->theta_lo[k],
                     &w->br[k * MULTI + m], &w->bi[k * MULTI + m]))
          w->exact = 0;
    }
    for (int t = 0; t < NTHREADS && w->exact; t++) {
      lane *l = &w->lanes[t];
      l->zr = rl_dalloc(n * BLOCK);
      l->zi = rl_dalloc(n * BLOCK);
      l->bnd = rl_dalloc(BLOCK);
      l->sim = rl_dalloc(BLOCK);
      l->sr = rl_dalloc(BLOCK);
      l->si = rl_dalloc(BLOCK);
      l->ar = rl_dalloc(n);
      l->ai = rl_dalloc(n);
      l->cr = rl_dalloc(n);
      l->ci = rl_dalloc(n);
      l->dl = rl_dalloc(BLOCK);
      if (!l->zr || !l->zi || !l->bnd || !l->sim || !l->sr || !l->si || !l->ar || !l->ai ||
          !l->cr || !l->ci || !l->dl)
        goto nomem;
      l->next = l->cached = l->a_idx = NONE;
    }
  }
  w->fast_rows = w->exact ? g->points : 0;
  /* rl_grid_at clamps a last row that the 1e-12 slack pushed past `to`;
   * that row is not on the arithmetic progression: slow path. */
  if (w->exact) {
    size_t last = g->points - 1;
    if (rl_grid_at(g, last) != fma((double)last, g->step, g->from))
      w->fast_rows = last;
  }
  *out = w;
  return RL_OK;
nomem:
  rl_decay_free(w);
  return RL_ENOMEM;
}

/* ------------------------------------------------------------------ */
/* fast path                                                           */

/* Phases of block blk: re-seed number P = blk / PERIOD starts at row
 * P*RESEED with
 *   z[k][b] = C_k * T[k][b],  C_k = A_k * B[k][P % MULTI],
 * A_k = e^{i r theta_k} from an accurate angle at re-seed number
 * P - P % MULTI (one per frequency, shared by MULTI re-seeds) and the
 * tables B, T of accurate values; then z advances by w_k to block blk
 * (< PERIOD products).  Every row's phases are thus at most six complex
 * products (each <= 2 ulp) from accurate values, wherever the row is.
 * When blk starts its re-seed period, only C is computed here: the
 * kernel forms C*T itself (one memory pass less), with the same
 * expressions and so the same bits. */
static void seed(const rl_decay_ws *w, lane *l, size_t blk)
{
  size_t P = blk / PERIOD, p = P * PERIOD, m = P % MULTI;
  if (l->a_idx != P / MULTI) {
    /* the position of a grid row (in range), taken exactly: on dyadic
     * grids a double, from + idx step, so this is rl_angle_sincos there */
    double idx = (double)((P - m) * RL_DECAY_RESEED);
    for (size_t k = 0; k < w->n; k++)
      (void)phase_at(idx, w->g.step, w->g.from, w->theta[k], w->f->theta_lo[k], &l->ar[k],
                     &l->ai[k]);
    l->a_idx = P / MULTI;
  }
  for (size_t k = 0; k < w->n; k++) {
    double ar = l->ar[k], ai = l->ai[k], br = w->br[k * MULTI + m], bi = w->bi[k * MULTI + m];
    l->cr[k] = ar * br - ai * bi;
    l->ci[k] = ar * bi + ai * br;
  }
  l->next = blk;
  l->fresh = blk == p;
  if (l->fresh)
    return;
  for (size_t k = 0; k < w->n; k++) {
    double c = l->cr[k], s = l->ci[k];
    const double *restrict tr = w->tr + k * BLOCK, *restrict ti = w->ti + k * BLOCK;
    double *restrict zr = l->zr + k * BLOCK, *restrict zi = l->zi + k * BLOCK;
    for (size_t b = 0; b < BLOCK; b++) {
      zr[b] = c * tr[b] - s * ti[b];
      zi[b] = c * ti[b] + s * tr[b];
    }
    for (size_t q = p; q < blk; q++) {
      double wr = w->wr[k], wi = w->wi[k];
      for (size_t b = 0; b < BLOCK; b++) {
        double x = zr[b], y = zi[b];
        zr[b] = x * wr - y * wi;
        zi[b] = x * wi + y * wr;
      }
    }
  }
}

/* Frequencies k..k+K-1 over the rows of a block: S += z, acc += |S|,
 * sim += Re z, then z *= w (with FRESH, z = C*T first, see seed()).
 * The loop over rows b is the vectorised one (restrict: the arrays are
 * distinct); taking K = 8 frequencies per pass keeps the running sums'
 * loads and stores off the critical path, leaving the square roots
 * (about 1 ns each here, whatever the vector width) to bound the speed.
 * On x86-64 with glibc an AVX-512 or AVX2 clone is chosen at load time
 * (ifunc); without FMA contraction (ISO C mode) they compute the same
 * bits as the SSE2 default.  AVX-512 halves the square roots' share
 * where the core has full-width units (decay to 10^6 at d = 128: 97 to
 * 80 ms of CPU on the Zen 5 of experiments/speed/README.md). */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef CLONES
#define CLONES
#endif
#define KERNEL(NAME, K, FRESH, CORR)                                                       \
  CLONES static void NAME(double *restrict zr, double *restrict zi,                        \
                          const double *restrict tr, const double *restrict ti,            \
                          const double *restrict cr, const double *restrict ci,            \
                          const double *restrict wr, const double *restrict wi,            \
                          const double *restrict dl, const double *restrict th,            \
                          double *restrict sr, double *restrict si,                        \
                          double *restrict acc, double *restrict sim)                      \
  {                                                                                        \
    for (size_t b = 0; b < BLOCK; b++) {                                                   \
      double a = sr[b], c = si[b], m = acc[b], re = sim[b];                                \
      for (size_t q = 0; q < (K); q++) {                                                   \
        size_t i = q * BLOCK + b;                                                          \
        double x, y, u, v;                                                                 \
        if (FRESH) {                                                                       \
          x = cr[q] * tr[i] - ci[q] * ti[i];                                               \
          y = cr[q] * ti[i] + ci[q] * tr[i];                                               \
        } else {                                                                           \
          x = zr[i];                                                                       \
          y = zi[i];                                                                       \
        }                                                                                  \
        if (CORR) { /* the row's phase: x + iy turned by delta_b theta_q (turn()) */       \
          double eps = dl[b] * th[q], h = 0.5 * eps * eps, se = eps - eps * h / 3.0;       \
          u = x - (x * h + y * se);                                                        \
          v = y + (x * se - y * h);                                                        \
        } else {                                                                           \
          u = x;                                                                           \
          v = y;                                                                           \
        }                                                                                  \
        a += u;                                                                            \
        c += v;                                                                            \
        m += sqrt(a * a + c * c); /* |S| <= n: no overflow, no need for hypot */           \
        re += u;                                                                           \
        zr[i] = x * wr[q] - y * wi[q];                                                     \
        zi[i] = x * wi[q] + y * wr[q];                                                     \
      }                                                                                    \
      sr[b] = a;                                                                           \
      si[b] = c;                                                                           \
      acc[b] = m;                                                                          \
      sim[b] = re;                                                                         \
    }                                                                                      \
  }
KERNEL(kernel8, 8, 0, 0)
KERNEL(kernel1, 1, 0, 0)
KERNEL(kernel8_fresh, 8, 1, 0)
KERNEL(kernel1_fresh, 1, 1, 0)
KERNEL(kernel8_corr, 8, 0, 1)
KERNEL(kernel1_corr, 1, 0, 1)
KERNEL(kernel8_fresh_corr, 8, 1, 1)
KERNEL(kernel1_fresh_corr, 1, 1, 1)

typedef void kernel_fn(double *, double *, const double *, const double *, const double *,
                       const double *, const double *, const double *, const double *,
                       const double *, double *, double *, double *, double *);
/* [corr][fresh][eight] */
static kernel_fn *const KERNELS[2][2][2] = {
    {{kernel1, kernel8}, {kernel1_fresh, kernel8_fresh}},
    {{kernel1_corr, kernel8_corr}, {kernel1_fresh_corr, kernel8_fresh_corr}}};

/* Results of block blk into l->bnd, l->sim; phases move on to blk+1 with
 * the same products seed() uses, so the bits do not depend on whether a
 * block was reached by seeding or by streaming. */
static void block_eval(const rl_decay_ws *w, lane *l, size_t blk)
{
  if (l->cached == blk)
    return;
  if (l->next != blk)
    seed(w, l, blk);
  for (size_t b = 0; b < BLOCK; b++)
    l->sr[b] = l->si[b] = l->bnd[b] = l->sim[b] = 0.0;
  if (w->corr) /* rows past the grid's end are dropped: any delta will do */
    for (size_t b = 0, j = blk * BLOCK; b < BLOCK; b++, j++)
      l->dl[b] = j < w->fast_rows ? delta(&w->g, j) : 0.0;
  for (size_t k = 0; k < w->n;) {
    int eight = k + 8 <= w->n;
    KERNELS[w->corr][l->fresh][eight](l->zr + k * BLOCK, l->zi + k * BLOCK, w->tr + k * BLOCK,
                                      w->ti + k * BLOCK, l->cr + k, l->ci + k, w->wr + k,
                                      w->wi + k, l->dl, w->theta + k, l->sr, l->si, l->bnd,
                                      l->sim);
    k += eight ? 8 : 1;
  }
  double n = (double)w->n;
  for (size_t b = 0; b < BLOCK; b++) {
    l->bnd[b] = l->bnd[b] / n * w->mult;
    l->sim[b] *= w->mult;
  }
  l->cached = blk;
  l->fresh = 0;
  l->next = (blk + 1) % PERIOD ? blk + 1 : NONE;
}

/* ------------------------------------------------------------------ */
/* evaluation                                                          */

typedef struct job {
  rl_decay_ws *w;
  lane *l;
  size_t j0, count;
  double *r, *bound, *sim;
} job;

/* Rows jb->j0 .. +count-1 on one lane: whole blocks on the fast path
 * (cached, so row-by-row callers pay once per block), the rest by the
 * reference. */
static void run_rows(const job *jb)
{
  rl_decay_ws *w = jb->w;
  size_t j = jb->j0, end = jb->j0 + jb->count;
  while (j < end) {
    size_t k = j - jb->j0;
    if (j < w->fast_rows) {
      size_t blk = j / BLOCK, off = j % BLOCK;
      size_t m = BLOCK - off;
      if (m > end - j)
        m = end - j;
      if (m > w->fast_rows - j)
        m = w->fast_rows - j;
      block_eval(w, jb->l, blk);
      if (jb->bound)
        memcpy(jb->bound + k, jb->l->bnd + off, m * sizeof(double));
      if (jb->sim)
        memcpy(jb->sim + k, jb->l->sim + off, m * sizeof(double));
      if (jb->r) /* rl_grid_at's value, inline: on an exact grid from + j step is
                  * exact, so the product and sum need no fma (a libm call) */
        for (size_t i = 0; i < m; i++) {
          double jj = (double)(j + i), r = w->corr ? fma(jj, w->g.step, w->g.from)
                                                   : jj * w->g.step + w->g.from;
          jb->r[k + i] = r > w->g.to ? w->g.to : r;
        }
      j += m;
    } else {
      double r = rl_grid_at(&w->g, j), b = 0, s = 0;
      /* grid values are within RL_POS_MAX (rl_grid_*), so this succeeds */
      (void)row_ref(w->f, w->mult, r, &b, &s);
      if (jb->r)
        jb->r[k] = r;
      if (jb->bound)
        jb->bound[k] = b;
      if (jb->sim)
        jb->sim[k] = s;
      j++;
    }
  }
}

static void *run_thread(void *arg)
{
  run_rows(arg);
  return NULL;
}

void rl_decay_threads(rl_decay_ws *w, int n)
{
  if (w)
    w->threads = n < 2 ? 1 : NTHREADS;
}

rl_status rl_decay_eval(rl_decay_ws *w, size_t j0, size_t count, double *r, double *bound,
                        double *sim)
{
  if (!w || j0 > w->g.points || count > w->g.points - j0)
    return RL_EINVAL;
  if (count == 0)
    return RL_OK;
  job jobs[NTHREADS] = {{w, &w->lanes[0], j0, count, r, bound, sim}};
  /* rows of this call on the fast path */
  size_t fast = j0 < w->fast_rows ? w->fast_rows - j0 : 0;
  if (fast > count)
    fast = count;
  int split = fast >= THREAD_MIN_FAST || (fast == 0 && count >= THREAD_MIN_SLOW);
  if (split && w->threads > 1) {
    /* split on a block boundary: each lane seeds its own start */
    size_t mid = (j0 + count / 2) / BLOCK * BLOCK;
    if (mid > j0) {
      size_t k = mid - j0;
      jobs[0].count = k;
      jobs[1] = (job){w, &w->lanes[1], mid, count - k, r ? r + k : NULL,
                      bound ? bound + k : NULL, sim ? sim + k : NULL};
      pthread_t th;
      if (pthread_create(&th, NULL, run_thread, &jobs[1]) == 0) {
        run_rows(&jobs[0]);
        pthread_join(th, NULL);
        /* lane 0 is the one callers stream from: give it the state at
         * the end, where the next call in increasing order starts */
        lane t = w->lanes[0];
        w->lanes[0] = w->lanes[1];
        w->lanes[1] = t;
        return RL_OK;
      }
      jobs[0].count = count; /* no thread: do it all here */
    }
  }
  run_rows(&jobs[0]);
  return RL_OK;
}
