/* envelope.c: a pipeline against the exact values over positions
 * (ropelab.h, "precision envelope").  Streamed: memory O(pairs) whatever
 * the number of positions; two threads split a long range. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "precision_impl.h"

/* RING: the pipeline's rows at m .. m + r are kept for r < RING, so each
 * position's row is computed once (memory (r + 1) x 2 pairs doubles). */
enum { RESEED = 64, NTHREADS = 2, THREAD_MIN = 4096, RING = 256 };

struct rl_prec_env {
  const rl_schedule *p, *x; /* pipeline, exact */
  size_t n;
  double r;
  float *q, *k;           /* 2n: pair i at 2i, 2i+1, rounded to act_dtype */
  double *ref;            /* n: exact <q_i, R_r k_i> per pair */
  double ref_total;
  double *wr, *wi;        /* n: e^{i theta_i}, exact */
};

void rl_prec_env_free(rl_prec_env *e)
{
  if (!e)
    return;
  free(e->q);
  free(e->k);
  free(e->ref);
  free(e->wr);
  free(e->wi);
  free(e);
}

rl_status rl_prec_env_alloc(const rl_schedule *pipe, const rl_schedule *exact, double distance,
                            unsigned long seed, rl_prec_env **out)
{
  *out = NULL;
  if (!pipe || !exact || pipe->n != exact->n || !(distance >= 0) || distance > RL_POS_MAX)
    return RL_EINVAL;
  rl_prec_env *e = calloc(1, sizeof *e);
  if (!e)
    return RL_ENOMEM;
  size_t n = pipe->n;
  e->p = pipe;
  e->x = exact;
  e->n = n;
  e->r = distance;
  e->q = malloc(2 * n * sizeof *e->q);
  e->k = malloc(2 * n * sizeof *e->k);
  e->ref = malloc(n * sizeof *e->ref);
  e->wr = malloc(n * sizeof *e->wr);
  e->wi = malloc(n * sizeof *e->wi);
  double *c = malloc(2 * n * sizeof *c);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!e->q || !e->k || !e->ref || !e->wr || !e->wi || !c || !rng) {
    free(c);
    gsl_rng_free(rng);
    rl_prec_env_free(e);
    return RL_ENOMEM;
  }
  gsl_rng_set(rng, seed);
  double sd = pow((double)pipe->dim, -0.25); /* q.k of unit variance */
  for (size_t j = 0; j < 2 * n; j++)
    e->q[j] = rl_prec_rd(pipe->prec->act_dtype, (float)gsl_ran_gaussian(rng, sd));
  for (size_t j = 0; j < 2 * n; j++)
    e->k[j] = rl_prec_rd(pipe->prec->act_dtype, (float)gsl_ran_gaussian(rng, sd));
  gsl_rng_free(rng);
  rl_status st = rl_rope_cossin(exact, distance, c, c + n);
  if (!st)
    st = rl_rope_cossin(exact, 1.0, e->wr, e->wi);
  if (st) {
    free(c);
    rl_prec_env_free(e);
    return st;
  }
  long double tot = 0;
  for (size_t i = 0; i < n; i++) {
    double qa = (double)e->q[2 * i], qb = (double)e->q[2 * i + 1];
    double ka = (double)e->k[2 * i], kb = (double)e->k[2 * i + 1];
    double ca = c[i], sa = c[n + i];
    e->ref[i] = qa * (ka * ca - kb * sa) + qb * (ka * sa + kb * ca);
    tot += e->ref[i];
  }
  e->ref_total = (double)tot;
  free(c);
  *out = e;
  return RL_OK;
}

typedef struct job {
  const rl_prec_env *e;
  double m0;
  size_t count;
  rl_prec_err *pair, total;
  rl_status st;
} job;

static void *work(void *arg)
{
  job *j = arg;
  const rl_prec_env *e = j->e;
  size_t n = e->n;
  const rl_precision *pr = e->p->prec;
  size_t rr = (size_t)e->r, ring = e->r < RING ? rr + 1 : 0;
  double *buf = malloc((6 + 2 * ring) * n * sizeof *buf);
  if (!buf) {
    j->st = RL_ENOMEM;
    return NULL;
  }
  double *pc = buf, *ps = buf + n, *kc = buf + 2 * n, *ks = buf + 3 * n;
  double *zr = buf + 4 * n, *zi = buf + 5 * n, *rows = buf + 6 * n;
  for (size_t t = 0; t < ring && t < j->count + rr; t++) /* rows m0 .. m0 + r */
    if ((j->st = rl_rope_cossin(e->p, j->m0 + (double)t, rows + 2 * n * t, rows + 2 * n * t + n))) {
      free(buf);
      return NULL;
    }
  memset(&j->total, 0, sizeof j->total);
  for (size_t t = 0; t < j->count; t++) {
    double m = j->m0 + (double)t;
    /* the exact values advance by the rotation e^{i theta} (reseeded);
     * another pipeline's table is no rotation group, so it is read at
     * every position */
    if (t % RESEED == 0 || !e->x->prec->exact) {
      if ((j->st = rl_rope_cossin(e->x, m, zr, zi)))
        break;
    } else {
      for (size_t i = 0; i < n; i++) {
        double a = zr[i], b = zi[i];
        zr[i] = a * e->wr[i] - b * e->wi[i];
        zi[i] = a * e->wi[i] + b * e->wr[i];
      }
    }
    if (ring) {
      pc = rows + 2 * n * (t % ring), ps = pc + n;
      kc = rows + 2 * n * ((t + rr) % ring), ks = kc + n;
    } else if ((j->st = rl_rope_cossin(e->p, m, pc, ps)) ||
               (j->st = rl_rope_cossin(e->p, m + e->r, kc, ks))) {
      break;
    }
    long double logit = 0;
    for (size_t i = 0; i < n; i++) {
      double dc = fabs(pc[i] - zr[i]), ds = fabs(ps[i] - zi[i]);
      double da = fabs(atan2(ps[i] * zr[i] - pc[i] * zi[i], pc[i] * zr[i] + ps[i] * zi[i]));
      double l;
      if (pr->exact) { /* double arithmetic, as rl_rope_apply_elementwise */
        double qa = (double)e->q[2 * i], qb = (double)e->q[2 * i + 1];
        double ka = (double)e->k[2 * i], kb = (double)e->k[2 * i + 1];
        double ya = qa * pc[i] - qb * ps[i], yb = qb * pc[i] + qa * ps[i];
        double za = ka * kc[i] - kb * ks[i], zb = kb * kc[i] + ka * ks[i];
        l = ya * za + yb * zb;
      } else {
        float ya, yb, za, zb;
        rl_prec_rotate_pair(pr, (float)pc[i], (float)ps[i], e->q[2 * i], e->q[2 * i + 1], &ya,
                            &yb);
        rl_prec_rotate_pair(pr, (float)kc[i], (float)ks[i], e->k[2 * i], e->k[2 * i + 1], &za,
                            &zb);
        l = (double)ya * (double)za + (double)yb * (double)zb;
      }
      logit += l;
      double dl = fabs(l - e->ref[i]);
      rl_prec_err *pe = j->pair ? &j->pair[i] : NULL;
      if (pe) {
        pe->cos = fmax(pe->cos, dc);
        pe->sin = fmax(pe->sin, ds);
        pe->angle = fmax(pe->angle, da);
        pe->logit = fmax(pe->logit, dl);
      }
      j->total.cos = fmax(j->total.cos, dc);
      j->total.sin = fmax(j->total.sin, ds);
      j->total.angle = fmax(j->total.angle, da);
    }
    j->total.logit = fmax(j->total.logit, fabs((double)logit - e->ref_total));
    /* the slot of m now takes m + r + 1 */
    if (ring && t + 1 < j->count &&
        (j->st = rl_rope_cossin(e->p, m + (double)ring, pc, ps)))
      break;
  }
  free(buf);
  return NULL;
}

static void merge(rl_prec_err *a, const rl_prec_err *b)
{
  a->cos = fmax(a->cos, b->cos);
  a->sin = fmax(a->sin, b->sin);
  a->angle = fmax(a->angle, b->angle);
  a->logit = fmax(a->logit, b->logit);
}

rl_status rl_prec_env_run(rl_prec_env *e, double m0, size_t count, rl_prec_err *pair,
                          rl_prec_err *total)
{
  if (!e || !isfinite(m0) || fabs(m0) > RL_POS_MAX ||
      fabs(m0 + (double)count + e->r) > RL_POS_MAX + 1)
    return RL_ERANGE;
  int nt = count >= THREAD_MIN ? NTHREADS : 1;
  job jobs[NTHREADS];
  rl_prec_err *scratch = NULL;
  if (pair && nt > 1 && !(scratch = calloc((size_t)(nt - 1) * e->n, sizeof *scratch)))
    nt = 1;
  pthread_t th[NTHREADS];
  size_t per = count / (size_t)nt, start = 0;
  int started[NTHREADS] = {0};
  for (int t = 0; t < nt; t++) {
    /* split on re-seed boundaries so the results do not depend on nt */
    size_t len = t == nt - 1 ? count - start : (per / RESEED) * RESEED;
    jobs[t] = (job){e, m0 + (double)start, len, t == 0 ? pair : pair ? scratch + (size_t)(t - 1) * e->n : NULL, {0, 0, 0, 0}, RL_OK};
    start += len;
    if (t > 0 && !pthread_create(&th[t], NULL, work, &jobs[t]))
      started[t] = 1;
    else if (t > 0)
      work(&jobs[t]);
  }
  work(&jobs[0]);
  rl_status st = jobs[0].st;
  for (int t = 1; t < nt; t++) {
    if (started[t])
      pthread_join(th[t], NULL);
    if (!st)
      st = jobs[t].st;
    for (size_t i = 0; pair && i < e->n; i++)
      merge(&pair[i], &scratch[(size_t)(t - 1) * e->n + i]);
  }
  free(scratch);
  if (st)
    return st;
  if (total)
    for (int t = 0; t < nt; t++)
      merge(total, &jobs[t].total);
  return RL_OK;
}
