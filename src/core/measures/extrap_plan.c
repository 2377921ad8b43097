/* extrap_plan.c: what `ropelab extrapolate` is asked, declared once
 * (rl_extrap_request_param_list), and the plan the core makes of it
 * (ropelab/measures.h): the default lengths, distances and scales, the
 * methods 'all' means, and the scheme x method product with each
 * method's factor and training length.  The command parses, calls this
 * and writes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

#define SF(f) offsetof(rl_extrap_settings, f)

/* "1e4" as a number, with the messages every option's number has */
static rl_status number(const char *opt, const char *arg, double *v, char *err, size_t n)
{
  switch (rl_param_number(arg, v)) {
  case RL_OK: return RL_OK;
  case RL_EOVERFLOW: snprintf(err, n, "invalid %s '%s': expected a finite number", opt, arg); break;
  case RL_ERANGE: snprintf(err, n, "invalid %s '%s': out of the range of a double", opt, arg); break;
  default: snprintf(err, n, "invalid %s '%s': expected a number", opt, arg); break;
  }
  return RL_EINVAL;
}

/* one length: an integer 1..2^31 (the accurate range of positions) */
static rl_status len_arg(const char *opt, const char *arg, size_t *out, char *err, size_t n)
{
  double v;
  if (number(opt, arg, &v, err, n))
    return RL_EINVAL;
  if (!(v >= 1) || v != floor(v) || v > RL_POS_MAX) {
    snprintf(err, n, "invalid %s '%s': expected an integer length from 1 to %.0f (the "
             "accurate range of positions)", opt, arg, RL_POS_MAX);
    return RL_EINVAL;
  }
  *out = (size_t)v;
  return RL_OK;
}

static rl_status parse_train(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  rl_extrap_settings *s = obj;
  (void)d;
  s->train_arg = arg;
  return len_arg("--train-len", arg, &s->train_len, err, n);
}

static rl_status parse_eval(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  rl_extrap_settings *s = obj;
  (void)d;
  s->eval_arg = arg;
  return len_arg("--eval-len", arg, &s->eval_len, err, n);
}

/* a list (sweep syntax, rl_values_parse) of integers in [lo, hi] */
static rl_status int_list(const char *opt, const char *arg, size_t lo, size_t hi, size_t *v,
                          size_t *count, char *err, size_t n)
{
  double *vals = NULL;
  size_t m = 0;
  char why[256];
  rl_status st = rl_values_parse(arg, RL_EXTRAP_LIST_MAX, &vals, &m, why, sizeof why);
  if (st == RL_ENOMEM) {
    snprintf(err, n, "out of memory reading %s", opt);
    return st;
  }
  if (st) {
    snprintf(err, n, "invalid %s '%s': %s", opt, arg, why);
    return RL_EINVAL;
  }
  for (size_t k = 0; k < m; k++) {
    if (!(vals[k] >= (double)lo) || !(vals[k] <= (double)hi) || vals[k] != floor(vals[k])) {
      char b[RL_NUMFMT_MAX];
      rl_numfmt(vals[k], b);
      free(vals);
      snprintf(err, n, "invalid %s '%s': value '%s' is not an integer from %zu to %zu", opt, arg,
               b, lo, hi);
      return RL_EINVAL;
    }
    v[k] = (size_t)vals[k];
  }
  free(vals);
  *count = m;
  return RL_OK;
}

static rl_status parse_lens(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  rl_extrap_settings *s = obj;
  (void)d;
  s->lens_arg = arg;
  s->given |= RL_EXG_LENS;
  return int_list("--lengths", arg, 1, (size_t)RL_POS_MAX, s->lens, &s->nlens, err, n);
}

static rl_status parse_dists(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  rl_extrap_settings *s = obj;
  (void)d;
  s->given |= RL_EXG_DISTS;
  return int_list("--distances", arg, 0, (size_t)RL_POS_MAX - 1, s->dists, &s->ndists, err, n);
}

/* a comma-separated list of names, each index once, into idx */
static rl_status name_list(const char *opt, const char *arg, const char *const *names,
                           size_t nn, int *idx, size_t max, size_t *count, char *err, size_t n)
{
  *count = 0;
  for (const char *p = arg;;) {
    size_t len = strcspn(p, ",");
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), p);
    size_t i = 0;
    while (i < nn && strcmp(word, names[i]))
      i++;
    if (i == nn)
      return rl_names_error(opt, arg, word, names, nn, err, n);
    for (size_t k = 0; k < *count; k++)
      if (idx[k] == (int)i) {
        snprintf(err, n, "invalid %s '%s': '%s' given twice", opt, arg, word);
        return RL_EINVAL;
      }
    if (*count >= max) {
      snprintf(err, n, "invalid %s '%s': more than %zu items", opt, arg, max);
      return RL_EINVAL;
    }
    idx[(*count)++] = (int)i;
    if (!p[len])
      return RL_OK;
    p += len + 1;
  }
}

static rl_status parse_measure(const rl_param *d, void *obj, const char *arg, char *err,
                               size_t n)
{
  rl_extrap_settings *s = obj;
  int idx[RL_EX_COUNT];
  size_t m;
  (void)d;
  rl_status st = name_list("--measure", arg, rl_extrap_measure_names(), RL_EX_COUNT, idx,
                           RL_EX_COUNT, &m, err, n);
  if (st)
    return st;
  s->measures = 0;
  for (size_t k = 0; k < m; k++)
    s->measures |= 1u << idx[k];
  return RL_OK;
}

static rl_status parse_scale(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  rl_extrap_settings *s = obj;
  static const char *const names[] = {"none", "logn", "yarn"};
  (void)d;
  return name_list("--scale", arg, names, RL_SCALE_COUNT, s->scales, RL_SCALE_COUNT,
                   &s->nscales, err, n);
}

int rl_extrap_method_in_all(const rl_schedule_type *t)
{
  return !(t->flags & RL_ST_USER_DATA);
}

/* "yarn,ntk" or "all" (the methods that need no file), each once */
static rl_status parse_method(const rl_param *d, void *obj, const char *arg, char *err,
                              size_t n)
{
  rl_extrap_settings *s = obj;
  const rl_schedule_type *const *all = rl_schedule_types();
  const char *names[64];
  size_t nn = 0;
  (void)d;
  for (; all[nn] && nn < 63; nn++)
    names[nn] = all[nn]->name;
  names[nn] = "all";
  char buf[512];
  if (strlen(arg) >= sizeof buf || !*arg) {
    snprintf(err, n, "invalid --method '%s': expected a comma-separated list of methods", arg);
    return RL_EINVAL;
  }
  strcpy(buf, arg);
  s->nmethods = 0;
  s->given |= RL_EXG_METHODS;
  for (char *p = buf, *e;; p = e + 1) {
    if ((e = strchr(p, ',')))
      *e = 0;
    size_t k = 0;
    while (k <= nn && strcmp(p, names[k]))
      k++;
    if (k > nn)
      return rl_names_error("--method", p, p, names, nn + 1, err, n);
    for (size_t i = 0; i < nn; i++) {
      if ((k == nn && !rl_extrap_method_in_all(all[i])) || (k != nn && i != k))
        continue;
      int have = 0;
      for (size_t j = 0; j < s->nmethods; j++)
        have |= s->methods[j] == all[i];
      if (have && k != nn && !strstr(arg, "all")) {
        snprintf(err, n, "invalid --method '%s': method '%s' given twice", arg, p);
        return RL_EINVAL;
      }
      if (!have && s->nmethods < RL_EXTRAP_METHODS_MAX)
        s->methods[s->nmethods++] = all[i];
    }
    if (!e)
      return RL_OK;
  }
}

/* read by the schedule's own --factor declaration */
static rl_status parse_factor(const rl_param *d, void *obj, const char *arg, char *err,
                              size_t n)
{
  rl_extrap_settings *s = obj;
  rl_schedule_params fp;
  (void)d;
  rl_schedule_params_default(&fp);
  rl_status st = rl_param_parse(rl_schedule_param_find("factor"), &fp, arg, err, n);
  if (!st)
    s->factor = fp.factor;
  return st;
}

/* the current length is each length's: refused */
static rl_status parse_seq(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)d, (void)obj;
  snprintf(err, n, "invalid --seq-len '%s': extrapolate sets the current length to each "
           "--lengths value", arg);
  return RL_EINVAL;
}

static void reset_none(const rl_param *d, void *obj) { (void)d, (void)obj; }

#define CUSTOM(k, mv, fn, h)                                                                   \
  {.key = k, .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_META | RL_PF_NO_SWEEP, .metavar = mv,    \
   .parse = fn, .reset = reset_none, .help = h}
static const rl_param p_train = CUSTOM("train-len", "L", parse_train,
                                       "training length, >= 1 (required)");
static const rl_param p_eval = CUSTOM("eval-len", "N", parse_eval,
                                      "longest evaluated length, L <= N <= 2^31 (required)");
static const rl_param p_lens = CUSTOM(
    "lengths", "LIST", parse_lens,
    "lengths n evaluated (sweep syntax: 512,1024 or 1024:32768:x2), each 1..N; N is always "
    "added (default L/4, L/2, L, 2L, ... up to N; rounded down when not whole, said in the "
    "metadata)");
static const rl_param p_dists = CUSTOM(
    "distances", "LIST", parse_dists,
    "retrieval distances r (default 0, 1, 2, 4, ... < N); a distance >= n gives no row at "
    "that length");
static const rl_param p_measure = CUSTOM("measure", "LIST", parse_measure,
                                         "unseen,retrieval,entropy,shift (default all)");
static const rl_param p_method = CUSTOM(
    "method", "LIST", parse_method,
    "methods of rope and rope2d, or 'all' (the methods that need no file; default rope); "
    "factor N / L and train length L where a method takes them");
static const rl_param p_factor = CUSTOM("factor", "S", parse_factor,
                                        "the methods' scale factor instead of N / L");
static const rl_param p_scale = CUSTOM(
    "scale", "LIST", parse_scale,
    "logit scales on top of every scheme: none, logn (max(1, ln n / ln L)), yarn "
    "((0.1 ln(n/L) + 1)^2, YaRN's temperature) (default none)");
static const rl_param p_seq = CUSTOM("seq-len", "N", parse_seq,
                                     "refused: the current length is each of --lengths");
static const rl_param p_checkpoint = {
    .key = "checkpoint", .kind = RL_PK_TEXT, .flags = RL_PF_FILE | RL_PF_NO_SWEEP | RL_PF_NO_META,
    .offset = SF(checkpoint), .metavar = "F", .dflt_text = "none",
    .help = "a model 'ropelab train --checkpoint F' wrote, measured instead on its own task's "
            "examples (rl_train_attention): per layer and head, the attention entropy and the "
            "attention paid to each distance, by length (L the checkpoint's train_len; N its "
            "eval_len unless --eval-len, at most 1024; --lengths, --samples, --threads and the "
            "output options only; columns below)"};
static const rl_param *const request[] = {&p_train,  &p_eval,   &p_lens,  &p_dists,
                                          &p_measure, &p_method, &p_factor, &p_scale,
                                          &p_seq,    &p_checkpoint, NULL};

const rl_param *const *rl_extrap_request_param_list(void) { return request; }

void rl_extrap_settings_default(rl_extrap_settings *s)
{
  memset(s, 0, sizeof *s);
  rl_extrap_params_default(&s->ex);
  s->measures = RL_EX_UNSEEN | s->ex.measures;
}

static int cmp_size(const void *a, const void *b)
{
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* sorted, without repeats */
static size_t uniq(size_t *v, size_t n)
{
  qsort(v, n, sizeof *v, cmp_size);
  size_t m = 0;
  for (size_t k = 0; k < n; k++)
    if (!m || v[k] != v[m - 1])
      v[m++] = v[k];
  return m;
}

rl_status rl_extrap_plan(rl_extrap_settings *s, const rl_schedule_type *method, int *bad_scale,
                         size_t *bad_len)
{
  size_t L = s->train_len, N = s->eval_len;
  /* the default doubling from L/4; L/4 and L/2 not whole are taken
   * rounded down, and said */
  if (!(s->given & RL_EXG_LENS)) {
    s->nlens = 0, s->lens_note[0] = 0;
    for (double x = (double)L / 4; x <= (double)N && s->nlens < RL_EXTRAP_LIST_MAX; x *= 2) {
      if (x >= 1 && x != floor(x)) {
        size_t l = strlen(s->lens_note);
        snprintf(s->lens_note + l, sizeof s->lens_note - l, "%sL/%d = %g taken as %zu",
                 l ? "; " : "", x * 4 == (double)L ? 4 : 2, x, (size_t)floor(x));
      }
      if (x >= 1)
        s->lens[s->nlens++] = (size_t)floor(x);
    }
  }
  s->lens[s->nlens++] = N;
  s->nlens = uniq(s->lens, s->nlens);
  if (!(s->given & RL_EXG_DISTS)) {
    s->ndists = 0;
    s->dists[s->ndists++] = 0;
    for (size_t x = 1; x < N && s->ndists < RL_EXTRAP_LIST_MAX; x *= 2)
      s->dists[s->ndists++] = x;
  }
  s->ndists = uniq(s->dists, s->ndists);
  if (!s->nscales)
    s->scales[s->nscales++] = RL_SCALE_NONE;
  /* each scale at each length, before any output: logn divides by ln L */
  for (size_t q = 0; q < s->nscales; q++)
    for (size_t k = 0; k < s->nlens; k++) {
      double fac;
      if (rl_scale_factor(s->scales[q], L, s->lens[k], &fac) || !isfinite(fac)) {
        *bad_scale = s->scales[q], *bad_len = s->lens[k];
        return RL_EINVAL;
      }
    }
  if (!s->nmethods)
    s->methods[s->nmethods++] = method;
  s->ex.train_len = L;
  s->ex.lens = s->lens, s->ex.nlens = s->nlens;
  s->ex.dists = s->dists, s->ex.ndists = s->ndists;
  s->ex.scales = s->scales, s->ex.nscales = s->nscales;
  s->ex.measures = s->measures & ~(unsigned)RL_EX_UNSEEN;
  return RL_OK;
}

rl_status rl_extrap_confs(const rl_extrap_settings *s, const char *const *names, size_t n,
                          const rl_scheme_cfg *cfg, rl_extrap_conf **out, size_t *count,
                          rl_extrap_conf *bad, char *err)
{
  size_t nm = s->nmethods;
  rl_extrap_conf *cf = calloc(n * (nm + 1) + 1, sizeof *cf);
  *out = cf, *count = 0;
  err[0] = 0;
  if (!cf)
    return RL_ENOMEM;
  for (size_t k = 0; k < n; k++) {
    const rl_scheme_info *si = rl_scheme_find(names[k]);
    int sched = si && (si->flags & RL_SCHEME_ROTATION);
    for (size_t m = 0; m < (sched ? nm : 1); m++) {
      rl_extrap_conf *x = &cf[*count];
      x->scheme = names[k];
      x->cfg = *cfg;
      x->method = "none";
      if (sched) {
        x->cfg.rope.method = s->methods[m];
        x->method = s->methods[m]->name;
        if (s->factor > 0 && (s->methods[m]->uses & RL_SP_FACTOR))
          rl_schedule_set(&x->cfg.rope, "factor", s->factor);
        rl_extrap_method_params(&x->cfg.rope, s->train_len, s->eval_len);
      }
      /* checked as at n = L: a schedule of the current length (dynamic
       * NTK, hf) refuses to be built without one, and each length sets
       * its own later (rl_extrap_length_params); x->cfg keeps it unset */
      rl_scheme_cfg at_l = x->cfg;
      if (sched)
        rl_extrap_length_params(&at_l.rope, s->train_len, s->eval_len, s->train_len);
      rl_scheme *sc = NULL;
      rl_status st = rl_scheme_alloc(x->scheme, &at_l, &sc, err);
      rl_scheme_free(sc);
      if (st && sched && nm > 1 && st == RL_EINVAL)
        continue; /* a method this scheme cannot take (rope2d, rerope): no rows */
      if (st) {
        *bad = *x;
        return st;
      }
      (*count)++;
    }
  }
  return RL_OK;
}
