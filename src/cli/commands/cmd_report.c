/* cmd_report.c: `ropelab report CONFIG [--compare CONFIG2]`, one page
 * (Markdown and HTML, figures beside it and embedded) on one model's RoPE.
 *
 * Design: the report computes nothing itself.  It runs this same binary's
 * own subcommands (posix_spawn of /proc/self/exe: freqs, bound men, decay,
 * precision, extrapolate), each writing its CSV and figure into the page's
 * folder, then reads those tables and lays them out, printing above each
 * section the exact command line that made its numbers.  So a number on
 * the page equals what the printed command gives by construction, not by
 * a second code path kept in step; running the commands as processes
 * (rather than calling their run functions in-process) also keeps each
 * one's global state (getopt, the output layer's argv and temp files,
 * threads) its own, and gives every CSV the `# command=` line a user can
 * rerun.  What the report derives (rotations within the configured
 * context, counts, maxima over bins, ratios between two tables) it says
 * how, beside the number.
 *
 * Everything is written into a temporary folder beside the target and
 * moved into place when complete (the whole folder renamed when the
 * target does not exist yet, else file by file with rename), so no page
 * is ever half-written; on failure the temporary folder is removed. */
#define _GNU_SOURCE /* strdup, realpath, mkdtemp, asprintf */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cmd.h"
#include "msg.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "report_page.h"
#include "rl_config.h"
#include "ropelab.h"

#define CMD "report"
#define NSTEPS 9 /* subcommands per model */

enum { OPT_COMPARE = RL_OPT_FIRST_CMD, OPT_SAMPLES, OPT_POINTS, OPT_LAYER, OPT_COMPARE_LAYER };

/* one headline number, for summary.csv and the side-by-side table */
typedef struct kv {
  char *key, *value, *file;
} kv;

typedef struct model {
  const char *arg; /* CONFIG as given */
  char *abs;       /* the path the subcommands, run in the page's folder, reach it by */
  char *name;      /* file name without folder and extension */
  const char *pfx; /* "" or "a-", "b-": file names of this model's tables */
  const char *layer; /* --layer-type for a config with a RoPE per layer type, or NULL */
  rl_model_rope info;
  double C, L; /* configured context, training length */
  int L_given; /* the config states a training length of its own */
  rp_table freqs, freqs_ctx, men_search, men, decay, prec[2], ex, var[2];
  int has_ctx; /* the schedule depends on the current length: freqs_ctx is it at C */
  char *line_freqs, *line_freqs_ctx, *line_men_search, *line_men, *line_decay, *line_prec[2],
      *line_ex, *line_var[2];
  char *var_refused[2]; /* the subcommand's message when it refused the variant */
  char *men_search_refused;
  kv *kv;
  size_t nkv;
} model;

typedef struct ctx {
  const char *tmp; /* the temporary folder everything is written into */
  unsigned samples, points;
  rl_progress prog;
  struct timespec start;
  size_t done;
} ctx;

static char prec_name[2][8] = {"hf-bf16", "hf-fp32"};
static char var_name[2][5] = {"vllm", "ggml"};
static const char *const var_who[2] = {"vLLM", "llama.cpp (ggml)"};

static void help(FILE *fp)
{
  fputs("usage: ropelab report CONFIG [--compare CONFIG2] [-o DIR] [OPTIONS]\n"
        "\n"
        "One page on a model's RoPE from its config.json or GGUF header: the\n"
        "schedule per pair (bands, wavelengths in tokens, turns within the\n"
        "training length L and the configured context C), the attention factor,\n"
        "Men et al.'s smallest base for C against the model's base, the unseen\n"
        "rotary angles at C, 2C and 4C, the decay bound and similarity B_r, the\n"
        "hf-bf16 and hf-fp32 precision envelopes up to C, retrieval and entropy\n"
        "past L, and how vLLM and llama.cpp would compute it otherwise than\n"
        "transformers.  The report runs ropelab's own commands (the page prints\n"
        "each command line; its CSV and figure are beside the page) and lays\n"
        "their numbers out: report.md with PNG figures, report.html with the\n"
        "figures embedded, summary.csv with the headline numbers.\n"
        "\n"
        "      --compare CONFIG2  a second model, side by side\n"
        "      --layer-type T  the attention layer type whose RoPE is read, for a\n"
        "                     model with one per layer type (Gemma 3: full_attention\n"
        "                     or sliding_attention); given to every command\n"
        "      --compare-layer-type T  the same for CONFIG2 (the same file with\n"
        "                     another layer type compares a model's two RoPEs)\n"
        "  -o, --output DIR   the page's folder (default report-NAME, NAME the\n"
        "                     config's file name; report-NAME-vs-NAME2 with\n"
        "                     --compare); its files are replaced when complete\n"
        "      --samples S    content samples of extrapolate, >= 2 (default 32)\n"
        "      --points P     distances of the decay curves, >= 2 (default 400)\n"
        "      --progress     show progress on stderr even when it is not a terminal\n"
        "      --quiet        never show progress\n"
        "  -h, --help         this help\n", fp);
}

/* ---- small helpers ---------------------------------------------------- */

static char *xasprintf(const char *fmt, ...) RP_PRINTF(1, 2);
static char *xasprintf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    s = NULL;
  va_end(ap);
  return s;
}

static double num(const char *s)
{
  if (!s || !*s)
    return NAN;
  char *e;
  double v = strtod(s, &e);
  return *e ? (double)NAN : v;
}

/* an integer-valued length as text */
static char *len_text(double v) { return xasprintf("%.0f", v); }

/* a number for reading: 6 significant digits (the CSVs hold every digit) */
static void fmt6(char *b, size_t n, const char *s)
{
  double v = num(s);
  if (isnan(v))
    snprintf(b, n, "%s", s && *s ? s : "");
  else
    snprintf(b, n, "%.6g", v);
}

/* a standard error: two significant digits are all it tells */
static void fmt_se(char *b, size_t n, const char *s)
{
  double v = num(s);
  if (isnan(v))
    snprintf(b, n, "%s", s && *s ? s : "");
  else
    snprintf(b, n, "%.2g", v);
}

static int add_kv(model *m, const char *key, const char *value, const char *file)
{
  kv *t = realloc(m->kv, (m->nkv + 1) * sizeof *t);
  if (!t)
    return -1;
  m->kv = t;
  kv *e = &m->kv[m->nkv];
  e->key = strdup(key);
  e->value = strdup(value ? value : "");
  e->file = strdup(file);
  if (!e->key || !e->value || !e->file) {
    free(e->key), free(e->value), free(e->file);
    return -1;
  }
  m->nkv++;
  return 0;
}

static const char *get_kv(const model *m, const char *key)
{
  for (size_t i = 0; i < m->nkv; i++)
    if (!strcmp(m->kv[i].key, key))
      return m->kv[i].value;
  return "";
}

static int has_kv(const model *m, const char *key)
{
  for (size_t i = 0; i < m->nkv; i++)
    if (!strcmp(m->kv[i].key, key))
      return 1;
  return 0;
}

static void free_model(model *m)
{
  free(m->abs);
  free(m->name);
  rl_model_rope_free(&m->info);
  rp_table *t[] = {&m->freqs, &m->freqs_ctx, &m->men_search, &m->men, &m->decay,
                   &m->prec[0], &m->prec[1], &m->ex, &m->var[0], &m->var[1]};
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    rp_table_free(t[i]);
  char *s[] = {m->line_freqs, m->line_freqs_ctx, m->line_men_search, m->line_men,
               m->line_decay, m->line_prec[0], m->line_prec[1], m->line_ex, m->line_var[0],
               m->line_var[1], m->var_refused[0], m->var_refused[1], m->men_search_refused};
  for (size_t i = 0; i < sizeof s / sizeof *s; i++)
    free(s[i]);
  for (size_t i = 0; i < m->nkv; i++)
    free(m->kv[i].key), free(m->kv[i].value), free(m->kv[i].file);
  free(m->kv);
}

/* the first line of a file, without its "ropelab CMD: " prefix */
static char *first_line(const char *path)
{
  FILE *fp = fopen(path, "r");
  if (!fp)
    return strdup("");
  char *line = NULL;
  size_t cap = 0;
  ssize_t n = getline(&line, &cap, fp);
  fclose(fp);
  if (n < 0) {
    free(line);
    return strdup("");
  }
  line[strcspn(line, "\r\n")] = '\0';
  const char *s = line;
  if (!strncmp(s, "ropelab ", 8)) {
    const char *c = strstr(s, ": ");
    if (c)
      s = c + 2;
  }
  char *r = strdup(s);
  free(line);
  return r;
}

/* ---- running one subcommand -------------------------------------------- */

/* Run `ropelab ARGS... -o STEM.csv [--plot STEM.png]` in the page's folder.
 * On success read the table into t, store the command line in *line and
 * return 0.  A refusal (exit 2) with refused != NULL stores the command's
 * message there and returns 0 with t empty; any other failure prints one
 * line and returns the exit status the report ends with. */
static int run_step(ctx *c, const model *m, const char *stem, int plot, char **args,
                    rp_table *t, char **line, char **refused)
{
  char *argv[64];
  size_t n = 0;
  argv[n++] = "ropelab";
  for (size_t i = 0; args[i] && n < 54; i++) {
    argv[n++] = args[i];
    /* the layer type goes with every --config */
    if (!strcmp(args[i], "--config") && args[i + 1] && m->layer) {
      argv[n++] = args[++i];
      argv[n++] = "--layer-type";
      argv[n++] = (char *)(uintptr_t)m->layer;
    }
  }
  char *csv = xasprintf("%s%s.csv", m->pfx, stem), *png = xasprintf("%s%s.png", m->pfx, stem);
  char *err = xasprintf("%s/.%s%s.err", c->tmp, m->pfx, stem);
  char *path = xasprintf("%s/%s", c->tmp, csv ? csv : "");
  int rc = RL_EXIT_RUNTIME;
  if (!csv || !png || !err || !path) {
    rc = rl_runtime(CMD, "out of memory");
    goto done;
  }
  argv[n++] = "-o";
  argv[n++] = csv;
  if (plot) {
    argv[n++] = "--plot";
    argv[n++] = png;
  }
  argv[n] = NULL;
  *line = rp_command_line(argv);
  if (!*line) {
    rc = rl_runtime(CMD, "out of memory");
    goto done;
  }
  int st = rp_spawn(c->tmp, argv, err);
  if (st < 0) {
    rc = rl_runtime(CMD, "cannot run '%s': %s", *line, strerror(errno));
    goto done;
  }
  if (st != 0) {
    char *msg = first_line(err);
    if (st == RL_EXIT_USAGE && refused) {
      *refused = msg;
      rc = 0;
    } else {
      /* the command's own message, and which command said it */
      rl_usage(CMD, "%s (from '%s')", msg && *msg ? msg : "failed", *line);
      rc = st == RL_EXIT_USAGE ? RL_EXIT_USAGE : RL_EXIT_RUNTIME;
      free(msg);
    }
    goto done;
  }
  if (rp_table_read(path, t)) {
    rc = rl_runtime(CMD, "cannot read the table '%s' that '%s' wrote", csv, *line);
    goto done;
  }
  rc = 0;
done:
  if (err)
    unlink(err);
  free(csv), free(png), free(err), free(path);
  c->done++;
  /* progress once the run has taken a second: a page of a small model
   * (Pythia's, 0.5 s of CPU) prints nothing */
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if ((double)(now.tv_sec - c->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - c->start.tv_nsec) >= 1)
    rl_progress_update(&c->prog, c->done);
  return rc;
}

/* ---- the subcommands of one model --------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int run_model(ctx *c, model *m)
{
  int r;
  char *cfg = m->abs;
  /* 1. the schedule as the config sets it (transformers' reading) */
  char *a1[] = {"freqs", "--config", cfg, NULL};
  if ((r = run_step(c, m, "freqs", 1, a1, &m->freqs, &m->line_freqs, NULL)))
    return r;
  const char *dimm = rp_table_meta(&m->freqs, "dim"), *rotm = rp_table_meta(&m->freqs, "rot");
  char dim[32], rot[32];
  snprintf(dim, sizeof dim, "%s", dimm ? dimm : "");
  snprintf(rot, sizeof rot, "%s", rotm ? rotm : "");
  const char *tl = rp_table_meta(&m->freqs, "train_len");
  m->C = m->info.context_len;
  m->L_given = tl && num(tl) > 0;
  m->L = m->L_given ? num(tl) : m->C;
  if (!(m->C > 0))
    m->C = m->L;
  if (!(m->L > 0) || !dimm || !rotm)
    return rl_usage(CMD, "config '%s' states no context length: expected max_position_embeddings "
                    "(or <arch>.context_length, or rope_scaling.original_max_position_embeddings)",
                    m->arg);
  char *Ls = len_text(m->L), *Cs = len_text(m->C), *C4 = len_text(4 * m->C);
  /* Men et al.'s test at L, C, 2C and 4C: the first distance with B_r < 0
   * within 4C (--largest-len searches up to 2^31, 20 s for a head whose
   * pass-through dimensions keep B_r > 0 everywhere, as Pythia's) */
  char *LC = m->L == m->C ? xasprintf("%s,%.0f,%s", Cs, 2 * m->C, C4)
                          : xasprintf("%s,%s,%.0f,%s", Ls, Cs, 2 * m->C, C4);
  char *pts = xasprintf("%u", c->points), *smp = xasprintf("%u", c->samples);
  /* extrapolate's lengths: L/4, L/2, L, 2L, ... up to C, and C, 2C, 4C
   * (the cost grows with their sum: 4C alone is most of it) */
  double lv[64];
  size_t nl = 0;
  for (double v = m->L / 4; v <= m->C && nl < 60; v *= 2)
    if (v >= 1 && v == floor(v))
      lv[nl++] = v;
  lv[nl++] = m->C, lv[nl++] = 2 * m->C, lv[nl++] = 4 * m->C;
  qsort(lv, nl, sizeof *lv, cmp_double);
  rp_buf lens = {0};
  for (size_t i = 0; i < nl; i++)
    if (!i || lv[i] != lv[i - 1])
      rp_buf_printf(&lens, "%s%.0f", lens.n ? "," : "", lv[i]);
  r = !Ls || !Cs || !C4 || !LC || !pts || !smp || lens.err ? rl_runtime(CMD, "out of memory") : 0;

  /* 1b. a schedule that depends on the current length (LongRoPE's lists,
   * dynamic NTK: freqs says seq_len) once more at n = C, the schedule the
   * frameworks use at the configured context */
  const char *sl = rp_table_meta(&m->freqs, "seq_len");
  if (!r && sl && num(sl) != m->C) {
    char *a1b[] = {"freqs", "--config", cfg, "--seq-len", Cs, NULL};
    c->prog.total++;
    r = run_step(c, m, "freqs-at-context", 1, a1b, &m->freqs_ctx, &m->line_freqs_ctx, NULL);
    m->has_ctx = !r;
  }

  /* 2. Men et al.: the smallest base of plain RoPE with the model's
   * dimensions for C, by the command's default grid (Su's staged one,
   * starting at 1000 C; where that start is not feasible, as for d = 64
   * at C = 131072, from a larger one, said on the page) */
  static char starts[3][4] = {"", "1e6", "1e9"};
  for (size_t k = 0; !r && k < 3; k++) {
    free(m->men_search_refused);
    m->men_search_refused = NULL;
    free(m->line_men_search);
    m->line_men_search = NULL;
    char *a2[] = {"bound", "men", "--dim", dim, "--rot", rot, "--len", Cs,
                  k ? "--start-factor" : NULL, starts[k], NULL};
    r = run_step(c, m, "men-search", 0, a2, &m->men_search, &m->line_men_search,
                 k < 2 ? &m->men_search_refused : NULL);
    if (!r && !m->men_search_refused)
      break;
    if (k < 2)
      c->done--; /* a retry is not a step of its own */
  }
  /* 3. the model's own base and schedule: enough for L, C, 2C, 4C? */
  char *a3[] = {"bound", "men", "--config", cfg, "--len", LC, NULL};
  /* 5. decay bound and similarity up to C */
  char *a5[] = {"decay", "--config", cfg, "--measure", "bound,similarity", "--from", "1",
                "--to", Cs, "--points", pts, "--log", NULL};
  if (!r)
    r = run_step(c, m, "men", 0, a3, &m->men, &m->line_men, NULL);
  if (!r)
    r = run_step(c, m, "decay", 1, a5, &m->decay, &m->line_decay, NULL);
  /* 6, 7. the precision envelope of transformers' pipeline up to C */
  for (int k = 0; k < 2 && !r; k++) {
    char stem[32];
    snprintf(stem, sizeof stem, "precision-%s", prec_name[k] + 3);
    char *a6[] = {"precision", "--config", cfg, "--precision", prec_name[k], "--to", Cs,
                  NULL};
    r = run_step(c, m, stem, 1, a6, &m->prec[k], &m->line_prec[k], NULL);
  }
  /* 8. unseen angles, retrieval and entropy past L (L given when the
   * config has no training length of its own: then L = C) */
  if (!r) {
    char *a8[32];
    size_t n = 0;
    a8[n++] = "extrapolate", a8[n++] = "--config", a8[n++] = cfg;
    if (!m->L_given)
      a8[n++] = "--train-len", a8[n++] = Ls;
    a8[n++] = "--scheme", a8[n++] = "rope", a8[n++] = "--measure";
    a8[n++] = "unseen,retrieval,entropy";
    a8[n++] = "--eval-len", a8[n++] = C4, a8[n++] = "--lengths", a8[n++] = lens.s;
    a8[n++] = "--samples", a8[n++] = smp, a8[n] = NULL;
    r = run_step(c, m, "extrapolate", 1, a8, &m->ex, &m->line_ex, NULL);
  }
  /* 9, 10. the same config under vLLM's and llama.cpp's formulas */
  for (int k = 0; k < 2 && !r; k++) {
    char stem[32];
    snprintf(stem, sizeof stem, "freqs-%s", var_name[k]);
    char *a9[] = {"freqs", "--config", cfg, "--variant", var_name[k], NULL};
    r = run_step(c, m, stem, 0, a9, &m->var[k], &m->line_var[k], &m->var_refused[k]);
  }
  free(Ls), free(Cs), free(C4), free(LC), free(pts), free(smp);
  rp_buf_free(&lens);
  return r;
}

/* ---- reading the tables -------------------------------------------------- */

/* rotations of pair i within n positions, as freqs computes them */
static double turns(double n, const char *theta)
{
  return (double)((long double)n * (long double)num(theta) /
                  (2.0L * 3.14159265358979323846264338327950288L));
}

/* the row of t whose column col is nearest x */
static size_t nearest(const rp_table *t, const char *col, double x)
{
  size_t best = 0;
  double bd = INFINITY;
  for (size_t i = 0; i < t->nrow; i++) {
    double d = fabs(num(rp_cell(t, i, col)) - x);
    if (d < bd)
      bd = d, best = i;
  }
  return best;
}

/* the largest of columns cols over rows with column pos <= upto: the cell's
 * own text (so the page shows the table's digits) */
static const char *worst(const rp_table *t, const char *const *cols, size_t ncol, double upto)
{
  const char *w = "";
  double wv = -INFINITY;
  for (size_t i = 0; i < t->nrow; i++) {
    if (num(rp_cell(t, i, "pos")) > upto)
      continue;
    for (size_t j = 0; j < ncol; j++) {
      double v = num(rp_cell(t, i, cols[j]));
      if (v > wv)
        wv = v, w = rp_cell(t, i, cols[j]);
    }
  }
  return w;
}

/* the extrapolate row of measure, stat, len (and r, pair when given) */
static long ex_row(const rp_table *t, const char *measure, const char *stat, double len,
                   const char *r, const char *pair)
{
  for (size_t i = 0; i < t->nrow; i++)
    if (!strcmp(rp_cell(t, i, "measure"), measure) && !strcmp(rp_cell(t, i, "stat"), stat) &&
        num(rp_cell(t, i, "len")) == len && (!r || !strcmp(rp_cell(t, i, "r"), r)) &&
        (!pair || !strcmp(rp_cell(t, i, "pair"), pair)))
      return (long)i;
  return -1;
}

static const char *ex_value(const rp_table *t, const char *measure, const char *stat, double len,
                            const char *r, const char *pair)
{
  long i = ex_row(t, measure, stat, len, r, pair);
  return i < 0 ? "" : rp_cell(t, (size_t)i, "value");
}

/* pairs whose theta differs from transformers', and the largest
 * |theta_v / theta_hf - 1| with its pair */
static void variant_diff(const rp_table *hf, const rp_table *v, size_t *ndiff, double *worst_ratio,
                         size_t *worst_pair)
{
  *ndiff = 0, *worst_ratio = 1, *worst_pair = 0;
  double wd = 0;
  for (size_t i = 0; i < hf->nrow && i < v->nrow; i++) {
    double a = num(rp_cell(hf, i, "theta")), b = num(rp_cell(v, i, "theta"));
    if (a == b)
      continue;
    (*ndiff)++;
    double q = a != 0 ? b / a : (double)INFINITY;
    if (fabs(q - 1) > wd)
      wd = fabs(q - 1), *worst_ratio = q, *worst_pair = i;
  }
}

/* the headline numbers of one model, each with the table it comes from */
static int headline(model *m)
{
  char b[64];
  const char *pf = m->pfx;
  char f[8][64];
  snprintf(f[0], 64, "%sfreqs.csv", pf);
  snprintf(f[1], 64, "%smen-search.csv", pf);
  snprintf(f[2], 64, "%smen.csv", pf);
  snprintf(f[3], 64, "%s", "");
  snprintf(f[4], 64, "%sdecay.csv", pf);
  snprintf(f[5], 64, "%sextrapolate.csv", pf);
  snprintf(f[6], 64, "%sprecision-bf16.csv", pf);
  snprintf(f[7], 64, "%sprecision-fp32.csv", pf);
  int e = 0;
  static const char *const fk[] = {"dim", "rot", "base", "layout", "method", "factor",
                                   "attention_factor", "logit_multiplier"};
  for (size_t i = 0; i < sizeof fk / sizeof *fk; i++) {
    const char *v = rp_table_meta(&m->freqs, fk[i]);
    e |= add_kv(m, fk[i], v ? v : "", f[0]);
  }
  snprintf(b, sizeof b, "%.0f", m->L);
  e |= add_kv(m, "train_len", b, f[0]);
  snprintf(b, sizeof b, "%.0f", m->C);
  e |= add_kv(m, "context_len", b, m->arg);
  const rp_table *fc = m->has_ctx ? &m->freqs_ctx : &m->freqs;
  size_t inL = 0, inC = 0;
  for (size_t i = 0; i < m->freqs.nrow; i++)
    inL += turns(m->L, rp_cell(&m->freqs, i, "theta")) >= 1;
  for (size_t i = 0; i < fc->nrow; i++)
    inC += turns(m->C, rp_cell(fc, i, "theta")) >= 1;
  snprintf(b, sizeof b, "%zu", inL);
  e |= add_kv(m, "pairs_turning_within_train_len", b, f[0]);
  snprintf(b, sizeof b, "%zu", inC);
  char fcn[80];
  snprintf(fcn, sizeof fcn, "%sfreqs-at-context.csv", pf);
  e |= add_kv(m, "pairs_turning_within_context", b, m->has_ctx ? fcn : f[0]);
  e |= add_kv(m, "men_smallest_base_for_context",
              m->men_search_refused ? "" : rp_cell(&m->men_search, 0, "base"), f[1]);
  for (size_t i = 0; i < m->men.nrow; i++) {
    const char *len = rp_cell(&m->men, i, "len");
    double lv = num(len);
    const char *which = lv == m->C ? "context" : lv == 2 * m->C ? "2x_context"
                      : lv == 4 * m->C ? "4x_context" : "train_len";
    char k[64];
    snprintf(k, sizeof k, "men_enough_at_%s", which);
    e |= add_kv(m, k, rp_cell(&m->men, i, "enough"), f[2]);
    snprintf(k, sizeof k, "men_first_fail_within_%s", which);
    e |= add_kv(m, k, rp_cell(&m->men, i, "first_fail"), f[2]);
  }
  size_t iC = nearest(&m->decay, "r", m->C);
  e |= add_kv(m, "decay_r_near_context", rp_cell(&m->decay, iC, "r"), f[4]);
  e |= add_kv(m, "decay_bound_near_context", rp_cell(&m->decay, iC, "bound"), f[4]);
  e |= add_kv(m, "decay_similarity_near_context", rp_cell(&m->decay, iC, "similarity"), f[4]);
  static const char *const mult[3] = {"context", "2x_context", "4x_context"};
  for (int k = 0; k < 3; k++) {
    char key[64];
    snprintf(key, sizeof key, "unseen_at_%s", mult[k]);
    e |= add_kv(m, key, ex_value(&m->ex, "unseen", "fraction", (k ? 2 * k : 1) * m->C, NULL, "all"),
                f[5]);
  }
  static const char *const cs[] = {"cos_err", "sin_err"}, *const lg[] = {"logit_err"};
  for (int k = 0; k < 2; k++) {
    char key[64];
    snprintf(key, sizeof key, "%s_worst_cos_sin_err_to_context", prec_name[k]);
    e |= add_kv(m, key, worst(&m->prec[k], cs, 2, m->C), f[6 + k]);
    snprintf(key, sizeof key, "%s_worst_logit_err_to_context", prec_name[k]);
    e |= add_kv(m, key, worst(&m->prec[k], lg, 1, m->C), f[6 + k]);
  }
  e |= add_kv(m, "entropy_at_context", ex_value(&m->ex, "entropy", "nats", m->C, NULL, NULL), f[5]);
  e |= add_kv(m, "retrieval_r0_at_context",
              ex_value(&m->ex, "retrieval", "probability", m->C, "0", NULL), f[5]);
  for (int k = 0; k < 2; k++) {
    char key[64], file[64];
    snprintf(key, sizeof key, "%s_pairs_differing_from_hf", var_name[k]);
    snprintf(file, sizeof file, "%sfreqs-%s.csv", pf, var_name[k]);
    if (m->var_refused[k]) {
      e |= add_kv(m, key, "refused", file);
      continue;
    }
    size_t nd, wp;
    double wr;
    variant_diff(&m->freqs, &m->var[k], &nd, &wr, &wp);
    snprintf(b, sizeof b, "%zu", nd);
    e |= add_kv(m, key, b, file);
  }
  return e;
}

/* ---- the page --------------------------------------------------------- */

static void sec(rp_page *p, int level, const model *m, int two, const char *title)
{
  char *t = two ? xasprintf("%s: %s", m->name, title) : strdup(title);
  rp_heading(p, level, t ? t : title);
  free(t);
}

static void figure1(rp_page *p, const model *m, const char *stem, const char *alt)
{
  char file[256];
  snprintf(file, sizeof file, "%s%s.png", m->pfx, stem);
  const char *f[] = {file}, *a[] = {alt};
  rp_figures(p, 1, f, a);
}

/* the pairs grouped by band: wavelengths and turns within L and C */
static void band_table(rp_page *p, const rp_table *fq, double L, double C)
{
  char b1[128], b2[128];
  const char *h[] = {"pairs", "band", "wavelength (tokens)", "turns within L", "turns within C"};
  rp_table_head(p, 5, h);
  for (size_t i = 0; i < fq->nrow;) {
    size_t j = i;
    const char *band = rp_cell(fq, i, "band");
    while (j + 1 < fq->nrow && !strcmp(rp_cell(fq, j + 1, "band"), band))
      j++;
    char pr[48], wl[300], tl[96], tc[96];
    snprintf(pr, sizeof pr, i == j ? "%zu" : "%zu-%zu", i, j);
    fmt6(b1, sizeof b1, rp_cell(fq, i, "wavelength"));
    fmt6(b2, sizeof b2, rp_cell(fq, j, "wavelength"));
    snprintf(wl, sizeof wl, i == j ? "%s" : "%s .. %s", b1, b2);
    snprintf(tl, sizeof tl, i == j ? "%.6g" : "%.6g .. %.6g", turns(L, rp_cell(fq, i, "theta")),
             turns(L, rp_cell(fq, j, "theta")));
    snprintf(tc, sizeof tc, i == j ? "%.6g" : "%.6g .. %.6g", turns(C, rp_cell(fq, i, "theta")),
             turns(C, rp_cell(fq, j, "theta")));
    const char *c[] = {pr, band, wl, tl, tc};
    rp_table_row(p, 5, c);
    i = j + 1;
  }
  rp_table_end(p);
}

static void page_model(rp_page *p, const model *m, int two, unsigned samples, unsigned points)
{
  int hl = two ? 3 : 2;
  char b1[128], b2[128], b3[128], b4[256], b5[128], b6[128], b7[128];
  const rp_table *fq = &m->freqs;
  const char *method = rp_table_meta(fq, "method");
  method = method ? method : "";
  if (two)
    rp_heading(p, 2, m->name);

  /* settings */
  sec(p, hl, m, two, "The model's RoPE settings");
  int gguf = m->info.format && !strcmp(m->info.format, "gguf");
  rp_para(p, "Read from `%s` (%s%s%s) as %s; each setting's source is the `.source` metadata of "
          "`freqs`. The training length L = %.0f and the configured context C = %.0f are the "
          "lengths every section below is evaluated at.",
          m->arg, m->info.format ? m->info.format : "", m->info.arch ? ", " : "",
          m->info.arch ? m->info.arch : "",
          gguf ? "llama.cpp's loader names its keys" : "transformers reads it", m->L, m->C);
  {
    const char *h[] = {"setting", "value", "source"};
    rp_table_head(p, 3, h);
    for (size_t i = 0; i < fq->nmeta; i++) {
      const char *k = fq->mkey[i];
      size_t n = strlen(k);
      if (n <= 7 || strcmp(k + n - 7, ".source"))
        continue;
      char key[64];
      snprintf(key, sizeof key, "%.*s", (int)(n - 7), k);
      const char *v = rp_table_meta(fq, key);
      const char *c[] = {key, v ? v : "", fq->mval[i]};
      rp_table_row(p, 3, c);
    }
    if (!rp_table_meta(fq, "rot.source")) {
      const char *c[] = {"rot", rp_table_meta(fq, "rot") ? rp_table_meta(fq, "rot") : "",
                         "= dim: the config rotates every dimension"};
      rp_table_row(p, 3, c);
    }
    snprintf(b1, sizeof b1, "%.0f", m->L);
    const char *cl[] = {"L (training length)", b1,
                        m->L_given ? "train_len above" : "the context length (the config states no other)"};
    rp_table_row(p, 3, cl);
    snprintf(b2, sizeof b2, "%.0f", m->C);
    const char *cc[] = {"C (configured context)", b2,
                        m->info.context_len > 0 ? "max_position_embeddings / <arch>.context_length"
                                                : "L (the config states no context length)"};
    rp_table_row(p, 3, cc);
    rp_table_end(p);
  }
  if (m->info.n_notes) {
    rp_para(p, "Where the frameworks read this file differently (the reader's notes):");
    for (size_t i = 0; i < m->info.n_notes; i++)
      rp_item(p, "%s", m->info.notes[i]);
  }

  /* 1. schedule */
  sec(p, hl, m, two, "1. The schedule per pair");
  rp_command(p, m->line_freqs);
  const char *sched = rp_table_meta(fq, "schedule");
  rp_para(p, "%s. Turns within L and within C are n / wavelength = n theta / (2 pi) for n = L, C "
          "(freqs' own formula for its `rotations` column); %s of the %zu pairs turn at least once "
          "within L, %s within C%s.",
          sched ? sched : method, get_kv(m, "pairs_turning_within_train_len"), fq->nrow,
          get_kv(m, "pairs_turning_within_context"),
          m->has_ctx ? " with the frequencies the model has at n = C (below)" : "");
  figure1(p, m, "freqs", "frequency schedule per pair");
  band_table(p, fq, m->L, m->C);
  rp_details_begin(p, "every pair");
  {
    int axis = rp_table_colidx(fq, "axis") >= 0;
    const char *h[] = {"pair", "theta", "wavelength", "ratio to RoPE", "band", "turns within L",
                       "turns within C", "axis"};
    rp_table_head(p, axis ? 8 : 7, h);
    for (size_t i = 0; i < fq->nrow; i++) {
      fmt6(b1, sizeof b1, rp_cell(fq, i, "theta"));
      fmt6(b2, sizeof b2, rp_cell(fq, i, "wavelength"));
      fmt6(b3, sizeof b3, rp_cell(fq, i, "ratio"));
      snprintf(b4, sizeof b4, "%.6g", turns(m->L, rp_cell(fq, i, "theta")));
      snprintf(b5, sizeof b5, "%.6g", turns(m->C, rp_cell(fq, i, "theta")));
      const char *c[] = {rp_cell(fq, i, "pair"), b1, b2, b3, rp_cell(fq, i, "band"), b4, b5,
                         rp_cell(fq, i, "axis")};
      rp_table_row(p, axis ? 8 : 7, c);
    }
    rp_table_end(p);
  }
  rp_details_end(p);
  if (m->has_ctx) {
    rp_para(p, "This schedule depends on the current length (`seq_len` = %s above, the frameworks' "
            "value up to L). At the configured context, n = C = %.0f, transformers and vLLM use "
            "these frequencies instead (llama.cpp: see the notes above):",
            rp_table_meta(fq, "seq_len"), m->C);
    rp_command(p, m->line_freqs_ctx);
    figure1(p, m, "freqs-at-context", "frequency schedule per pair at the configured context");
    band_table(p, &m->freqs_ctx, m->L, m->C);
    fmt6(b1, sizeof b1, rp_table_meta(&m->freqs_ctx, "attention_factor"));
    rp_para(p, "Its attention factor: %s; %s pairs turn at least once within C.", b1,
            get_kv(m, "pairs_turning_within_context"));
  }

  /* 2. attention factor */
  sec(p, hl, m, two, "2. The attention factor");
  fmt6(b1, sizeof b1, rp_table_meta(fq, "attention_factor"));
  fmt6(b2, sizeof b2, rp_table_meta(fq, "logit_multiplier"));
  rp_para(p, "cos and sin are multiplied by the attention factor %s, so every logit by its square, "
          "%s (`attention_factor` and `logit_multiplier` in the metadata of the `freqs` command "
          "above).", b1, b2);

  /* 3. Men et al. */
  sec(p, hl, m, two, "3. Is the base enough for the context? (Men et al. 2024)");
  rp_command(p, m->line_men_search);
  rp_command(p, m->line_men);
  if (m->men_search_refused)
    rp_para(p, "The search for the smallest base was refused: %s", m->men_search_refused);
  else {
    fmt6(b1, sizeof b1, rp_cell(&m->men_search, 0, "base"));
    const char *sf = strstr(m->line_men_search, "--start-factor");
    snprintf(b3, sizeof b3, "%.3g", num(rp_table_meta(fq, "base")) / num(rp_cell(&m->men_search, 0, "base")));
    rp_para(p, "Men et al.'s smallest base for C = %.0f (plain RoPE with d = %s, %s rotated "
            "dimensions: B_r = sum_i cos(r theta_i) >= 0 for every r < C, on Su's staged grid%s) is "
            "%s; the model's base %s is %s times that.",
            m->C, rp_table_meta(fq, "dim"), rp_table_meta(fq, "rot"),
            sf ? ", started above the default 1000 C, which is not feasible here" : "", b1,
            rp_table_meta(fq, "base"), b3);
  }
  {
    const char *h[] = {"length", "enough (B_r >= 0 for r < length)", "first r with B_r < 0",
                       "B_r there"};
    rp_table_head(p, 4, h);
    for (size_t i = 0; i < m->men.nrow; i++) {
      fmt6(b1, sizeof b1, rp_cell(&m->men, i, "b_first_fail"));
      const char *ff = rp_cell(&m->men, i, "first_fail");
      char lab[256];
      double lv = num(rp_cell(&m->men, i, "len"));
      snprintf(lab, sizeof lab, "%s (%s)", rp_cell(&m->men, i, "len"),
               lv == m->C ? "C" : lv == 2 * m->C ? "2C" : lv == 4 * m->C ? "4C" : "L");
      const char *c[] = {lab, rp_cell(&m->men, i, "enough"), *ff ? ff : "none", b1};
      rp_table_row(p, 4, c);
    }
    rp_table_end(p);
  }
  {
    /* the first failure of the longest length tested is the first within 4C */
    const char *ff = m->men.nrow ? rp_cell(&m->men, m->men.nrow - 1, "first_fail") : "";
    if (*ff)
      rp_para(p, "With its own schedule (%s, the frequencies of section 1) and base, the first "
              "distance with B_r < 0 is r = %s: the base is enough for contexts up to %s tokens.",
              method, ff, ff);
    else
      rp_para(p, "With its own schedule (%s, the frequencies of section 1) and base, B_r >= 0 at "
              "every distance below 4C = %.0f.", method, 4 * m->C);
  }

  /* 4. unseen */
  sec(p, hl, m, two, "4. Unseen rotary angles");
  rp_command(p, m->line_ex);
  rp_para(p, "The fraction of the query-key pairs of a causal sequence of n tokens in which some "
          "rotary pair meets an angle it never met within L tokens (exact counts; `measure` "
          "unseen, `pair` all):");
  {
    const char *h[] = {"n", "n / L", "unseen fraction"};
    rp_table_head(p, 3, h);
    double ns[] = {m->L, m->C, 2 * m->C, 4 * m->C};
    const char *lab[] = {"L", "C", "2C", "4C"};
    for (int k = m->L == m->C; k < 4; k++) {
      snprintf(b1, sizeof b1, "%.0f (%s)", ns[k], lab[k]);
      snprintf(b2, sizeof b2, "%.6g", ns[k] / m->L);
      fmt6(b3, sizeof b3, ex_value(&m->ex, "unseen", "fraction", ns[k], NULL, "all"));
      const char *c[] = {b1, b2, b3};
      rp_table_row(p, 3, c);
    }
    rp_table_end(p);
  }

  /* 5. decay */
  sec(p, hl, m, two, "5. Long-term decay: the bound and the similarity B_r");
  rp_command(p, m->line_decay);
  rp_para(p, "RoFormer's relative upper bound and Men et al.'s B_r = sum_i cos(r theta_i) of the "
          "model's schedule at %u log-spaced distances from 1 to C.", points);
  figure1(p, m, "decay", "decay bound and similarity");
  {
    const char *h[] = {"r (grid point nearest)", "bound", "similarity B_r"};
    rp_table_head(p, 3, h);
    double rs[] = {m->L, m->C};
    for (int k = m->L == m->C; k < 2; k++) {
      size_t i = nearest(&m->decay, "r", rs[k]);
      fmt6(b1, sizeof b1, rp_cell(&m->decay, i, "r"));
      snprintf(b4, sizeof b4, "%s (%s)", b1, k ? "C" : "L");
      fmt6(b2, sizeof b2, rp_cell(&m->decay, i, "bound"));
      fmt6(b3, sizeof b3, rp_cell(&m->decay, i, "similarity"));
      const char *c[] = {b4, b2, b3};
      rp_table_row(p, 3, c);
    }
    rp_table_end(p);
  }

  /* 6. precision */
  sec(p, hl, m, two, "6. Precision envelope of transformers' pipeline");
  rp_command(p, m->line_prec[0]);
  rp_command(p, m->line_prec[1]);
  rp_para(p, "The worst error against the exact values over every position 0..C and every pair "
          "(the largest entry of each table's bins up to the position given):");
  {
    char f0[256], f1[256];
    snprintf(f0, sizeof f0, "%sprecision-bf16.png", m->pfx);
    snprintf(f1, sizeof f1, "%sprecision-fp32.png", m->pfx);
    const char *f[] = {f0, f1}, *a[] = {"hf-bf16 precision", "hf-fp32 precision"};
    rp_figures(p, 2, f, a);
    const char *h[] = {"pipeline", "worst cos/sin error up to L", "up to C",
                       "worst logit error (r = 1) up to L", "up to C"};
    rp_table_head(p, 5, h);
    static const char *const cs[] = {"cos_err", "sin_err"}, *const lg[] = {"logit_err"};
    for (int k = 0; k < 2; k++) {
      fmt6(b1, sizeof b1, worst(&m->prec[k], cs, 2, m->L));
      fmt6(b2, sizeof b2, worst(&m->prec[k], cs, 2, m->C));
      fmt6(b3, sizeof b3, worst(&m->prec[k], lg, 1, m->L));
      fmt6(b4, sizeof b4, worst(&m->prec[k], lg, 1, m->C));
      const char *c[] = {prec_name[k], b1, b2, b3, b4};
      rp_table_row(p, 5, c);
    }
    rp_table_end(p);
  }

  /* 7. past L */
  sec(p, hl, m, two, "7. Retrieval and entropy past the training length");
  rp_para(p, "From the `extrapolate` command of section 4 (%u content samples, q and k ~ N(0, I_d), "
          "the last token queries all n; retrieval is the attention on one key equal to the query "
          "planted at distance r, mean and standard error):", samples);
  figure1(p, m, "extrapolate", "retrieval, entropy and unseen angles past L");
  {
    const char *h[] = {"n", "entropy (nats)", "ln n (uniform)", "retrieval at r = 0",
                       "farthest r", "retrieval there"};
    rp_table_head(p, 6, h);
    double last = -1;
    for (size_t i = 0; i < m->ex.nrow; i++) {
      double n = num(rp_cell(&m->ex, i, "len"));
      if (n == last || strcmp(rp_cell(&m->ex, i, "measure"), "entropy"))
        continue;
      last = n;
      long e = ex_row(&m->ex, "entropy", "nats", n, NULL, NULL);
      if (e < 0)
        continue;
      fmt6(b1, sizeof b1, rp_cell(&m->ex, (size_t)e, "value"));
      fmt_se(b2, sizeof b2, rp_cell(&m->ex, (size_t)e, "se"));
      char ent[400];
      snprintf(ent, sizeof ent, "%s ± %s", b1, b2);
      fmt6(b3, sizeof b3, ex_value(&m->ex, "entropy", "max", n, NULL, NULL));
      long r0 = ex_row(&m->ex, "retrieval", "probability", n, "0", NULL);
      char rr0[400] = "", rf[400] = "";
      if (r0 >= 0) {
        fmt6(b4, sizeof b4, rp_cell(&m->ex, (size_t)r0, "value"));
        fmt_se(b5, sizeof b5, rp_cell(&m->ex, (size_t)r0, "se"));
        snprintf(rr0, sizeof rr0, "%s ± %s", b4, b5);
      }
      /* the farthest distance of this length */
      long far = -1;
      for (size_t j = 0; j < m->ex.nrow; j++)
        if (!strcmp(rp_cell(&m->ex, j, "measure"), "retrieval") &&
            num(rp_cell(&m->ex, j, "len")) == n &&
            (far < 0 || num(rp_cell(&m->ex, j, "r")) > num(rp_cell(&m->ex, (size_t)far, "r"))))
          far = (long)j;
      if (far >= 0) {
        fmt6(b6, sizeof b6, rp_cell(&m->ex, (size_t)far, "value"));
        fmt_se(b7, sizeof b7, rp_cell(&m->ex, (size_t)far, "se"));
        snprintf(rf, sizeof rf, "%s ± %s", b6, b7);
      }
      char nl[64];
      snprintf(nl, sizeof nl, "%.0f%s", n,
               n == m->L ? " (L)" : n == m->C ? " (C)" : n == 2 * m->C ? " (2C)" : n == 4 * m->C ? " (4C)" : "");
      const char *c[] = {nl, ent, b3, rr0, far >= 0 ? rp_cell(&m->ex, (size_t)far, "r") : "", rf};
      rp_table_row(p, 6, c);
    }
    rp_table_end(p);
  }

  /* 8. frameworks */
  sec(p, hl, m, two, "8. transformers, vLLM and llama.cpp on this config");
  rp_command(p, m->line_var[0]);
  rp_command(p, m->line_var[1]);
  rp_para(p, "The same config under each framework's formula (`--variant`), pair by pair against "
          "transformers' (the `freqs` table of section 1):");
  {
    const char *h[] = {"framework", "attention factor", "pairs whose theta differs",
                       "largest theta ratio (pair)"};
    rp_table_head(p, 4, h);
    fmt6(b1, sizeof b1, rp_table_meta(fq, "attention_factor"));
    const char *c0[] = {"transformers (hf)", b1, "(reference)", ""};
    rp_table_row(p, 4, c0);
    for (int k = 0; k < 2; k++) {
      if (m->var_refused[k]) {
        char *why = xasprintf("refused: %s", m->var_refused[k]);
        const char *c[] = {var_who[k], "", why ? why : "refused", ""};
        rp_table_row(p, 4, c);
        free(why);
        continue;
      }
      size_t nd, wp;
      double wr;
      variant_diff(fq, &m->var[k], &nd, &wr, &wp);
      fmt6(b1, sizeof b1, rp_table_meta(&m->var[k], "attention_factor"));
      snprintf(b2, sizeof b2, "%zu of %zu", nd, fq->nrow);
      if (nd)
        snprintf(b3, sizeof b3, "%.8g (pair %zu)", wr, wp);
      else
        snprintf(b3, sizeof b3, "none: identical");
      const char *c[] = {var_who[k], b1, b2, b3};
      rp_table_row(p, 4, c);
    }
    rp_table_end(p);
  }
}

static void page_compare(rp_page *p, const model *a, const model *b)
{
  rp_heading(p, 2, "Side by side");
  rp_para(p, "The headline numbers of both models (`summary.csv` holds them with every digit and "
          "the table each comes from); each model's sections follow.");
  const char *h[] = {"", a->name, b->name};
  rp_table_head(p, 3, h);
  /* a's keys, then those only b has (L = C drops the rows at L); an empty
   * value is a first failure that did not occur, an absent key n/a */
  for (size_t i = 0; i < a->nkv + b->nkv; i++) {
    const char *key = i < a->nkv ? a->kv[i].key : b->kv[i - a->nkv].key;
    if (i >= a->nkv && has_kv(a, key))
      continue;
    char v[2][64];
    const model *ms[2] = {a, b};
    for (int k = 0; k < 2; k++) {
      if (!has_kv(ms[k], key))
        snprintf(v[k], sizeof v[k], "n/a");
      else if (!*get_kv(ms[k], key))
        snprintf(v[k], sizeof v[k], "none");
      else
        fmt6(v[k], sizeof v[k], get_kv(ms[k], key));
    }
    const char *c[] = {key, v[0], v[1]};
    rp_table_row(p, 3, c);
  }
  rp_table_end(p);
  static const char *const stems[] = {"freqs", "decay", "precision-bf16", "extrapolate"};
  for (size_t k = 0; k < 4; k++) {
    char f0[256], f1[256];
    snprintf(f0, sizeof f0, "%s%s.png", a->pfx, stems[k]);
    snprintf(f1, sizeof f1, "%s%s.png", b->pfx, stems[k]);
    const char *f[] = {f0, f1}, *al[] = {a->name, b->name};
    rp_figures(p, 2, f, al);
  }
}

/* ---- files ------------------------------------------------------------ */

static int write_file(const char *dir, const char *name, const char *s, size_t n)
{
  char *path = xasprintf("%s/%s", dir, name);
  if (!path)
    return -1;
  FILE *fp = fopen(path, "w");
  int bad = !fp || fwrite(s, 1, n, fp) != n;
  if (fp)
    bad |= fflush(fp) != 0 || fsync(fileno(fp)) != 0, bad |= fclose(fp) != 0;
  free(path);
  return bad ? -1 : 0;
}

/* one CSV field, quoted (RFC 4180) when it holds a comma, quote or line
 * break: a model's file name or path may */
static void csv_field(rp_buf *b, const char *s)
{
  if (!strpbrk(s, ",\"\r\n")) {
    rp_buf_puts(b, s);
    return;
  }
  rp_buf_puts(b, "\"");
  for (; *s; s++)
    if (*s == '"')
      rp_buf_puts(b, "\"\"");
    else
      rp_buf_add(b, s, 1);
  rp_buf_puts(b, "\"");
}

static int write_summary(const char *dir, model *const *ms, size_t nm)
{
  rp_buf b = {0};
  rp_buf_puts(&b, "model,key,value,table\n");
  rp_buf_printf(&b, "# ropelab=%s\n", RL_VERSION);
  char *line = rl_out_command_line();
  rp_buf_printf(&b, "# command=%s\n", line ? line : "ropelab report");
  free(line);
  rp_buf_puts(&b, "# value=the number as the table names it; table=the file beside this one it "
                  "comes from (the page prints the command that wrote it)\n");
  for (size_t i = 0; i < nm; i++)
    for (size_t j = 0; j < ms[i]->nkv; j++) {
      const char *f[4] = {ms[i]->name, ms[i]->kv[j].key, ms[i]->kv[j].value, ms[i]->kv[j].file};
      for (int k = 0; k < 4; k++) {
        if (k)
          rp_buf_puts(&b, ",");
        csv_field(&b, f[k]);
      }
      rp_buf_puts(&b, "\n");
    }
  int r = b.err ? -1 : write_file(dir, "summary.csv", b.s, b.n);
  rp_buf_free(&b);
  return r;
}

/* mkdtemp(tmpl), registered for removal if we are killed (SIGINT,
 * SIGTERM: the folder and what the subcommands wrote into it go), with
 * those signals blocked in between */
static char *tmp_folder(char *tmpl)
{
  sigset_t old;
  rl_signals_block(&old);
  char *d = mkdtemp(tmpl);
  if (d)
    rl_tmpdir_register(d);
  rl_signals_restore(&old);
  return d;
}

/* move the finished page into place: the folder at once when out does
 * not exist, else each file (each rename atomic) */
static int publish(const char *tmp, const char *out)
{
  struct stat st;
  if (stat(out, &st) != 0 && errno == ENOENT)
    return rename(tmp, out) == 0 ? 0 : -1;
  DIR *d = opendir(tmp);
  if (!d)
    return -1;
  struct dirent *e;
  int bad = 0;
  while (!bad && (e = readdir(d)))
    if (e->d_name[0] != '.') {
      char *a = xasprintf("%s/%s", tmp, e->d_name), *b = xasprintf("%s/%s", out, e->d_name);
      bad = !a || !b || rename(a, b) != 0;
      free(a), free(b);
    }
  closedir(d);
  if (!bad) /* the temporary folder, now empty but for .err files */
    rl_tmpdir_remove();
  return bad ? -1 : 0;
}

static char *stem_of(const char *path)
{
  const char *s = strrchr(path, '/');
  s = s ? s + 1 : path;
  const char *dot = strrchr(s, '.');
  size_t n = dot && dot != s ? (size_t)(dot - s) : strlen(s);
  return strndup(s, n);
}

/* ---- the command ------------------------------------------------------ */

/* CONFIG as the subcommands, run in a folder beside OUT (the temporary
 * one, then OUT itself), reach it: relative when both are relative and
 * OUT climbs no "..", so that the page's command lines hold no path of
 * this machine; else absolute */
static char *config_from(const char *arg, const char *abs, const char *out)
{
  if (arg[0] == '/' || out[0] == '/')
    return strdup(abs);
  rp_buf b = {0};
  const char *s = out;
  while (*s) {
    size_t n = strcspn(s, "/");
    if ((n == 2 && !strncmp(s, "..", 2))) {
      rp_buf_free(&b);
      return strdup(abs);
    }
    if (n && !(n == 1 && *s == '.'))
      rp_buf_puts(&b, "../");
    s += n;
    s += *s == '/';
  }
  rp_buf_puts(&b, arg);
  if (b.err) {
    rp_buf_free(&b);
    return NULL;
  }
  return b.s;
}

static int load_model(model *m, const char *arg, const char *pfx, const char *layer)
{
  memset(m, 0, sizeof *m);
  m->arg = arg;
  m->pfx = pfx;
  m->layer = layer;
  rl_model_rope_init(&m->info);
  m->info.layer_type = layer;
  char err[RL_ERR_MAX];
  rl_status st = rl_model_read(arg, &m->info, err, sizeof err);
  /* the same exit status as every other command's --config */
  if (st == RL_EIO || st == RL_ENOMEM)
    return rl_runtime(CMD, "%s", err);
  if (st)
    return rl_usage(CMD, "%s", err);
  m->abs = realpath(arg, NULL);
  m->name = stem_of(arg);
  if (m->name && layer) {
    char *n = xasprintf("%s:%s", m->name, layer);
    free(m->name);
    m->name = n;
  }
  if (!m->abs || !m->name)
    return rl_runtime(CMD, "cannot resolve the path '%s': %s", arg, strerror(errno));
  return 0;
}

static int run(int argc, char **argv)
{
  static const struct option opts[] = {
      {"compare", required_argument, NULL, OPT_COMPARE},
      {"layer-type", required_argument, NULL, OPT_LAYER},
      {"compare-layer-type", required_argument, NULL, OPT_COMPARE_LAYER},
      {"output", required_argument, NULL, 'o'},
      {"samples", required_argument, NULL, OPT_SAMPLES},
      {"points", required_argument, NULL, OPT_POINTS},
      {"quiet", no_argument, NULL, RL_OPT_QUIET},
      {"progress", no_argument, NULL, RL_OPT_PROGRESS},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  const char *compare = NULL, *out = NULL, *layer = NULL, *clayer = NULL;
  unsigned long long samples = 32, points = 400;
  int progress = RL_PROGRESS_AUTO, c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_COMPARE: compare = optarg; break;
    case OPT_LAYER: layer = optarg; break;
    case OPT_COMPARE_LAYER: clayer = optarg; break;
    case 'o': out = optarg; break;
    case OPT_SAMPLES:
      if ((r = rl_opt_uint(CMD, "--samples", optarg, 2, 1000000, &samples)))
        return r;
      break;
    case OPT_POINTS:
      if ((r = rl_opt_uint(CMD, "--points", optarg, 2, 1000000, &points)))
        return r;
      break;
    case RL_OPT_QUIET: progress = RL_PROGRESS_QUIET; break;
    case RL_OPT_PROGRESS: progress = RL_PROGRESS_FORCE; break;
    case 'h':
      help(stdout);
      return RL_EXIT_OK;
    default: return rl_opt_bad(CMD, c, argv, opts);
    }
  }
  if (optind >= argc)
    return rl_usage(CMD, "missing CONFIG: expected a model's config.json or GGUF file");
  if (optind + 1 < argc)
    return rl_usage(CMD, "unexpected argument '%s': expected one CONFIG (a second model: --compare)",
                    argv[optind + 1]);
  const char *config = argv[optind];
  if (out && !*out)
    return rl_usage(CMD, "invalid --output '': expected a folder name");
  if (clayer && !compare)
    return rl_usage(CMD, "--compare-layer-type '%s' needs --compare CONFIG2", clayer);

  model ma, mb;
  int two = compare != NULL;
  memset(&mb, 0, sizeof mb);
  rl_model_rope_init(&mb.info);
  if ((r = load_model(&ma, config, two ? "a-" : "", layer)) ||
      (two && (r = load_model(&mb, compare, "b-", clayer)))) {
    free_model(&ma);
    free_model(&mb);
    return r;
  }
  if (two && !strcmp(ma.name, mb.name)) {
    /* two files of one name: tell them apart on the page */
    free(ma.name), free(mb.name);
    ma.name = strdup("A"), mb.name = strdup("B");
  }
  char *outdir = out ? strdup(out)
                     : two ? xasprintf("report-%s-vs-%s", ma.name, mb.name)
                           : xasprintf("report-%s", ma.name);
  /* the page is made inside the target's own file system, so that the
   * renames into place cannot cross devices (a mount point as -o): in the
   * target when it exists, else beside it (then renamed as a whole) */
  struct stat ost;
  int exists = outdir && stat(outdir, &ost) == 0 && S_ISDIR(ost.st_mode);
  char *tmp = !outdir ? NULL
              : exists ? xasprintf("%s/.report-XXXXXX", outdir)
                       : xasprintf("%s.tmp-XXXXXX", outdir);
  char *ra = outdir ? config_from(config, ma.abs, outdir) : NULL;
  char *rb = outdir && two ? config_from(compare, mb.abs, outdir) : NULL;
  if (ra)
    free(ma.abs), ma.abs = ra;
  if (rb)
    free(mb.abs), mb.abs = rb;
  struct stat st;
  if (!outdir || !tmp || !ra || !ma.name || (two && (!mb.name || !rb))) {
    r = rl_runtime(CMD, "out of memory");
  } else if (stat(outdir, &st) == 0 && !S_ISDIR(st.st_mode)) {
    r = rl_usage(CMD, "invalid --output '%s': expected a folder (it is a file)", outdir);
  } else if (!tmp_folder(tmp)) {
    r = rl_runtime(CMD, "cannot create a folder %s '%s': %s", exists ? "in" : "beside", outdir,
                   strerror(errno));
  } else {
    /* mkdtemp's 0700 is for the work; the page gets a folder's usual mode */
    mode_t um = umask(0);
    umask(um);
    if (chmod(tmp, 0777 & ~um))
      r = rl_runtime(CMD, "cannot create a folder beside '%s': %s", outdir, strerror(errno));
    if (r)
      rl_tmpdir_remove();
  }
  if (r) {
    free(outdir), free(tmp);
    free_model(&ma), free_model(&mb);
    return r;
  }

  ctx cx = {.tmp = tmp, .samples = (unsigned)samples, .points = (unsigned)points};
  rl_progress_init(&cx.prog, CMD, progress, two ? 2 * NSTEPS : NSTEPS, 1);
  clock_gettime(CLOCK_MONOTONIC, &cx.start);
  r = run_model(&cx, &ma);
  if (!r && two)
    r = run_model(&cx, &mb);
  if (!r && (headline(&ma) || (two && headline(&mb))))
    r = rl_runtime(CMD, "out of memory");
  if (!r) {
    rp_page p;
    char *title = two ? xasprintf("RoPE report: %s and %s", ma.name, mb.name)
                      : xasprintf("RoPE report: %s", ma.name);
    rp_page_begin(&p, tmp, title ? title : "RoPE report");
    free(title);
    rp_para(&p, "Made by `ropelab report` %s. Every number below comes from the ropelab command "
            "printed above its section, run in this folder (its CSV, with the command line and "
            "every parameter in its metadata, is beside this page; numbers are shown to 6 "
            "significant digits, the CSVs and `summary.csv` hold every digit). Settings: %u "
            "content samples for extrapolate, %u distances for decay.",
            RL_VERSION, (unsigned)samples, (unsigned)points);
    if (two)
      page_compare(&p, &ma, &mb);
    page_model(&p, &ma, two, (unsigned)samples, (unsigned)points);
    if (two)
      page_model(&p, &mb, two, (unsigned)samples, (unsigned)points);
    rp_page_end(&p);
    model *ms[2] = {&ma, &mb};
    if (p.md.err || p.html.err)
      r = rl_runtime(CMD, "out of memory, or a figure could not be read");
    else if (write_file(tmp, "report.md", p.md.s, p.md.n) ||
             write_file(tmp, "report.html", p.html.s, p.html.n) ||
             write_summary(tmp, ms, two ? 2 : 1))
      r = rl_runtime(CMD, "cannot write into '%s': %s", tmp, strerror(errno));
    rp_buf_free(&p.md);
    rp_buf_free(&p.html);
  }
  if (!r && publish(tmp, outdir))
    r = rl_runtime(CMD, "cannot move the page into '%s': %s", outdir, strerror(errno));
  if (r)
    rl_tmpdir_remove();
  else
    rl_tmpdir_unregister();
  if (!r && cx.prog.shown)
    rl_progress_end(&cx.prog);
  if (!r && isatty(1))
    printf("%s/report.html\n", outdir);
  free(outdir), free(tmp);
  free_model(&ma), free_model(&mb);
  return r;
}

const struct rl_cmd rl_cmd_report = {"report", run,
                                     "one page (Markdown and HTML) on a model's RoPE, from its config",
                                     help, NULL};
