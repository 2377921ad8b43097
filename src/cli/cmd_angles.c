/* cmd_angles.c: `ropelab angles`, the cos/sin table of a schedule per
 * position, in the shapes frameworks store it, to diff against a table
 * from one's own code.  Rows are streamed: the text of a block of rows is
 * built in a line buffer and written, so memory does not grow with the
 * number of positions. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "ropelab.h"
#include "rowfmt.h"
#include "sched_opts.h"
#include "sink.h"
#include "threads.h"

enum { OPT_FROM = RL_OPT_FIRST_CMD, OPT_TO, OPT_STEP, OPT_FORMAT, OPT_THREADS };

enum { F_LONG, F_PAIRS, F_DIMS, F_HF };
static const char *const format_names[] = {"long", "pairs", "dims", "hf"};
#define NFORMATS (sizeof format_names / sizeof *format_names)

#define BUF_MIN 262144         /* bytes of text per block of rows */
#define PROGRESS_ROWS 100000

static void help(FILE *fp)
{
  fputs("usage: ropelab angles [OPTIONS]\n"
        "\n"
        "The cos/sin table a schedule produces, per position m, as frameworks store\n"
        "it, to diff against a table from your own code. Every value is\n"
        "  attention_factor * cos(m * theta_i), attention_factor * sin(m * theta_i)\n"
        "with the angle m * theta_i reduced exactly (each value within 0.55 ulp\n"
        "before the attention factor, which multiplies it once, as Hugging Face\n"
        "multiplies cos and sin by attention_scaling), printed as the shortest\n"
        "decimal that reads back as the exact double.  With --precision P a\n"
        "framework pipeline's table instead (float32 angle, cosf/sinf, the attention\n"
        "factor in float32, rounded to its table dtype: see 'ropelab help precision').\n"
        "\n"
        "formats (--format):\n"
        "  long    pos,pair,cos,sin: one row per position and pair i (tidy data)\n"
        "  pairs   pos,cos0..cos{n-1},sin0..sin{n-1}: one row per position, one\n"
        "          value per pair (n = rot/2), as a complex table e^{i m theta}\n"
        "          (Meta Llama's freqs_cis: polar(1, outer(t, freqs)))\n"
        "  dims    pos,cos_d0..cos_d{r-1},sin_d0..sin_d{r-1}: one column per rotated\n"
        "          dimension where --layout puts its pair: interleaved, pair i on\n"
        "          dims 2i, 2i+1 (RoFormer, GPT-J: repeat_interleave); half, pair i\n"
        "          on dims i and i + r/2 (GPT-NeoX)\n"
        "  hf      Hugging Face's cos and sin caches (LlamaRotaryEmbedding):\n"
        "            emb = cat(freqs, freqs); cos = emb.cos() * attention_scaling,\n"
        "            sin = emb.sin() * attention_scaling\n"
        "          i.e. dims with the half layout, whatever --layout says\n"
        "Pass-through dimensions (rot < dim) are not rotated and not listed.\n"
        "Methods that map relative positions (rerope, leaky-rerope) have no table\n"
        "per position. xpos: the rotation alone, without its amplitude. mrope: text\n"
        "positions (t = h = w = pos).\n"
        "\n", fp);
  rl_sched_opts_help(fp);
  fputs("positions:\n"
        "      --from A       first position (default 0)\n"
        "      --to B         last position, |B| <= 2147483648 (default 15)\n"
        "      --step S       spacing, > 0 (default 1)\n"
        "table:\n"
        "      --format F     long, pairs, dims or hf (default long)\n"
        "      --threads T    worker threads (default: online processors, at most 64);\n"
        "                     the output is the same bytes whatever T\n"
        "\n", fp);
  rl_common_help_noplot(fp);
}

static int out_of_range(const char *cmd, const char *opt, const char *arg)
{
  return rl_usage(cmd, "invalid %s '%s': positions beyond 2147483648 are outside the "
                       "accurate range", opt, arg);
}

/* A growing text buffer flushed onto the output. */
typedef struct textbuf {
  char *p;
  size_t len, cap;
} textbuf;

/* Values in the shortest form that reads back exactly (rl_numfmt), as
 * every command writes them. */
static inline void put_num(textbuf *b, double x)
{
  b->p[b->len++] = ',';
  b->len += (size_t)rl_numfmt(x, b->p + b->len);
}

static inline void put_str(textbuf *b, const char *s, size_t n)
{
  memcpy(b->p + b->len, s, n);
  b->len += n;
}

/* A block of consecutive positions formatted by one thread into its own
 * buffer; the blocks are written in order, so the bytes do not depend on
 * the number of threads. */
typedef struct job {
  const rl_schedule *f;
  const rl_grid *g;
  int format;
  rl_layout layout;
  size_t j0, j1;   /* rows j0..j1-1 */
  double *cs;      /* 2 n doubles */
  textbuf tb;      /* (j1 - j0) rows of text at most */
  rl_status st;    /* first failure, at row bad */
  size_t bad;
} job;

static void *job_run(void *arg)
{
  job *J = arg;
  const rl_schedule *f = J->f;
  size_t n = f->n, rdim = f->rot;
  double *cv = J->cs, *sv = J->cs + n;
  textbuf *tb = &J->tb;
  tb->len = 0;
  J->st = RL_OK;
  for (size_t j = J->j0; j < J->j1; j++) {
    double m = rl_grid_at(J->g, j);
    rl_status st = rl_schedule_cossin(f, m, cv, sv);
    if (st) {
      J->st = st;
      J->bad = j;
      return NULL;
    }
    char pos[RL_NUMFMT_MAX];
    size_t plen = (size_t)rl_numfmt(m, pos);
    if (J->format == F_LONG) {
      char ib[24] = ",";
      size_t ilen = 2; /* ",i" for i = 0, 1, ...: counted up in text */
      ib[1] = '0';
      for (size_t i = 0; i < n; i++) {
        put_str(tb, pos, plen);
        put_str(tb, ib, ilen);
        size_t d = ilen - 1; /* increment the decimal text */
        while (d > 0 && ib[d] == '9')
          ib[d--] = '0';
        if (d > 0) {
          ib[d]++;
        } else {
          memmove(ib + 2, ib + 1, ilen - 1);
          ib[1] = '1';
          ilen++;
        }
        put_num(tb, cv[i]);
        put_num(tb, sv[i]);
        tb->p[tb->len++] = '\n';
      }
      continue;
    }
    put_str(tb, pos, plen);
    if (J->format == F_PAIRS) {
      for (size_t i = 0; i < n; i++)
        put_num(tb, cv[i]);
      for (size_t i = 0; i < n; i++)
        put_num(tb, sv[i]);
    } else {
      /* dimension k belongs to pair k/2 (interleaved) or k mod n (half),
       * as rl_layout_pair places them */
      int half = J->layout == RL_LAYOUT_HALF;
      for (int w = 0; w < 2; w++) {
        const double *v = w ? sv : cv;
        for (size_t k = 0; k < rdim; k++)
          put_num(tb, v[half ? (k < n ? k : k - n) : k / 2]);
      }
    }
    tb->p[tb->len++] = '\n';
  }
  return NULL;
}

/* The header (its own buffer: it can be wider than rl_out_header's). */
static int write_header(rl_out *out, int format, size_t n, size_t r)
{
  if (!out->header)
    return 0;
  if (format == F_LONG) {
    rl_out_write(out, "pos,pair,cos,sin\n", 17);
    return 0;
  }
  size_t cols = format == F_PAIRS ? n : r;
  char *h = malloc(16 + 2 * cols * 24);
  if (!h)
    return -1;
  size_t len = (size_t)sprintf(h, "pos");
  const char *sfx = format == F_PAIRS ? "" : "_d";
  for (int cs = 0; cs < 2; cs++)
    for (size_t j = 0; j < cols; j++)
      len += (size_t)sprintf(h + len, ",%s%s%zu", cs ? "sin" : "cos", sfx, j);
  h[len++] = '\n';
  rl_out_write(out, h, len);
  free(h);
  return 0;
}

static int run(int argc, char **argv)
{
  static const struct option opts[] = {
      RL_SCHED_LONGOPTS,
      {"from", required_argument, NULL, OPT_FROM},
      {"to", required_argument, NULL, OPT_TO},
      {"step", required_argument, NULL, OPT_STEP},
      {"format", required_argument, NULL, OPT_FORMAT},
      {"threads", required_argument, NULL, OPT_THREADS},
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  const char *cmd = "angles";
  rl_sched_opts so;
  rl_sched_opts_init(&so, 0);
  double from = 0, to = 15, step = 1;
  const char *from_arg = "0", *to_arg = "15", *step_arg = "1";
  int format = F_LONG;
  unsigned long long threads = 0;
  rl_common co;
  rl_common_init(&co);
  int c, r;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_FROM:
      from_arg = optarg;
      if ((r = rl_opt_double(cmd, "--from", optarg, &from)))
        return r;
      break;
    case OPT_TO:
      to_arg = optarg;
      if ((r = rl_opt_double(cmd, "--to", optarg, &to)))
        return r;
      break;
    case OPT_STEP:
      step_arg = optarg;
      if ((r = rl_opt_step(cmd, optarg, &step)))
        return r;
      break;
    case OPT_FORMAT:
      if ((r = rl_opt_enum(cmd, "--format", optarg, format_names, NFORMATS, &format)))
        return r;
      break;
    case OPT_THREADS:
      if ((r = rl_opt_uint(cmd, "--threads", optarg, 1, RL_THREADS_MAX, &threads)))
        return r;
      break;
    default:
      if ((r = rl_sched_opt_default(&so, &co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if (co.help) {
    help(stdout);
    return RL_EXIT_OK;
  }
  if ((r = rl_opt_no_args(cmd, argc, argv)) || (r = rl_sched_opts_finish(&so, cmd)))
    return r;
  if (co.plot)
    return rl_usage(cmd, "--plot is not available for angles (it is a table to diff)");

  /* the positions */
  if (fabs(from) > RL_POS_MAX)
    return out_of_range(cmd, "--from", from_arg);
  if (fabs(to) > RL_POS_MAX)
    return out_of_range(cmd, "--to", to_arg);
  if (to < from)
    return rl_usage(cmd, "invalid range: --to '%s' is below --from '%s'", to_arg, from_arg);
  rl_grid g;
  rl_status st = rl_grid_linear(from, to, step, &g);
  if (st == RL_ERANGE)
    return out_of_range(cmd, "--to", to_arg);
  if (st)
    return rl_usage(cmd, "invalid --step '%s': too many rows from '%s' to '%s'", step_arg,
                    from_arg, to_arg);

  rl_schedule *f = NULL;
  if ((r = rl_sched_build(&so.p, cmd, &f)))
    return r;
  if (f->type && f->type->relpos) {
    r = rl_usage(cmd, "method '%s' has no table per position (it maps relative positions)",
                 f->type->name);
    rl_schedule_free(f);
    return r;
  }

  /* workspaces, before any output: per thread, cos and sin and the text
   * of a block of rows (about BUF_MIN bytes, at least one row) */
  size_t n = f->n, rdim = f->rot;
  rl_layout layout = format == F_HF ? RL_LAYOUT_HALF : so.p.layout;
  size_t row_max = format == F_LONG ? n * (4 * (RL_NUMFMT_MAX + 1) + 2)
                                    : (2 * rdim + 1) * (RL_NUMFMT_MAX + 1) + 2;
  size_t block = BUF_MIN / row_max ? BUF_MIN / row_max : 1;
  size_t nthreads = threads ? (size_t)threads : (size_t)rl_online_cpus(RL_THREADS_MAX);
  job jobs[RL_THREADS_MAX];
  memset(jobs, 0, sizeof jobs);
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc = 0;
  for (size_t t = 0; t < nthreads; t++) {
    jobs[t].f = f, jobs[t].g = &g, jobs[t].format = format, jobs[t].layout = layout;
    jobs[t].cs = malloc(2 * (n ? n : 1) * sizeof *jobs[t].cs);
    jobs[t].tb.cap = block * row_max;
    jobs[t].tb.p = malloc(jobs[t].tb.cap);
    if (!jobs[t].cs || !jobs[t].tb.p) {
      rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
      goto done;
    }
  }
  if ((rc = rl_sink_open(&sink, cmd, &co, NULL)))
    goto done;

  rl_out_meta_begin(out);
  rl_sched_meta(&so.p, f, out);
  rl_out_meta_num(out, "from", from);
  rl_out_meta_num(out, "to", to);
  rl_out_meta_num(out, "step", step);
  rl_out_meta_uint(out, "rows", format == F_LONG ? g.points * n : g.points);
  rl_out_meta(out, "format", format_names[format]);
  if (format == F_DIMS || format == F_HF)
    rl_out_meta(out, "columns", layout == RL_LAYOUT_HALF
                                    ? "half layout: pair i on dims i and i + rot/2"
                                    : "interleaved layout: pair i on dims 2i and 2i+1");
  rl_out_meta(out, "values",
              "attention_factor * cos(pos * theta_i), attention_factor * sin(pos * theta_i)");
  if (f->amp_rate)
    rl_out_meta(out, "amplitude",
                "not included: the rotation table only; xpos also scales the query at m "
                "by e^(m rate_i) and the key at n by e^(-n rate_i)");
  if (f->axis)
    rl_out_meta(out, "positions", "text positions: t = h = w = pos for every axis");
  if (write_header(out, format, n, rdim)) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }

  rl_progress prog;
  rl_progress_init(&prog, cmd, co.progress, g.points, g.points * (n ? n : 1) > PROGRESS_ROWS * 64);
  for (size_t j0 = 0; j0 < g.points && !out->err;) {
    size_t used = 0;
    for (; used < nthreads && j0 < g.points; used++) {
      jobs[used].j0 = j0;
      j0 = g.points - j0 < block ? g.points : j0 + block;
      jobs[used].j1 = j0;
    }
    rl_threads_run(job_run, jobs, sizeof *jobs, used);
    for (size_t t = 0; t < used && !out->err; t++) {
      if (jobs[t].st) {
        st = jobs[t].st;
        rc = st == RL_ERANGE ? out_of_range(cmd, "--to", to_arg)
                             : rl_runtime(cmd, "cannot evaluate the angles at position %g: %s",
                                          rl_grid_at(&g, jobs[t].bad), rl_strerror(st));
        goto done;
      }
      rl_out_write(out, jobs[t].tb.p, jobs[t].tb.len);
    }
    rl_progress_update(&prog, j0);
  }
  rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  for (size_t t = 0; t < RL_THREADS_MAX; t++) {
    free(jobs[t].tb.p);
    free(jobs[t].cs);
  }
  rl_schedule_free(f);
  return rc;
}

const struct rl_cmd rl_cmd_angles = {"angles", run,
                                     "the cos/sin table of a schedule per position", help};
