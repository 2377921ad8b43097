/* cmd_matrix.c: `ropelab matrix`, the n x n attention logit matrix of a
 * positional scheme, whole or one term of its split (RoFormer sec. 2.2;
 * terms in ropelab.h "schemes").  Streamed: the n keys are prepared once
 * (n prep_len doubles, O(n d)), each row's query is prepared and paired
 * with every key, formatted and written; nothing n x n is ever held.
 * Rows are computed and formatted by --threads workers, a block of rows
 * at a time, and written in order. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "rowfmt.h"
#include "scheme_opts.h"
#include "sink.h"
#include "threads.h"

enum { OPT_LEN = RL_OPT_FIRST_CMD, OPT_OFFSET, OPT_TERM, OPT_FORMAT, OPT_CONTENT, OPT_THREADS,
       OPT_SHORTEST };

enum { T_TOTAL, T_POSITIONAL, T_CC, T_CP, T_PC, T_PP, T_BIAS, T_MIX, T_ALL };
static const char *const term_names[] = {"total", "positional", "cc", "cp", "pc",
                                         "pp", "bias", "mix"};
#define NTERMS 8
static const char *const formats[] = {"long", "grid"}, *const contents[] = {"random", "same"};
#define BLOCK_VALUES 65536 /* values per worker per round: bounds the buffers */

static void help(FILE *fp)
{
  fputs("usage: ropelab matrix --scheme S [OPTIONS]\n"
        "\n"
        "The n x n attention logit of scheme S between a query at position i and a\n"
        "key at position j, i, j = offset .. offset + n - 1, whole or split into\n"
        "its terms (ropelab.h, section schemes).  Memory O(n d), streamed by rows.\n"
        "\n"
        "      --scheme S     one scheme (required; a wrong name lists them all)\n"
        "      --len N        n, >= 1 (default 64)\n"
        "      --offset P     first position, integer >= 0 (default 0)\n"
        "      --term T       total, positional (= total - cc), cc, cp, pc, pp, bias or\n"
        "                     mix (default total; long format: all of them unless given)\n"
        "      --format F     long: columns i,j,total,cc,cp,pc,pp,bias,mix (or i,j,T with\n"
        "                     --term); grid: n rows of n values, row i = query position,\n"
        "                     no header (gnuplot 'matrix' input) (default long)\n"
        "      --content C    random: content x_i ~ N(0, I) drawn per position (--seed);\n"
        "                     same: x_0 at every position (default random)\n"
        "      --threads T    worker threads (default: online processors, at most 64)\n"
        "      --shortest     shortest round-trip numbers (rl_numfmt, as other commands);\n"
        "                     default: 17 significant digits, round-trip exact\n"
        "\n",
        fp);
  rl_scheme_opts_help(fp);
  rl_common_help(fp);
}

struct ctx {
  const rl_scheme *s;
  size_t head, n, plen, d;
  double offset;
  const double *keys, *content;
  int same, term, shortest, grid;
};

struct job {
  const struct ctx *c;
  size_t i0, i1;
  double *pq;
  char *buf;
  size_t len, cap;
  rl_status st;
  double bad_i, bad_j;
  int nonfinite;
};

static double pick(const rl_logit_terms *t, int term)
{
  switch (term) {
  case T_POSITIONAL: return t->total - t->cc;
  case T_CC: return t->cc;
  case T_CP: return t->cp;
  case T_PC: return t->pc;
  case T_PP: return t->pp;
  case T_BIAS: return t->bias;
  case T_MIX: return t->mix;
  default: return t->total;
  }
}

static char *put_num(const struct ctx *c, char *p, double v)
{
  return p + (c->shortest ? rl_numfmt(v, p) : rl_numfmt17(v, p));
}

static void *work(void *arg)
{
  struct job *jb = arg;
  const struct ctx *c = jb->c;
  jb->len = 0;
  for (size_t i = jb->i0; i < jb->i1; i++) {
    double pi = c->offset + (double)i;
    const double *x = c->content + (c->same ? 0 : i * c->d);
    jb->st = rl_scheme_prepare(c->s, c->head, RL_ROLE_QUERY, pi, x, jb->pq);
    if (jb->st) {
      jb->bad_i = jb->bad_j = pi;
      return NULL;
    }
    char *p = jb->buf + jb->len;
    for (size_t j = 0; j < c->n; j++) {
      double pj = c->offset + (double)j;
      rl_logit_terms t;
      jb->st = rl_scheme_pair(c->s, c->head, pi, pj, jb->pq, c->keys + j * c->plen, &t);
      if (jb->st) {
        jb->bad_i = pi, jb->bad_j = pj;
        return NULL;
      }
      double v[NTERMS + 2];
      t.total += 0.0, t.cc += 0.0, t.cp += 0.0, t.pc += 0.0; /* -0 prints as 0 */
      t.pp += 0.0, t.bias += 0.0, t.mix += 0.0;
      size_t m = 0;
      if (c->grid) {
        v[m++] = pick(&t, c->term);
      } else {
        v[m++] = pi;
        v[m++] = pj;
        if (c->term == T_ALL) {
          v[m++] = t.total, v[m++] = t.cc, v[m++] = t.cp, v[m++] = t.pc;
          v[m++] = t.pp, v[m++] = t.bias, v[m++] = t.mix;
        } else {
          v[m++] = pick(&t, c->term);
        }
      }
      for (size_t k = 0; k < m; k++) {
        if (!isfinite(v[k])) {
          jb->nonfinite = 1;
          jb->bad_i = pi, jb->bad_j = pj;
          return NULL;
        }
        if (k || (c->grid && j))
          *p++ = ',';
        p = put_num(c, p, v[k]);
      }
      if (!c->grid)
        *p++ = '\n';
    }
    if (c->grid)
      *p++ = '\n';
    jb->len = (size_t)(p - jb->buf);
  }
  return NULL;
}

static int run(int argc, char **argv)
{
  static const struct option own_opts[] = {
      {"len", required_argument, NULL, OPT_LEN},
      {"offset", required_argument, NULL, OPT_OFFSET},
      {"term", required_argument, NULL, OPT_TERM},
      {"format", required_argument, NULL, OPT_FORMAT},
      {"content", required_argument, NULL, OPT_CONTENT},
      {"threads", required_argument, NULL, OPT_THREADS},
      {"shortest", no_argument, NULL, OPT_SHORTEST},
      RL_SCHEME_LONGOPTS,
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  const struct option *opts = rl_scheme_longopts(own_opts);
  const char *cmd = "matrix";
  rl_scheme_opts so;
  rl_scheme_opts_init(&so);
  rl_common co;
  rl_common_init(&co);
  unsigned long long len = 64, offset = 0, threads = 0;
  int term = -1, grid = 0, same = 0, shortest = 0, c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_LEN:
      /* 2^31: positions stay within RL_POS_MAX; n^2 output is the real limit */
      if ((r = rl_opt_uint(cmd, "--len", optarg, 1, 1ull << 31, &len)))
        return r;
      break;
    case OPT_OFFSET:
      if ((r = rl_opt_uint(cmd, "--offset", optarg, 0, 1ull << 31, &offset)))
        return r;
      break;
    case OPT_TERM:
      if ((r = rl_opt_enum(cmd, "--term", optarg, term_names, NTERMS, &term)))
        return r;
      break;
    case OPT_FORMAT: /* index 1: grid */
      if ((r = rl_opt_enum(cmd, "--format", optarg, formats, 2, &grid)))
        return r;
      break;
    case OPT_CONTENT: /* index 1: same */
      if ((r = rl_opt_enum(cmd, "--content", optarg, contents, 2, &same)))
        return r;
      break;
    case OPT_THREADS:
      if ((r = rl_opt_uint(cmd, "--threads", optarg, 1, RL_THREADS_MAX, &threads)))
        return r;
      break;
    case OPT_SHORTEST:
      shortest = 1;
      break;
    default:
      if ((r = rl_scheme_opt_default(&so, &co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if ((r = rl_scheme_opts_end(&so, &co, cmd, argc, argv, help, 1, NULL)))
    return r == RL_OPT_DONE ? RL_EXIT_OK : r;
  if (offset + len - 1 > (unsigned long long)RL_POS_MAX)
    return rl_usage(cmd, "invalid --len '%llu': positions beyond %.0f with --offset %llu", len,
                    RL_POS_MAX, offset);
  if (term < 0)
    term = grid ? T_TOTAL : T_ALL;
  if (!threads)
    threads = (unsigned long long)rl_online_cpus(RL_THREADS_MAX);
  size_t n = (size_t)len, d = so.cfg.dim;

  rl_scheme *s = NULL;
  double *keys = NULL, *content = NULL, *pq = NULL;
  struct job jobs[RL_THREADS_MAX];
  memset(jobs, 0, sizeof jobs);
  gsl_rng *rng = NULL;
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc = 0;
  if ((rc = rl_scheme_opts_alloc(&so, cmd, so.names[0], &s)))
    return rc;
  /* every position used, checked before any output */
  if ((rc = rl_scheme_probe(s, cmd, (double)offset, "--offset")) ||
      (rc = rl_scheme_probe(s, cmd, (double)(offset + len - 1), "--len")))
    goto done;
  size_t plen = rl_scheme_prep_len(s);
  size_t nc = same ? 1 : n;
  keys = malloc(n * plen * sizeof *keys);
  content = malloc(nc * d * sizeof *content);
  rng = gsl_rng_alloc(gsl_rng_mt19937);
  /* rows per worker and round: ~BLOCK_VALUES values; a value takes at
   * most RL_NUMFMT_MAX + 1 bytes (9 of them and 2 positions in long) */
  size_t rows = BLOCK_VALUES / n ? BLOCK_VALUES / n : 1;
  size_t per_row = n * (grid ? 1 : (term == T_ALL ? 9 : 3)) * (RL_NUMFMT_MAX + 1) + 2;
  for (size_t t = 0; t < threads && keys; t++) {
    jobs[t].cap = rows * per_row;
    jobs[t].buf = malloc(jobs[t].cap);
    jobs[t].pq = malloc(plen * sizeof *pq);
    if (!jobs[t].buf || !jobs[t].pq)
      keys[0] = 0, rc = -1;
  }
  if (!keys || !content || !rng || rc) {
    rc = rl_runtime(cmd, "%s (--len %llu)", rl_strerror(RL_ENOMEM), len);
    goto done;
  }
  gsl_rng_set(rng, so.cfg.seed);
  for (size_t k = 0; k < nc * d; k++)
    content[k] = gsl_ran_gaussian(rng, 1.0);
  for (size_t j = 0; j < n; j++) {
    double pj = (double)(offset + j);
    rl_status st = rl_scheme_prepare(s, so.cfg.head, RL_ROLE_KEY, pj, content + (same ? 0 : j * d),
                                     keys + j * plen);
    if (st) {
      rc = rl_scheme_fail(s, cmd, st, pj, "--len");
      goto done;
    }
  }

  if (grid)
    co.header = 0; /* a grid has no header row (its JSON Lines and .npy know it) */
  if ((rc = rl_sink_open(&sink, cmd, &co, "heatmap.gp")))
    goto done;
  rl_out_meta_begin(out);
  rl_scheme_opts_meta(&so, out);
  rl_out_meta_uint(out, "len", len);
  rl_out_meta_uint(out, "offset", offset);
  rl_out_meta(out, "format", grid ? "grid" : "long");
  rl_out_meta(out, "term", term == T_ALL ? "all" : term_names[term]);
  rl_out_meta(out, "content", same ? "same: x_0 ~ N(0, I) at every position"
                                   : "random: x_i ~ N(0, I) per position");
  rl_out_meta(out, "rows", "query position i");
  rl_out_meta(out, "columns", "key position j");
  rl_out_meta(out, "relpos", rl_scheme_get_info(s)->relpos);
  rl_out_meta(out, "numbers", shortest ? "shortest round-trip (rl_numfmt)"
                                       : "at most 17 significant digits, round-trip exact");
  if (!grid) {
    char hdr[64];
    snprintf(hdr, sizeof hdr, "i,j,%s",
             term == T_ALL ? "total,cc,cp,pc,pp,bias,mix" : term_names[term]);
    rl_out_header(out, hdr);
  }

  struct ctx cx = {s, so.cfg.head, n, plen, d, (double)offset, keys, content, same, term,
                   shortest, grid};
  rl_progress prog;
  rl_progress_init(&prog, cmd, co.progress, n, (double)n * (double)n > 4e6);
  for (size_t i0 = 0; i0 < n && !out->err;) {
    size_t used = 0;
    for (size_t t = 0; t < threads && i0 < n; t++, used++) {
      jobs[t].c = &cx;
      jobs[t].i0 = i0;
      jobs[t].i1 = i0 + rows < n ? i0 + rows : n;
      i0 = jobs[t].i1;
    }
    rl_threads_run(work, jobs, sizeof *jobs, used);
    for (size_t t = 0; t < used; t++) {
      if (jobs[t].st) {
        rc = rl_scheme_fail(s, cmd, jobs[t].st, jobs[t].bad_j, "--len");
        goto done;
      }
      if (jobs[t].nonfinite) {
        char where[96];
        snprintf(where, sizeof where, "logit at i = %.17g, j = %.17g", jobs[t].bad_i,
                 jobs[t].bad_j);
        rc = rl_scheme_overflow(cmd, rl_scheme_get_info(s)->name, so.cfg.param_file, where);
        goto done;
      }
      rl_out_write(out, jobs[t].buf, jobs[t].len);
    }
    rl_progress_update(&prog, i0);
  }
  rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  for (size_t t = 0; t < RL_THREADS_MAX; t++) {
    free(jobs[t].buf);
    free(jobs[t].pq);
  }
  gsl_rng_free(rng);
  free(keys);
  free(content);
  rl_scheme_free(s);
  return rc;
}

const struct rl_cmd rl_cmd_matrix = {"matrix", run,
                                     "n x n logit matrix of a positional scheme, by term", help, NULL};
