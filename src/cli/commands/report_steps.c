/* report_steps.c: the commands `ropelab report` runs for one model, at
 * the lengths of its plan (ropelab/report.h), each a process of this
 * same binary writing its table (and figure) into the page's folder.
 * Running the commands as they are, rather than computing here, makes a
 * number on the page equal to what the printed command gives by
 * construction; as processes, each keeps its own global state (getopt,
 * the output layer's temp files, threads) and its CSV's `# command=`
 * line is one a user can rerun. */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "msg.h"
#include "report_run.h"

/* ---- an argument vector ---------------------------------------------- */
#define AV_MAX 48
typedef struct av {
  char *a[AV_MAX + 1];
  size_t n;
  int err;
} av;

static void add(av *v, const char *s)
{
  char *d = s ? strdup(s) : NULL;
  if (!d || v->n >= AV_MAX) {
    free(d);
    v->err = 1;
    return;
  }
  v->a[v->n++] = d;
  v->a[v->n] = NULL;
}

static void addf(av *v, const char *fmt, ...) RP_PRINTF(2, 3);
static void addf(av *v, const char *fmt, ...)
{
  char *s = NULL;
  va_list ap;
  va_start(ap, fmt);
  if (vasprintf(&s, fmt, ap) < 0)
    s = NULL;
  va_end(ap);
  add(v, s);
  free(s);
}

/* "v0,v1,..." of whole numbers */
static void add_list(av *v, const double *x, size_t n)
{
  rp_buf b = {0};
  for (size_t i = 0; i < n; i++)
    rp_buf_printf(&b, "%s%.0f", i ? "," : "", x[i]);
  if (b.err)
    v->err = 1;
  else
    add(v, b.s);
  rp_buf_free(&b);
}

static void av_free(av *v)
{
  for (size_t i = 0; i < v->n; i++)
    free(v->a[i]);
  v->n = 0;
}

/* the command's name and its config (with the layer type) */
static void head(av *v, const rp_model *m, const char *cmd)
{
  add(v, "ropelab");
  add(v, cmd);
  if (!strcmp(cmd, "bound"))
    add(v, "men");
  add(v, "--config");
  add(v, m->abs);
  if (m->layer) {
    add(v, "--layer-type");
    add(v, m->layer);
  }
}

/* ---- running one ------------------------------------------------------- */

/* the first line of a file, without its "ropelab CMD: " prefix */
static char *first_line(const char *path)
{
  FILE *fp = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0;
  if (!fp || getline(&line, &cap, fp) < 0) {
    if (fp)
      fclose(fp);
    free(line);
    return strdup("");
  }
  fclose(fp);
  line[strcspn(line, "\r\n")] = '\0';
  const char *s = line, *c;
  if (!strncmp(s, "ropelab ", 8) && (c = strstr(s, ": ")))
    s = c + 2;
  char *r = strdup(s);
  free(line);
  return r;
}

/* Run v with "-o PFXSTEM.csv" (and "--plot PFXSTEM.png") in the page's
 * folder into step id.  A refusal (exit 2) is kept as the step's answer
 * when may_refuse; any other failure prints one line and returns the
 * exit status the report ends with. */
static int run(rp_ctx *c, rp_model *m, int id, av *v, const char *stem, int plot, int may_refuse)
{
  rp_step *s = &m->s[id];
  char *csv = NULL, *png = NULL, *err = NULL, *path = NULL;
  int rc = RL_EXIT_RUNTIME;
  if (asprintf(&csv, "%s%s.csv", m->pfx, stem) < 0 || asprintf(&png, "%s%s.png", m->pfx, stem) < 0 ||
      asprintf(&err, "%s/.%s%s.err", c->tmp, m->pfx, stem) < 0 ||
      asprintf(&path, "%s/%s", c->tmp, csv) < 0) {
    csv = png = err = path = NULL;
    v->err = 1;
  }
  add(v, "-o");
  add(v, csv);
  if (plot) {
    add(v, "--plot");
    add(v, png);
  }
  if (v->err || !(s->line = rp_command_line(v->a))) {
    rc = rl_runtime("report", "out of memory");
    goto done;
  }
  int st = rp_spawn(c->tmp, v->a, err);
  if (st < 0) {
    rc = rl_runtime("report", "cannot run '%s': %s", s->line, strerror(errno));
  } else if (st == RL_EXIT_USAGE && may_refuse) {
    s->refused = first_line(err);
    rc = s->refused ? 0 : rl_runtime("report", "out of memory");
  } else if (st) {
    char *msg = first_line(err);
    /* the command's own message, and which command said it */
    rl_usage("report", "%s (from '%s')", msg && *msg ? msg : "failed", s->line);
    rc = st == RL_EXIT_USAGE ? RL_EXIT_USAGE : RL_EXIT_RUNTIME;
    free(msg);
  } else if (rp_table_read(path, &s->t)) {
    rc = rl_runtime("report", "cannot read the table '%s' that '%s' wrote", csv, s->line);
  } else {
    rc = 0;
  }
done:
  if (err)
    unlink(err);
  free(csv), free(png), free(err), free(path);
  av_free(v);
  c->done++;
  /* progress once the run has taken a second: a page of a small model
   * prints nothing */
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if ((double)(now.tv_sec - c->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - c->start.tv_nsec) >= 1)
    rl_progress_update(&c->prog, c->done);
  return rc;
}

/* the schedule depends on the current length (LongRoPE's lists, dynamic
 * NTK: freqs states seq_len): once more at n = C */
static int depends_on_length(const rp_model *m)
{
  const char *sl = rp_table_meta(&m->s[S_FREQS].t, "seq_len");
  return sl && strtod(sl, NULL) != m->pm->C;
}

size_t rp_steps_total(const rp_model *m)
{
  (void)m;
  return S_N - 1; /* S_CTX only where the schedule depends on the length */
}

int rp_run_model(rp_ctx *c, rp_model *m)
{
  const rl_report_model *pm = m->pm;
  const rl_report_plan *pl = c->plan;
  av v = {{0}, 0, 0};
  int r;
  head(&v, m, "freqs");
  if ((r = run(c, m, S_FREQS, &v, "freqs", 1, 0)))
    return r;
  head(&v, m, "freqs");
  add(&v, "--turns-within");
  add_list(&v, pm->at, pm->n_at);
  if ((r = run(c, m, S_TURNS, &v, "freqs-turns", 0, 0)))
    return r;
  if (depends_on_length(m)) {
    c->prog.total++;
    head(&v, m, "freqs");
    add(&v, "--seq-len");
    addf(&v, "%.0f", pm->C);
    add(&v, "--turns-within");
    addf(&v, "%.0f", pm->C);
    if ((r = run(c, m, S_CTX, &v, "freqs-at-context", 1, 0)))
      return r;
  }
  /* Men et al.: the smallest base of plain RoPE with the model's
   * dimensions for C on Su's staged grid, from 1000 C; where that start
   * is not feasible (d = 64 at C = 131072), from 1e6 C, then 1e9 C */
  static const char *const starts[3] = {NULL, "1e6", "1e9"};
  const rp_table *fq = &m->s[S_FREQS].t;
  for (size_t k = 0; k < 3; k++) {
    rp_step *s = &m->s[S_MEN_SEARCH];
    free(s->refused), free(s->line);
    s->refused = s->line = NULL;
    add(&v, "ropelab"), add(&v, "bound"), add(&v, "men"), add(&v, "--dim");
    add(&v, rp_table_meta(fq, "dim")), add(&v, "--rot"), add(&v, rp_table_meta(fq, "rot"));
    add(&v, "--len");
    addf(&v, "%.0f", pm->C);
    if (starts[k])
      add(&v, "--start-factor"), add(&v, starts[k]);
    if ((r = run(c, m, S_MEN_SEARCH, &v, "men-search", 0, k < 2)))
      return r;
    if (!s->refused)
      break;
    if (k < 2)
      c->done--; /* a retry is not a step of its own */
  }
  head(&v, m, "bound");
  add(&v, "--len");
  add_list(&v, pm->men_len, pm->n_men);
  if ((r = run(c, m, S_MEN, &v, "men", 0, 0)))
    return r;
  /* the decay: every integer r from 1 to C, binned to each bin's extremes */
  head(&v, m, "decay");
  add(&v, "--measure"), add(&v, "bound,similarity"), add(&v, "--from"), add(&v, "1");
  add(&v, "--to");
  addf(&v, "%.0f", pm->C);
  add(&v, "--bins");
  addf(&v, "%zu", c->set->bins);
  add(&v, "--bin-stat"), add(&v, "range");
  if ((r = run(c, m, S_DECAY, &v, "decay", 1, 0)))
    return r;
  head(&v, m, "decay");
  add(&v, "--measure"), add(&v, "bound,similarity"), add(&v, "--from");
  addf(&v, "%.0f", pm->at[0]);
  add(&v, "--to");
  addf(&v, "%.0f", pm->at[pm->n_at - 1]);
  add(&v, "--step");
  addf(&v, "%.0f", pm->at_step);
  if ((r = run(c, m, S_DECAY_AT, &v, "decay-at", 0, 0)))
    return r;
  /* transformers' float pipelines: envelopes to C, worst to L and to C */
  static const char *const prec[2] = {"hf-bf16", "hf-fp32"};
  for (int k = 0; k < 2; k++) {
    head(&v, m, "precision");
    add(&v, "--precision"), add(&v, prec[k]), add(&v, "--to");
    addf(&v, "%.0f", pm->C);
    if ((r = run(c, m, S_PREC_BF16 + k, &v, k ? "precision-fp32" : "precision-bf16", 1, 0)))
      return r;
  }
  head(&v, m, "precision");
  add(&v, "--precision"), add(&v, "hf-bf16,hf-fp32"), add(&v, "--by"), add(&v, "pair");
  add(&v, "--to");
  add_list(&v, pm->at, pm->n_at);
  if ((r = run(c, m, S_PREC_WORST, &v, "precision-worst", 0, 0)))
    return r;
  /* past L, at the page's common lengths */
  for (int k = 0; k < 2; k++) {
    head(&v, m, "extrapolate");
    if (!pm->L_given) {
      add(&v, "--train-len");
      addf(&v, "%.0f", pm->L);
    }
    add(&v, "--scheme"), add(&v, "rope"), add(&v, "--measure");
    add(&v, k ? "entropy" : "unseen,retrieval");
    if (k)
      add(&v, "--identical");
    add(&v, "--eval-len");
    addf(&v, "%.0f", pl->eval_len);
    add(&v, "--lengths");
    add_list(&v, pl->lens, pl->n_lens);
    add(&v, "--samples");
    addf(&v, "%zu", k ? rl_report_entropy_samples(c->set) : c->set->samples);
    if ((r = run(c, m, k ? S_ENT : S_EX, &v, k ? "entropy" : "extrapolate", !k, 0)))
      return r;
  }
  /* the same config under vLLM's and llama.cpp's formulas, pair by pair
   * against transformers' (a refusal is the answer: no such variant) */
  static const char *const var[2] = {"vllm", "ggml"};
  for (int k = 0; k < 2; k++) {
    head(&v, m, "freqs");
    add(&v, "--variant"), add(&v, var[k]), add(&v, "--compare-variant"), add(&v, "hf");
    char stem[32];
    snprintf(stem, sizeof stem, "freqs-%s", var[k]);
    if ((r = run(c, m, S_VLLM + k, &v, stem, 0, 1)))
      return r;
  }
  return 0;
}

void rp_model_free(rp_model *m)
{
  free(m->abs);
  rl_model_rope_free(&m->info);
  for (int k = 0; k < S_N; k++) {
    rp_table_free(&m->s[k].t);
    free(m->s[k].line);
    free(m->s[k].refused);
  }
}
