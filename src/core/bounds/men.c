/* men.c: the lower bound of RoPE's base for a context length (Men et al.
 * 2024, "Base of RoPE Bounds Context Length", arXiv:2405.14591, eq. 9,
 * sec. 3.3; see ropelab.h for what is searched), and the power-law fit of
 * their Figure 1.
 *
 * The staged grid is Su Jianlin's ("Transformer upgrade roadmap 18:
 * principles for choosing RoPE's base", kexue.fm/archives/10122, 2024-05-29,
 * section "numerical solution"): B = 1000 L, then for k = 1..5 the points
 * (j / 10^k) B, j = 1, 2, ..., the first feasible one becoming B.  His
 * table, recomputed with it: 4.3e3 (1K), 1.2e4 (2K), 2.7e4 (4K), 8.4e4
 * (8K), 2.3e5, 6.3e5, 2.1e6, 4.9e6, 2.4e7, 5.8e7, 6.5e7 (1M).
 *
 * Speed.  Stage k tests up to 10^k candidates, most far below the bound.
 * A candidate is infeasible as soon as one r gives B_r < 0, and a value of
 * r that refuted one candidate usually refutes its neighbours (B_r moves
 * continuously with the base), so each thread keeps the r that refuted
 * recent candidates (move-to-front) and tries them first, at O(n) each;
 * only a candidate that survives them is scanned (men_scan.c), and the
 * scan looks first where B_r was smallest at the bases scanned before
 * (near the bound: the last tenth of 0..L-1), stops after the first chunk
 * of rows holding a negative row, and hands back its deepest negative
 * row for the list.  A feasible candidate is scanned over every row, as
 * before.  Measured (L = 2^20, one thread): the list refutes 87% of the
 * 1.1e5 candidates; a scan of one of the rest costs ~1,100 rows on
 * average, where scanning upward from r = 0 cost ~0.6 L (L = 128K and
 * 512K took 184 s of CPU that way, 3.5 s this way).  The tuning
 * (WITNESSES, CLIMB; HINT in men_scan.c) was chosen by CPU time over
 * L = 64K..1M.  Every scanned candidate needs its exact frequencies:
 * for RoPE at exact precision they come from rl_sched_plain_theta (the
 * schedule's doubles bit for bit, one binary128 product per pair instead
 * of exp2q; the whole table 2.1x less CPU, the same bytes,
 * experiments/bench_men.sh). */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bounds_impl.h"
#include "../base/internal.h" /* rl_sched_plain_theta */

enum {
  WITNESSES = 32, /* remembered refuting r per thread */
  CLIMB = 1,      /* of them, followed downhill in r */
  CLIMB_STEPS = 24
};

void rl_men_params_default(rl_men_params *p)
{
  memset(p, 0, sizeof *p);
  rl_schedule_params_default(&p->sched);
  p->search = RL_MEN_STAGED;
  p->stages = 5;          /* Su: k = 1..5 */
  p->start_factor = 1000; /* Su: B = 1000 L, feasible up to L = 1e6 */
  p->tolerance = 1e-8;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void set_err(char *err, const char *fmt, ...)
{
  if (!err)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, RL_ERR_MAX, fmt, ap);
  va_end(ap);
}

/* One search at a time per thread: the workspace and remembered r. */
typedef struct searcher {
  const rl_men_params *p;
  rl_bscan *ws;
  double wit[WITNESSES];
  size_t nwit;
  int rope;              /* RoPE's own schedule: quick refutation applies */
  int fast_theta;        /* and at exact precision: rl_sched_plain_theta */
  double *approx, *tmp;  /* dim/2 each */
  double *theta;         /* dim/2: the exact theta of fast_theta */
  size_t candidates, full_scans, rechecks, ambiguous, evals;
  double rows;
  double feasible_base;  /* the last base a scan found feasible, */
  rl_bscan_out feasible; /* and that scan (every row) */
  char err[RL_ERR_MAX];
  struct pool *pl;       /* progress: NULL when nobody asked */
  int slot;              /* this thread's share in pl */
  double cost, cpu0;     /* the cost model's CPU s for this length; CPU at its start */
  double last;           /* monotonic s of the last report */
} searcher;

static double now_s(clockid_t c)
{
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void tick(searcher *w);

static double c0_of(const rl_schedule *s)
{
  return (double)(s->dim - s->rot) / 2.0;
}

/* The frequencies at base: rl_sched_plain_theta for RoPE at exact
 * precision (no schedule: *s = NULL), else the schedule's. */
typedef struct freqs {
  rl_schedule *s;
  const double *theta;
  size_t n;
  double c0;
} freqs;

static rl_status build(searcher *w, double base, rl_schedule **s);

static rl_status freqs_at(searcher *w, double base, freqs *f)
{
  if (w->fast_theta) {
    const rl_schedule_params *q = &w->p->sched;
    size_t rot = q->rot ? q->rot : q->dim;
    rl_sched_plain_theta(base, rot, w->theta);
    *f = (freqs){NULL, w->theta, rot / 2, (double)(q->dim - rot) / 2.0};
    return RL_OK;
  }
  rl_status st = build(w, base, &f->s);
  if (st)
    return st;
  f->theta = f->s->theta;
  f->n = f->s->n;
  f->c0 = c0_of(f->s);
  return RL_OK;
}

static rl_status build(searcher *w, double base, rl_schedule **s)
{
  rl_schedule_params q = w->p->sched;
  q.base = base;
  char e[RL_ERR_MAX];
  rl_status st = rl_schedule_new(&q, s, e);
  if (st)
    snprintf(w->err, sizeof w->err, "%s", e);
  return st;
}

static void remember(searcher *w, size_t at, double r)
{
  /* move r (found at index at, or new when at == nwit) to the front */
  if (at == w->nwit && w->nwit < WITNESSES)
    w->nwit++;
  if (at >= w->nwit)
    at = w->nwit - 1;
  memmove(w->wit + 1, w->wit, at * sizeof *w->wit);
  w->wit[0] = r;
}

/* B_r from theta~ (RoPE's own schedule) */
typedef struct approx {
  const double *theta;
  double *tmp;
  size_t n;
  double c0, ds, ts, L;
  size_t *evals;
} approx;

/* 1 when B_r < 0 for certain; *v (may be NULL) receives B~_r; *amb (may
 * be NULL) is set when B~_r is within its bound of 0 (the sign needs the
 * true frequencies) */
static int refuted(approx *a, double r, double *v, int *amb)
{
  ++*a->evals;
  double e, x = rl_bscan_approx_value(a->theta, a->n, a->c0, a->ds, a->ts, r, a->tmp, &e);
  if (v)
    *v = x;
  if (amb)
    *amb = fabs(x) <= e;
  return x < -e;
}

/* A refuting r moves with the base: the dip of B_r in r that refuted the
 * last candidate sits a few rows away for the next.  From *r, walk
 * downhill in r (at most CLIMB_STEPS rows) and stop at a certain
 * refutation (1, *r set) or at the dip's bottom (0). */
static int climb(approx *a, double *r)
{
  double v0, vm = HUGE_VAL, vp = HUGE_VAL, r0 = *r;
  if (refuted(a, r0, &v0, NULL))
    return 1;
  if (r0 >= 1 && refuted(a, r0 - 1, &vm, NULL))
    return *r = r0 - 1, 1;
  if (r0 + 1 < a->L && refuted(a, r0 + 1, &vp, NULL))
    return *r = r0 + 1, 1;
  double dir = vm < vp ? -1 : 1, cur = r0 + dir, vc = vm < vp ? vm : vp;
  if (!(vc < v0))
    return 0;
  for (int k = 0; k < CLIMB_STEPS; k++) {
    double nx = cur + dir, vn;
    if (nx < 0 || nx >= a->L)
      return 0;
    if (refuted(a, nx, &vn, NULL))
      return *r = nx, 1;
    if (!(vn < vc))
      return 0;
    cur = nx;
    vc = vn;
  }
  return 0;
}

/* Is base feasible for L?  Remembered r first, then a scan. */
static rl_status test(searcher *w, double base, double L, int *feasible)
{
  w->candidates++;
  if (w->pl)
    tick(w);
  /* with theta~, only the witnesses whose B~_r was within its bound of 0
   * need the true frequencies (amb); without, every witness */
  double amb[WITNESSES];
  size_t namb = 0;
  int quick = w->rope && w->nwit;
  if (quick) {
    /* refute from theta~ without building the schedule (most candidates) */
    const rl_schedule_params *q = &w->p->sched;
    size_t rot = q->rot ? q->rot : q->dim;
    approx a = {w->approx, w->tmp, rot / 2, (double)(q->dim - rot) / 2.0, 0, 0, L, &w->evals};
    rl_bscan_approx(base, rot, w->approx, &a.ds, &a.ts);
    for (size_t i = 0; i < w->nwit; i++) {
      double r = w->wit[i];
      int ambiguous = 0;
      if (r < L && (i < CLIMB ? climb(&a, &r) : refuted(&a, r, NULL, &ambiguous))) {
        remember(w, i, r);
        *feasible = 0;
        return RL_OK;
      }
      if (ambiguous || i < CLIMB)
        amb[namb++] = w->wit[i];
    }
  }
  freqs f;
  rl_status st = freqs_at(w, base, &f);
  if (st)
    return st;
  double v;
  size_t nsign = quick ? namb : w->nwit;
  for (size_t i = 0; i < nsign; i++) {
    double r = quick ? amb[i] : w->wit[i];
    if (r < L && rl_bscan_sign(f.theta, f.n, f.c0, r, &v, &w->rechecks, &w->ambiguous) < 0) {
      size_t at = 0;
      while (at < w->nwit && w->wit[at] != r)
        at++;
      remember(w, at, r);
      rl_schedule_free(f.s);
      *feasible = 0;
      return RL_OK;
    }
  }
  rl_bscan_out o;
  w->full_scans++;
  st = rl_bscan_run(w->ws, f.theta, f.n, f.c0, L, RL_BSCAN_ANY, &o);
  rl_schedule_free(f.s);
  if (st)
    return st;
  w->rechecks += o.rechecks;
  w->ambiguous += o.ambiguous;
  w->rows += o.rows;
  *feasible = o.first_fail >= L;
  if (!*feasible) /* the deepest negative row found: the likeliest to last */
    remember(w, w->nwit, o.argmin);
  else
    w->feasible_base = base, w->feasible = o;
  return RL_OK;
}

/* Full scan of one base: stop at the first failure or not. */
static rl_status scan(searcher *w, double base, double L, int stop, rl_bscan_out *o)
{
  freqs f;
  rl_status st = freqs_at(w, base, &f);
  if (st)
    return st;
  st = rl_bscan_run(w->ws, f.theta, f.n, f.c0, L, stop, o);
  rl_schedule_free(f.s);
  if (!st) {
    w->rechecks += o->rechecks;
    w->ambiguous += o->ambiguous;
    w->rows += o->rows;
  }
  return st;
}

static rl_status search(searcher *w, double L, rl_men_result *res)
{
  const rl_men_params *p = w->p;
  memset(res, 0, sizeof *res);
  w->nwit = 0;
  rl_bscan_forget(w->ws);
  w->candidates = w->full_scans = w->rechecks = w->ambiguous = w->evals = 0;
  w->rows = 0;
  w->feasible_base = 0;
  res->len = L;
  double B = p->start_factor * L, prev = 0;
  int ok;
  rl_status st = test(w, B, L, &ok);
  if (st)
    return st;
  if (!ok) {
    snprintf(w->err, sizeof w->err,
             "the start base %.17g (%g L) is not feasible for L = %.17g: raise the start factor",
             B, p->start_factor, L);
    return RL_ERANGE;
  }
  for (int k = 1; k <= p->stages; k++) {
    double scale = pow(10.0, k), next = B;
    prev = 0;
    for (double j = 1; j < scale; j++) {
      double b = j / scale * B; /* Su: linspace(0, 1, 10^k + 1)[1:] * B */
      if (!(b > 1)) /* a base must exceed 1 */
        continue;
      if ((st = test(w, b, L, &ok)))
        return st;
      if (ok) {
        next = b;
        break;
      }
      prev = b;
    }
    /* none below B (j = 10^k): B stays, prev is b_{10^k - 1} */
    B = next;
  }
  if (p->search == RL_MEN_FINE && prev > 0) {
    double ratio = 1 + p->tolerance, p0 = prev;
    for (double k = 1;; k++) {
      double b = p0 * pow(ratio, k);
      if (!(b < B))
        break;
      if ((st = test(w, b, L, &ok)))
        return st;
      if (ok) {
        B = b;
        break;
      }
      prev = b;
    }
  }
  /* the margin: min B_r at the base, first failure at the point below */
  rl_bscan_out o;
  if (B == w->feasible_base) /* its test scanned every row */
    o = w->feasible;
  else if ((st = scan(w, B, L, RL_BSCAN_ALL, &o)))
    return st;
  if (o.first_fail < L) { /* cannot happen: B was tested feasible */
    snprintf(w->err, sizeof w->err, "internal: base %.17g failed its final scan", B);
    return RL_ERANGE;
  }
  res->base = B;
  freqs f;
  if ((st = freqs_at(w, B, &f)))
    return st;
  double ce = 0, sth = 0;
  res->min_similarity = rl_bscan_exact(f.theta, f.n, f.c0, o.argmin, &ce);
  for (size_t k = 0; k < f.n; k++)
    sth += f.theta[k];
  res->min_similarity_err = ce + o.argmin * sth * 0x1p-52;
  rl_schedule_free(f.s);
  res->argmin = o.argmin;
  res->previous_base = prev;
  res->previous_first_fail = -1;
  if (prev > 0) {
    if ((st = scan(w, prev, L, RL_BSCAN_FIRST, &o)))
      return st;
    res->previous_first_fail = o.first_fail < L ? o.first_fail : -1;
    res->previous_similarity = o.fail_value;
  }
  res->candidates = (double)w->candidates;
  res->full_scans = (double)w->full_scans;
  res->rechecks = (double)w->rechecks;
  res->ambiguous = (double)w->ambiguous;
  res->rows_scanned = w->rows;
  res->witness_evals = (double)w->evals;
  return RL_OK;
}

/* ------------------------------------------------------------------ */
/* lengths on threads                                                  */

typedef struct pool {
  const rl_men_params *p;
  const double *len;
  size_t n, next, done;
  size_t *order; /* indices, longest first */
  rl_men_result *out;
  void (*progress)(void *, size_t);
  void *ctx;
  pthread_mutex_t mu;
  rl_status st;
  char err[RL_ERR_MAX];
  int slots;                     /* threads that took a slot */
  size_t share[RL_BOUND_THREADS_MAX]; /* each thread's steps of its length */
} pool;

/* The steps done: RL_MEN_PROGRESS_STEPS a length, plus each running
 * length's share; called with pl->mu held. */
static void report(pool *pl)
{
  size_t d = pl->done * RL_MEN_PROGRESS_STEPS;
  for (int t = 0; t < pl->slots; t++)
    d += pl->share[t];
  pl->progress(pl->ctx, d);
}

/* A length's share: the CPU its search used against the cost model's
 * estimate for it (rl_cost_men, the rate that sets the refusals), at
 * most 99% until it ends; at most every 0.2 s. */
static void tick(searcher *w)
{
  double t = now_s(CLOCK_MONOTONIC);
  if (t - w->last < 0.2)
    return;
  w->last = t;
  double f = w->cost > 0 ? (now_s(CLOCK_THREAD_CPUTIME_ID) - w->cpu0) / w->cost : 0;
  f = f < 0 ? 0 : f > 0.99 ? 0.99 : f;
  pool *pl = w->pl;
  pthread_mutex_lock(&pl->mu);
  pl->share[w->slot] = (size_t)(f * RL_MEN_PROGRESS_STEPS);
  report(pl);
  pthread_mutex_unlock(&pl->mu);
}

static void scan_tick(void *ctx, double rows_done, double rows)
{
  (void)rows_done, (void)rows;
  tick(ctx);
}

static void *worker(void *arg)
{
  pool *pl = arg;
  searcher w = {0};
  w.p = pl->p;
  size_t nmax = pl->p->sched.dim / 2;
  /* frequencies RoFormer's by construction: the quick paths apply */
  w.rope = (pl->p->sched.method->flags & RL_ST_PLAIN_THETA) != 0;
  w.fast_theta = w.rope && (!pl->p->sched.precision ||
                            pl->p->sched.precision == rl_precision_exact());
  w.approx = malloc((nmax + 8) * sizeof *w.approx);
  w.tmp = malloc((nmax + 8) * sizeof *w.tmp);
  w.theta = malloc((nmax + 1) * sizeof *w.theta);
  rl_status st = rl_bscan_alloc(nmax, &w.ws);
  if (!st && (!w.approx || !w.tmp || !w.theta))
    st = RL_ENOMEM;
  if (!st && pl->progress) {
    pthread_mutex_lock(&pl->mu);
    if (pl->slots < RL_BOUND_THREADS_MAX) {
      w.pl = pl;
      w.slot = pl->slots++;
      rl_bscan_set_tick(w.ws, scan_tick, &w);
    }
    pthread_mutex_unlock(&pl->mu);
  }
  for (;;) {
    pthread_mutex_lock(&pl->mu);
    if (st && !pl->st)
      pl->st = st, snprintf(pl->err, sizeof pl->err, "%s", w.err[0] ? w.err : rl_strerror(st));
    if (pl->st || pl->next >= pl->n) {
      pthread_mutex_unlock(&pl->mu);
      break;
    }
    size_t i = pl->order[pl->next++];
    if (pl->progress && pl->done == 0 && pl->next == 1)
      report(pl); /* at once: 0 */
    pthread_mutex_unlock(&pl->mu);
    if (w.pl) {
      size_t rot = pl->p->sched.rot ? pl->p->sched.rot : pl->p->sched.dim;
      w.cost = rl_cost_men(&pl->len[i], 1, rot / 2);
      w.cpu0 = now_s(CLOCK_THREAD_CPUTIME_ID);
      w.last = now_s(CLOCK_MONOTONIC);
    }
    st = search(&w, pl->len[i], &pl->out[i]);
    pthread_mutex_lock(&pl->mu);
    if (w.pl)
      pl->share[w.slot] = 0;
    if (!st) {
      pl->done++;
      if (pl->progress)
        report(pl);
    }
    pthread_mutex_unlock(&pl->mu);
  }
  rl_bscan_free(w.ws);
  free(w.approx);
  free(w.tmp);
  free(w.theta);
  return NULL;
}

static int plain_enough(const rl_men_params *p, char *err)
{
  rl_schedule *s;
  char e[RL_ERR_MAX];
  if (rl_schedule_new(&p->sched, &s, e)) {
    set_err(err, "%s", e);
    return 0;
  }
  /* a file of frequencies is not set by a base */
  int ok = rl_schedule_is_plain(s) && !(s->type->flags & RL_ST_NOT_BASE);
  if (!ok)
    set_err(err, "method '%s' does not apply: the bound needs frequencies set by the base "
                 "and a logit sum_i cos(r theta_i) (no position map, amplitude or query scale)",
            s->type->name);
  rl_schedule_free(s);
  return ok;
}

rl_status rl_men_bases(const rl_men_params *p, const double *len, size_t n, int threads,
                       void (*progress)(void *ctx, size_t done), void *ctx,
                       rl_men_result *out, char *err)
{
  if (err)
    err[0] = 0;
  if (p->stages < 1 || p->stages > 9) {
    set_err(err, "invalid number of stages %d: expected 1 to 9", p->stages);
    return RL_EINVAL;
  }
  if (!(p->start_factor > 0) || !isfinite(p->start_factor)) {
    set_err(err, "invalid start factor '%g': expected a number > 0", p->start_factor);
    return RL_EINVAL;
  }
  if (p->search == RL_MEN_FINE &&
      !(p->tolerance >= RL_MEN_TOLERANCE_MIN && p->tolerance <= 0.01)) {
    set_err(err, "invalid tolerance '%g': expected 2^-45 (%.17g) <= tolerance <= 0.01",
            p->tolerance, RL_MEN_TOLERANCE_MIN);
    return RL_EINVAL;
  }
  for (size_t i = 0; i < n; i++)
    if (!(len[i] >= 1) || len[i] != floor(len[i]) || len[i] - 1 > RL_POS_MAX) {
      set_err(err, "invalid length '%.17g': expected an integer from 1 to 2^31 + 1", len[i]);
      return RL_EINVAL;
    }
  /* the search scans O(L x pairs) per length: refuse what cannot end,
   * before anything is built (plain_enough builds the schedule, whose
   * exact frequencies cost a quad-precision exp2 per pair: 2^19 of them
   * at d = 2^20 ran before this refusal) */
  size_t rot = p->sched.rot ? p->sched.rot : p->sched.dim;
  char cerr[RL_ERR_MAX];
  if (rot <= p->sched.dim && rl_cost_check_men(len, n, rot / 2, cerr)) { /* a bad rot: below */
    set_err(err, "%s", cerr);
    return RL_EINVAL;
  }
  if (!plain_enough(p, err))
    return RL_EINVAL;
  pool pl = {0};
  pl.p = p;
  pl.len = len;
  pl.n = n;
  pl.out = out;
  pl.progress = progress;
  pl.ctx = ctx;
  pl.order = malloc((n ? n : 1) * sizeof *pl.order);
  if (!pl.order)
    return RL_ENOMEM;
  for (size_t i = 0; i < n; i++)
    pl.order[i] = i;
  for (size_t i = 1; i < n; i++) /* insertion sort, longest first (n is small) */
    for (size_t j = i; j > 0 && len[pl.order[j]] > len[pl.order[j - 1]]; j--) {
      size_t t = pl.order[j];
      pl.order[j] = pl.order[j - 1];
      pl.order[j - 1] = t;
    }
  pthread_mutex_init(&pl.mu, NULL);
  if (threads < 1)
    threads = 1;
  if ((size_t)threads > n)
    threads = n ? (int)n : 1;
  pthread_t tid[64];
  int started = 0;
  for (int t = 1; t < threads && t < 64; t++)
    if (!pthread_create(&tid[started], NULL, worker, &pl))
      started++;
  worker(&pl);
  for (int t = 0; t < started; t++)
    pthread_join(tid[t], NULL);
  pthread_mutex_destroy(&pl.mu);
  free(pl.order);
  if (pl.st)
    set_err(err, "%s", pl.err);
  return pl.st;
}

typedef struct feas_prog {
  void (*progress)(void *, size_t);
  void *ctx;
  double last;
} feas_prog;

/* the upward scan's rows over the length: the share of the worst case */
static void feas_tick(void *ctx, double rows_done, double rows)
{
  feas_prog *f = ctx;
  double t = now_s(CLOCK_MONOTONIC);
  if (t - f->last < 0.2)
    return;
  f->last = t;
  double x = rows_done < rows ? rows_done / rows : 1;
  f->progress(f->ctx, (size_t)(x * 0.99 * RL_MEN_PROGRESS_STEPS));
}

rl_status rl_men_feasible(const rl_schedule *s, double len, double *first_fail)
{
  return rl_men_feasible_progress(s, len, NULL, NULL, first_fail);
}

rl_status rl_men_feasible_progress(const rl_schedule *s, double len,
                                   void (*progress)(void *ctx, size_t done), void *ctx,
                                   double *first_fail)
{
  rl_bscan *w;
  rl_status st = rl_bscan_alloc(s->n, &w);
  if (st)
    return st;
  feas_prog fp = {progress, ctx, now_s(CLOCK_MONOTONIC)};
  if (progress) {
    progress(ctx, 0);
    rl_bscan_set_tick(w, feas_tick, &fp);
  }
  rl_bscan_out o;
  st = rl_bscan_run(w, s->theta, s->n, c0_of(s), len, RL_BSCAN_FIRST, &o);
  rl_bscan_free(w);
  if (!st)
    *first_fail = o.first_fail;
  return st;
}

double rl_men_similarity(const rl_schedule *s, double r)
{
  return rl_bscan_exact(s->theta, s->n, c0_of(s), r, NULL);
}

rl_status rl_men_fit(const double *x, const double *y, size_t n, double *a, double *k)
{
  if (n < 2)
    return RL_EINVAL;
  /* least squares of ln y = ln a + k ln x, in long double, centred */
  long double mx = 0, my = 0;
  for (size_t i = 0; i < n; i++) {
    if (!(x[i] > 0 && y[i] > 0) || !isfinite(x[i]) || !isfinite(y[i]))
      return RL_EINVAL;
    mx += logl(x[i]);
    my += logl(y[i]);
  }
  mx /= (long double)n;
  my /= (long double)n;
  long double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; i++) {
    long double dx = logl(x[i]) - mx;
    sxx += dx * dx;
    sxy += dx * (logl(y[i]) - my);
  }
  if (sxx == 0)
    return RL_EINVAL;
  long double kk = sxy / sxx;
  *k = (double)kk;
  *a = (double)expl(my - kk * mx);
  return RL_OK;
}

double rl_men_similarity_known(double ms, double err)
{
  if (!(err > 0) || ms == 0 || !isfinite(ms))
    return ms;
  int dig = (int)floor(log10(fabs(ms) / err));
  char t[64];
  snprintf(t, sizeof t, "%.*e", dig < 1 ? 0 : dig > 16 ? 16 : dig - 1, ms);
  return strtod(t, NULL);
}
