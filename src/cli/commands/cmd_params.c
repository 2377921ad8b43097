/* cmd_params.c: `ropelab params`, the parameters a positional scheme
 * derives or holds, as CSV: ALiBi's slopes, the T5 / DeBERTa bucket of
 * every relative distance, the sinusoid frequencies, and learned tables
 * in the format of their parameter files (so the output, metadata
 * included, is a valid --params FILE). */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "opt.h"
#include "out.h"
#include "rowfmt.h"
#include "scheme_opts.h"
#include "sink.h"

enum { OPT_WHAT = RL_OPT_FIRST_CMD, OPT_FROM, OPT_TO };

enum { W_DEFAULT, W_SLOPES, W_BUCKETS, W_TABLE, W_FREQS, W_RELEMB };

static void help(FILE *fp)
{
  fputs("usage: ropelab params --scheme S [OPTIONS]\n"
        "\n"
        "The parameters scheme S derives or holds, as CSV.\n"
        "\n"
        "      --scheme S     one scheme (required; a wrong name lists them all)\n"
        "      --what W       what to list (default: the first the scheme has):\n"
        "                       slopes   alibi: head,slope (Press et al. 2022: 2^(-8h/H)\n"
        "                                for H a power of two, else interleaved; the\n"
        "                                metadata line slopes= says which)\n"
        "                       buckets  t5: key_minus_query,bucket; deberta:\n"
        "                                query_minus_key,bucket,row (row: the clamped\n"
        "                                table row), over --from..--to.  Opposite signs,\n"
        "                                as their code has them: T5 memory_position -\n"
        "                                context_position, DeBERTa q_ids - k_ids.  With\n"
        "                                t5 --causal the keys before the query are the\n"
        "                                negative distances; positive ones are masked\n"
        "                                (bucket 0), and a range of those alone is\n"
        "                                noted on stderr\n"
        "                                tupe: query,key,bucket, positions --from..--to\n"
        "                                (default 0..16), [CLS] = position 0 with its\n"
        "                                own buckets (row: buckets/2, column: buckets)\n"
        "                       table    the learned table in its --params file format\n"
        "                                (t5 bucket,head,bias; alibi head,slope; learned\n"
        "                                and tupe position,v0..; deberta bucket,v0..)\n"
        "                       freqs    sinusoidal, xl, rope, rope2d:\n"
        "                                pair,theta,wavelength (rope2d adds axis: col or\n"
        "                                row; rope and rope2d take --method: see\n"
        "                                'ropelab freqs' for more columns)\n"
        "                       relemb   xl: distance,v0..v{d-1}, Transformer-XL's\n"
        "                                relative embedding R_r (d/2 sines, then d/2\n"
        "                                cosines)\n"
        "      --from A       first distance for buckets (default -2 --max-distance\n"
        "                     for t5, -2 --max-relative-positions for deberta)\n"
        "      --to B         last distance for buckets (default: minus --from)\n"
        "\n",
        fp);
  rl_scheme_opts_help(fp);
  rl_common_help_noplot(fp);
}

static int parse_what(const char *cmd, const char *arg, int *what)
{
  static const char *const names[] = {"slopes", "buckets", "table", "freqs", "relemb"};
  int k, r = rl_opt_enum(cmd, "--what", arg, names, 5, &k);
  if (!r)
    *what = W_SLOPES + k;
  return r;
}

static int parse_long(const char *cmd, const char *opt, const char *arg, long *out)
{
  double v;
  int r = rl_opt_double(cmd, opt, arg, &v);
  if (r)
    return r;
  if (v != floor(v) || fabs(v) > 1e15)
    return rl_usage(cmd, "invalid %s '%s': expected an integer of magnitude <= 1e15", opt, arg);
  *out = (long)v;
  return 0;
}

static void num_row(rl_out *o, const double *v, size_t n, const char *text)
{
  char buf[8][RL_NUMFMT_MAX];
  const char *f[9];
  for (size_t i = 0; i < n; i++) {
    rl_numfmt(v[i], buf[i]);
    f[i] = buf[i];
  }
  if (text)
    f[n++] = text;
  rl_out_fields(o, f, n);
}

/* One row of a vector table: index then cols values. */
static void vec_row(rl_out *o, size_t index, const double *v, size_t cols)
{
  char line[64];
  int len = snprintf(line, sizeof line, "%zu", index);
  rl_out_write(o, line, (size_t)len);
  for (size_t c = 0; c < cols; c++) {
    char b[RL_NUMFMT_MAX + 1];
    b[0] = ',';
    int l = rl_numfmt(v[c], b + 1);
    rl_out_write(o, b, (size_t)l + 1);
  }
  rl_out_write(o, "\n", 1);
}

static int run(int argc, char **argv)
{
  static const struct option own_opts[] = {
      {"what", required_argument, NULL, OPT_WHAT},
      {"from", required_argument, NULL, OPT_FROM},
      {"to", required_argument, NULL, OPT_TO},
      RL_SCHEME_LONGOPTS,
      RL_COMMON_LONGOPTS,
      {NULL, 0, NULL, 0}};
  const struct option *opts = rl_scheme_longopts(own_opts);
  const char *cmd = "params";
  rl_scheme_opts so;
  rl_scheme_opts_init(&so);
  rl_common co;
  rl_common_init(&co);
  int what = W_DEFAULT, from_set = 0, to_set = 0, c, r;
  long from = 0, to = 0;
  while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
    switch (c) {
    case OPT_WHAT:
      if ((r = parse_what(cmd, optarg, &what)))
        return r;
      break;
    case OPT_FROM:
      from_set = 1;
      if ((r = parse_long(cmd, "--from", optarg, &from)))
        return r;
      break;
    case OPT_TO:
      to_set = 1;
      if ((r = parse_long(cmd, "--to", optarg, &to)))
        return r;
      break;
    default:
      if ((r = rl_scheme_opt_default(&so, &co, cmd, c, argv, opts)))
        return r;
      break;
    }
  }
  if ((r = rl_scheme_opts_end(&so, &co, cmd, argc, argv, help, 1, NULL)))
    return r == RL_OPT_DONE ? RL_EXIT_OK : r;
  if (co.plot)
    return rl_usage(cmd, "--plot is not available for params");
  const char *name = so.names[0];
  const rl_scheme_cfg *cfg = &so.cfg;
  /* what the scheme's declaration says it has (rl_scheme_info) */
  const rl_scheme_info *si = rl_scheme_find(name);
  int is_t5 = si->buckets == RL_BUCKETS_T5, is_deb = si->buckets == RL_BUCKETS_DEBERTA,
      is_tupe = si->buckets == RL_BUCKETS_TUPE;
  int is_freq = (si->has & RL_HAS_FREQS) != 0;
  if (what == W_DEFAULT)
    what = (si->has & RL_HAS_SLOPES) ? W_SLOPES : (si->has & RL_HAS_BUCKETS) ? W_BUCKETS
               : is_freq ? W_FREQS : W_TABLE;
  if (what == W_SLOPES && !(si->has & RL_HAS_SLOPES))
    return rl_usage(cmd, "invalid --what 'slopes': only scheme 'alibi' has slopes, not '%s'",
                    name);
  if (what == W_BUCKETS && !is_t5 && !is_deb && !(is_tupe && cfg->tupe_rel))
    return rl_usage(cmd, "invalid --what 'buckets': only schemes 't5', 'deberta' and 'tupe' "
                         "(with its T5 bias) bucket distances, not '%s'", name);
  if (what == W_RELEMB && !(si->has & RL_HAS_RELEMB))
    return rl_usage(cmd, "invalid --what 'relemb': only scheme 'xl' has a relative embedding, "
                         "not '%s'", name);
  if (what == W_FREQS && !is_freq)
    return rl_usage(cmd, "invalid --what 'freqs': scheme '%s' has no sinusoids (sinusoidal, xl, "
                         "rope, rope2d do)", name);
  if ((from_set || to_set) && what != W_BUCKETS && what != W_RELEMB)
    return rl_usage(cmd, "--from and --to need --what buckets or relemb");
  if (what == W_RELEMB || (what == W_BUCKETS && is_tupe)) {
    if (!from_set)
      from = is_tupe ? 0 : -16;
    if (!to_set)
      to = 16;
    if (to < from || (is_tupe && from < 0))
      return rl_usage(cmd, "invalid range: --from '%ld' --to '%ld': expected %sfrom <= to", from,
                      to, is_tupe ? "0 <= " : "");
    if ((double)to - (double)from > (is_tupe ? 4096 : 1e6))
      return rl_usage(cmd, "invalid range: more than %s positions from '%ld' to '%ld'",
                      is_tupe ? "4096" : "1e6", from, to);
  } else if (what == W_BUCKETS) {
    long span = is_t5 ? (long)cfg->max_distance : (long)cfg->max_relative_positions;
    if (!from_set)
      from = -2 * span;
    if (!to_set)
      to = from < 0 ? -from : from;
    if (to < from)
      return rl_usage(cmd, "invalid range: --to '%ld' is below --from '%ld'", to, from);
    if ((double)to - (double)from > 1e8)
      return rl_usage(cmd, "invalid range: more than 1e8 distances from '%ld' to '%ld'", from,
                      to);
    /* T5's causal rule (_relative_position_bucket: relative_position =
     * -min(relative_position, 0)) gives every key after the query bucket
     * 0: a range of only those is all zeros, easily read as query - key */
    if (is_t5 && !cfg->bidirectional && from >= 0 && to > 0)
      fprintf(stderr, "ropelab params: note: t5 distances are key - query; with --causal, "
                      "%ld..%ld are keys after the query (masked in a decoder, all bucket 0); "
                      "the keys before it are --from %ld --to %ld\n",
              from > 1 ? from : 1, to, -to, from > 0 ? -from : 0L);
  }

  rl_scheme *s = NULL;
  const rl_schedule *f = NULL;
  rl_scheme_table tab = {0};
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc = 0;
  if ((rc = rl_scheme_opts_alloc(&so, cmd, name, &s)))
    return rc;
  if (what == W_TABLE && rl_scheme_get_table(s, &tab)) {
    rc = rl_usage(cmd, "scheme '%s' has no positional parameter table", name);
    goto done;
  }
  if (what == W_FREQS && !(f = rl_scheme_get_schedule(s))) {
    rc = rl_runtime(cmd, "internal error: scheme '%s' has no schedule", name);
    goto done;
  }
  if ((rc = rl_sink_open(&sink, cmd, &co, NULL)))
    goto done;
  rl_out_meta_begin(out);
  rl_scheme_opts_meta(&so, out);
  static const char *const wnames[] = {"", "slopes", "buckets", "table", "freqs", "relemb"};
  rl_out_meta(out, "what", wnames[what]);

  if (what == W_SLOPES || (what == W_TABLE && tab.cols == 1 && !strcmp(tab.format, "head,slope"))) {
    if (what == W_SLOPES && rl_scheme_get_table(s, &tab)) {
      rc = rl_runtime(cmd, "internal error: alibi has no slope table");
      goto done;
    }
    char rule[320], odd[64];
    size_t pw = 1, H = cfg->heads; /* the largest power of two <= H, as get_slopes takes it */
    while (pw * 2 <= H)
      pw *= 2;
    size_t rest = H - pw; /* heads taking every other slope of 2 pw heads */
    if (rest <= 3) {
      size_t at = 0;
      for (size_t t = 0; t < rest; t++)
        at += (size_t)snprintf(odd + at, sizeof odd - at, "%s%zu", t ? ", " : "", 2 * t + 1);
    } else {
      snprintf(odd, sizeof odd, "1, 3, .., %zu", 2 * rest - 1);
    }
    if (cfg->param_file)
      snprintf(rule, sizeof rule, "from --params");
    else if (!rest)
      snprintf(rule, sizeof rule, "2^(-8h/H), h = 1..H (Press et al. 2022 sec. 3; get_slopes)");
    else
      snprintf(rule, sizeof rule,
               "H = %zu is not a power of two: heads 0..%zu 2^(-8h/%zu), h = 1..%zu (the "
               "largest power of two below H), then heads %zu..%zu 2^(-8h/%zu), h = %s (every "
               "other slope of %zu heads; Press et al. 2022 sec. 3; get_slopes)",
               H, pw - 1, pw, pw, pw, H - 1, 2 * pw, odd, 2 * pw);
    rl_out_meta(out, "slopes", rule);
    rl_out_header(out, "head,slope");
    for (size_t h = 0; h < tab.rows && !out->err; h++) {
      double v[2] = {(double)h, tab.data[h]};
      num_row(out, v, 2, NULL);
    }
  } else if (what == W_BUCKETS && is_tupe) {
    rl_out_meta(out, "bucket", "TUPE-R: [CLS] (position 0) row buckets/2, column buckets; "
                               "else T5 bidirectional bucket of key - query");
    rl_out_header(out, "query,key,bucket");
    for (long i = from; i <= to && !out->err; i++)
      for (long j = from; j <= to; j++) {
        double v[3] = {(double)i, (double)j,
                       (double)rl_tupe_bucket(i, j, (long)cfg->num_buckets,
                                              (long)cfg->max_distance)};
        num_row(out, v, 3, NULL);
      }
  } else if (what == W_RELEMB) {
    rl_out_meta(out, "relemb", "R_r: sin(r theta_i), i < d/2, then cos(r theta_i) (Dai et al. "
                               "2019 sec. 3.3; PositionalEmbedding)");
    size_t d = cfg->dim;
    double *v = malloc(d * sizeof *v);
    if (!v) {
      rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
      goto done;
    }
    char *hdr = malloc(12 * d + 16);
    if (!hdr) {
      free(v);
      rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
      goto done;
    }
    size_t p = (size_t)sprintf(hdr, "distance");
    for (size_t k = 0; k < d; k++)
      p += (size_t)sprintf(hdr + p, ",v%zu", k);
    hdr[p++] = '\n';
    if (out->header)
      rl_out_header_line(out, hdr, p);
    free(hdr);
    for (long dist = from; dist <= to && !out->err; dist++) {
      rl_status st = rl_scheme_encoding(s, (double)dist, v);
      if (st) {
        free(v);
        rc = rl_runtime(cmd, "cannot compute R_r at %ld: %s", dist, rl_strerror(st));
        goto done;
      }
      char line[64];
      int l = snprintf(line, sizeof line, "%ld", dist);
      rl_out_write(out, line, (size_t)l);
      for (size_t k = 0; k < d; k++) {
        char b[RL_NUMFMT_MAX + 1];
        b[0] = ',';
        int m = rl_numfmt(v[k] + 0.0, b + 1);
        rl_out_write(out, b, (size_t)m + 1);
      }
      rl_out_write(out, "\n", 1);
    }
    free(v);
  } else if (what == W_BUCKETS) {
    rl_out_meta(out, "distance", is_t5 ? RL_T5_RELPOS : RL_DEBERTA_RELPOS);
    rl_out_meta_num(out, "from", (double)from);
    rl_out_meta_num(out, "to", (double)to);
    size_t k = cfg->position_buckets ? cfg->position_buckets : cfg->max_relative_positions;
    if (is_deb)
      rl_out_meta(out, "row", "clamp(bucket + k, 0, 2k - 1), k = position_buckets or "
                              "max_relative_positions: the rel_embeddings row used");
    /* the sign in the column name: T5 and DeBERTa count opposite ways
     * (HF modeling_t5.py compute_bias: relative_position = memory_position
     * - context_position; modeling_deberta_v2.py build_relative_position:
     * rel_pos_ids = q_ids[:, None] - k_ids[None, :]) */
    rl_out_header(out, is_t5 ? "key_minus_query,bucket" : "query_minus_key,bucket,row");
    for (long dd = from; dd <= to && !out->err; dd++) {
      long b = is_t5 ? rl_t5_bucket(dd, cfg->bidirectional, (long)cfg->num_buckets,
                                    (long)cfg->max_distance)
                     : rl_deberta_bucket(dd, (long)cfg->position_buckets,
                                         (long)cfg->max_relative_positions);
      if (b < 0 && (is_t5 || b == LONG_MIN)) {
        rc = rl_runtime(cmd, "internal error: no bucket for distance %ld", dd);
        goto done;
      }
      double row = (double)b + (double)k;
      if (row < 0)
        row = 0;
      if (row > 2.0 * (double)k - 1)
        row = 2.0 * (double)k - 1;
      double v[3] = {(double)dd, (double)b, row};
      num_row(out, v, is_t5 ? 2 : 3, NULL);
    }
  } else if (what == W_FREQS) {
    int two = (si->flags & RL_SCHEME_2D) != 0;
    rl_out_meta(out, "theta", two ? "base^(-4t/d), t < d/4 (rope-vit compute_axial_cis)"
                                  : "base^(-2i/d) (Vaswani et al. 2017 sec. 3.5; RoFormer eq. 15)");
    rl_out_header(out, two ? "pair,theta,wavelength,axis" : "pair,theta,wavelength");
    for (size_t a = 0; a < (two ? 2u : 1u); a++)
      for (size_t i = 0; i < f->n && !out->err; i++) {
        double v[3] = {(double)(a * f->n + i), f->theta[i], rl_schedule_wavelength(f, i)};
        num_row(out, v, 3, two ? (a ? "row" : "col") : NULL);
      }
  } else if (strchr(tab.format, ',')) { /* key-value rows: t5 bucket,head,bias */
    rl_out_header(out, tab.format);
    for (size_t b = 0; b < tab.rows && !out->err; b++)
      for (size_t h = 0; h < tab.cols; h++) {
        double v[3] = {(double)b, (double)h, tab.data[b * tab.cols + h]};
        num_row(out, v, 3, NULL);
      }
  } else { /* vector rows: index,v0..v{cols-1} */
    size_t hl = strlen(tab.format) + tab.cols * 12 + 1;
    char *hdr = malloc(hl);
    if (!hdr) {
      rc = rl_runtime(cmd, "%s", rl_strerror(RL_ENOMEM));
      goto done;
    }
    size_t p = (size_t)snprintf(hdr, hl, "%s", tab.format);
    for (size_t c2 = 0; c2 < tab.cols; c2++)
      p += (size_t)snprintf(hdr + p, hl - p, ",v%zu", c2);
    /* rl_out_header truncates at 1 KiB: write long headers ourselves */
    hdr[p++] = '\n';
    if (out->header)
      rl_out_header_line(out, hdr, p);
    free(hdr);
    for (size_t row = 0; row < tab.rows && !out->err; row++)
      vec_row(out, row, tab.data + row * tab.cols, tab.cols);
  }
  rc = rl_sink_close(&sink, NULL);
done:
  rl_sink_abort(&sink);
  rl_scheme_free(s);
  return rc;
}

const struct rl_cmd rl_cmd_params = {"params", run,
                                     "parameters of a positional scheme (slopes, buckets, tables)",
                                     help, NULL};
