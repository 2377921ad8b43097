/* men_scan.c: the sign of Men et al.'s similarity B_r over r = 0..L-1,
 * fast and decided correctly (see bounds_impl.h).
 *
 * Cost.  A feasibility test is O(L n) cosines; for L = 2^20 and n = 64
 * that is 6.7e7 per candidate base, far too many for libm.  As
 * src/core/measures/decay.c does, the rows go in blocks of BLOCK, the
 * phases z[k][b] = e^{i (r0 + b) theta_k} of a block advance to the next
 * by one complex product with w_k = e^{i BLOCK theta_k}, and every span
 * of SPAN rows (a chunk in the search's "any failure" mode) they are
 * re-seeded, z = C_k T[k][b], C_k = e^{i r0 theta_k}, T[k][b] =
 * e^{i b theta_k}.  The loop over the rows of a block is the vectorised
 * one.
 *
 * Where to look.  To refute a base the search needs one r with B_r < 0,
 * not the first: near the bound the negative rows sit in the last tenth
 * of 0..L-1 and in the dips that neighbouring bases share.  So the
 * workspace remembers, per chunk of HINT rows (more past L = 2^24, so
 * that there are at most MAX_CHUNKS), the smallest B_r seen
 * there (at any base of the current search), and RL_BSCAN_ANY scans the
 * chunks lowest first (chunks never seen: the last ones first), stopping
 * after the first chunk holding a negative row.  This is a heuristic for
 * the order only: a base is called feasible after every chunk is
 * scanned.
 *
 * Error bound, computed at run time (u = 2^-53; every phase has
 * magnitude <= 1 + 1e-9):
 *  - libm's cos and sin are within 1 ulp (<= 2u here; glibc's measured
 *    maxima, sysdeps/x86_64/fpu/libm-test-ulps, are 1 ulp for double cos
 *    and sin): e^{i theta_k} is within eL = 2u;
 *  - a complex product in ISO C (no FMA contraction) adds at most
 *    P = sqrt(5) u |x||y| <= 2.25u (Brent, Percival, Zimmermann 2007) to
 *    the errors of its factors, a square twice its factor's plus P; so
 *    e^{i 2^j theta_k} (j squarings) is within e_j = 2 e_{j-1} + P,
 *    T[k][b] (the product of those of the set bits of b) within eT, the
 *    sum of theirs plus P each, and w_k = T[BLOCK/2]^2 within ew;
 *  - the seed C_k = cos, sin of fl(r0 theta_k), within u r0 theta_k of
 *    r0 theta_k: within u r0 theta_k + eL;
 *  - z = C T adds P, each later block step ew + P;
 *  - summing n terms of magnitude <= 1 onto c0 adds n (c0 + n) u.
 * So a row s blocks after its seed at r0 is within
 *   E = u r0 sum_k theta_k + n (eL + eT + P + s (ew + P)) + n (c0 + n) u
 * of B_r; we use 2E (below 1e-8 for L = 2^20).  A fast value below -2E
 * is negative for certain; one within 2E of 0 is recomputed from exact
 * angles (rl_bscan_exact: error <= 1.1 n u, summed in long double); the
 * tests measure the fast values against that sum, row by row
 * (tests/bounds/test_bscan.c).
 *
 * B_r is the similarity of the schedule's double frequencies theta_k,
 * i.e. of the table every framework stores at best; for r near 2^20 a
 * change of theta_k by one rounding (relative 2^-53) moves r theta_k by
 * about 1e-10, which is below the margins the search reports but not
 * below every margin: the answer is exact for these doubles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "bounds_impl.h"
#include "../base/internal.h"

enum {
  BLOCK = RL_BSCAN_BLOCK, /* a power of 2 */
  SPAN = 1024,            /* rows per seed in the upward modes */
  HINT = 256,             /* rows per remembered chunk (at least) */
  MAX_CHUNKS = 1 << 16,   /* remembered chunks (at most) */
  PICKS = 8,              /* chunks picked lowest first, then ... */
  BINS = 7                /* ... the rest in bins of their smallest B_r */
};

#define U_HALF 0x1p-53
#define E_LIBM (2.0 * U_HALF)
#define E_PROD (2.25 * U_HALF)

typedef struct rl_bscan_chunk {
  double hint;
  size_t c;
} rl_bscan_chunk;

struct rl_bscan {
  size_t nmax;
  double *tr, *ti;   /* nmax x BLOCK: e^{i b theta_k} */
  double *wr, *wi;   /* nmax: e^{i BLOCK theta_k} */
  double *zr, *zi;   /* nmax x BLOCK: phases of the current block */
  double *acc;       /* BLOCK: B_r of the current block */
  double *cr, *ci;   /* nmax: seed factors e^{i r0 theta_k} */
  /* the base being scanned (rl_bscan_run) */
  const double *theta;
  size_t n;
  double c0, tsum;         /* sum_k theta_k */
  double e_seed, e_step;   /* n (eL + eT + P); n (ew + P) */
  /* per chunk of `chunk` rows: the smallest B_r seen (HUGE_VAL: none) */
  double *hint;
  rl_bscan_chunk *order;
  uint32_t *seen, stamp; /* chunks scanned by this RL_BSCAN_ANY: seen == stamp */
  size_t nhint, hint_cap;
  uint64_t chunk; /* rows per chunk: HINT, doubled while over MAX_CHUNKS */
  double hint_len;
  /* called after each span or chunk of rows (rl_bscan_set_tick) */
  void (*tick)(void *ctx, double rows_done, double rows);
  void *tick_ctx;
};

void rl_bscan_set_tick(rl_bscan *w, void (*tick)(void *ctx, double rows_done, double rows),
                       void *ctx)
{
  w->tick = tick;
  w->tick_ctx = ctx;
}

void rl_bscan_free(rl_bscan *w)
{
  if (!w)
    return;
  free(w->tr);
  free(w->ti);
  free(w->wr);
  free(w->wi);
  free(w->zr);
  free(w->zi);
  free(w->acc);
  free(w->cr);
  free(w->ci);
  free(w->hint);
  free(w->order);
  free(w->seen);
  free(w);
}

rl_status rl_bscan_alloc(size_t nmax, rl_bscan **out)
{
  *out = NULL;
  rl_bscan *w = calloc(1, sizeof *w);
  if (!w)
    return RL_ENOMEM;
  size_t m = nmax ? nmax : 1;
  w->nmax = nmax;
  w->tr = rl_dalloc(m * BLOCK);
  w->ti = rl_dalloc(m * BLOCK);
  w->wr = rl_dalloc(m);
  w->wi = rl_dalloc(m);
  w->zr = rl_dalloc(m * BLOCK);
  w->zi = rl_dalloc(m * BLOCK);
  w->acc = rl_dalloc(BLOCK);
  w->cr = rl_dalloc(m);
  w->ci = rl_dalloc(m);
  if (!w->tr || !w->ti || !w->wr || !w->wi || !w->zr || !w->zi || !w->acc || !w->cr || !w->ci) {
    rl_bscan_free(w);
    return RL_ENOMEM;
  }
  *out = w;
  return RL_OK;
}

double rl_bscan_exact(const double *theta, size_t n, double c0, double r, double *err)
{
  long double s = c0;
  for (size_t k = 0; k < n; k++) {
    double c, sn;
    (void)rl_angle_sincos(r, theta[k], &c, &sn); /* r, theta checked by the callers */
    s += c;
  }
  if (err) /* 0.55 ulp <= 1.1 u per cosine; the long double sum adds ~n^2 2^-64 */
    *err = 1.1 * (double)n * U_HALF + (double)n * ((double)n + c0) * 0x1p-64;
  return (double)s;
}

/* exact re-check of a row whose fast value was within its bound of 0:
 * 1 when B_r < 0 */
static int exact_negative(const double *theta, size_t n, double c0, double r, double *value,
                          size_t *rechecked, size_t *ambiguous)
{
  double e, v = rl_bscan_exact(theta, n, c0, r, &e);
  ++*rechecked;
  if (fabs(v) <= e)
    ++*ambiguous;
  *value = v;
  return v < 0;
}

int rl_bscan_sign(const double *theta, size_t n, double c0, double r, double *value,
                  size_t *rechecked, size_t *ambiguous)
{
  /* cos(fl(r theta)): the product is within u r theta of r theta, libm's
   * cos within 1 ulp (<= 2u) of its argument's cosine; the sum as above */
  double s = c0, tsum = 0;
  for (size_t k = 0; k < n; k++) {
    s += cos(r * theta[k]);
    tsum += theta[k];
  }
  double e = 2.0 * (r * tsum * 1.01 + 2.0 * (double)n + (double)n * (c0 + (double)n)) * U_HALF;
  if (fabs(s) > e) {
    *value = s;
    return s < 0 ? -1 : 1;
  }
  return exact_negative(theta, n, c0, r, value, rechecked, ambiguous) ? -1 : 1;
}

/* The vectorised loops; on x86-64 with glibc an AVX2 clone is chosen at
 * load time, as in decay.c (same bits: no FMA contraction in ISO C). */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef CLONES
#define CLONES
#endif

/* z = C T for every pair (a re-seed) */
CLONES static void seed_block(size_t n, const double *restrict cr, const double *restrict ci,
                              const double *restrict tr, const double *restrict ti,
                              double *restrict zr, double *restrict zi)
{
  for (size_t k = 0; k < n; k++) {
    double c = cr[k], s = ci[k];
    for (size_t b = 0; b < BLOCK; b++) {
      size_t i = k * BLOCK + b;
      zr[i] = c * tr[i] - s * ti[i];
      zi[i] = c * ti[i] + s * tr[i];
    }
  }
}

/* acc[b] = c0 + sum_k Re z[k][b], then z *= w: the phases move on one block */
CLONES static void block_sum(size_t n, double c0, double *restrict zr, double *restrict zi,
                             const double *restrict wr, const double *restrict wi,
                             double *restrict acc)
{
  for (size_t b = 0; b < BLOCK; b++)
    acc[b] = c0;
  for (size_t k = 0; k < n; k++) {
    double c = wr[k], s = wi[k];
    double *restrict xr = zr + k * BLOCK, *restrict xi = zi + k * BLOCK;
    for (size_t b = 0; b < BLOCK; b++) {
      double x = xr[b], y = xi[b];
      acc[b] += x;
      xr[b] = x * c - y * s;
      xi[b] = x * s + y * c;
    }
  }
}

/* The tables of one base: e^{i theta_k} from libm, its powers 2^j by
 * squaring, T[b] as their products, w = T[BLOCK/2]^2; the error of each
 * is tracked as the bound above says (the same for every k). */
static void prepare(rl_bscan *w, const double *theta, size_t n, double c0)
{
  double et[BLOCK], emax = 0, ew = 0;
  et[0] = 0;
  w->tsum = 0;
  for (size_t k = 0; k < n; k++) {
    double *tr = w->tr + k * BLOCK, *ti = w->ti + k * BLOCK;
    tr[0] = 1;
    ti[0] = 0;
    tr[1] = cos(theta[k]);
    ti[1] = sin(theta[k]);
    et[1] = E_LIBM;
    for (size_t p = 1; p < BLOCK; p *= 2) {
      if (p > 1) { /* T[p] = T[p/2]^2 */
        double xr = tr[p / 2], xi = ti[p / 2];
        tr[p] = xr * xr - xi * xi;
        ti[p] = 2.0 * xr * xi;
        et[p] = 2.0 * et[p / 2] + E_PROD;
      }
      for (size_t b = p + 1; b < 2 * p && b < BLOCK; b++) {
        double xr = tr[p], xi = ti[p], yr = tr[b - p], yi = ti[b - p];
        tr[b] = xr * yr - xi * yi;
        ti[b] = xr * yi + xi * yr;
        et[b] = et[p] + et[b - p] + E_PROD;
      }
    }
    double xr = tr[BLOCK / 2], xi = ti[BLOCK / 2];
    w->wr[k] = xr * xr - xi * xi;
    w->wi[k] = 2.0 * xr * xi;
    ew = 2.0 * et[BLOCK / 2] + E_PROD;
    w->tsum += theta[k];
  }
  for (size_t b = 0; b < BLOCK; b++)
    emax = et[b] > emax ? et[b] : emax;
  w->theta = theta;
  w->n = n;
  w->c0 = c0;
  w->e_seed = (double)n * (E_LIBM + emax + E_PROD);
  w->e_step = (double)n * (ew + E_PROD);
}

/* Rows r0 .. min(r0 + nrows, rows) - 1 from one seed at r0 (r0 a
 * multiple of BLOCK).  Updates out and the chunk hints; returns the
 * number of negative rows found.  stop 1: return at the first one; 2: at
 * the end of the block holding it. */
static size_t scan_span(rl_bscan *w, uint64_t r0, uint64_t nrows, uint64_t rows, int stop,
                        rl_bscan_out *out)
{
  const double *theta = w->theta;
  size_t n = w->n, neg_rows = 0;
  double c0 = w->c0;
  for (size_t k = 0; k < n; k++) {
    double a = (double)r0 * theta[k]; /* within u r0 theta_k */
    w->cr[k] = cos(a);
    w->ci[k] = sin(a);
  }
  seed_block(n, w->cr, w->ci, w->tr, w->ti, w->zr, w->zi);
  double e0 = U_HALF * (double)r0 * w->tsum * 1.001 + w->e_seed +
              (double)n * (c0 + (double)n) * U_HALF;
  uint64_t end = r0 + nrows < rows ? r0 + nrows : rows;
  for (uint64_t c = (r0 + w->chunk - 1) / w->chunk; c * w->chunk < end; c++)
    w->hint[c] = HUGE_VAL; /* the latest scan of a chunk counts (from its start) */
  for (uint64_t s = 0; r0 < end; s++, r0 += BLOCK) {
    block_sum(n, c0, w->zr, w->zi, w->wr, w->wi, w->acc);
    double bound = 2.0 * (e0 + (double)s * w->e_step);
    uint64_t m = end - r0 < BLOCK ? end - r0 : BLOCK;
    out->rows += (double)m;
    double *hint = &w->hint[r0 / w->chunk];
    for (uint64_t b = 0; b < m; b++) {
      double v = w->acc[b], r = (double)(r0 + b);
      if (v <= bound) {
        /* negative for certain below -bound; within the bound of 0,
         * decided from exact angles */
        int neg = v < -bound ||
                  exact_negative(theta, n, c0, r, &v, &out->rechecks, &out->ambiguous);
        if (neg) {
          neg_rows++;
          if (r < out->first_fail)
            out->first_fail = r;
        }
      }
      if (v < out->min) {
        out->min = v;
        out->argmin = r;
      }
      if (v < *hint)
        *hint = v;
      if (neg_rows && stop == 1)
        return neg_rows;
    }
    if (neg_rows && stop == 2) /* the rest of the block has been computed */
      return neg_rows;
  }
  return neg_rows;
}

void rl_bscan_forget(rl_bscan *w)
{
  w->hint_len = 0;
}

/* the hint array for len (kept across bases while len is the same) */
static rl_status hints_for(rl_bscan *w, uint64_t rows)
{
  uint64_t chunk = HINT;
  while ((rows + chunk - 1) / chunk > MAX_CHUNKS)
    chunk *= 2;
  size_t nh = (size_t)((rows + chunk - 1) / chunk);
  if (w->chunk != chunk)
    w->hint_len = 0;
  w->chunk = chunk;
  if (nh > w->hint_cap) {
    free(w->hint);
    free(w->order);
    free(w->seen);
    w->hint = malloc(nh * sizeof *w->hint);
    w->order = malloc(2 * nh * sizeof *w->order);
    w->seen = calloc(nh, sizeof *w->seen);
    w->stamp = 0;
    w->hint_cap = w->hint && w->order && w->seen ? nh : 0;
    w->hint_len = 0;
    if (!w->hint_cap)
      return RL_ENOMEM;
  }
  if (w->hint_len != (double)rows)
    for (size_t c = 0; c < nh; c++)
      w->hint[c] = HUGE_VAL;
  w->nhint = nh;
  w->hint_len = (double)rows;
  return RL_OK;
}

/* the chunks in the order RL_BSCAN_ANY visits them: lowest hint first;
 * among equal (unseen) hints the last rows first */
static int by_hint(const rl_bscan_chunk *x, const rl_bscan_chunk *y)
{
  if (x->hint != y->hint)
    return x->hint < y->hint ? -1 : 1;
  return x->c > y->c ? -1 : x->c < y->c;
}

static size_t bin_of(double h, const double *edge)
{
  size_t k = 0;
  while (k < BINS - 1 && !(h < edge[k]))
    k++;
  return k;
}

rl_status rl_bscan_run(rl_bscan *w, const double *theta, size_t n, double c0, double len,
                       int mode, rl_bscan_out *out)
{
  memset(out, 0, sizeof *out);
  if (n > w->nmax || !(len >= 1) || len - 1 > RL_POS_MAX || len != floor(len) || !(c0 >= 0))
    return RL_EINVAL;
  for (size_t k = 0; k < n; k++)
    if (!(theta[k] >= 0 && theta[k] <= 1))
      return RL_ERANGE;
  out->first_fail = len;
  out->min = HUGE_VAL;
  uint64_t rows = (uint64_t)len;
  rl_status st = hints_for(w, rows);
  if (st)
    return st;
  prepare(w, theta, n, c0);
  if (mode != RL_BSCAN_ANY) {
    for (uint64_t r0 = 0; r0 < rows; r0 += SPAN) {
      if (scan_span(w, r0, SPAN, rows, mode == RL_BSCAN_FIRST, out) && mode == RL_BSCAN_FIRST)
        break;
      if (w->tick)
        w->tick(w->tick_ctx, (double)(r0 + SPAN), (double)rows);
    }
    if (out->first_fail < len)
      out->fail_value = rl_bscan_exact(theta, n, c0, out->first_fail, NULL);
    return RL_OK;
  }
  /* lowest hint first: a few picks by selection, then the rest by bins
   * of hint (a counting sort: a full sort per scan costs more than the
   * order saves) */
  size_t nh = w->nhint;
  rl_bscan_chunk *ord = w->order, *rest = w->order + nh, top[PICKS];
  if (++w->stamp == 0) { /* wrapped: clear the marks */
    memset(w->seen, 0, nh * sizeof *w->seen);
    w->stamp = 1;
  }
  size_t picks = 0;
  for (size_t q = 0; q < nh; q++) { /* one pass: the PICKS lowest, sorted */
    size_t c = nh - 1 - q;
    rl_bscan_chunk x = {w->hint[c], c};
    if (picks == PICKS && !(x.hint < top[PICKS - 1].hint))
      continue; /* ties keep the later rows, met first */
    size_t at = picks < PICKS ? picks++ : PICKS - 1;
    while (at > 0 && by_hint(&x, &top[at - 1]) < 0) {
      top[at] = top[at - 1];
      at--;
    }
    top[at] = x;
  }
  for (size_t p = 0; p < picks; p++) {
    if (scan_span(w, (uint64_t)top[p].c * w->chunk, w->chunk, rows, 2, out))
      return RL_OK;
    if (w->tick)
      w->tick(w->tick_ctx, out->rows, (double)rows);
    w->seen[top[p].c] = w->stamp; /* scanned: not again below */
  }
  size_t m = 0;
  for (size_t q = 0; q < nh; q++) { /* the others, last rows first */
    size_t c = nh - 1 - q;
    if (w->seen[c] != w->stamp)
      ord[m++] = (rl_bscan_chunk){w->hint[c], c};
  }
  static const double edge[BINS - 1] = {0.25, 0.5, 1, 2, 4, 8};
  size_t start[BINS + 1] = {0};
  for (size_t q = 0; q < m; q++)
    start[bin_of(ord[q].hint, edge) + 1]++;
  for (size_t k = 0; k < BINS; k++)
    start[k + 1] += start[k];
  for (size_t q = 0; q < m; q++)
    rest[start[bin_of(ord[q].hint, edge)]++] = ord[q];
  for (size_t q = 0; q < m; q++) {
    if (scan_span(w, (uint64_t)rest[q].c * w->chunk, w->chunk, rows, 2, out))
      return RL_OK;
    if (w->tick)
      w->tick(w->tick_ctx, out->rows, (double)rows);
  }
  return RL_OK;
}

/* ------------------------------------------------------------------ */
/* quick refutation (RoPE's own schedule)                              */

/* theta~_k = rho^k with rho = exp(-2 ln(b) / rot): ln and exp within
 * 1 ulp, the quotient and product within 1/2 ulp each, so rho is within
 * (4 |ln rho| + 4) u of b^(-2/rot) and rho^k, k products later, within
 * k (4 |ln rho| + 5) u = 4 |ln theta_k| + 5 k u; the schedule's theta_k
 * is the double nearest the exact value (1/2 ulp).  delta_k =
 * (8 |ln theta_k| + 8 k + 16) u covers both with room. */
void rl_bscan_approx(double base, size_t rot, double *theta, double *d_sum, double *t_sum)
{
  size_t n = rot / 2;
  double lr = -2.0 * log(base) / (double)rot, rho = exp(lr), t = 1, ds = 0, ts = 0;
  for (size_t k = 0; k < n; k++) {
    theta[k] = t;
    double delta = (8.0 * fabs(lr) * (double)k + 8.0 * (double)k + 16.0) * U_HALF;
    ds += delta * t;
    ts += t;
    t *= rho;
  }
  for (size_t k = n; k % 8; k++)
    theta[k] = 0;
  *d_sum = ds;
  *t_sum = ts;
}

/* cos(phi), phi = fl(r theta_k), for 0 <= phi < 2^33 in vector lanes: phi - q pi/2 with pi/2
 * in three parts (fdlibm's pio2_1, pio2_2, pio2_2t: exact products for
 * q < 2^20, within u phi beyond), then Taylor polynomials of cos and sin
 * on |x| <= pi/4 + 1e-9 (first omitted terms below 5e-17).  Absolute
 * error below 4 u phi + 2e-15.  Rounding to an integer is (x + RND) - RND
 * (|x| < 2^51; ISO C keeps the order), not floor, which GCC does not
 * vectorise here; the arguments of the quadrant's roundings are never a
 * half-integer, so ties do not arise. */
CLONES static void fast_cos(size_t n, double r, const double *restrict theta,
                            double *restrict out)
{
  const double P1 = 1.57079632673412561417e+00, P2 = 6.07710050630396597660e-11,
               P3 = 2.02226624879595063154e-21, TWO_OVER_PI = 6.36619772367581382433e-01,
               RND = 0x1.8p52;
  for (size_t k = 0; k < n; k++) {
    double f = r * theta[k];
    double q = (f * TWO_OVER_PI + RND) - RND; /* nearest integer */
    double x = ((f - q * P1) - q * P2) - q * P3;
    double z = x * x;
    double c = 1.0 + z * (-1.0 / 2 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 +
               z * (-1.0 / 3628800 + z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 +
               z * (1.0 / 20922789888000.0))))))));
    double s = x * (1.0 + z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 +
               z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0))))))));
    /* cos(q pi/2 + x) = c, -s, -c, s for q mod 4 = 0..3; arithmetic
     * selects (exact but for c + (s - c) = s to 2u) so the loop vectorises;
     * floor(y) for y in (1/4) Z is round(y - 3/8) */
    double m = q - 4.0 * ((q * 0.25 - 0.375 + RND) - RND);     /* q mod 4, exact */
    double odd = m - 2.0 * ((m * 0.5 - 0.25 + RND) - RND);     /* 0 or 1 */
    double h = ((m + 1) * 0.5 - 0.25 + RND) - RND;             /* floor((m + 1) / 2) */
    double neg = h - 2.0 * ((h * 0.5 - 0.25 + RND) - RND);     /* 1 for m = 1, 2 */
    out[k] = (c + odd * (s - c)) * (1.0 - 2.0 * neg);
  }
}

double rl_bscan_approx_value(const double *theta, size_t n, double c0, double d_sum,
                             double t_sum, double r, double *tmp, double *bound)
{
  fast_cos((n + 7) / 8 * 8, r, theta, tmp); /* theta, tmp padded to 8 (rl_bscan_approx) */
  double s = c0;
  for (size_t k = 0; k < n; k++)
    s += tmp[k];
  /* per pair: r delta_k theta_k (frequency), u r theta_k (the product
   * r theta~), 4 u r theta_k + 2e-15 (fast_cos); the sum n (c0 + n) u;
   * doubled for room */
  *bound = 2.0 * (r * d_sum + 5.0 * U_HALF * r * t_sum + 2e-15 * (double)n +
                  (double)n * (c0 + (double)n) * U_HALF);
  return s;
}
