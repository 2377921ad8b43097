/* matrix.c: the n x n attention logit matrix of a scheme, whole or one
 * term of its split (RoFormer sec. 2.2; terms in ropelab.h "schemes"),
 * what `ropelab matrix` writes, and its settings declared once (param.h).
 * The n keys are prepared once (n prep_len doubles, O(n d)); a row's
 * query is prepared and paired with every key, so a caller streams the
 * rows and nothing n x n is ever held.  Rows are independent: thread-safe
 * with a scratch of rl_matrix_scratch_len doubles each. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "../base/internal.h"

/* ---- the settings ---- */
static const char *const term_names[] = {"total", "positional", "cc", "cp", "pc",
                                         "pp", "bias", "mix", NULL};
static const char *const format_names[] = {"long", "grid", NULL};
static const char *const content_names[] = {"random", "same", NULL};

#define FIELD(f) offsetof(rl_matrix_settings, f)
/* the metadata says these in words (matrix's own lines) */
static const rl_param p_len = {
    .key = "len", .kind = RL_PK_SIZE, .flags = RL_PF_NO_META, .offset = FIELD(len),
    /* 2^31: positions stay within RL_POS_MAX; n^2 output is the real limit */
    .lo = 1, .hi = 2147483648.0, .dflt = 64, .metavar = "N", .unit = "tokens",
    .help = "n, >= 1"};
static const rl_param p_offset = {
    .key = "offset", .kind = RL_PK_SIZE, .flags = RL_PF_NO_META, .offset = FIELD(offset),
    .lo = 0, .hi = 2147483648.0, .dflt = 0, .metavar = "P", .unit = "tokens",
    .help = "first position, integer >= 0"};
static const rl_param p_term = {
    .key = "term", .kind = RL_PK_ENUM, .flags = RL_PF_NO_META, .bit = RL_MATRIX_SET_TERM,
    .offset = FIELD(term), .names = term_names, .dflt = RL_MATRIX_TERM_TOTAL, .metavar = "T",
    .dflt_text = "total; long format: all of them unless given",
    .help = "total, positional (= total - cc), cc, cp, pc, pp, bias or mix"};
static const rl_param p_format = {
    .key = "format", .kind = RL_PK_ENUM, .flags = RL_PF_NO_META, .offset = FIELD(format),
    .names = format_names, .dflt = RL_MATRIX_LONG, .metavar = "F",
    .help = "long: columns i,j,total,cc,cp,pc,pp,bias,mix (or i,j,T with --term); grid: n "
            "rows of n values, row i = query position, no header (gnuplot 'matrix' input)"};
static const rl_param p_content = {
    .key = "content", .kind = RL_PK_ENUM, .flags = RL_PF_NO_META, .offset = FIELD(content),
    .names = content_names, .dflt = RL_MATRIX_RANDOM, .metavar = "C",
    .dflt_text = "random",
    .help = "random: content x_i ~ N(0, I) drawn per position (--seed); same: x_0 at every "
            "position"};
static const rl_param p_shortest = {
    .key = "shortest", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META, .offset = FIELD(shortest),
    .dflt = 0, .set_to = 1,
    .help = "shortest round-trip numbers (rl_numfmt, as other commands); default: 17 "
            "significant digits, round-trip exact"};
static const rl_param *const list[] = {&p_len, &p_offset, &p_term, &p_format, &p_content,
                                       &p_shortest, NULL};

const rl_param *const *rl_matrix_param_list(void) { return list; }

rl_status rl_matrix_plan(rl_matrix_settings *s, char *err, size_t n)
{
  if ((double)s->offset + (double)s->len - 1 > RL_POS_MAX)
    return rl_errf(RL_EINVAL, err, n, "invalid --len '%zu': positions beyond %.0f with --offset %zu",
                   s->len, RL_POS_MAX, s->offset);
  /* a long table has room for every term; a grid holds one */
  if (!(s->set & RL_MATRIX_SET_TERM) && s->format == RL_MATRIX_LONG)
    s->term = RL_MATRIX_TERM_ALL;
  return RL_OK;
}

const char *rl_matrix_term_name(int term)
{
  return term >= 0 && term < RL_MATRIX_TERM_ALL ? term_names[term] : "all";
}

size_t rl_matrix_values(const rl_matrix_settings *s)
{
  return s->term == RL_MATRIX_TERM_ALL ? 7 : 1;
}

/* ---- the measure ---- */
struct rl_matrix_ws {
  const rl_scheme *s;
  size_t head, n, plen, d, nv;
  double offset;
  int term, same;
  double *keys, *content;
};

rl_status rl_matrix_alloc(const rl_scheme *s, size_t head, const rl_matrix_settings *set,
                          unsigned long seed, rl_matrix_ws **out, rl_measure_err *e)
{
  *out = NULL;
  if (e)
    *e = (rl_measure_err){0};
  rl_matrix_ws *w = calloc(1, sizeof *w);
  if (!w)
    return RL_ENOMEM;
  *w = (rl_matrix_ws){s, head, set->len, rl_scheme_prep_len(s), rl_scheme_get_cfg(s)->dim,
                      rl_matrix_values(set), (double)set->offset, set->term,
                      set->content == RL_MATRIX_SAME, NULL, NULL};
  size_t nc = w->same ? 1 : w->n;
  w->keys = malloc(w->n * w->plen * sizeof *w->keys);
  w->content = malloc(nc * w->d * sizeof *w->content);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  rl_status st = RL_OK;
  if (!w->keys || !w->content || !rng) {
    st = RL_ENOMEM;
    goto out;
  }
  gsl_rng_set(rng, seed);
  for (size_t k = 0; k < nc * w->d; k++)
    w->content[k] = gsl_ran_gaussian(rng, 1.0);
  for (size_t j = 0; j < w->n && !st; j++) {
    double pj = w->offset + (double)j;
    st = rl_scheme_prepare(s, head, RL_ROLE_KEY, pj, w->content + (w->same ? 0 : j * w->d),
                           w->keys + j * w->plen);
    if (st && e)
      e->i = e->j = pj;
  }
out:
  gsl_rng_free(rng);
  if (st)
    rl_matrix_free(w);
  else
    *out = w;
  return st;
}

void rl_matrix_free(rl_matrix_ws *w)
{
  if (!w)
    return;
  free(w->keys);
  free(w->content);
  free(w);
}

size_t rl_matrix_scratch_len(const rl_matrix_ws *w) { return w->plen; }

static double pick(const rl_logit_terms *t, int term)
{
  switch (term) {
  case RL_MATRIX_TERM_POSITIONAL: return t->total - t->cc;
  case RL_MATRIX_TERM_CC: return t->cc;
  case RL_MATRIX_TERM_CP: return t->cp;
  case RL_MATRIX_TERM_PC: return t->pc;
  case RL_MATRIX_TERM_PP: return t->pp;
  case RL_MATRIX_TERM_BIAS: return t->bias;
  case RL_MATRIX_TERM_MIX: return t->mix;
  default: return t->total;
  }
}

rl_status rl_matrix_row(const rl_matrix_ws *w, size_t i, double *scratch, double *vals,
                        rl_measure_err *e)
{
  double pi = w->offset + (double)i;
  if (e)
    *e = (rl_measure_err){pi, pi, 0};
  rl_status st = rl_scheme_prepare(w->s, w->head, RL_ROLE_QUERY, pi,
                                   w->content + (w->same ? 0 : i * w->d), scratch);
  if (st)
    return st;
  for (size_t j = 0; j < w->n; j++) {
    double pj = w->offset + (double)j, *v = vals + j * w->nv;
    rl_logit_terms t;
    if (e)
      e->j = pj;
    if ((st = rl_scheme_pair(w->s, w->head, pi, pj, scratch, w->keys + j * w->plen, &t)))
      return st;
    t.total += 0.0, t.cc += 0.0, t.cp += 0.0, t.pc += 0.0; /* -0 written as 0 */
    t.pp += 0.0, t.bias += 0.0, t.mix += 0.0;
    if (w->nv == 7)
      v[0] = t.total, v[1] = t.cc, v[2] = t.cp, v[3] = t.pc, v[4] = t.pp, v[5] = t.bias,
      v[6] = t.mix;
    else
      v[0] = pick(&t, w->term);
    for (size_t k = 0; k < w->nv; k++)
      if (!isfinite(v[k])) {
        if (e)
          e->nonfinite = 1;
        return RL_EOVERFLOW;
      }
  }
  return RL_OK;
}
