/* cmd_extrapolate.c: `ropelab extrapolate --train-len L --eval-len N`,
 * what changes past the training length for every scheme and every
 * context-extension method, one tidy table (one row per scheme x method
 * x scale x measure x statistic x length x distance x pair) so that every
 * curve draws on one axis.  The measures are the core's
 * (src/core/measures: unseen.c, retrieval.c, entropy.c, shift.c,
 * window.c, extrap.c); this file parses, calls and writes. */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "progress.h"
#include "rl_config.h"
#include "rowfmt.h"
#include "decl_opts.h"
#include "scheme_opts.h"
#include "sink.h"
#include "threads.h"

enum {
  OPT_EVAL_LEN = RL_OPT_FIRST_CMD, OPT_LENGTHS, OPT_DISTANCES, OPT_MEASURE, OPT_SCALE,
  OPT_THREADS,
  OPT_EX /* the settings declared in the core (rl_extrap_param_list), from here on */
};

#define METHODS_MAX 32
#define LIST_MAX 4096

static const char *const scale_names[] = {"none", "logn", "yarn"};

static void help(FILE *fp)
{
  fputs("usage: ropelab extrapolate --train-len L --eval-len N [OPTIONS]\n"
        "\n"
        "What changes past the training length L, up to N, for every positional\n"
        "scheme (--scheme) and, for rope and rope2d, every context-extension method\n"
        "(--method), on the same seeded content.  One long table: columns\n"
        "scheme,method,scale,window,sinks,measure,stat,len,r,pair,value,se, one row\n"
        "per value, so that curves of every scheme and method share one axis.\n"
        "\n"
        "A sequence of len tokens; the last one is the query and attends to all of\n"
        "them.  Query and key vectors are the contents (identity projections, so\n"
        "--identity is refused), x ~ N(0, I_d) from --seed, the same for every\n"
        "scheme, method and length.  Logits are q.k / sqrt(d) (times the method's logit\n"
        "multiplier and --scale) plus the scheme's positional terms.  The schemes'\n"
        "trained parameters are draws from --seed unless --params gives a model's\n"
        "table: T5's bucket biases N(0, 1/d), as are the learned, tupe and deberta\n"
        "tables.\n"
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
        "\n",
        fp);
  fputs("      --train-len L     training length, >= 1 (required)\n"
        "      --eval-len N      longest evaluated length, L <= N <= 2^31 (required)\n"
        "      --lengths LIST    lengths n evaluated (sweep syntax: 512,1024 or\n"
        "                        1024:32768:x2), each 1..N; N is always added\n"
        "                        (default L/4, L/2, L, 2L, ... up to N; rounded down\n"
        "                        when not whole, said in the metadata)\n"
        "      --distances LIST  retrieval distances r (default 0, 1, 2, 4, ... < N);\n"
        "                        a distance >= n gives no row at that length\n"
        "      --scheme LIST     comma-separated schemes, or 'all' (default all)\n"
        "      --measure LIST    unseen,retrieval,entropy,shift (default all)\n"
        "      --method LIST     methods of rope and rope2d, or 'all' (the methods that\n"
        "                        need no file; default rope); factor N / L and train\n"
        "                        length L where a method takes them\n"
        "      --factor S        the methods' scale factor instead of N / L\n"
        "      --scale LIST      logit scales on top of every scheme: none, logn\n"
        "                        (max(1, ln n / ln L)), yarn ((0.1 ln(n/L) + 1)^2, YaRN's\n"
        "                        temperature) (default none)\n"
        "      --threads T       worker threads (default: online processors)\n",
        fp);
  rl_decl_help_at(fp, rl_extrap_param_list(), 24);
  fputs("\n"
        "learned and tupe get a table of L rows (unless --max-len) whose last row\n"
        "serves every later position (--past clamp unless given).\n"
        "\n",
        fp);
  rl_scheme_opts_help(fp);
  fputs("output:\n"
        "  -o, --output FILE  write the CSV atomically to FILE (default: standard output)\n"
        "      --no-meta      omit the '# key=value' metadata lines\n"
        "      --no-header    omit the header row (so sweeps can append)\n"
        "      --plot IMAGE   also draw IMAGE (.png, .svg or .pdf): retrieval against r\n"
        "                     at N, entropy and unseen against n, the shift's KS\n"
        "                     distance; a colour per scheme and method\n"
        "      --progress     show progress on stderr even when it is not a terminal\n"
        "      --quiet        never show progress\n"
        "  -h, --help         this help\n"
        "\n"
        "example (figure: experiments/extrapolate.sh):\n"
        "  ropelab extrapolate --train-len 4096 --eval-len 32768 --method all \\\n"
        "      --scheme rope,alibi,t5,nope --measure retrieval,entropy\n",
        fp);
}

/* One length argument: an integer 1..2^31 (the accurate range). */
static int len_arg(const char *cmd, const char *opt, const char *arg, size_t *out)
{
  double v;
  int r = rl_opt_double(cmd, opt, arg, &v);
  if (r)
    return r;
  if (!(v >= 1) || v != floor(v) || v > RL_POS_MAX)
    return rl_usage(cmd, "invalid %s '%s': expected an integer length from 1 to %.0f (the "
                         "accurate range of positions)", opt, arg, RL_POS_MAX);
  *out = (size_t)v;
  return 0;
}

static int cmp_size(const void *a, const void *b)
{
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* Sorted, without repeats. */
static size_t uniq(size_t *v, size_t n)
{
  qsort(v, n, sizeof *v, cmp_size);
  size_t m = 0;
  for (size_t k = 0; k < n; k++)
    if (!m || v[k] != v[m - 1])
      v[m++] = v[k];
  return m;
}

/* A list option of integers in [lo, hi] into v (at most LIST_MAX). */
static int int_list(const char *cmd, const char *opt, const char *arg, size_t lo, size_t hi,
                    size_t *v, size_t *n)
{
  double *vals = NULL;
  size_t m = 0;
  int r = rl_opt_values(cmd, opt, arg, LIST_MAX, &vals, &m);
  if (r)
    return r;
  for (size_t k = 0; k < m; k++) {
    if (!(vals[k] >= (double)lo) || !(vals[k] <= (double)hi) || vals[k] != floor(vals[k])) {
      char b[RL_NUMFMT_MAX];
      rl_numfmt(vals[k], b);
      free(vals);
      return rl_usage(cmd, "invalid %s '%s': value '%s' is not an integer from %zu to %zu", opt,
                      arg, b, lo, hi);
    }
    v[k] = (size_t)vals[k];
  }
  free(vals);
  *n = m;
  return 0;
}

/* The methods that need no data of a user's (the default of 'all'). */
static int fileless(const rl_schedule_type *t)
{
  return !(t->flags & RL_ST_USER_DATA);
}

static int parse_methods(const char *cmd, const char *arg, const rl_schedule_type **m,
                         size_t *n)
{
  const rl_schedule_type *const *all = rl_schedule_types();
  const char *names[64];
  size_t nn = 0;
  for (; all[nn] && nn < 63; nn++)
    names[nn] = all[nn]->name;
  names[nn] = "all";
  char buf[512];
  if (strlen(arg) >= sizeof buf || !*arg)
    return rl_usage(cmd, "invalid --method '%s': expected a comma-separated list of methods",
                    arg);
  strcpy(buf, arg);
  *n = 0;
  for (char *p = buf, *e;; p = e + 1) {
    e = strchr(p, ',');
    if (e)
      *e = 0;
    int k;
    int r = rl_opt_enum(cmd, "--method", p, names, nn + 1, &k);
    if (r)
      return r;
    for (size_t i = 0; i < nn; i++) {
      if (((size_t)k == nn && !fileless(all[i])) || ((size_t)k != nn && i != (size_t)k))
        continue;
      int have = 0;
      for (size_t j = 0; j < *n; j++)
        have |= m[j] == all[i];
      if (have && (size_t)k != nn && !strstr(arg, "all"))
        return rl_usage(cmd, "invalid --method '%s': method '%s' given twice", arg, p);
      if (!have && *n < METHODS_MAX)
        m[(*n)++] = all[i];
    }
    if (!e)
      return 0;
  }
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

/* a scheme with one method and the configuration it runs with */
struct conf {
  const char *scheme, *method;
  rl_scheme_cfg cfg;
};

struct methods {
  const struct conf *cf;
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

static int run(int argc, char **argv)
{
  static const struct option base_opts[] = {
      {"eval-len", required_argument, NULL, OPT_EVAL_LEN},
      {"lengths", required_argument, NULL, OPT_LENGTHS},
      {"distances", required_argument, NULL, OPT_DISTANCES},
      {"measure", required_argument, NULL, OPT_MEASURE},
      {"scale", required_argument, NULL, OPT_SCALE},
      {"threads", required_argument, NULL, OPT_THREADS},
      RL_SCHEME_LONGOPTS,
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  rl_extrap_params ep;
  rl_extrap_params_default(&ep);
  rl_decl_opts eo;
  rl_decl_opts_init(&eo, rl_extrap_param_list(), &ep, OPT_EX);
  static struct option own_opts[64];
  size_t nopt = rl_longopts_base(own_opts, base_opts, sizeof own_opts / sizeof *own_opts);
  rl_decl_longopts(&eo, own_opts, nopt, 64);
  const struct option *opts = rl_scheme_longopts(own_opts);
  const char *cmd = "extrapolate";
  rl_scheme_opts so;
  rl_scheme_opts_init(&so);
  rl_common co;
  rl_common_init(&co);
  size_t L = 0, N = 0, nlen = 0, ndist = 0, nmeth = 0, nscale = 0;
  static size_t lens[LIST_MAX + 64], dists[LIST_MAX + 64];
  const rl_schedule_type *meth[METHODS_MAX];
  int scales[RL_SCALE_COUNT], lens_set = 0, dists_set = 0, meth_set = 0, maxlen_set = 0;
  int past_set = 0, c, r;
  unsigned measures = RL_EX_UNSEEN | ep.measures;
  double factor = 0;
  const char *lens_arg = NULL, *dists_arg = NULL, *n_arg = NULL, *l_arg = NULL;
  unsigned long long v;
  const int o_train = rl_sched_optval("train-len"), o_seq = rl_sched_optval("seq-len");
  const int o_method = rl_sched_optval("method"), o_factor = rl_sched_optval("factor");
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    /* the schedule options extrapolate reads itself: L is the training
     * length of every scheme, methods and factor are lists */
    if (c == o_train) {
      l_arg = optarg;
      if ((r = len_arg(cmd, "--train-len", optarg, &L)))
        return r;
      continue;
    }
    if (c == o_seq)
      return rl_usage(cmd, "invalid --seq-len '%s': extrapolate sets the current length to "
                           "each --lengths value", optarg);
    if (c == o_method) {
      meth_set = 1;
      if ((r = parse_methods(cmd, optarg, meth, &nmeth)))
        return r;
      continue;
    }
    if (c == o_factor) {
      /* read by --factor's declaration, into a scratch settings struct */
      rl_schedule_params fp;
      char err[RL_ERR_MAX];
      rl_schedule_params_default(&fp);
      if (rl_param_parse(rl_schedule_param_find("factor"), &fp, optarg, err, sizeof err))
        return rl_usage(cmd, "%s", err);
      factor = fp.factor;
      continue;
    }
    switch (c) {
    case OPT_EVAL_LEN:
      n_arg = optarg;
      if ((r = len_arg(cmd, "--eval-len", optarg, &N)))
        return r;
      break;
    case OPT_LENGTHS:
      lens_set = 1, lens_arg = optarg;
      if ((r = int_list(cmd, "--lengths", optarg, 1, (size_t)RL_POS_MAX, lens, &nlen)))
        return r;
      break;
    case OPT_DISTANCES:
      dists_set = 1, dists_arg = optarg;
      if ((r = int_list(cmd, "--distances", optarg, 0, (size_t)RL_POS_MAX - 1, dists, &ndist)))
        return r;
      break;
    case OPT_MEASURE: {
      int idx[RL_EX_COUNT];
      size_t n;
      if ((r = rl_opt_enum_list(cmd, "--measure", optarg, rl_extrap_measure_names(), RL_EX_COUNT,
                                idx, RL_EX_COUNT, &n)))
        return r;
      measures = 0;
      for (size_t k = 0; k < n; k++)
        measures |= 1u << idx[k];
      break;
    }
    case OPT_SCALE:
      if ((r = rl_opt_enum_list(cmd, "--scale", optarg, scale_names, RL_SCALE_COUNT, scales,
                                RL_SCALE_COUNT, &nscale)))
        return r;
      break;
    case OPT_THREADS:
      if ((r = rl_opt_uint(cmd, "--threads", optarg, 1, RL_THREADS_MAX, &v)))
        return r;
      ep.threads = (size_t)v;
      break;
    default:
      if (rl_opt_failed(r = rl_decl_opt(&eo, cmd, c, optarg)))
        return rl_opt_exit_code(r);
      if (r)
        break;
      maxlen_set |= c == rl_scheme_optval("max-len");
      past_set |= c == rl_scheme_optval("past");
      if ((r = rl_scheme_opt_default(&so, &co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if ((r = rl_scheme_opts_end(&so, &co, cmd, argc, argv, help, RL_SCHEMES_MAX, "all")))
    return r == RL_OPT_DONE ? RL_EXIT_OK : r;
  /* the measures always use identity projections: the option would
   * change nothing but the line that says so */
  if (so.cfg.identity)
    return rl_usage(cmd, "--identity does not apply to extrapolate: its query and keys are the "
                         "contents, identity projections always");
  /* --config: the model's training length, method and factor where the
   * command line gave none (extrapolate reads these three itself) */
  static char l_cfg[32];
  if (rl_sched_config_given()) {
    const rl_schedule_params *cp = &so.sched.p;
    if (!L && cp->train_len >= 1 && cp->train_len <= (double)SIZE_MAX) {
      L = (size_t)cp->train_len;
      snprintf(l_cfg, sizeof l_cfg, "%zu", L);
      l_arg = l_cfg;
    }
    if (!meth_set && cp->method) {
      meth[nmeth++] = cp->method;
      meth_set = 1;
    }
    if (!factor && cp->factor > 1)
      factor = cp->factor;
  }
  if (!L)
    return rl_usage(cmd, "missing --train-len: expected the training length L");
  if (!N)
    return rl_usage(cmd, "missing --eval-len: expected the longest evaluated length N >= L");
  if (N < L)
    return rl_usage(cmd, "invalid --eval-len '%s': expected a length >= --train-len '%s'", n_arg,
                    l_arg);
  if (!ep.win.window && ep.win.sinks)
    return rl_usage(cmd, "invalid --sink-tokens '%zu': expected it with --local-window W > 0",
                    ep.win.sinks);
  /* lengths: the default doubling from L/4, N always included */
  /* L/4 and L/2 that are not whole are taken rounded down, and said */
  char lens_note[160] = "";
  if (!lens_set) {
    for (double x = (double)L / 4; x <= (double)N && nlen < LIST_MAX; x *= 2) {
      if (x >= 1 && x != floor(x)) {
        size_t l = strlen(lens_note);
        snprintf(lens_note + l, sizeof lens_note - l, "%sL/%d = %g taken as %zu",
                 l ? "; " : "", x * 4 == (double)L ? 4 : 2, x, (size_t)floor(x));
      }
      if (x >= 1)
        lens[nlen++] = (size_t)floor(x);
    }
  }
  for (size_t k = 0; k < nlen; k++)
    if (lens[k] > N)
      return rl_usage(cmd, "invalid --lengths '%s': length %zu is past --eval-len '%s'",
                      lens_arg, lens[k], n_arg);
  lens[nlen++] = N;
  nlen = uniq(lens, nlen);
  if (!dists_set) {
    dists[ndist++] = 0;
    for (size_t x = 1; x < N && ndist < LIST_MAX; x *= 2)
      dists[ndist++] = x;
  }
  (void)dists_arg;
  ndist = uniq(dists, ndist);
  if (!nscale)
    scales[nscale++] = RL_SCALE_NONE;
  /* each scale at each length, before any output: logn divides by ln L
   * (once a runtime error "at query 0, key 0" after the header) */
  for (size_t q = 0; q < nscale; q++)
    for (size_t k = 0; k < nlen; k++) {
      double fac;
      if (rl_scale_factor(scales[q], L, lens[k], &fac) || !isfinite(fac))
        return rl_usage(cmd, "invalid --scale '%s' with --train-len '%s' at length %zu: %s",
                        rl_scale_name(scales[q]), l_arg, lens[k],
                        scales[q] == RL_SCALE_LOGN ? "expected --train-len >= 2 (it divides by "
                                                     "ln L)"
                                                   : "no finite scale there");
    }
  if (!meth_set)
    meth[nmeth++] = so.cfg.rope.method; /* the core's default method */
  ep.train_len = L;
  ep.lens = lens;
  ep.nlens = nlen;
  ep.dists = dists;
  ep.ndists = ndist;
  ep.scales = scales;
  ep.nscales = nscale;
  ep.measures = measures & ~RL_EX_UNSEEN;
  /* an option for measures none of which was chosen would change only
   * a metadata line (the sampling options with unseen alone) */
  const char *const *mn = rl_extrap_measure_names();
  for (size_t k = 0; eo.list[k]; k++) {
    const char *only = eo.list[k]->only;
    if (!(eo.given >> k & 1) || !only)
      continue;
    int any = 0;
    char chosen[64] = "", takers[64];
    for (size_t j = 0; mn[j]; j++)
      if (measures >> j & 1) {
        any |= rl_opt_in_list(only, mn[j], strlen(mn[j]));
        snprintf(chosen + strlen(chosen), sizeof chosen - strlen(chosen), "%s%s",
                 *chosen ? "," : "", mn[j]);
      }
    if (!any) {
      rl_opt_list_words(only, takers, sizeof takers);
      return rl_usage(cmd, "--%s does not apply to --measure %s (it is for %s)", eo.list[k]->key,
                      chosen, takers);
    }
  }
  ep.seed = so.cfg.seed;
  ep.head = so.cfg.head;
  if (!maxlen_set)
    so.cfg.max_len = L; /* the table a model trained on L tokens has */
  if (!past_set)
    so.cfg.past = RL_PAST_CLAMP;

  /* configurations: scheme x method (methods for rope and rope2d only),
   * each built once here so bad settings fail before any output */
  struct conf *cf = calloc(so.nnames * (nmeth + 1), sizeof *cf);
  size_t ncf = 0;
  int rc = 0;
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  rl_extrap_result res = {0};
  double *pp = NULL;
  if (!cf) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }
  for (size_t k = 0; k < so.nnames; k++) {
    const rl_scheme_info *si = rl_scheme_find(so.names[k]);
    int sched = si && (si->flags & RL_SCHEME_ROTATION);
    for (size_t m = 0; m < (sched ? nmeth : 1); m++) {
      struct conf *x = &cf[ncf];
      x->scheme = so.names[k];
      x->cfg = so.cfg;
      x->method = "none";
      if (sched) {
        x->cfg.rope.method = meth[m];
        x->method = meth[m]->name;
        if (factor > 0 && (meth[m]->uses & RL_SP_FACTOR))
          rl_schedule_set(&x->cfg.rope, "factor", factor);
        rl_extrap_method_params(&x->cfg.rope, L, N);
      }
      rl_scheme *s = NULL;
      char err[RL_ERR_MAX];
      rl_status st = rl_scheme_alloc(x->scheme, &x->cfg, &s, err);
      rl_scheme_free(s);
      if (st && sched && nmeth > 1 && st == RL_EINVAL)
        continue; /* a method this scheme cannot take (rope2d, rerope): no rows */
      if (st == RL_EINVAL || st == RL_EFORMAT)
        rc = rl_usage(cmd, "%s (scheme '%s', method '%s')", err, x->scheme, x->method);
      else if (st)
        rc = rl_runtime(cmd, "%s", err[0] ? err : rl_strerror(st));
      if (rc)
        goto done;
      ncf++;
    }
  }
  if (rl_extrap_result_alloc(&ep, &res) || !(pp = malloc(so.cfg.dim * sizeof *pp))) {
    rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
    goto done;
  }
  if ((rc = rl_sink_open(&sink, cmd, &co, "extrapolate.gp")))
    goto done;
  rl_out_meta_begin(out);
  so.cfg.identity = 1; /* what the measure uses (rl_extrap_*), so the metadata says it */
  struct methods ms = {cf, ncf};
  rl_scheme_opts_meta_with(&so, out, methods_meta, &ms);
  rl_out_meta_uint(out, "train_len", L);
  rl_out_meta_uint(out, "eval_len", N);
  rl_decl_meta(&eo, out); /* samples, local_window, sink_tokens */
  rl_out_meta(out, "blas", RL_BLAS); /* -Dblas: which CBLAS computed the rope products */
  rl_out_meta(out, "setting", "len tokens, the last one queries all of them; under a window "
                              "the kept keys sit at cache positions 0..A-1, the query at A-1");
  rl_out_meta(out, "content", ep.identical ? "every key equals the query x ~ N(0, I_d) from seed"
                                           : "query x and keys ~ N(0, I_d) from seed, identity "
                                             "projections; the same for every scheme and length");
  if (!ep.identical)
    rl_out_meta(out, "draw", ep.draw_contents
                                 ? "every key's content (--draw-contents)"
                                 : "nope, t5, alibi, tupe, xl, the additive schemes and rope "
                                   "(exact pipeline): each key's logits from their Gaussian "
                                   "law given the query (another random stream than "
                                   "--draw-contents, the same expectations); rope2d, deberta, "
                                   "rope under a framework pipeline: every key's content");
  rl_out_meta(out, "logits", "q.k / sqrt(d) times the method's logit multiplier and the "
                             "scale, plus the scheme's positional terms");
  {
    /* the parameters a paper trains are random draws here (the core's
     * list, for the schemes run) */
    rl_scheme *ss[RL_SCHEMES_MAX] = {0};
    size_t nss = 0;
    char note[2048];
    for (size_t k = 0; k < so.nnames; k++)
      if (rl_scheme_alloc(so.names[k], &cf[0].cfg, &ss[nss], NULL) == RL_OK)
        nss++;
    if (rl_scheme_drawn_note(ss, nss, note, sizeof note))
      rl_out_meta(out, "trained_params", note);
    for (size_t k = 0; k < nss; k++)
      rl_scheme_free(ss[k]);
  }
  rl_out_meta(out, "methods", "factor N/L and train_len L where a method takes them, unless "
                              "--factor");
  rl_out_meta(out, "unseen", "fraction of causal query-key pairs whose positional input never "
                             "occurs among L tokens; pair = rotary pair or all");
  rl_out_meta(out, "retrieval", "softmax probability of a key equal to the query planted at "
                                "distance r, replacing the random key there; mean, se");
  rl_out_meta(out, "entropy", "nats: -sum p ln p of the query's attention; max = ln(keys)");
  if (lens_note[0])
    rl_out_meta(out, "default_lengths", lens_note);
  {
    size_t sw = 1, sp = 1;
    char sh[400];
    rl_extrap_shift_strides(&ep, &sw, &sp);
    char how[160] = "over every distance";
    if (sw > 1 || sp > 1)
      snprintf(how, sizeof how, "thinned: every distance with stride %zu within L, stride %zu "
               "past L, at most 2^23 values a side", sw, sp);
    snprintf(sh, sizeof sh, "positional logits (total - cc) at distances >= L vs < L of the "
             "query at the longest length: means, sds (over every distance), ks = sup|F - G|, "
             "w1 = integral |F - G| (%s)", how);
    rl_out_meta(out, "shift", sh);
  }
  for (size_t k = 0; k < so.nnames; k++) {
    rl_scheme *s = NULL;
    if (rl_scheme_alloc(so.names[k], &cf[0].cfg, &s, NULL) == RL_OK) {
      char key[64];
      snprintf(key, sizeof key, "%s_input", so.names[k]);
      rl_out_meta(out, key, rl_unseen_input_name(rl_unseen_input(s)));
    }
    rl_scheme_free(s);
  }
  rl_out_header(out, "scheme,method,scale,window,sinks,measure,stat,len,r,pair,value,se");

  rl_progress prog;
  rl_progress_init(&prog, cmd, co.progress, ncf * 1000,
                   (double)ncf * (double)ep.samples * (double)N * (double)so.cfg.dim > 1e8);
  char wbuf[32], kbuf[32];
  snprintf(wbuf, sizeof wbuf, "%zu", ep.win.window);
  snprintf(kbuf, sizeof kbuf, "%zu", ep.win.sinks);
  for (size_t k = 0; k < ncf && !out->err; k++) {
    struct conf *x = &cf[k];
    rl_scheme *s = NULL;
    rl_schedule *train = NULL;
    rl_status st = rl_scheme_alloc(x->scheme, &x->cfg, &s, NULL);
    if (st) {
      rc = rl_runtime(cmd, "%s", rl_strerror(st));
      goto done;
    }
    if (measures & RL_EX_UNSEEN) {
      const rl_schedule *f = rl_scheme_get_schedule(s);
      int input = rl_unseen_input(s);
      if (input == RL_INPUT_ANGLE && (st = rl_unseen_train_schedule(f, L, &train))) {
        rl_scheme_free(s);
        rc = rl_runtime(cmd, "%s", rl_strerror(st));
        goto done;
      }
      const char *kk[] = {x->scheme, x->method, "", wbuf, kbuf};
      for (size_t l = 0; l < nlen && !st; l++) {
        double tot;
        char lb[32];
        snprintf(lb, sizeof lb, "%zu", lens[l]);
        st = rl_unseen_eval(s, train, L, lens[l], &ep.win, &tot,
                            input == RL_INPUT_ANGLE ? pp : NULL);
        if (st)
          break;
        row(out, kk, "unseen", "fraction", lb, "", "all", tot, NULL);
        for (size_t i = 0; input == RL_INPUT_ANGLE && i < f->n; i++) {
          char ib[32];
          snprintf(ib, sizeof ib, "%zu", i);
          row(out, kk, "unseen", "fraction", lb, "", ib, pp[i], NULL);
        }
      }
      rl_schedule_free(train);
      if (st) {
        rl_scheme_free(s);
        rc = rl_runtime(cmd, "unseen of scheme '%s': %s", x->scheme, rl_strerror(st));
        goto done;
      }
    }
    rl_scheme_free(s);
    if (!ep.measures) {
      rl_progress_update(&prog, (k + 1) * 1000);
      continue;
    }
    rl_measure_err e;
    struct prog_ctx pc = {&prog, k * 1000};
    st = rl_extrap_run(x->scheme, &x->cfg, &ep, &res, &e, on_progress, &pc);
    if (st) {
      if (e.nonfinite) {
        char where[128];
        if (isfinite(e.i))
          snprintf(where, sizeof where, "logit (method '%s') at query %.17g, key %.17g",
                   x->method, e.i, e.j);
        else
          snprintf(where, sizeof where, "retrieval, entropy or shift value (method '%s')",
                   x->method);
        rc = rl_scheme_overflow(cmd, x->scheme, x->cfg.param_file, where);
      } else
        rc = rl_runtime(cmd, "scheme '%s' (method '%s') at query %.17g, key %.17g: %s",
                        x->scheme, x->method, e.i, e.j, rl_strerror(st));
      goto done;
    }
    for (size_t q = 0; q < nscale; q++) {
      const char *kk[] = {x->scheme, x->method, rl_scale_name(scales[q]), wbuf, kbuf};
      for (size_t l = 0; l < nlen; l++) {
        char lb[32], rb[32];
        snprintf(lb, sizeof lb, "%zu", lens[l]);
        for (size_t j = 0; (ep.measures & RL_EX_RETRIEVAL) && j < ndist; j++) {
          size_t ri = (l * ndist + j) * nscale + q;
          if (!res.ret_ok[ri])
            continue;
          snprintf(rb, sizeof rb, "%zu", dists[j]);
          row(out, kk, "retrieval", "probability", lb, rb, "", res.ret_mean[ri], &res.ret_se[ri]);
        }
        if (ep.measures & RL_EX_ENTROPY) {
          size_t ei = l * nscale + q;
          row(out, kk, "entropy", "nats", lb, "", "", res.ent_mean[ei], &res.ent_se[ei]);
          row(out, kk, "entropy", "max", lb, "", "", log((double)rl_window_keys(&ep.win, lens[l])),
              NULL);
        }
      }
      if ((ep.measures & RL_EX_SHIFT) && res.shift_ok[q]) {
        const rl_shift *sh = &res.shift[q];
        char lb[32];
        snprintf(lb, sizeof lb, "%zu", lens[nlen - 1]);
        const char *st_names[] = {"mean_within", "sd_within", "mean_past", "sd_past", "ks", "w1"};
        const double vals[] = {sh->mean_within, sh->sd_within, sh->mean_past, sh->sd_past,
                               sh->ks, sh->w1};
        for (size_t i = 0; i < 6; i++)
          row(out, kk, "shift", st_names[i], lb, "", "", vals[i], NULL);
      }
    }
    rl_progress_update(&prog, (k + 1) * 1000);
  }
  rc = rl_sink_close(&sink, &prog);
done:
  rl_sink_abort(&sink);
  rl_extrap_result_free(&res);
  free(pp);
  free(cf);
  return rc;
}

const struct rl_cmd rl_cmd_extrapolate = {
    "extrapolate", run, "what changes past the training length, every scheme and method", help, NULL};
