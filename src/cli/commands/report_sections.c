/* report_sections.c: the page of `ropelab report`, laid out from the
 * tables its commands wrote (report_steps.c).  Nothing here computes a
 * number: every one the page states is a cell or a metadata value of a
 * table computed for exactly the range the page names (issue 36); what
 * is done here is choosing rows (the row at r = L, the `all` row of a
 * --by pair table), grouping equal bands, and rounding for reading. */
#define _GNU_SOURCE /* asprintf */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "out.h"
#include "report_run.h"
#include "rl_config.h"

static double num(const char *s)
{
  if (!s || !*s)
    return NAN;
  char *e;
  double v = strtod(s, &e);
  return *e ? (double)NAN : v;
}

void rp_fmt6(char *b, size_t n, const char *s)
{
  double v = num(s);
  if (isnan(v))
    snprintf(b, n, "%s", s && *s ? s : "");
  else
    snprintf(b, n, "%.6g", v);
}

void rp_fmt_se(char *b, size_t n, const char *s)
{
  double v = num(s);
  if (isnan(v))
    snprintf(b, n, "%s", s && *s ? s : "");
  else
    snprintf(b, n, "%.2g", v);
}

/* ---- choosing rows ----------------------------------------------------- */

/* the first row of t whose columns (name, value) pairs all equal (text;
 * a number compared as a number), or -1 */
static long row_where(const rp_table *t, const char *c1, const char *v1, const char *c2,
                      const char *v2, const char *c3, const char *v3)
{
  const char *c[3] = {c1, c2, c3}, *v[3] = {v1, v2, v3};
  for (size_t i = 0; i < t->nrow; i++) {
    int ok = 1;
    for (int k = 0; k < 3 && ok && c[k]; k++) {
      const char *x = rp_cell(t, i, c[k]);
      ok = !strcmp(x, v[k]) || (!isnan(num(x)) && num(x) == num(v[k]));
    }
    if (ok)
      return (long)i;
  }
  return -1;
}

static const char *cell_where(const rp_table *t, const char *col, const char *c1, const char *v1,
                              const char *c2, const char *v2, const char *c3, const char *v3)
{
  long i = row_where(t, c1, v1, c2, v2, c3, v3);
  return i < 0 ? "" : rp_cell(t, (size_t)i, col);
}

/* a whole number as text */
static void whole(char *b, size_t n, double v) { snprintf(b, n, "%.0f", v); }

/* "L", "C", "2C", "4C" where n is one of the model's lengths, else "" */
static const char *label(const rl_report_model *pm, double n)
{
  return n == pm->C && n == pm->L ? "L = C" : n == pm->L ? "L" : n == pm->C ? "C"
         : n == 2 * pm->C ? "2C" : n == 4 * pm->C ? "4C" : "";
}

/* "8192 (L)" */
static void labelled(char *b, size_t n, const rl_report_model *pm, double v)
{
  const char *l = label(pm, v);
  if (*l)
    snprintf(b, n, "%.0f (%s)", v, l);
  else
    snprintf(b, n, "%.0f", v);
}

/* a metadata value of a sweep's point ("key[opt:value]"), or of a table
 * of one point ("key") */
static const char *meta_at(const rp_table *t, const char *key, const char *opt, double at)
{
  char k[160];
  snprintf(k, sizeof k, "%s[%s:%.0f]", key, opt, at);
  const char *v = rp_table_meta(t, k);
  return v ? v : rp_table_meta(t, key);
}

/* the turns of pair i within `at` positions (S_TURNS: a sweep over
 * --turns-within when L != C, else one point) */
static const char *turns(const rp_model *m, const rp_table *t, size_t i, double at)
{
  char p[32], a[32];
  snprintf(p, sizeof p, "%zu", i);
  snprintf(a, sizeof a, "%.0f", at);
  if (rp_table_colidx(t, "turns_within") < 0)
    return cell_where(t, "turns", "pair", p, NULL, NULL, NULL, NULL);
  (void)m;
  return cell_where(t, "turns", "pair", p, "turns_within", a, NULL, NULL);
}

/* ---- pieces of the page -------------------------------------------------- */

static void sec(rp_page *p, int two, const rp_model *m, const char *title)
{
  char *t = NULL;
  if (two && asprintf(&t, "%s: %s", m->pm->name, title) < 0)
    t = NULL;
  rp_heading(p, two ? 3 : 2, t ? t : title);
  free(t);
}

static void figure1(rp_page *p, const rp_model *m, const char *stem, const char *alt)
{
  char file[300];
  snprintf(file, sizeof file, "%s%s.png", m->pfx, stem);
  const char *f[] = {file}, *a[] = {alt};
  rp_figures(p, 1, f, a);
}

/* the pairs grouped by band: wavelengths, and turns within each length */
static void band_table(rp_page *p, const rp_model *m, const rp_table *fq, const rp_table *tw)
{
  const rl_report_model *pm = m->pm;
  char h1[64], h2[64];
  snprintf(h1, sizeof h1, "turns within %s = %.0f", label(pm, pm->at[0]), pm->at[0]);
  snprintf(h2, sizeof h2, "turns within %s = %.0f", label(pm, pm->at[pm->n_at - 1]),
           pm->at[pm->n_at - 1]);
  const char *h[] = {"pairs", "band", "wavelength (tokens)", h1, h2};
  size_t nc = 3 + pm->n_at;
  rp_table_head(p, nc, h);
  for (size_t i = 0; i < fq->nrow;) {
    size_t j = i;
    const char *band = rp_cell(fq, i, "band");
    while (j + 1 < fq->nrow && !strcmp(rp_cell(fq, j + 1, "band"), band))
      j++;
    char pr[48], wl[300], tc[2][300], a[64], b[64];
    snprintf(pr, sizeof pr, i == j ? "%zu" : "%zu-%zu", i, j);
    rp_fmt6(a, sizeof a, rp_cell(fq, i, "wavelength"));
    rp_fmt6(b, sizeof b, rp_cell(fq, j, "wavelength"));
    snprintf(wl, sizeof wl, i == j ? "%s" : "%s .. %s", a, b);
    for (size_t k = 0; k < pm->n_at; k++) {
      rp_fmt6(a, sizeof a, turns(m, tw, i, pm->at[k]));
      rp_fmt6(b, sizeof b, turns(m, tw, j, pm->at[k]));
      snprintf(tc[k], sizeof tc[k], i == j ? "%s" : "%s .. %s", a, b);
    }
    const char *c[] = {pr, band, wl, tc[0], tc[1]};
    rp_table_row(p, nc, c);
    i = j + 1;
  }
  rp_table_end(p);
}

static void settings(rp_page *p, const rp_model *m, int two)
{
  const rp_table *fq = &m->s[S_FREQS].t;
  const rl_report_model *pm = m->pm;
  sec(p, two, m, "The model's RoPE settings");
  int gguf = m->info.format && !strcmp(m->info.format, "gguf");
  rp_para(p, "Read from `%s` (%s%s%s) as %s; each setting's source is the `.source` metadata of "
          "`freqs`. The training length L = %.0f and the configured context C = %.0f are the "
          "lengths every section below is evaluated at.",
          m->arg, m->info.format ? m->info.format : "", m->info.arch ? ", " : "",
          m->info.arch ? m->info.arch : "",
          gguf ? "llama.cpp's loader names its keys" : "transformers reads it", pm->L, pm->C);
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
    const char *r = rp_table_meta(fq, "rot");
    const char *c[] = {"rot", r ? r : "", "= dim: the config rotates every dimension"};
    rp_table_row(p, 3, c);
  }
  char b1[64], b2[64];
  whole(b1, sizeof b1, pm->L);
  const char *cl[] = {"L (training length)", b1,
                      pm->L_given ? "train_len above" : "the context length (the config states no other)"};
  rp_table_row(p, 3, cl);
  whole(b2, sizeof b2, pm->C);
  const char *cc[] = {"C (configured context)", b2,
                      m->info.context_len > 0 ? "max_position_embeddings / <arch>.context_length"
                                              : "L (the config states no context length)"};
  rp_table_row(p, 3, cc);
  rp_table_end(p);
  if (m->info.n_notes) {
    rp_para(p, "Where the frameworks read this file differently (the reader's notes):");
    for (size_t i = 0; i < m->info.n_notes; i++)
      rp_item(p, "%s", m->info.notes[i]);
  }
}

static void schedule(rp_page *p, const rp_model *m, int two)
{
  const rp_table *fq = &m->s[S_FREQS].t, *tw = &m->s[S_TURNS].t;
  const rl_report_model *pm = m->pm;
  char b[6][300];
  sec(p, two, m, "1. The schedule per pair");
  rp_command(p, m->s[S_FREQS].line);
  rp_command(p, m->s[S_TURNS].line);
  const char *sched = rp_table_meta(fq, "schedule"), *method = rp_table_meta(fq, "method");
  const char *nL = meta_at(tw, "pairs_turned", "turns_within", pm->L);
  const char *nC = meta_at(tw, "pairs_turned", "turns_within", pm->C);
  int ctx = m->s[S_CTX].line != NULL;
  if (ctx) /* the frequencies the model has at n = C */
    nC = rp_table_meta(&m->s[S_CTX].t, "pairs_turned");
  rp_para(p, "%s. The turns within n positions are n theta / (2 pi) (`freqs --turns-within`, "
          "which leaves the schedule as it is); %s of the %zu pairs turn at least once within "
          "L, %s within C (`pairs_turned`%s).",
          sched ? sched : method ? method : "", nL ? nL : "?", fq->nrow, nC ? nC : "?",
          ctx ? "; at C with the frequencies the model has at n = C, below" : "");
  figure1(p, m, "freqs", "frequency schedule per pair");
  band_table(p, m, fq, tw);
  rp_details_begin(p, "every pair");
  int axis = rp_table_colidx(fq, "axis") >= 0;
  char h1[64], h2[64];
  snprintf(h1, sizeof h1, "turns within %s", label(pm, pm->at[0]));
  snprintf(h2, sizeof h2, "turns within %s", label(pm, pm->at[pm->n_at - 1]));
  const char *h[] = {"pair", "theta", "wavelength", "ratio to RoPE", "band", h1, h2, "axis"};
  size_t nt = pm->n_at;
  const char *hh[8];
  size_t nh = 0;
  for (size_t k = 0; k < 5 + 2; k++)
    if (k < 5 || k - 5 < nt)
      hh[nh++] = h[k];
  if (axis)
    hh[nh++] = h[7];
  rp_table_head(p, nh, hh);
  for (size_t i = 0; i < fq->nrow; i++) {
    rp_fmt6(b[0], sizeof b[0], rp_cell(fq, i, "theta"));
    rp_fmt6(b[1], sizeof b[1], rp_cell(fq, i, "wavelength"));
    rp_fmt6(b[2], sizeof b[2], rp_cell(fq, i, "ratio"));
    rp_fmt6(b[3], sizeof b[3], turns(m, tw, i, pm->at[0]));
    rp_fmt6(b[4], sizeof b[4], turns(m, tw, i, pm->at[nt - 1]));
    const char *c[8];
    size_t nc = 0;
    c[nc++] = rp_cell(fq, i, "pair"), c[nc++] = b[0], c[nc++] = b[1], c[nc++] = b[2];
    c[nc++] = rp_cell(fq, i, "band"), c[nc++] = b[3];
    if (nt > 1)
      c[nc++] = b[4];
    if (axis)
      c[nc++] = rp_cell(fq, i, "axis");
    rp_table_row(p, nc, c);
  }
  rp_table_end(p);
  rp_details_end(p);
  const rp_table *ct = &m->s[S_CTX].t;
  if (m->s[S_CTX].line) {
    rp_para(p, "This schedule depends on the current length (`seq_len` = %s above, the "
            "frameworks' value up to L). At the configured context, n = C = %.0f, transformers "
            "and vLLM use these frequencies instead (llama.cpp: see the notes above):",
            rp_table_meta(fq, "seq_len"), pm->C);
    rp_command(p, m->s[S_CTX].line);
    figure1(p, m, "freqs-at-context", "frequency schedule per pair at the configured context");
    rp_fmt6(b[0], sizeof b[0], rp_table_meta(ct, "attention_factor"));
    const char *n = rp_table_meta(ct, "pairs_turned");
    rp_para(p, "Its attention factor: %s; %s of its pairs turn at least once within C.", b[0],
            n ? n : "?");
  }
  sec(p, two, m, "2. The attention factor");
  rp_fmt6(b[0], sizeof b[0], rp_table_meta(fq, "attention_factor"));
  rp_fmt6(b[1], sizeof b[1], rp_table_meta(fq, "logit_multiplier"));
  rp_para(p, "cos and sin are multiplied by the attention factor %s, so every logit by its "
          "square, %s (`attention_factor` and `logit_multiplier` in the metadata of the first "
          "`freqs` command above).", b[0], b[1]);
}

static void men(rp_page *p, const rp_model *m, int two)
{
  const rp_step *ss = &m->s[S_MEN_SEARCH];
  const rp_table *mt = &m->s[S_MEN].t, *fq = &m->s[S_FREQS].t;
  char b1[300];
  sec(p, two, m, "3. Is the base enough for the context? (Men et al. 2024)");
  rp_command(p, ss->line);
  rp_command(p, m->s[S_MEN].line);
  if (ss->refused) {
    rp_para(p, "The search for the smallest base was refused: %s", ss->refused);
  } else {
    rp_fmt6(b1, sizeof b1, rp_cell(&ss->t, 0, "base"));
    rp_para(p, "Men et al.'s smallest base for C = %.0f (plain RoPE with d = %s, %s rotated "
            "dimensions: B_r = sum_i cos(r theta_i) >= 0 for every r < C, on Su's staged grid%s) "
            "is %s; the model's base is %s.",
            m->pm->C, rp_table_meta(fq, "dim"), rp_table_meta(fq, "rot"),
            strstr(ss->line, "--start-factor")
                ? ", started above the default 1000 C, which is not feasible here" : "",
            b1, rp_table_meta(fq, "base"));
  }
  const char *h[] = {"length", "enough (B_r >= 0 for r < length)", "first r with B_r < 0",
                     "B_r there"};
  rp_table_head(p, 4, h);
  for (size_t i = 0; i < mt->nrow; i++) {
    char lab[128];
    labelled(lab, sizeof lab, m->pm, num(rp_cell(mt, i, "len")));
    rp_fmt6(b1, sizeof b1, rp_cell(mt, i, "b_first_fail"));
    const char *ff = rp_cell(mt, i, "first_fail");
    const char *c[] = {lab, rp_cell(mt, i, "enough"), *ff ? ff : "none", b1};
    rp_table_row(p, 4, c);
  }
  rp_table_end(p);
  /* the first failure of the longest length tested is the first within 4C */
  const char *ff = mt->nrow ? rp_cell(mt, mt->nrow - 1, "first_fail") : "";
  const char *method = rp_table_meta(fq, "method");
  if (*ff)
    rp_para(p, "With its own schedule (%s, the frequencies of section 1) and base, the first "
            "distance with B_r < 0 is r = %s.", method ? method : "", ff);
  else
    rp_para(p, "With its own schedule (%s, the frequencies of section 1) and base, B_r >= 0 at "
            "every distance below %s = %s.", method ? method : "", "4C",
            mt->nrow ? rp_cell(mt, mt->nrow - 1, "len") : "");
}

static void unseen(rp_page *p, const rp_model *m, const rp_ctx *c, int two)
{
  const rp_table *ex = &m->s[S_EX].t;
  sec(p, two, m, "4. Unseen rotary angles");
  rp_command(p, m->s[S_EX].line);
  rp_para(p, "The fraction of the query-key pairs of a causal sequence of n tokens in which some "
          "rotary pair meets an angle it never met within L tokens (exact counts; `measure` "
          "unseen, `pair` all):");
  const char *h[] = {"n", "unseen fraction"};
  rp_table_head(p, 2, h);
  for (size_t i = 0; i < c->plan->n_lens; i++) {
    double n = c->plan->lens[i];
    if (!*label(m->pm, n))
      continue;
    char lab[128], v[64], ns[32];
    labelled(lab, sizeof lab, m->pm, n);
    snprintf(ns, sizeof ns, "%.0f", n);
    rp_fmt6(v, sizeof v,
            cell_where(ex, "value", "measure", "unseen", "len", ns, "pair", "all"));
    const char *cc[] = {lab, v};
    rp_table_row(p, 2, cc);
  }
  rp_table_end(p);
}

static void decay(rp_page *p, const rp_model *m, const rp_ctx *c, int two)
{
  const rp_table *at = &m->s[S_DECAY_AT].t, *mt = &m->s[S_MEN].t;
  sec(p, two, m, "5. Long-term decay: the bound and the similarity B_r");
  rp_command(p, m->s[S_DECAY].line);
  const char *ff = mt->nrow ? rp_cell(mt, mt->nrow - 1, "first_fail") : "";
  rp_para(p, "RoFormer's relative upper bound and Men et al.'s B_r = sum_i cos(r theta_i) of the "
          "model's schedule (times its logit multiplier, as `decay` measures a method's logit) "
          "at every integer distance r from 1 to C, drawn as each of %zu bins "
          "per octave's smallest and largest value (so every extreme shows)%s%s%s.",
          c->set->bins, *ff ? "; the first r with B_r < 0, r = " : "", ff,
          *ff ? " (section 3), is marked where it falls within C" : "");
  figure1(p, m, "decay", "decay bound and similarity");
  rp_command(p, m->s[S_DECAY_AT].line);
  const char *h[] = {"r", "bound", "similarity B_r"};
  rp_table_head(p, 3, h);
  for (size_t i = 0; i < at->nrow; i++) {
    char lab[128], b[64], s[64];
    labelled(lab, sizeof lab, m->pm, num(rp_cell(at, i, "r")));
    rp_fmt6(b, sizeof b, rp_cell(at, i, "bound"));
    rp_fmt6(s, sizeof s, rp_cell(at, i, "similarity"));
    const char *cc[] = {lab, b, s};
    rp_table_row(p, 3, cc);
  }
  rp_table_end(p);
}

static void precision(rp_page *p, const rp_model *m, int two)
{
  const rp_table *w = &m->s[S_PREC_WORST].t;
  const rl_report_model *pm = m->pm;
  sec(p, two, m, "6. Precision envelope of transformers' pipeline");
  rp_command(p, m->s[S_PREC_BF16].line);
  rp_command(p, m->s[S_PREC_FP32].line);
  char f0[300], f1[300];
  snprintf(f0, sizeof f0, "%sprecision-bf16.png", m->pfx);
  snprintf(f1, sizeof f1, "%sprecision-fp32.png", m->pfx);
  const char *f[] = {f0, f1}, *a[] = {"hf-bf16 precision", "hf-fp32 precision"};
  rp_figures(p, 2, f, a);
  rp_command(p, m->s[S_PREC_WORST].line);
  rp_para(p, "The worst error of cos and sin (the rotation's, before the attention factor "
          "multiplies both sides) against the exact values over every position 0..n and every "
          "pair (the `all` row of `--by pair`, computed for each n):");
  const char *h[] = {"pipeline", "positions", "worst cos error", "worst sin error",
                     "worst logit error (r = 1)"};
  rp_table_head(p, 5, h);
  static const char *const pipe[2] = {"hf-bf16", "hf-fp32"};
  for (int k = 0; k < 2; k++)
    for (size_t j = 0; j < pm->n_at; j++) {
      char to[32], range[128], e[3][64];
      snprintf(to, sizeof to, "%.0f", pm->at[j]);
      snprintf(range, sizeof range, "0..%.0f (%s)", pm->at[j], label(pm, pm->at[j]));
      const char *col[3] = {"cos_err", "sin_err", "logit_err"};
      int swept = rp_table_colidx(w, "to") >= 0;
      for (int q = 0; q < 3; q++)
        rp_fmt6(e[q], sizeof e[q],
                cell_where(w, col[q], "precision", pipe[k], "pair", "all", swept ? "to" : NULL,
                           swept ? to : NULL));
      const char *cc[] = {pipe[k], range, e[0], e[1], e[2]};
      rp_table_row(p, 5, cc);
    }
  rp_table_end(p);
}

/* the retrieval row of the largest distance measured at length n */
static long farthest(const rp_table *ex, double n)
{
  long far = -1;
  for (size_t j = 0; j < ex->nrow; j++)
    if (!strcmp(rp_cell(ex, j, "measure"), "retrieval") && num(rp_cell(ex, j, "len")) == n &&
        (far < 0 || num(rp_cell(ex, j, "r")) > num(rp_cell(ex, (size_t)far, "r"))))
      far = (long)j;
  return far;
}

/* "v ± se" of row i, or "" */
static void with_se(char *b, size_t n, const rp_table *t, long i)
{
  char v[48], s[48];
  if (i < 0) {
    b[0] = 0;
    return;
  }
  rp_fmt6(v, sizeof v, rp_cell(t, (size_t)i, "value"));
  rp_fmt_se(s, sizeof s, rp_cell(t, (size_t)i, "se"));
  snprintf(b, n, "%s ± %s", v, s);
}

static void past(rp_page *p, const rp_model *m, const rp_ctx *c, int two)
{
  const rp_table *ex = &m->s[S_EX].t, *en = &m->s[S_ENT].t;
  sec(p, two, m, "7. Retrieval and entropy past the training length");
  rp_command(p, m->s[S_ENT].line);
  rp_para(p, "Retrieval (from section 4's command; %zu content samples, q and k ~ N(0, I_d), the "
          "last token queries all n): the attention on one key equal to the query planted at "
          "the farthest distance r measured, mean and standard error. At r = 0 and with "
          "independent keys the rotation changes nothing (a rotated Gaussian key is as "
          "Gaussian), so those are not shown. Entropy: of the attention when every key equals "
          "the query (`--identical`; %zu samples): then the rotation alone decides who is "
          "attended; ln n is uniform attention.", c->set->samples,
          rl_report_entropy_samples(c->set));
  figure1(p, m, "extrapolate", "unseen angles and retrieval past L");
  const char *h[] = {"n", "farthest r", "retrieval there", "entropy, identical keys (nats)",
                     "ln n (uniform)"};
  rp_table_head(p, 5, h);
  for (size_t i = 0; i < c->plan->n_lens; i++) {
    double n = c->plan->lens[i];
    char ns[32], lab[128], rv[128], ev[128], mx[64];
    snprintf(ns, sizeof ns, "%.0f", n);
    labelled(lab, sizeof lab, m->pm, n);
    long far = farthest(ex, n);
    with_se(rv, sizeof rv, ex, far);
    with_se(ev, sizeof ev, en, row_where(en, "measure", "entropy", "stat", "nats", "len", ns));
    rp_fmt6(mx, sizeof mx, cell_where(en, "value", "measure", "entropy", "stat", "max", "len", ns));
    const char *cc[] = {lab, far >= 0 ? rp_cell(ex, (size_t)far, "r") : "", rv, ev, mx};
    rp_table_row(p, 5, cc);
  }
  rp_table_end(p);
}

static const char *const var_who[2] = {"vLLM", "llama.cpp (ggml)"};

static void frameworks(rp_page *p, const rp_model *m, int two)
{
  const rp_table *fq = &m->s[S_FREQS].t;
  sec(p, two, m, "8. transformers, vLLM and llama.cpp on this config");
  rp_command(p, m->s[S_VLLM].line);
  rp_command(p, m->s[S_GGML].line);
  rp_para(p, "The same config under each framework's formula (`--variant`), pair by pair against "
          "transformers' (`--compare-variant hf`: `pairs_differing_from_hf`, "
          "`largest_ratio_to_hf` and its pair in the metadata):");
  const char *h[] = {"framework", "attention factor", "pairs whose theta differs",
                     "largest theta ratio (pair)"};
  rp_table_head(p, 4, h);
  char b1[300], b2[300], b3[300];
  rp_fmt6(b1, sizeof b1, rp_table_meta(fq, "attention_factor"));
  const char *c0[] = {"transformers (hf)", b1, "(reference)", ""};
  rp_table_row(p, 4, c0);
  for (int k = 0; k < 2; k++) {
    const rp_step *s = &m->s[S_VLLM + k];
    if (s->refused) {
      snprintf(b2, sizeof b2, "refused: %s", s->refused);
      const char *c[] = {var_who[k], "", b2, ""};
      rp_table_row(p, 4, c);
      continue;
    }
    const char *nd = rp_table_meta(&s->t, "pairs_differing_from_hf");
    rp_fmt6(b1, sizeof b1, rp_table_meta(&s->t, "attention_factor"));
    snprintf(b2, sizeof b2, "%s of %zu", nd ? nd : "?", s->t.nrow);
    if (nd && strcmp(nd, "0"))
      snprintf(b3, sizeof b3, "%s (pair %s)", rp_table_meta(&s->t, "largest_ratio_to_hf"),
               rp_table_meta(&s->t, "largest_ratio_pair"));
    else
      snprintf(b3, sizeof b3, "none: identical");
    const char *c[] = {var_who[k], b1, b2, b3};
    rp_table_row(p, 4, c);
  }
  rp_table_end(p);
}

void rp_page_model(rp_page *p, const rp_ctx *c, const rp_model *m, int two)
{
  if (two)
    rp_heading(p, 2, m->pm->name);
  settings(p, m, two);
  schedule(p, m, two);
  men(p, m, two);
  unseen(p, m, c, two);
  decay(p, m, c, two);
  precision(p, m, two);
  past(p, m, c, two);
  frameworks(p, m, two);
}

/* ---- the headline numbers: summary.csv and the side-by-side table ------ */

typedef void (*emit_fn)(void *arg, const char *key, const char *value, const char *file);

static void emitf(emit_fn emit, void *arg, const char *file, const char *value, const char *fmt,
                  ...) RP_PRINTF(5, 6);
static void emitf(emit_fn emit, void *arg, const char *file, const char *value, const char *fmt,
                  ...)
{
  char key[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(key, sizeof key, fmt, ap);
  va_end(ap);
  emit(arg, key, value ? value : "", file);
}

/* the name of a length in a key: train_len, context, 2x_context, ... */
static const char *key_of(const rl_report_model *pm, double n)
{
  return n == pm->C ? "context" : n == pm->L ? "train_len" : n == 2 * pm->C ? "2x_context"
         : n == 4 * pm->C ? "4x_context" : NULL;
}

static void headline(const rp_model *m, emit_fn emit, void *arg)
{
  const rl_report_model *pm = m->pm;
  char f[S_N][300], b[64];
  static const char *const stem[S_N] = {
      "freqs",          "freqs-turns",    "freqs-at-context", "men-search", "men",
      "decay",          "decay-at",       "precision-bf16",   "precision-fp32",
      "precision-worst", "extrapolate",   "entropy",          "freqs-vllm", "freqs-ggml"};
  for (int k = 0; k < S_N; k++)
    snprintf(f[k], sizeof f[k], "%s%s.csv", m->pfx, stem[k]);
  const rp_table *fq = &m->s[S_FREQS].t;
  static const char *const fk[] = {"dim", "rot", "base", "layout", "method", "factor",
                                   "attention_factor", "logit_multiplier"};
  for (size_t i = 0; i < sizeof fk / sizeof *fk; i++)
    emitf(emit, arg, f[S_FREQS], rp_table_meta(fq, fk[i]), "%s", fk[i]);
  whole(b, sizeof b, pm->L);
  emitf(emit, arg, m->arg, b, "train_len");
  whole(b, sizeof b, pm->C);
  emitf(emit, arg, m->arg, b, "context_len");
  for (size_t j = 0; j < pm->n_at; j++) {
    int c = pm->at[j] == pm->C, ctx = c && m->s[S_CTX].line; /* at n = C: its own schedule */
    emitf(emit, arg, f[ctx ? S_CTX : S_TURNS],
          ctx ? rp_table_meta(&m->s[S_CTX].t, "pairs_turned")
              : meta_at(&m->s[S_TURNS].t, "pairs_turned", "turns_within", pm->at[j]),
          "pairs_turning_within_%s", c ? "context" : "train_len");
  }
  const rp_step *ss = &m->s[S_MEN_SEARCH];
  emitf(emit, arg, f[S_MEN_SEARCH], ss->refused ? "" : rp_cell(&ss->t, 0, "base"),
        "men_smallest_base_for_context");
  const rp_table *mt = &m->s[S_MEN].t;
  for (size_t i = 0; i < mt->nrow; i++) {
    const char *k = key_of(pm, num(rp_cell(mt, i, "len")));
    if (!k)
      continue;
    emitf(emit, arg, f[S_MEN], rp_cell(mt, i, "enough"), "men_enough_at_%s", k);
    emitf(emit, arg, f[S_MEN], rp_cell(mt, i, "first_fail"), "men_first_fail_within_%s", k);
  }
  const rp_table *at = &m->s[S_DECAY_AT].t;
  for (size_t i = 0; i < at->nrow; i++) {
    const char *k = key_of(pm, num(rp_cell(at, i, "r")));
    emitf(emit, arg, f[S_DECAY_AT], rp_cell(at, i, "bound"), "decay_bound_at_%s", k ? k : "r");
    emitf(emit, arg, f[S_DECAY_AT], rp_cell(at, i, "similarity"), "decay_similarity_at_%s",
          k ? k : "r");
  }
  for (size_t i = 0; i < 3; i++) {
    double n = (double)(i ? 2 * i : 1) * pm->C;
    char ns[32];
    snprintf(ns, sizeof ns, "%.0f", n);
    emitf(emit, arg, f[S_EX],
          cell_where(&m->s[S_EX].t, "value", "measure", "unseen", "len", ns, "pair", "all"),
          "unseen_at_%s", key_of(pm, n));
  }
  const rp_table *w = &m->s[S_PREC_WORST].t;
  int swept = rp_table_colidx(w, "to") >= 0;
  static const char *const pipe[2] = {"hf-bf16", "hf-fp32"};
  static const char *const col[3] = {"cos_err", "sin_err", "logit_err"};
  for (int k = 0; k < 2; k++)
    for (size_t j = 0; j < pm->n_at; j++)
      for (int q = 0; q < 3; q++) {
        char to[32];
        snprintf(to, sizeof to, "%.0f", pm->at[j]);
        emitf(emit, arg, f[S_PREC_WORST],
              cell_where(w, col[q], "precision", pipe[k], "pair", "all", swept ? "to" : NULL,
                         swept ? to : NULL),
              "%s_worst_%s_to_%s", pipe[k], col[q], pm->at[j] == pm->C ? "context" : "train_len");
      }
  char ns[32];
  snprintf(ns, sizeof ns, "%.0f", pm->C);
  long far = farthest(&m->s[S_EX].t, pm->C);
  emitf(emit, arg, f[S_EX], far < 0 ? "" : rp_cell(&m->s[S_EX].t, (size_t)far, "r"),
        "retrieval_farthest_r_at_context");
  emitf(emit, arg, f[S_EX], far < 0 ? "" : rp_cell(&m->s[S_EX].t, (size_t)far, "value"),
        "retrieval_at_farthest_r_at_context");
  emitf(emit, arg, f[S_ENT],
        cell_where(&m->s[S_ENT].t, "value", "measure", "entropy", "stat", "nats", "len", ns),
        "entropy_identical_keys_at_context");
  static const char *const var[2] = {"vllm", "ggml"};
  for (int k = 0; k < 2; k++) {
    const rp_step *s = &m->s[S_VLLM + k];
    emitf(emit, arg, f[S_VLLM + k],
          s->refused ? "refused" : rp_table_meta(&s->t, "pairs_differing_from_hf"),
          "%s_pairs_differing_from_hf", var[k]);
  }
}

/* one CSV field, quoted (RFC 4180) when it holds a comma, quote or line
 * break: a model's name or path may */
static void csv_field(rp_buf *b, const char *s)
{
  if (!strpbrk(s, ",\"\r\n")) {
    rp_buf_puts(b, s);
    return;
  }
  rp_buf_puts(b, "\"");
  for (; *s; s++)
    rp_buf_puts(b, *s == '"' ? "\"\"" : (char[2]){*s, 0});
  rp_buf_puts(b, "\"");
}

typedef struct sum_arg {
  rp_buf *b;
  const char *name;
} sum_arg;

static void sum_emit(void *arg, const char *key, const char *value, const char *file)
{
  sum_arg *a = arg;
  const char *f[4] = {a->name, key, value, file};
  for (int k = 0; k < 4; k++) {
    if (k)
      rp_buf_puts(a->b, ",");
    csv_field(a->b, f[k]);
  }
  rp_buf_puts(a->b, "\n");
}

int rp_summary(rp_buf *b, const rp_ctx *c, rp_model *const *ms, size_t n)
{
  (void)c;
  rp_buf_puts(b, "model,key,value,table\n");
  rp_buf_printf(b, "# ropelab=%s\n", RL_VERSION);
  char *line = rl_out_command_line();
  rp_buf_printf(b, "# command=%s\n", line ? line : "ropelab report");
  free(line);
  /* which models this folder holds: a later report into it checks these */
  for (size_t i = 0; i < n; i++) {
    rp_buf_printf(b, "# model=%s\n", ms[i]->pm->name);
    rp_buf_printf(b, "# config=%s\n", ms[i]->abs);
  }
  rp_buf_puts(b, "# value=the number as the table names it; table=the file beside this one it "
                 "comes from (the page prints the command that wrote it)\n");
  for (size_t i = 0; i < n; i++) {
    sum_arg a = {b, ms[i]->pm->name};
    headline(ms[i], sum_emit, &a);
  }
  return b->err ? -1 : 0;
}

/* ---- two models --------------------------------------------------------- */

typedef struct kv_list {
  char (*key)[160], (*val)[320];
  size_t n, cap;
} kv_list;

static void kv_emit(void *arg, const char *key, const char *value, const char *file)
{
  (void)file;
  kv_list *l = arg;
  if (l->n >= l->cap)
    return;
  snprintf(l->key[l->n], sizeof l->key[l->n], "%s", key);
  snprintf(l->val[l->n], sizeof l->val[l->n], "%s", value);
  l->n++;
}

static const char *kv_get(const kv_list *l, const char *key, int *found)
{
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp(l->key[i], key)) {
      *found = 1;
      return l->val[i];
    }
  *found = 0;
  return "";
}

void rp_page_compare(rp_page *p, const rp_ctx *c, const rp_model *a, const rp_model *b)
{
  enum { CAP = 128 };
  static char key[2][CAP][160], val[2][CAP][320];
  kv_list l[2] = {{key[0], val[0], 0, CAP}, {key[1], val[1], 0, CAP}};
  headline(a, kv_emit, &l[0]);
  headline(b, kv_emit, &l[1]);
  rp_heading(p, 2, "Side by side");
  rp_para(p, "Each model at its own L and C (`summary.csv` holds these numbers with every digit "
          "and the table each comes from); then both at common lengths; each model's sections "
          "follow.");
  const char *h[] = {"", a->pm->name, b->pm->name};
  rp_table_head(p, 3, h);
  /* a's keys, then those only b has; an empty value is a first failure
   * that did not occur, an absent key n/a */
  for (size_t i = 0; i < l[0].n + l[1].n; i++) {
    const char *k = i < l[0].n ? l[0].key[i] : l[1].key[i - l[0].n];
    int f0, f1;
    if (i >= l[0].n && (kv_get(&l[0], k, &f0), f0))
      continue;
    char v[2][320];
    for (int q = 0; q < 2; q++) {
      const char *x = kv_get(&l[q], k, &f1);
      if (!f1)
        snprintf(v[q], sizeof v[q], "n/a");
      else if (!*x)
        snprintf(v[q], sizeof v[q], "none");
      else
        rp_fmt6(v[q], sizeof v[q], x);
    }
    const char *cc[] = {k, v[0], v[1]};
    rp_table_row(p, 3, cc);
  }
  rp_table_end(p);

  rp_para(p, "At common lengths n (each model with its own L; the same %zu content samples): the "
          "unseen fraction, retrieval at the farthest distance r and the entropy of identical "
          "keys, which depend on the schedule; at one n, entropy and retrieval of independent "
          "contents do not (they are the same for any rotation) and are left out.",
          c->set->samples);
  char ha[2][3][300];
  for (int q = 0; q < 2; q++) {
    const char *nm = q ? b->pm->name : a->pm->name;
    snprintf(ha[q][0], sizeof ha[q][0], "unseen: %s", nm);
    snprintf(ha[q][1], sizeof ha[q][1], "retrieval: %s", nm);
    snprintf(ha[q][2], sizeof ha[q][2], "entropy: %s", nm);
  }
  const char *h2[] = {"n", "farthest r", ha[0][0], ha[1][0], ha[0][1], ha[1][1], ha[0][2],
                      ha[1][2]};
  rp_table_head(p, 8, h2);
  for (size_t i = 0; i < c->plan->n_lens; i++) {
    double n = c->plan->lens[i];
    char ns[32], lab[700], v[6][128];
    snprintf(ns, sizeof ns, "%.0f", n);
    const char *la = label(a->pm, n), *lb = label(b->pm, n);
    snprintf(lab, sizeof lab, "%s%s%s%s%s%s%s%s%s", ns, *la || *lb ? " (" : "", la,
             *la ? " of " : "", *la ? a->pm->name : "", *la && *lb ? "; " : "", lb,
             *lb ? " of " : "", *lb ? b->pm->name : "");
    if (*la || *lb)
      strncat(lab, ")", sizeof lab - strlen(lab) - 1);
    const rp_model *ms[2] = {a, b};
    const char *fr = "";
    for (int q = 0; q < 2; q++) {
      const rp_table *ex = &ms[q]->s[S_EX].t, *en = &ms[q]->s[S_ENT].t;
      rp_fmt6(v[q], sizeof v[q],
              cell_where(ex, "value", "measure", "unseen", "len", ns, "pair", "all"));
      long far = farthest(ex, n);
      if (far >= 0)
        fr = rp_cell(ex, (size_t)far, "r");
      with_se(v[2 + q], sizeof v[2 + q], ex, far);
      with_se(v[4 + q], sizeof v[4 + q], en,
              row_where(en, "measure", "entropy", "stat", "nats", "len", ns));
    }
    const char *cc[] = {lab, fr, v[0], v[1], v[2], v[3], v[4], v[5]};
    rp_table_row(p, 8, cc);
  }
  rp_table_end(p);
  static const char *const stems[] = {"freqs", "decay", "precision-bf16", "extrapolate"};
  for (size_t k = 0; k < 4; k++) {
    char f0[300], f1[300];
    snprintf(f0, sizeof f0, "%s%s.png", a->pfx, stems[k]);
    snprintf(f1, sizeof f1, "%s%s.png", b->pfx, stems[k]);
    const char *f[] = {f0, f1}, *al[] = {a->pm->name, b->pm->name};
    rp_figures(p, 2, f, al);
  }
}
