/* test_scheme_key.c: a key prepared in two steps (ropelab/scheme_key.h)
 * is the same bytes as rl_scheme_prepare's, for every scheme that splits,
 * with random and identity projections, at positions inside and past the
 * tables, and fails where rl_scheme_prepare fails with the same status;
 * the schemes that do not split say so (state length 0).  And the key's
 * content coefficients (rl_scheme_key_coef): for a query and keys at
 * positions near and far, total(x) - total(0) = a.x and cc = c.x to
 * within 1e-13 of the sum of the magnitudes involved (a few roundings
 * of sums of d = 16 products: ~2^-52 d). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"

static void fill(double *v, size_t n, unsigned seed)
{
  for (size_t k = 0; k < n; k++)
    v[k] = sin(1.3 * (double)(k + 1) + 0.7 * seed) + 0.5 * cos(0.29 * (double)(k * k + seed));
}

/* name under cfg: every position in pos[] both ways */
static void same(const char *name, rl_scheme_cfg *c, size_t want_len)
{
  rl_scheme *s = NULL;
  char err[RL_ERR_MAX];
  if (rl_scheme_alloc(name, c, &s, err)) {
    tap_ok(0, "alloc %s: %s", name, err);
    return;
  }
  size_t d = c->dim, pl = rl_scheme_prep_len(s), sl = rl_scheme_key_state_len(s);
  tap_ok(sl == want_len, "%s (identity %d): key state of %zu doubles (want %zu)", name,
         c->identity, sl, want_len);
  if (!sl) {
    double st[1];
    tap_ok(rl_scheme_key_state(s, 0, 1.0, st) == RL_EINVAL, "%s: no state, RL_EINVAL", name);
    rl_scheme_free(s);
    return;
  }
  const double pos[] = {0, 1, 2, 7, 31, 32, 33, 511, 512, 513, 1000, 4097, 65535, 1e6, 2147483647,
                        2.5, -3, 3e9};
  double *x = malloc(d * sizeof *x), *a = malloc(pl * sizeof *a), *b = malloc(pl * sizeof *b),
         *st = malloc(sl * sizeof *st);
  size_t nsame = 0, nerr = 0, n = sizeof pos / sizeof pos[0];
  for (size_t h = 0; h < 2; h++)
    for (size_t i = 0; i < n; i++) {
      fill(x, d, (unsigned)(i + 10 * h));
      memset(a, 0, pl * sizeof *a);
      memset(b, 0xff, pl * sizeof *b);
      rl_status ra = rl_scheme_prepare(s, h, RL_ROLE_KEY, pos[i], x, a);
      rl_status rb = rl_scheme_key_state(s, h, pos[i], st);
      if (!rb)
        rl_scheme_prepare_key_from(s, h, x, st, b);
      if (ra != rb)
        tap_ok(0, "%s head %zu pos %g: prepare %d, key state %d", name, h, pos[i], ra, rb);
      else if (!ra && memcmp(a, b, pl * sizeof *a))
        tap_ok(0, "%s head %zu pos %g: bytes differ", name, h, pos[i]);
      else
        nsame++, nerr += ra != RL_OK;
    }
  tap_ok(nsame == 2 * n, "%s (identity %d, past %d): %zu of %zu keys the same bytes or the same "
         "error (%zu errors)", name, c->identity, (int)c->past, nsame, 2 * n, nerr);
  free(x), free(a), free(b), free(st);
  rl_scheme_free(s);
}

static void coef(const char *name, rl_scheme_cfg *c, int want)
{
  rl_scheme *s = NULL;
  char err[RL_ERR_MAX];
  if (rl_scheme_alloc(name, c, &s, err)) {
    tap_ok(0, "alloc %s: %s", name, err);
    return;
  }
  size_t d = c->dim, pl = rl_scheme_prep_len(s);
  double *x = malloc(d * sizeof *x), *z = calloc(d, sizeof *z), *q = malloc(d * sizeof *q);
  double *pq = malloc(pl * sizeof *pq), *pk = malloc(pl * sizeof *pk),
         *pz = malloc(pl * sizeof *pz), *a = malloc(d * sizeof *a), *cv = malloc(d * sizeof *cv);
  fill(q, d, 99);
  rl_scheme_prepare(s, 1, RL_ROLE_QUERY, 300, q, pq);
  rl_status st = rl_scheme_key_coef(s, 1, pq, a, cv);
  if (!want) {
    tap_ok(st == RL_EINVAL, "%s: no content coefficients (RL_EINVAL)", name);
  } else {
    const double jpos[] = {0, 1, 5, 150, 299, 300};
    double worst = 0;
    for (size_t i = 0; i < sizeof jpos / sizeof jpos[0]; i++) {
      fill(x, d, (unsigned)i);
      rl_logit_terms t1, t0;
      rl_scheme_prepare(s, 1, RL_ROLE_KEY, jpos[i], x, pk);
      rl_scheme_prepare(s, 1, RL_ROLE_KEY, jpos[i], z, pz);
      rl_scheme_pair(s, 1, 300, jpos[i], pq, pk, &t1);
      rl_scheme_pair(s, 1, 300, jpos[i], pq, pz, &t0);
      double ax = 0, cx = 0, mag = fabs(t0.total) + fabs(t1.total) + 1;
      for (size_t k = 0; k < d; k++)
        ax += a[k] * x[k], cx += cv[k] * x[k], mag += fabs(a[k] * x[k]) + fabs(cv[k] * x[k]);
      worst = fmax(worst, fmax(fabs(t1.total - t0.total - ax), fabs(t1.cc - cx)) / mag);
    }
    tap_le(worst, 1e-13, "%s (identity %d): total(x) - total(0) = a.x, cc = c.x", name,
           c->identity);
  }
  free(x), free(z), free(q), free(pq), free(pk), free(pz), free(a), free(cv);
  rl_scheme_free(s);
}

int main(void)
{
  const char *split[] = {"sinusoidal", "learned", "integer", "binary", "xl", "tupe", "rope2d"};
  const char *whole[] = {"nope", "t5", "alibi", "deberta", "rope"};
  for (int id = 0; id < 2; id++)
    for (int past = 0; past < 3; past++) {
      rl_scheme_cfg c;
      rl_scheme_cfg_default(&c);
      c.dim = 16;
      c.heads = 2;
      c.identity = id;
      c.past = (rl_past_policy)past;
      for (size_t k = 0; k < sizeof split / sizeof split[0]; k++)
        same(split[k], &c, 16);
      if (past == 0)
        for (size_t k = 0; k < sizeof whole / sizeof whole[0]; k++)
          same(whole[k], &c, 0);
    }
  for (int id = 0; id < 2; id++) {
    const char *lin[] = {"nope", "t5", "alibi", "tupe", "xl", "sinusoidal", "learned", "integer",
                         "binary"};
    const char *non[] = {"rope", "rope2d", "deberta"};
    rl_scheme_cfg c;
    rl_scheme_cfg_default(&c);
    c.dim = 16;
    c.heads = 2;
    c.identity = id;
    c.past = RL_PAST_CLAMP;
    for (size_t k = 0; k < sizeof lin / sizeof lin[0]; k++)
      coef(lin[k], &c, 1);
    for (size_t k = 0; k < sizeof non / sizeof non[0]; k++)
      coef(non[k], &c, 0);
  }
  /* rope2d splits only under an exact pipeline without xPos */
  rl_scheme_cfg c;
  rl_scheme_cfg_default(&c);
  c.dim = 16;
  c.rope.layout = RL_LAYOUT_HALF;
  same("rope2d", &c, 16);
  c.rope.method = rl_schedule_type_find("yarn");
  c.rope.factor = 4;
  c.rope.train_len = 4096;
  c.rope.set |= RL_SP_FACTOR | RL_SP_TRAIN_LEN;
  same("rope2d", &c, 16);
  rl_scheme_cfg_default(&c);
  c.dim = 16;
  c.rope.method = rl_schedule_type_find("xpos");
  same("rope2d", &c, 0);
  rl_scheme_cfg_default(&c);
  c.dim = 16;
  c.rope.precision = rl_precision_find("hf-bf16");
  same("rope2d", &c, 0);
  return tap_done();
}
