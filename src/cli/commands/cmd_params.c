/* cmd_params.c: `ropelab params`, the parameters a positional scheme
 * derives or holds, as CSV: ALiBi's slopes, the T5 / DeBERTa bucket of
 * every relative distance, the sinusoid frequencies, and learned tables
 * in the format of their parameter files (so the output, metadata
 * included, is a valid --params FILE): a declared command (cmd.h).  The
 * core declares its settings and plans the defaults and the range
 * (rl_params_plan in ropelab/scheme.h); this file writes the rows. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "rowfmt.h"

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

/* One row of a vector table: index then cols values (R_r's with -0
 * written as 0, plus0; a table's as they are) */
static void vec_row(rl_out *o, const char *index, const double *v, size_t cols, int plus0)
{
  rl_out_write(o, index, strlen(index));
  for (size_t c = 0; c < cols; c++) {
    char b[RL_NUMFMT_MAX + 1];
    b[0] = ',';
    int l = rl_numfmt(plus0 ? v[c] + 0.0 : v[c], b + 1);
    rl_out_write(o, b, (size_t)l + 1);
  }
  rl_out_write(o, "\n", 1);
}

/* first,v0,..,v{cols-1}: written whole (rl_out_header stops at 1 KiB) */
static int vec_header(rl_out *o, const char *first, size_t cols)
{
  size_t hl = strlen(first) + cols * 12 + 2;
  char *hdr = malloc(hl);
  if (!hdr)
    return -1;
  size_t p = (size_t)snprintf(hdr, hl, "%s", first);
  for (size_t c = 0; c < cols; c++)
    p += (size_t)snprintf(hdr + p, hl - p, ",v%zu", c);
  hdr[p++] = '\n';
  if (o->header)
    rl_out_header_line(o, hdr, p);
  free(hdr);
  return 0;
}

static void slopes(rl_cmd_run *r, rl_out *out, const rl_scheme_table *tab)
{
  char rule[320];
  rl_alibi_slopes_rule(r->scheme.cfg.heads, r->scheme.cfg.param_file != NULL, rule, sizeof rule);
  rl_out_meta(out, "slopes", rule);
  rl_out_header(out, "head,slope");
  for (size_t h = 0; h < tab->rows && !out->err; h++)
    num_row(out, (double[]){(double)h, tab->data[h]}, 2, NULL);
}

static void tupe_buckets(const rl_params_settings *s, const rl_scheme_cfg *cfg, rl_out *out)
{
  rl_out_meta(out, "bucket", "TUPE-R: [CLS] (position 0) row buckets/2, column buckets; "
                             "else T5 bidirectional bucket of key - query");
  rl_out_header(out, "query,key,bucket");
  for (long i = s->from; i <= s->to && !out->err; i++)
    for (long j = s->from; j <= s->to; j++)
      num_row(out, (double[]){(double)i, (double)j,
                              (double)rl_tupe_bucket(i, j, (long)cfg->num_buckets,
                                                     (long)cfg->max_distance)},
              3, NULL);
}

static int relemb(rl_cmd_run *r, rl_scheme *sc, rl_out *out)
{
  const rl_params_settings *s = r->settings;
  rl_out_meta(out, "relemb", "R_r: sin(r theta_i), i < d/2, then cos(r theta_i) (Dai et al. "
                             "2019 sec. 3.3; PositionalEmbedding)");
  size_t d = r->scheme.cfg.dim;
  double *v = malloc(d * sizeof *v);
  if (!v || vec_header(out, "distance", d)) {
    free(v);
    return rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
  }
  for (long dist = s->from; dist <= s->to && !out->err; dist++) {
    rl_status st = rl_scheme_encoding(sc, (double)dist, v);
    if (st) {
      free(v);
      return rl_runtime(r->name, "cannot compute R_r at %ld: %s", dist, rl_strerror(st));
    }
    char idx[32];
    snprintf(idx, sizeof idx, "%ld", dist);
    vec_row(out, idx, v, d, 1);
  }
  free(v);
  return 0;
}

static int buckets(rl_cmd_run *r, const rl_scheme_info *si, rl_out *out)
{
  const rl_params_settings *s = r->settings;
  const rl_scheme_cfg *cfg = &r->scheme.cfg;
  int is_t5 = si->buckets == RL_BUCKETS_T5;
  rl_out_meta(out, "distance", is_t5 ? RL_T5_RELPOS : RL_DEBERTA_RELPOS);
  rl_out_meta_num(out, "from", (double)s->from);
  rl_out_meta_num(out, "to", (double)s->to);
  if (!is_t5)
    rl_out_meta(out, "row", "clamp(bucket + k, 0, 2k - 1), k = position_buckets or "
                            "max_relative_positions: the rel_embeddings row used");
  /* the sign in the column name: T5 and DeBERTa count opposite ways
   * (HF modeling_t5.py compute_bias: relative_position = memory_position
   * - context_position; modeling_deberta_v2.py build_relative_position:
   * rel_pos_ids = q_ids[:, None] - k_ids[None, :]) */
  rl_out_header(out, is_t5 ? "key_minus_query,bucket" : "query_minus_key,bucket,row");
  for (long dd = s->from; dd <= s->to && !out->err; dd++) {
    long b = is_t5 ? rl_t5_bucket(dd, cfg->bidirectional, (long)cfg->num_buckets,
                                  (long)cfg->max_distance)
                   : rl_deberta_bucket(dd, (long)cfg->position_buckets,
                                       (long)cfg->max_relative_positions);
    if (b < 0 && (is_t5 || b == LONG_MIN))
      return rl_runtime(r->name, "internal error: no bucket for distance %ld", dd);
    num_row(out, (double[]){(double)dd, (double)b, rl_deberta_row(cfg, b)}, is_t5 ? 2 : 3, NULL);
  }
  return 0;
}

static void freqs(const rl_scheme_info *si, const rl_schedule *f, rl_out *out)
{
  int two = (si->flags & RL_SCHEME_2D) != 0;
  rl_out_meta(out, "theta", two ? "base^(-4t/d), t < d/4 (rope-vit compute_axial_cis)"
                                : "base^(-2i/d) (Vaswani et al. 2017 sec. 3.5; RoFormer eq. 15)");
  rl_out_header(out, two ? "pair,theta,wavelength,axis" : "pair,theta,wavelength");
  for (size_t a = 0; a < (two ? 2u : 1u); a++)
    for (size_t i = 0; i < f->n && !out->err; i++)
      num_row(out, (double[]){(double)(a * f->n + i), f->theta[i], rl_schedule_wavelength(f, i)},
              3, two ? (a ? "row" : "col") : NULL);
}

/* the learned table in its --params file format */
static int table(rl_cmd_run *r, const rl_scheme_table *tab, rl_out *out)
{
  if (strchr(tab->format, ',')) { /* key-value rows: t5 bucket,head,bias */
    rl_out_header(out, tab->format);
    for (size_t b = 0; b < tab->rows && !out->err; b++)
      for (size_t h = 0; h < tab->cols; h++)
        num_row(out, (double[]){(double)b, (double)h, tab->data[b * tab->cols + h]}, 3, NULL);
    return 0;
  }
  if (vec_header(out, tab->format, tab->cols)) /* vector rows: index,v0..v{cols-1} */
    return rl_runtime(r->name, "%s", rl_strerror(RL_ENOMEM));
  for (size_t row = 0; row < tab->rows && !out->err; row++) {
    char idx[32];
    snprintf(idx, sizeof idx, "%zu", row);
    vec_row(out, idx, tab->data + row * tab->cols, tab->cols, 0);
  }
  return 0;
}

/* the core's plan: what the scheme has, the range */
static int check(rl_cmd_run *r)
{
  rl_params_settings *s = r->settings;
  char err[RL_ERR_MAX], note[RL_ERR_MAX];
  s->set = rl_decl_given_bits(&r->own[0]);
  if (rl_params_plan(rl_scheme_find(r->scheme.names[0]), &r->scheme.cfg, s, err, sizeof err,
                     note, sizeof note))
    return rl_usage(r->name, "%s", err);
  if (note[0])
    fprintf(stderr, "ropelab %s: note: %s\n", r->name, note);
  return 0;
}

static int compute(rl_cmd_run *r)
{
  const rl_params_settings *s = r->settings;
  const char *name = r->scheme.names[0];
  const rl_scheme_info *si = rl_scheme_find(name);
  rl_scheme *sc = NULL;
  const rl_schedule *f = NULL;
  rl_scheme_table tab = {0};
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc = rl_scheme_opts_alloc(&r->scheme, r->name, name, &sc);
  if (rc)
    return rc;
  int want_tab = s->what == RL_PARAMS_TABLE || s->what == RL_PARAMS_SLOPES;
  if (want_tab && rl_scheme_get_table(sc, &tab))
    rc = s->what == RL_PARAMS_TABLE
             ? rl_usage(r->name, "scheme '%s' has no positional parameter table", name)
             : rl_runtime(r->name, "internal error: alibi has no slope table");
  else if (s->what == RL_PARAMS_FREQS && !(f = rl_scheme_get_schedule(sc)))
    rc = rl_runtime(r->name, "internal error: scheme '%s' has no schedule", name);
  if (rc || (rc = rl_cmd_sink_open(r, &sink)))
    goto done;
  rl_out_meta_begin(out);
  rl_scheme_opts_meta(&r->scheme, out);
  rl_cmd_meta(r, out);
  if (s->what == RL_PARAMS_SLOPES ||
      (s->what == RL_PARAMS_TABLE && tab.cols == 1 && !strcmp(tab.format, "head,slope")))
    slopes(r, out, &tab);
  else if (s->what == RL_PARAMS_BUCKETS && si->buckets == RL_BUCKETS_TUPE)
    tupe_buckets(s, &r->scheme.cfg, out);
  else if (s->what == RL_PARAMS_RELEMB)
    rc = relemb(r, sc, out);
  else if (s->what == RL_PARAMS_BUCKETS)
    rc = buckets(r, si, out);
  else if (s->what == RL_PARAMS_FREQS)
    freqs(si, f, out);
  else
    rc = table(r, &tab, out);
  if (!rc)
    rc = rl_sink_close(&sink, NULL);
done:
  rl_sink_abort(&sink);
  rl_scheme_free(sc);
  return rc;
}

static const rl_cmd_decl decl = {
    .usage = "--scheme S [OPTIONS]",
    .about =
        "The parameters scheme S derives or holds, as CSV.  --what W chooses the\n"
        "table:\n"
        "  slopes   alibi: head,slope (Press et al. 2022: 2^(-8h/H) for H a power\n"
        "           of two, else interleaved; the metadata line slopes= says which)\n"
        "  buckets  t5: key_minus_query,bucket; deberta: query_minus_key,bucket,row\n"
        "           (row: the clamped table row), over --from..--to.  Opposite\n"
        "           signs, as their code has them: T5 memory_position -\n"
        "           context_position, DeBERTa q_ids - k_ids.  With t5 --causal the\n"
        "           keys before the query are the negative distances; positive ones\n"
        "           are masked (bucket 0), and a range of those alone is noted on\n"
        "           stderr.  tupe: query,key,bucket, positions --from..--to (default\n"
        "           0..16), [CLS] = position 0 with its own buckets (row:\n"
        "           buckets/2, column: buckets)\n"
        "  table    the learned table in its --params file format (t5\n"
        "           bucket,head,bias; alibi head,slope; learned and tupe\n"
        "           position,v0..; deberta bucket,v0..)\n"
        "  freqs    sinusoidal, xl, rope, rope2d: pair,theta,wavelength (rope2d adds\n"
        "           axis: col or row; rope and rope2d take --method: see 'ropelab\n"
        "           freqs' for more columns)\n"
        "  relemb   xl: distance,v0..v{d-1}, Transformer-XL's relative embedding R_r\n"
        "           (d/2 sines, then d/2 cosines)\n",
    .takes = RL_TAKES_SCHEME | RL_TAKES_TABLE,
    .settings_size = sizeof(rl_params_settings),
    .groups = {{"tables:", rl_params_param_list, 0}},
    .schemes_max = 1,
    /* whichever of its tables the scheme gives (buckets, slopes, frequencies) */
    .sweep_numbers = "", .sweep_names = "scheme", .sweep_lists = "",
    .plot_x = "key_minus_query query_minus_key head pair distance",
    .plot_y = "bucket|slope|theta|v0",
    .plot_units = "key_minus_query=tokens;query_minus_key=tokens;distance=tokens;head=index;"
                  "pair=index;bucket=index;slope=per token;theta=rad/token;v0=no unit",
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_params = {"params", NULL,
                                     "parameters of a positional scheme (slopes, buckets, tables)",
                                     NULL, &decl};
