/* cmd_extrapolate.c: `ropelab extrapolate --train-len L --eval-len N`,
 * what changes past the training length for every scheme and every
 * context-extension method, one tidy table (one row per scheme x method
 * x scale x measure x statistic x length x distance x pair) so that every
 * curve draws on one axis.  The measures are the core's
 * (src/core/measures: unseen.c, retrieval.c, entropy.c, shift.c,
 * window.c, extrap.c), its settings and its plan too (extrap_plan.c:
 * the default lengths, the scheme x method product, the factors); this
 * file is the declaration (cmd.h) and a compute() that calls and writes. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "progress.h"
#include "rowfmt.h"
#include "train_measures.h"

#define METHODS_MAX RL_EXTRAP_METHODS_MAX

/* the groups: the request's, then the pass's (own[1]: its metadata) */
enum { G_REQUEST = 0, G_PASS = 1 };

struct methods {
  const rl_extrap_conf *cf;
  size_t ncf;
};

/* The schedule lines of the methods run (each with the factor N/L and
 * train_len L it took unless --factor, rl_extrap_method_params, and what
 * its schedule built: attention factor, description): a key the methods
 * share once, 'key[method:M]=value' for each method where they differ,
 * as a sweep over --method writes them (issue 36: a method list recorded
 * method=rope and no factor).  The schedules are rope's confs (else
 * rope2d's); without either, the options' own. */
static void methods_meta(void *arg, rl_out *out)
{
  const struct methods *ms = arg;
  const char *sch = NULL;
  /* a rotary scheme by its flags (rope, then the axial rope2d), not its name */
  for (int pass = 0; pass < 2 && !sch; pass++)
    for (size_t k = 0; k < ms->ncf && !sch; k++) {
      const rl_scheme_info *in = rl_scheme_find(ms->cf[k].scheme);
      if (in && (in->flags & RL_SCHEME_ROTATION) && (pass || !(in->flags & RL_SCHEME_2D)))
        sch = ms->cf[k].scheme;
    }
  rl_meta got[METHODS_MAX] = {{0}};
  const char *name[METHODS_MAX];
  size_t n = 0;
  for (size_t k = 0; k < ms->ncf && sch && n < METHODS_MAX; k++) {
    if (strcmp(ms->cf[k].scheme, sch))
      continue;
    rl_scheme *s = NULL;
    const rl_schedule *f = NULL;
    if (rl_scheme_alloc(sch, &ms->cf[k].cfg, &s, NULL) == RL_OK)
      f = rl_scheme_get_schedule(s);
    /* an rl_out that holds its metadata (no header yet) collects them */
    rl_out hold = {0};
    hold.holding = 1;
    rl_sched_meta(&ms->cf[k].cfg.rope, f, &hold);
    rl_scheme_free(s);
    if (hold.held) {
      got[n] = *hold.held;
      free(hold.held);
    }
    name[n++] = ms->cf[k].method;
  }
  if (!n) {
    rl_sched_meta(&ms->cf[0].cfg.rope, NULL, out);
    return;
  }
  /* the keys in declaration order: each method's keys in its own order,
   * a key new to the list placed after the one before it in its method */
  const char *keys[256];
  size_t nk = 0;
  for (size_t m = 0; m < n; m++)
    for (size_t i = 0, at = 0; i < got[m].n; i++) {
      size_t j = 0;
      while (j < nk && strcmp(keys[j], got[m].key[i]))
        j++;
      if (j == nk && nk < sizeof keys / sizeof *keys) {
        memmove(keys + at + 1, keys + at, (nk - at) * sizeof *keys);
        keys[at] = got[m].key[i];
        nk++;
        j = at;
      }
      at = j + 1;
    }
  for (size_t i = 0; i < nk; i++) {
    if (!strcmp(keys[i], "train_len"))
      continue; /* every method's is L, the command's own line */
    const char *val[METHODS_MAX];
    int same = 1;
    for (size_t a = 0; a < n; a++) {
      val[a] = NULL;
      for (size_t j = 0; j < got[a].n && !val[a]; j++)
        if (!strcmp(got[a].key[j], keys[i]))
          val[a] = got[a].val[j];
      same &= val[a] && val[0] && !strcmp(val[a], val[0]);
    }
    if (same) {
      rl_out_meta(out, keys[i], val[0]);
    } else if (!strcmp(keys[i], "method")) {
      char list[600] = ""; /* the methods, in the order they run */
      for (size_t a = 0; a < n; a++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", a ? "," : "", name[a]);
      rl_out_meta(out, "method", list);
    } else {
      for (size_t a = 0; a < n; a++)
        if (val[a]) {
          char k2[160];
          snprintf(k2, sizeof k2, "%s[method:%s]", keys[i], name[a]);
          rl_out_meta(out, k2, val[a]);
        }
    }
  }
  for (size_t m = 0; m < n; m++)
    rl_meta_clear(&got[m]);
}

struct prog_ctx {
  rl_progress *p;
  size_t base; /* configs done, in thousandths */
};

static void on_progress(void *ctx, size_t done, size_t total)
{
  struct prog_ctx *c = ctx;
  rl_progress_update(c->p, c->base + done * 1000 / (total ? total : 1));
}

/* A row: text fields, value and se as numbers (se may be omitted). */
static void row(rl_out *out, const char *const *key, const char *measure, const char *stat,
                const char *len, const char *r, const char *pair, double value, const double *se)
{
  char v[RL_NUMFMT_MAX], s[RL_NUMFMT_MAX] = "";
  rl_numfmt(value + 0.0, v);
  if (se)
    rl_numfmt(*se, s);
  const char *f[] = {key[0], key[1], key[2], key[3], key[4], measure, stat, len, r, pair, v, s};
  rl_out_fields(out, f, sizeof f / sizeof *f);
}

static int given_scheme_opt(const rl_cmd_run *r, const char *key)
{
  int c = rl_scheme_optval(key);
  return c >= RL_SOPT_FIRST && c <= RL_SOPT_LAST && r->scheme.given[c - RL_SOPT_FIRST];
}

/* --config: the model's training length, method and factor where the
 * command line gave none (extrapolate reads these three itself) */
static void from_config(rl_extrap_settings *s, const rl_schedule_params *cp)
{
  static char l_cfg[32];
  if (!rl_sched_config_given())
    return;
  if (!s->train_len && cp->train_len >= 1 && cp->train_len <= (double)SIZE_MAX) {
    s->train_len = (size_t)cp->train_len;
    snprintf(l_cfg, sizeof l_cfg, "%zu", s->train_len);
    s->train_arg = l_cfg;
  }
  if (!(s->given & RL_EXG_METHODS) && cp->method) {
    s->methods[0] = cp->method, s->nmethods = 1;
    s->given |= RL_EXG_METHODS;
  }
  if (!s->factor && cp->factor > 1)
    s->factor = cp->factor;
}

/* an option for measures none of which was chosen would change only a
 * metadata line (the sampling options with unseen alone) */
static int check_applies(rl_cmd_run *r)
{
  const rl_extrap_settings *s = r->settings;
  const rl_decl_opts *eo = &r->own[G_PASS];
  const char *const *mn = rl_extrap_measure_names();
  for (size_t k = 0; eo->list[k]; k++) {
    const char *only = eo->list[k]->only;
    if (!(eo->given >> k & 1) || !only)
      continue;
    int any = 0;
    char chosen[64] = "", takers[64];
    for (size_t j = 0; mn[j]; j++)
      if (s->measures >> j & 1) {
        any |= rl_opt_in_list(only, mn[j], strlen(mn[j]));
        snprintf(chosen + strlen(chosen), sizeof chosen - strlen(chosen), "%s%s",
                 *chosen ? "," : "", mn[j]);
      }
    if (!any) {
      rl_opt_list_words(only, takers, sizeof takers);
      return rl_usage(r->name, "--%s does not apply to --measure %s (it is for %s)",
                      eo->list[k]->key, chosen, takers);
    }
  }
  return 0;
}

/* --checkpoint: the trained model's own settings; the first other option
 * given, for its message, or NULL */
static const char *not_with_checkpoint(const rl_cmd_run *r)
{
  static const char *const own[] = {"train-len", "distances", "measure", "method", "factor",
                                    "scale", "local-window", "sink-tokens", "identical",
                                    "draw-contents"};
  const char *o = rl_cmd_model_option_given(r, own, sizeof own / sizeof *own);
  if (o)
    return o;
  return r->co.plot ? "plot" : NULL;
}

static int check(rl_cmd_run *r)
{
  rl_extrap_settings *s = r->settings;
  rl_scheme_opts *so = &r->scheme;
  const char *cmd = r->name;
  const char *other = s->checkpoint ? not_with_checkpoint(r) : NULL;
  if (other)
    return rl_usage(cmd, "invalid --%s with --checkpoint: the trained model's own settings "
                    "are used (--eval-len, --lengths, --samples, --threads and the output "
                    "options only)", other);
  if (s->checkpoint)
    return 0; /* the rest once the checkpoint is read (rl_extrapolate_checkpoint) */
  /* the measures always use identity projections: the option would
   * change nothing but the line that says so */
  if (so->cfg.identity)
    return rl_usage(cmd, "--identity does not apply to extrapolate: its query and keys are the "
                         "contents, identity projections always");
  from_config(s, &so->sched.p);
  if (!s->train_len)
    return rl_usage(cmd, "missing --train-len: expected the training length L");
  if (!s->eval_len)
    return rl_usage(cmd, "missing --eval-len: expected the longest evaluated length N >= L");
  if (s->eval_len < s->train_len)
    return rl_usage(cmd, "invalid --eval-len '%s': expected a length >= --train-len '%s'",
                    s->eval_arg, s->train_arg);
  if (!s->ex.win.window && s->ex.win.sinks)
    return rl_usage(cmd, "invalid --sink-tokens '%zu': expected it with --local-window W > 0",
                    s->ex.win.sinks);
  for (size_t k = 0; (s->given & RL_EXG_LENS) && k < s->nlens; k++)
    if (s->lens[k] > s->eval_len)
      return rl_usage(cmd, "invalid --lengths '%s': length %zu is past --eval-len '%s'",
                      s->lens_arg, s->lens[k], s->eval_arg);
  int bad_scale;
  size_t bad_len;
  if (rl_extrap_plan(s, so->cfg.rope.method, &bad_scale, &bad_len))
    return rl_usage(cmd, "invalid --scale '%s' with --train-len '%s' at length %zu: %s",
                    rl_scale_name(bad_scale), s->train_arg, bad_len,
                    bad_scale == RL_SCALE_LOGN ? "expected --train-len >= 2 (it divides by ln L)"
                                               : "no finite scale there");
  int rc = check_applies(r);
  if (rc)
    return rc;
  s->ex.seed = so->cfg.seed;
  s->ex.head = so->cfg.head;
  s->ex.threads = (size_t)r->threads;
  if (!given_scheme_opt(r, "max-len"))
    so->cfg.max_len = s->train_len; /* the table a model trained on L tokens has */
  if (!given_scheme_opt(r, "past"))
    so->cfg.past = RL_PAST_CLAMP;
  /* the cost model's refusal of one configuration, before any is built
   * (a learned table of L x d is drawn when it is) */
  char cerr[RL_ERR_MAX];
  if (rl_cost_check_extrap(1, s->ex.samples, s->train_len, s->eval_len, so->cfg.dim, cerr))
    return rl_usage(cmd, "%s", cerr);
  return 0;
}

/* the core's scheme x method product, every configuration built */
static int plan_confs(rl_cmd_run *r, rl_extrap_conf **cf, size_t *ncf)
{
  const rl_extrap_settings *s = r->settings;
  rl_extrap_conf bad;
  char err[RL_ERR_MAX];
  rl_status st = rl_extrap_confs(s, r->scheme.names, r->scheme.nnames, &r->scheme.cfg, cf, ncf,
                                 &bad, err);
  if (st == RL_EINVAL || st == RL_EFORMAT)
    return rl_usage(r->name, "%s (scheme '%s', method '%s')", err, bad.scheme, bad.method);
  if (st)
    return rl_runtime(r->name, "%s", err[0] ? err : rl_strerror(st));
  /* the cost model's refusal, up front (issue 33 item 5) */
  char cerr[RL_ERR_MAX];
  if (rl_cost_check_extrap(*ncf, s->ex.samples, s->train_len, s->eval_len, r->scheme.cfg.dim,
                           cerr))
    return rl_usage(r->name, "%s", cerr);
  return 0;
}

/* the schemes as the first configuration's settings build them (NULL
 * where one is not built), for their own metadata lines */
static void schemes_built(const rl_cmd_run *r, const rl_extrap_conf *cf, rl_scheme **ss)
{
  for (size_t k = 0; k < r->scheme.nnames; k++)
    if (rl_scheme_alloc(r->scheme.names[k], &cf[0].cfg, &ss[k], NULL) != RL_OK)
      ss[k] = NULL;
}

/* the parameters a paper trains are random draws here (the core's list,
 * for the schemes run) */
static void drawn_meta(rl_scheme *const *ss, size_t n, rl_out *out)
{
  rl_scheme *got[RL_SCHEMES_MAX];
  size_t ng = 0;
  char note[2048];
  for (size_t k = 0; k < n; k++)
    if (ss[k])
      got[ng++] = ss[k];
  if (rl_scheme_drawn_note(got, ng, note, sizeof note))
    rl_out_meta(out, "trained_params", note);
}

/* each scheme's positional input, as unseen sees it */
static void inputs_meta(const rl_cmd_run *r, rl_scheme *const *ss, rl_out *out)
{
  for (size_t k = 0; k < r->scheme.nnames; k++)
    if (ss[k]) {
      char key[64];
      snprintf(key, sizeof key, "%s_input", r->scheme.names[k]);
      rl_out_meta(out, key, rl_unseen_input_name(rl_unseen_input(ss[k])));
    }
}

static void meta(rl_cmd_run *r, const rl_extrap_conf *cf, size_t ncf, rl_out *out)
{
  const rl_extrap_settings *s = r->settings;
  const rl_extrap_params *ep = &s->ex;
  rl_scheme *ss[RL_SCHEMES_MAX] = {0};
  schemes_built(r, cf, ss);
  rl_out_meta_begin(out);
  r->scheme.cfg.identity = 1; /* what the measure uses (rl_extrap_*), so the metadata says it */
  struct methods ms = {cf, ncf};
  rl_scheme_opts_meta_with(&r->scheme, out, methods_meta, &ms);
  rl_out_meta_uint(out, "train_len", s->train_len);
  rl_out_meta_uint(out, "eval_len", s->eval_len);
  rl_decl_meta(&r->own[G_PASS], out); /* samples, local_window, sink_tokens */
  rl_out_meta(out, "blas", rl_train_blas_name()); /* the CBLAS of the rope products */
  rl_out_meta(out, "setting", "len tokens, the last one queries all of them; under a window "
                              "the kept keys sit at cache positions 0..A-1, the query at A-1");
  rl_out_meta(out, "content", ep->identical ? "every key equals the query x ~ N(0, I_d) from seed"
                                            : "query x and keys ~ N(0, I_d) from seed, identity "
                                              "projections; the same for every scheme and length, "
                                              "whatever other lengths are asked");
  if (!ep->identical)
    rl_out_meta(out, "draw", ep->draw_contents
                                 ? "every key's content (--draw-contents)"
                                 : "nope, t5, alibi, tupe, xl, the additive schemes and rope "
                                   "(exact pipeline): each key's logits from their Gaussian "
                                   "law given the query, two normals a key slot shared by "
                                   "every length (another random stream than "
                                   "--draw-contents, the same expectations); rope2d, deberta, "
                                   "rope under a framework pipeline: every key's content");
  rl_out_meta(out, "logits", "q.k / sqrt(d) times the method's logit multiplier and the "
                             "scale, plus the scheme's positional terms");
  drawn_meta(ss, r->scheme.nnames, out);
  rl_out_meta(out, "methods", "factor N/L and train_len L where a method takes them, unless "
                              "--factor");
  rl_out_meta(out, "unseen", "fraction of causal query-key pairs whose positional input never "
                             "occurs among L tokens; pair = rotary pair or all");
  rl_out_meta(out, "retrieval", "softmax probability of a key equal to the query planted at "
                                "distance r, replacing the random key there; mean, se");
  rl_out_meta(out, "entropy", "nats: -sum p ln p of the query's attention; max = ln(keys)");
  if (s->lens_note[0])
    rl_out_meta(out, "default_lengths", s->lens_note);
  size_t sw = 1, sp = 1;
  char sh[400], how[160] = "over every distance";
  rl_extrap_shift_strides(ep, &sw, &sp);
  if (sw > 1 || sp > 1)
    snprintf(how, sizeof how, "thinned: every distance with stride %zu within L, stride %zu "
             "past L, at most 2^23 values a side", sw, sp);
  snprintf(sh, sizeof sh, "positional logits (total - cc) at distances >= L vs < L of the "
           "query at the longest length: means, sds (over every distance), ks = sup|F - G|, "
           "w1 = integral |F - G| (%s)", how);
  rl_out_meta(out, "shift", sh);
  inputs_meta(r, ss, out);
  for (size_t k = 0; k < r->scheme.nnames; k++)
    rl_scheme_free(ss[k]);
  rl_out_header(out, "scheme,method,scale,window,sinks,measure,stat,len,r,pair,value,se");
}

/* what every row of a configuration shares, and the scratch it needs */
struct conf_out {
  rl_out *out;
  rl_progress *prog;
  rl_extrap_result *res;
  double *pp; /* per-pair fractions of unseen */
  char wbuf[32], kbuf[32];
};

/* the unseen rows of configuration x: exact counts, per length */
static int unseen_rows(rl_cmd_run *r, const rl_extrap_conf *x, struct conf_out *co)
{
  const rl_extrap_settings *s = r->settings;
  /* a schedule of the current length (dynamic NTK) is built per length,
   * as the sampled measures build it (rl_extrap_length_params) */
  int perlen = rl_extrap_per_length(x->scheme, &x->cfg);
  rl_scheme *sc = NULL;
  rl_schedule *train = NULL;
  const rl_schedule *f = NULL;
  int input = 0;
  rl_status st = RL_OK;
  char err[RL_ERR_MAX] = "";
  const char *kk[] = {x->scheme, x->method, "", co->wbuf, co->kbuf};
  for (size_t l = 0; l < s->nlens && !st; l++) {
    if (!sc || perlen) {
      rl_scheme_cfg c = x->cfg;
      if (perlen)
        rl_extrap_length_params(&c.rope, s->train_len, s->eval_len, s->lens[l]);
      rl_scheme_free(sc);
      sc = NULL;
      if ((st = rl_scheme_alloc(x->scheme, &c, &sc, err)))
        break;
      f = rl_scheme_get_schedule(sc);
      input = rl_unseen_input(sc);
      if (!train && input == RL_INPUT_ANGLE &&
          (st = rl_unseen_train_schedule(f, s->train_len, &train)))
        break;
    }
    double tot;
    char lb[32];
    snprintf(lb, sizeof lb, "%zu", s->lens[l]);
    st = rl_unseen_eval(sc, train, s->train_len, s->lens[l], &s->ex.win, &tot,
                        input == RL_INPUT_ANGLE ? co->pp : NULL);
    if (st)
      break;
    row(co->out, kk, "unseen", "fraction", lb, "", "all", tot, NULL);
    for (size_t i = 0; input == RL_INPUT_ANGLE && i < f->n; i++) {
      char ib[32];
      snprintf(ib, sizeof ib, "%zu", i);
      row(co->out, kk, "unseen", "fraction", lb, "", ib, co->pp[i], NULL);
    }
  }
  rl_schedule_free(train);
  rl_scheme_free(sc);
  return st ? rl_runtime(r->name, "unseen of scheme '%s' (method '%s'): %s", x->scheme, x->method,
                         err[0] ? err : rl_strerror(st))
            : 0;
}

/* the message of a failed sampled pass */
static int pass_failed(rl_cmd_run *r, const rl_extrap_conf *x, rl_status st,
                       const rl_measure_err *e)
{
  if (!e->nonfinite)
    return rl_runtime(r->name, "scheme '%s' (method '%s') at query %.17g, key %.17g: %s",
                      x->scheme, x->method, e->i, e->j, rl_strerror(st));
  char where[128];
  if (isfinite(e->i))
    snprintf(where, sizeof where, "logit (method '%s') at query %.17g, key %.17g", x->method,
             e->i, e->j);
  else
    snprintf(where, sizeof where, "retrieval, entropy or shift value (method '%s')", x->method);
  return rl_scheme_overflow(r->name, x->scheme, x->cfg.param_file, where);
}

/* the sampled rows of configuration x at scale q, from res */
static void sampled_rows(const rl_extrap_settings *s, const rl_extrap_conf *x, size_t q,
                         const struct conf_out *co)
{
  const rl_extrap_params *ep = &s->ex;
  const rl_extrap_result *res = co->res;
  size_t nscale = s->nscales, ndist = s->ndists;
  const char *kk[] = {x->scheme, x->method, rl_scale_name(s->scales[q]), co->wbuf, co->kbuf};
  char lb[32], rb[32];
  for (size_t l = 0; l < s->nlens; l++) {
    snprintf(lb, sizeof lb, "%zu", s->lens[l]);
    for (size_t j = 0; (ep->measures & RL_EX_RETRIEVAL) && j < ndist; j++) {
      size_t ri = (l * ndist + j) * nscale + q;
      if (!res->ret_ok[ri])
        continue;
      snprintf(rb, sizeof rb, "%zu", s->dists[j]);
      row(co->out, kk, "retrieval", "probability", lb, rb, "", res->ret_mean[ri],
          &res->ret_se[ri]);
    }
    if (ep->measures & RL_EX_ENTROPY) {
      size_t ei = l * nscale + q;
      row(co->out, kk, "entropy", "nats", lb, "", "", res->ent_mean[ei], &res->ent_se[ei]);
      row(co->out, kk, "entropy", "max", lb, "", "",
          log((double)rl_window_keys(&ep->win, s->lens[l])), NULL);
    }
  }
  if ((ep->measures & RL_EX_SHIFT) && res->shift_ok[q]) {
    const rl_shift *sh = &res->shift[q];
    snprintf(lb, sizeof lb, "%zu", s->lens[s->nlens - 1]);
    const char *st_names[] = {"mean_within", "sd_within", "mean_past", "sd_past", "ks", "w1"};
    const double vals[] = {sh->mean_within, sh->sd_within, sh->mean_past, sh->sd_past,
                           sh->ks, sh->w1};
    for (size_t i = 0; i < 6; i++)
      row(co->out, kk, "shift", st_names[i], lb, "", "", vals[i], NULL);
  }
}

/* configuration k's rows: unseen, then the sampled measures */
static int conf_rows(rl_cmd_run *r, const rl_extrap_conf *cf, size_t k, struct conf_out *co)
{
  const rl_extrap_settings *s = r->settings;
  const rl_extrap_conf *x = &cf[k];
  int rc;
  if ((s->measures & RL_EX_UNSEEN) && (rc = unseen_rows(r, x, co)))
    return rc;
  if (s->ex.measures) {
    rl_measure_err e;
    struct prog_ctx pc = {co->prog, k * 1000};
    rl_status st = rl_extrap_run(x->scheme, &x->cfg, &s->ex, co->res, &e, on_progress, &pc);
    if (st)
      return pass_failed(r, x, st, &e);
    for (size_t q = 0; q < s->nscales; q++)
      sampled_rows(s, x, q, co);
  }
  rl_progress_update(co->prog, (k + 1) * 1000);
  return 0;
}

static int compute(rl_cmd_run *r)
{
  const rl_extrap_settings *s = r->settings;
  if (s->checkpoint)
    return rl_extrapolate_checkpoint(r);
  rl_extrap_conf *cf = NULL;
  size_t ncf = 0;
  rl_sink sink = {0};
  rl_extrap_result res = {0};
  rl_progress prog;
  struct conf_out co = {&sink.out, &prog, &res, NULL, "", ""};
  int rc = plan_confs(r, &cf, &ncf);
  if (!rc && (rl_extrap_result_alloc(&s->ex, &res) ||
              !(co.pp = malloc(r->scheme.cfg.dim * sizeof *co.pp))))
    rc = rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
  if (rc || (rc = rl_cmd_sink_open(r, &sink)))
    goto done;
  meta(r, cf, ncf, &sink.out);
  rl_progress_init(&prog, r->name, r->co.progress, ncf * 1000,
                   (double)ncf * (double)s->ex.samples * (double)s->eval_len *
                           (double)r->scheme.cfg.dim > 1e8);
  snprintf(co.wbuf, sizeof co.wbuf, "%zu", s->ex.win.window);
  snprintf(co.kbuf, sizeof co.kbuf, "%zu", s->ex.win.sinks);
  for (size_t k = 0; k < ncf && !sink.out.err && !rc; k++)
    rc = conf_rows(r, cf, k, &co);
  if (!rc)
    rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  rl_extrap_result_free(&res);
  free(co.pp);
  free(cf);
  return rc;
}

static void defaults(void *settings) { rl_extrap_settings_default(settings); }

static const rl_cmd_decl decl = {
    .usage = "--train-len L --eval-len N [OPTIONS]",
    .about =
        "What changes past the training length L, up to N, for every positional\n"
        "scheme (--scheme) and, for rope and rope2d, every context-extension method\n"
        "(--method), on the same seeded content.  One long table: columns\n"
        "scheme,method,scale,window,sinks,measure,stat,len,r,pair,value,se, one row\n"
        "per value, so that curves of every scheme and method share one axis.\n"
        "\n"
        "A sequence of len tokens; the last one is the query and attends to all of\n"
        "them.  Query and key vectors are the contents (identity projections, so\n"
        "--identity is refused), x ~ N(0, I_d) from --seed, the same for every\n"
        "scheme, method and length: each sample's stream gives key slot k the same\n"
        "numbers whatever else is asked, so a length's rows are the same bytes\n"
        "alone or inside any --lengths list (or --measure, --threads).  Logits are\n"
        "q.k / sqrt(d) (times the method's logit multiplier and --scale) plus the\n"
        "scheme's positional terms.  The schemes' trained parameters are draws\n"
        "from --seed unless --params gives a model's table: T5's bucket biases\n"
        "N(0, 1/d), as are the learned, tupe and deberta tables.\n"
        "\n"
        "measures (--measure, in any combination; default all):\n"
        "  unseen     fraction of query-key pairs of a causal sequence of len tokens\n"
        "             whose positional input never occurred among L tokens: absolute\n"
        "             position (sinusoidal, learned, integer, binary, tupe), distance\n"
        "             (xl, alibi), bucket (t5, deberta), (row, column) offset\n"
        "             (rope2d), or per rotary pair the angle (rope: a pair whose\n"
        "             wavelength exceeds L swept only part of the circle in training;\n"
        "             rows with pair = 0.. per pair, pair = all for the total); exact\n"
        "  retrieval  attention probability on one planted key equal to the query at\n"
        "             distance r (a passkey test that needs no training), mean and\n"
        "             standard error over --samples\n"
        "  entropy    attention entropy in nats (stat nats; stat max = ln of the\n"
        "             number of keys, the entropy of uniform attention)\n"
        "  shift      positional logits (total - cc) of the query at the longest\n"
        "             length at distances past L against those within L: mean and\n"
        "             sd of each, Kolmogorov-Smirnov distance (sup |F - G|, 0..1)\n"
        "             and Wasserstein-1 distance (integral |F - G|, in logit units)\n"
        "\n"
        "learned and tupe get a table of L rows (unless --max-len) whose last row\n"
        "serves every later position (--past clamp unless given).  --plot draws\n"
        "retrieval against r at N, entropy and unseen against n, the shift's KS\n"
        "distance; a colour per scheme and method.\n"
        "\n"
        "--checkpoint F measures a trained model instead ('ropelab train --checkpoint\n"
        "F'), on examples of its own task drawn from train's test seed, by length n\n"
        "(the task's length, as train's --train-len: L the checkpoint's train_len, N\n"
        "its eval_len or --eval-len, at most 1024; lengths L/4, L/2, L, 2L, ... N\n"
        "unless --lengths).  An example reads tokens positions, each a query over\n"
        "the keys up to it.  Columns scheme,layer,head,measure,stat,len,tokens,r,\n"
        "value,se, per layer and head:\n"
        "  entropy nats      -sum a ln a of a query's attention (nats, not divided\n"
        "                    by ln(keys)), mean over the tokens positions, then\n"
        "                    over the examples; se over the examples\n"
        "  entropy max       the same mean of ln(keys): uniform attention's\n"
        "  attention weight  at r = 0..tokens-1, the attention weight at distance\n"
        "                    r (query - key), mean over the queries at or past r,\n"
        "                    then over the examples; se\n"
        "For random q and k (above) entropy is the last query's over len keys.\n",
    .footer = "example (figure: experiments/extrapolate.sh):\n"
              "  ropelab extrapolate --train-len 4096 --eval-len 32768 --method all \\\n"
              "      --scheme rope,alibi,t5,nope --measure retrieval,entropy\n",
    .takes = RL_TAKES_SCHEME | RL_TAKES_THREADS | RL_TAKES_TABLE,
    .settings_size = sizeof(rl_extrap_settings),
    .defaults = defaults,
    .groups = {{"extrapolate:", rl_extrap_request_param_list, 0},
               {NULL, rl_extrap_param_list, offsetof(rl_extrap_settings, ex)}},
    .schemes_max = RL_SCHEMES_MAX,
    .schemes_default = "all",
    .plot = "extrapolate.gp",
    /* --method, --scheme and --measure put several side by side in one
     * run (the declared --method's sweep gives way to that) */
    .sweep_numbers = "eval-len", .sweep_names = "",
    .sweep_lists = "scheme measure method lengths distances scale",
    .sweep_own = rl_extrap_param_list,
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_extrapolate = {
    "extrapolate", NULL, "what changes past the training length, every scheme and method", NULL,
    &decl};
