/* cmd_audit.c: `ropelab audit FILE`, which RoPE a user's table is and
 * how far off it is (identification and fitting in src/core/audit/);
 * with --tolerance, a verdict for CI against the schedule the options
 * give.  Its settings and their plan are the core's (rl_audit_settings,
 * src/core/audit/settings.c); this file is the declaration (cmd.h) and a
 * compute() that loads the table, calls the core and writes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "progress.h"
#include "rowfmt.h"

static int load_error(const char *cmd, rl_status st, const char *msg)
{
  if (st == RL_EIO || st == RL_ENOMEM)
    return rl_runtime(cmd, "%s", st == RL_ENOMEM ? "out of memory" : msg);
  return rl_usage(cmd, "%s", msg);
}

/* The layout to read a dims table in: the one given, or the one the
 * table shows (its pairs' two columns equal); with neither, refused. */
static int verify_layout(const char *cmd, const char *file, const rl_sched_opts *so,
                         int layout_given, const rl_audit_input *in, const rl_schedule *f,
                         int *layout)
{
  if (in->kind == RL_AUDIT_FREQS || in->ncols == f->n) {
    *layout = RL_AUDIT_LAYOUT_PAIRS;
    return 0;
  }
  int shown = rl_audit_layout_of(in);
  if (layout_given) {
    *layout = so->p.layout == RL_LAYOUT_HALF ? RL_AUDIT_LAYOUT_HALF : RL_AUDIT_LAYOUT_INTERLEAVED;
    if (shown != RL_AUDIT_LAYOUT_PAIRS && shown != *layout)
      fprintf(stderr, "ropelab %s: %s: note: --layout %s, but the table shows the %s layout "
                      "(its pairs' columns repeat that way)\n", cmd, file,
              rl_audit_layout_name(*layout), rl_audit_layout_name(shown));
    return 0;
  }
  if (shown == RL_AUDIT_LAYOUT_PAIRS)
    return rl_usage(cmd, "%s: layout unknown: %zu columns, and neither half (i, i + %zu) nor "
                         "interleaved (2i, 2i + 1) columns repeat: expected --layout half or "
                         "--layout interleaved", file, in->ncols, f->n);
  *layout = shown;
  return 0;
}

/* After a failed verification: the bug that explains it (rl_audit_explain
 * against the schedule claimed), or else what the table is instead (it
 * identified with the claim's dim and base as hints): one stderr line. */
static void diagnose_failure(const char *cmd, const char *file, const rl_audit_input *in,
                             int layout, int layout_given, const rl_schedule *f, size_t dim_hint)
{
  char bug[640];
  rl_audit_err e;
  /* within the tolerance model (only a strict --tolerance failed): the
   * difference is a correct implementation's rounding, no bug to name */
  if (rl_audit_compare(in, layout, f, &e, NULL, NULL, NULL, NULL) != RL_OK || e.max_ratio <= 1)
    return;
  if (rl_audit_explain(in, layout, f, layout_given ? layout : -1, bug, sizeof bug) != RL_OK)
    return;
  if (bug[0]) {
    fprintf(stderr, "ropelab %s: %s: diagnosis: %s\n", cmd, file, bug);
    return;
  }
  rl_audit_fit fit;
  char err[RL_ERR_MAX], finding[640] = "";
  if (rl_audit_identify_hint(in, dim_hint, f->p.base, &fit, err, sizeof err) != RL_OK)
    return;
  if (rl_audit_findings(in, dim_hint, f->p.base, &fit, finding, sizeof finding) != RL_OK) {
    rl_audit_fit_free(&fit);
    return;
  }
  const rl_audit_candidate *c = &fit.cand[0];
  char bb[RL_NUMFMT_MAX], fb[RL_NUMFMT_MAX];
  rl_numfmt(c->p.base, bb);
  rl_numfmt(c->p.factor, fb);
  int fac = (c->p.method->uses & RL_SP_FACTOR) != 0;
  if (finding[0] && fit.bug)
    fprintf(stderr, "ropelab %s: %s: diagnosis: %s\n", cmd, file, finding);
  else
    fprintf(stderr, "ropelab %s: %s: diagnosis: the table is %s %s base %s%s%s, %s layout (%s)%s\n",
            cmd, file, fit.identified ? "identified as" : fit.broken[0] ? "with broken pairs"
                                                                        : "closest to",
            c->p.method->name, bb, fac ? " factor " : "", fac ? fb : "",
            rl_audit_layout_name(c->layout), c->p.precision ? c->p.precision->name : "exact",
            fit.identified ? ", not the schedule given" : "");
  rl_audit_fit_free(&fit);
}

/* One verification: the schedule claimed, the layout the table is read
 * in, the error found, its numbers as text. */
typedef struct vjob {
  rl_cmd_run *r;
  const rl_audit_input *in;
  const char *file;
  int model, layout; /* model: --expect alone, the tolerance model */
  double tol, rtol, ulps;
  rl_schedule *f;
  rl_audit_err e;
  char b[10][RL_NUMFMT_MAX];
} vjob;

/* the schedule built, the layout chosen, the table compared: 0 or an
 * exit code (messages printed) */
static int verify_measure(vjob *v)
{
  const char *cmd = v->r->name;
  const rl_audit_input *in = v->in;
  int rc;
  if ((rc = rl_sched_build(&v->r->sched.p, cmd, &v->f)) ||
      (rc = verify_layout(cmd, v->file, &v->r->sched, rl_cmd_sched_given(v->r, "layout"), in,
                          v->f, &v->layout)))
    return rc;
  rl_status st = v->model ? rl_audit_compare(in, v->layout, v->f, &v->e, NULL, NULL, NULL, NULL)
                          : rl_audit_allclose(in, v->layout, v->f, v->tol, v->rtol, v->ulps, &v->e);
  if (st == RL_EINVAL) {
    fprintf(stderr, "ropelab %s: %s: not this schedule: %zu columns, expected %zu (one per "
                    "pair) or %zu (one per rotated dimension)\n", cmd, v->file, in->ncols,
            v->f->n, 2 * v->f->n);
    return RL_EXIT_FAIL;
  }
  if (st)
    return rl_runtime(cmd, "%s", rl_strerror(st));
  const rl_audit_err *e = &v->e;
  rl_numfmt(e->max_abs, v->b[0]);
  rl_numfmt(e->max_ulp, v->b[1]);
  rl_numfmt(v->model ? e->r_tol : v->tol, v->b[2]);
  rl_numfmt(e->r_pos, v->b[3]);
  rl_numfmt(e->r_expected, v->b[4]);
  rl_numfmt(e->r_found, v->b[5]);
  rl_numfmt(v->rtol, v->b[6]);
  rl_numfmt(v->ulps, v->b[7]);
  rl_numfmt(fabs(e->r_found - e->r_expected), v->b[8]);
  rl_numfmt(fabs(e->r_found - e->r_expected) / (e->r_expected != 0 ? fabs(e->r_expected) : 1),
            v->b[9]);
  return 0;
}

/* the verdict's metadata and its one row */
static int verify_write(vjob *v)
{
  const rl_audit_input *in = v->in;
  const rl_audit_err *e = &v->e;
  char (*b)[RL_NUMFMT_MAX] = v->b, pair[24], col[24];
  rl_sink sink = {0};
  rl_out *out = &sink.out;
  int rc;
  if ((rc = rl_sink_open(&sink, v->r->name, &v->r->co, NULL)))
    return rc;
  rl_out_meta_begin(out);
  rl_out_meta(out, "file", v->file);
  rl_out_meta(out, "read_as", in->form);
  rl_out_meta(out, "table_format", rl_audit_format_name(in->fmt));
  rl_out_meta(out, "layout_read", rl_audit_layout_name(v->layout));
  rl_out_meta(out, "layout_from", in->kind == RL_AUDIT_FREQS || in->ncols == v->f->n
                                      ? "one column per pair"
                                  : rl_cmd_sched_given(v->r, "layout")
                                      ? "--layout"
                                      : "the table (its repeated columns)");
  rl_out_meta(out, "criterion",
              v->model ? "--expect: every |found - expected| within a (K eps_A |m theta_i| + "
                         "ulp_A(|m theta_i|)) + 2 eps_T a, K = 2 ln(base) + 4 (a correct float32 "
                         "implementation's frequency error: pow as exp(y ln base)), eps_A the "
                         "angle's format (float32; float64 for a float64 table), eps_T the "
                         "table's; tolerance: at the entry worst against its own"
                       : "numpy's assert_allclose |found - expected| <= tolerance + rtol "
                         "|expected| and assert_array_max_ulp ulps <= ulps (ulps of the "
                         "table's format); each only when given");
  rl_out_meta(out, "rtol", v->rtol >= 0 ? b[6] : "none");
  rl_out_meta(out, "ulps", v->ulps >= 0 ? b[7] : "none");
  rl_sched_meta(&v->r->sched.p, v->f, out);
  rl_out_header(out, "verdict,max_abs_err,max_ulp,tolerance,pos,pair,column,table,expected,found");
  snprintf(pair, sizeof pair, "%zu", e->r_pair);
  snprintf(col, sizeof col, "%zu", e->r_col);
  const char *tbl = in->kind == RL_AUDIT_FREQS ? "theta" : e->r_sin ? "sin" : "cos";
  const char *fld[] = {e->max_ratio <= 1 ? "pass" : "fail", b[0], b[1],
                       v->tol >= 0 || v->model ? b[2] : "",
                       in->kind == RL_AUDIT_FREQS ? "" : b[3], pair, col, tbl, b[4], b[5]};
  rl_out_fields(out, fld, 10);
  return rl_sink_close(&sink, NULL);
}

/* a failed verification: the entry on stderr, then the diagnosis */
static void verify_failed(const vjob *v)
{
  const rl_audit_err *e = &v->e;
  const char (*b)[RL_NUMFMT_MAX] = (const char (*)[RL_NUMFMT_MAX])v->b;
  char lim[200], u[RL_NUMFMT_MAX];
  double tol = v->tol, rtol = v->rtol, ulps = v->ulps;
  if (v->model)
    snprintf(lim, sizeof lim, "%s by the tolerance model", b[2]);
  else
    snprintf(lim, sizeof lim, "%s%s%s%s%s%s%s", tol >= 0 ? b[2] : "",
             tol >= 0 && rtol >= 0 ? " + " : "", rtol >= 0 ? b[6] : "",
             rtol >= 0 ? " |expected|" : "", (tol >= 0 || rtol >= 0) && ulps >= 0 ? ", or " : "",
             ulps >= 0 ? b[7] : "", ulps >= 0 ? " ulps" : "");
  rl_numfmt(e->max_ratio, u);
  const char *cmd = v->r->name, *tbl = e->r_sin ? "sin" : "cos";
  if (v->in->kind == RL_AUDIT_FREQS)
    fprintf(stderr, "ropelab %s: %s: off by %s (relative %s) at pair %zu: expected %s, found %s "
                    "(allowed %s; %s times that)\n", cmd, v->file, b[8], b[9], e->r_pair, b[4],
            b[5], lim, u);
  else
    fprintf(stderr, "ropelab %s: %s: off by %s (relative %s) at position %s, pair %zu (%s, "
                    "column %zu): expected %s, found %s (allowed %s; %s times that)\n", cmd,
            v->file, b[8], b[9], b[3], e->r_pair, tbl, e->r_col, b[4], b[5], lim, u);
  diagnose_failure(cmd, v->file, v->in, v->layout, rl_cmd_sched_given(v->r, "layout"), v->f,
                   rl_cmd_sched_given(v->r, "dim") ? v->r->sched.p.dim : 0);
}

/* --expect, --tolerance, --rtol, --ulps: the verdict, exit 0 within, 1 not */
static int verify(rl_cmd_run *r, const rl_audit_input *in)
{
  const rl_audit_settings *s = r->settings;
  vjob v = {.r = r, .in = in, .file = r->args[0], .model = s->mode == RL_AUDIT_MODE_MODEL,
            .layout = RL_AUDIT_LAYOUT_PAIRS, .tol = s->tolerance, .rtol = s->rtol,
            .ulps = s->ulps};
  int rc = verify_measure(&v);
  if (!rc)
    rc = verify_write(&v);
  if (!rc && !(v.e.max_ratio <= 1) && !rl_out_capturing()) {
    verify_failed(&v);
    rc = RL_EXIT_FAIL;
  }
  rl_schedule_free(v.f);
  return rc;
}

/* Identification's progress on stderr (progress.h's rules: a terminal
 * or --progress, never --quiet) with the time left, estimated from the
 * time so far: the candidates cost about the same each. */
typedef struct {
  rl_progress p;
  struct timespec t0;
} id_progress;

static void id_progress_cb(void *ctx, size_t done, size_t total)
{
  id_progress *g = ctx;
  if (!g->p.on || !total)
    return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  double dt = (double)(now.tv_sec - g->p.last.tv_sec) + 1e-9 * (double)(now.tv_nsec - g->p.last.tv_nsec);
  if (g->p.shown && dt < 0.25)
    return;
  g->p.last = now;
  g->p.shown = 1;
  double el = (double)(now.tv_sec - g->t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - g->t0.tv_nsec);
  double left = done ? el * (double)(total - done) / (double)done : 0;
  fprintf(stderr, "\rropelab %s: %3d%% (about %.0f s left)   ", g->p.cmd,
          (int)(100.0 * (double)done / (double)total), left);
  fflush(stderr);
}

/* the dimension and base given, the hints identification takes (0: none) */
static size_t dim_hint(const rl_cmd_run *r)
{
  return rl_cmd_sched_given(r, "dim") ? r->sched.p.dim : 0;
}
static double base_hint(const rl_cmd_run *r)
{
  return rl_cmd_sched_given(r, "base") ? r->sched.p.base : 0;
}

/* the fit and its findings: 0 or a printed error (fit freed) */
static int identify_fit(rl_cmd_run *r, const rl_audit_input *in, rl_audit_fit *fit,
                        char *finding, size_t nfinding)
{
  const char *cmd = r->name, *file = r->args[0];
  char err[RL_ERR_MAX];
  size_t pairs = in->ncols, entries = in->kind == RL_AUDIT_TABLE ? in->npos * in->ncols : pairs;
  if (in->kind == RL_AUDIT_TABLE && rl_audit_layout_of(in) != RL_AUDIT_LAYOUT_PAIRS)
    pairs /= 2;
  if (pairs > RL_AUDIT_MAX_PAIRS)
    return rl_usage(cmd, "%s: %zu pairs: expected at most %d to identify (each candidate "
                         "schedule costs O(pairs): about %.0f minutes here; published models "
                         "have d <= 256); give the schedule with --expect to verify instead",
                    file, pairs, RL_AUDIT_MAX_PAIRS, 1.5e-3 * (double)pairs / 60);
  id_progress g;
  rl_progress_init(&g.p, cmd, r->co.progress, 1, pairs > 4096 || entries > 10000000);
  clock_gettime(CLOCK_MONOTONIC, &g.t0);
  rl_status st = rl_audit_identify_progress(in, dim_hint(r), base_hint(r), fit, id_progress_cb,
                                            &g, err, sizeof err);
  rl_progress_end(&g.p);
  finding[0] = 0;
  if (!st && (st = rl_audit_findings(in, dim_hint(r), base_hint(r), fit, finding, nfinding)))
    rl_audit_fit_free(fit);
  if (st)
    return st == RL_ENOMEM ? rl_runtime(cmd, "out of memory") : rl_usage(cmd, "%s: %s", file, err);
  return 0;
}

/* the fit's metadata, and on stderr what is wrong with the table */
static void identify_meta(const rl_cmd_run *r, const rl_audit_input *in, const rl_audit_fit *fit,
                          const char *finding, rl_out *out)
{
  const char *cmd = r->name, *file = r->args[0];
  rl_out_meta_begin(out);
  rl_out_meta(out, "file", file);
  rl_out_meta(out, "read_as", in->form);
  rl_out_meta_uint(out, "file_bits", (unsigned long long)in->elem);
  rl_out_meta(out, "table_format", rl_audit_format_name(in->fmt));
  rl_out_meta(out, "layout_found", rl_audit_layout_name(fit->layout));
  rl_out_meta_uint(out, "pairs", fit->n);
  if (in->kind == RL_AUDIT_TABLE) {
    rl_out_meta_uint(out, "positions", in->npos);
    rl_out_meta_num(out, "attention_factor_fit", fit->attn);
  }
  rl_out_meta_num(out, "base_fit", fit->base_fit);
  rl_out_meta(out, "precision", "each candidate's values as the named pipeline computes them "
                                "(exact: the mathematical values)");
  const rl_audit_candidate *c0 = &fit->cand[0];
  char tolb[RL_NUMFMT_MAX], idb[1400], name[600], prm0[480];
  rl_numfmt(fit->fit_tol, tolb);
  rl_out_meta(out, "fit_tolerance",
              in->kind == RL_AUDIT_TABLE
                  ? "per entry: a (K eps |m theta_i| + ulp(|m| theta_i)) in the angle's format "
                    "(float64 for a float64 table, else float32), K = 2 ln(base) + 4, + 2 eps a "
                    "in the table's"
                  : "K eps theta_i + ulp(theta_i), K = 2 ln(base) + 4");
  {
    char bb[RL_NUMFMT_MAX], fb[RL_NUMFMT_MAX];
    rl_numfmt(c0->p.base, bb);
    rl_numfmt(c0->p.factor, fb);
    rl_audit_params_text(&c0->p, prm0, sizeof prm0);
    snprintf(name, sizeof name, "%s base %s%s%s%s%s, %s layout (%s)", c0->p.method->name, bb,
             (c0->p.method->uses & RL_SP_FACTOR) ? " factor " : "",
             (c0->p.method->uses & RL_SP_FACTOR) ? fb : "", prm0[0] ? " " : "",
             prm0[0] == ';' ? prm0 + 1 : prm0, rl_audit_layout_name(c0->layout),
             c0->p.precision ? c0->p.precision->name : "exact");
  }
  if (fit->identified) {
    snprintf(idb, sizeof idb, "yes: %s", c0->p.method->name);
  } else if (fit->broken[0]) {
    snprintf(idb, sizeof idb, "broken pairs: %s: %zu of %zu pairs within tolerance; %s", name,
             fit->good_pairs, fit->n, fit->broken);
    fprintf(stderr, "ropelab %s: %s: %s\n", cmd, file, idb);
  } else {
    snprintf(idb, sizeof idb, "unidentified: closest is %s, rejected at %s", name, fit->why);
    fprintf(stderr, "ropelab %s: %s: %s\n", cmd, file, idb);
  }
  rl_out_meta(out, "identified", idb);
  if (finding[0]) {
    rl_out_meta(out, "finding", finding);
    fprintf(stderr, "ropelab %s: %s: finding: %s\n", cmd, file, finding);
  }
  if (fit->note[0])
    rl_out_meta(out, "note", fit->note);
}

/* --report candidates: one row per table the candidates give */
static void write_candidates(const rl_audit_fit *fit, rl_out *out)
{
  rl_out_header(out, "rank,method,variant,layout,precision,dim,rot,base,factor,params,"
                     "max_abs_err,max_ulp,exact_share,max_err_over_tol,same_table");
  size_t rank = 0;
  for (size_t k = 0; k < fit->ncand && !out->err; k++) {
    const rl_audit_candidate *c = &fit->cand[k];
    if (c->same_as >= 0)
      continue;
    char b[10][RL_NUMFMT_MAX], prm[4096], same[2048];
    snprintf(b[0], sizeof b[0], "%zu", ++rank);
    snprintf(b[1], sizeof b[1], "%zu", c->p.dim);
    snprintf(b[2], sizeof b[2], "%zu", c->p.rot);
    rl_numfmt(c->p.base, b[3]);
    rl_numfmt(c->p.factor, b[4]);
    rl_numfmt(c->max_abs_err, b[5]);
    rl_numfmt(c->max_ulp, b[6]);
    rl_numfmt(c->nentries ? (double)c->nexact / (double)c->nentries : 0, b[7]);
    rl_numfmt(c->max_ratio, b[8]);
    rl_audit_params_text(&c->p, prm, sizeof prm);
    /* the others that give this very table: variant:precision and
     * what differs, ' / ' between them */
    size_t l = 0;
    same[0] = 0;
    for (size_t j = k + 1; j < fit->ncand && l < sizeof same - 1; j++) {
      const rl_audit_candidate *o = &fit->cand[j];
      if (o->same_as != (long)k)
        continue;
      char ob[RL_NUMFMT_MAX], of[RL_NUMFMT_MAX], op[4096];
      rl_numfmt(o->p.base, ob);
      rl_numfmt(o->p.factor, of);
      rl_audit_params_text(&o->p, op, sizeof op);
      l += (size_t)snprintf(same + l, sizeof same - l, "%s%s%s%s:%s%s%s%s%s%s%s", l ? " / " : "",
                            strcmp(o->p.method->name, c->p.method->name) ? o->p.method->name : "",
                            strcmp(o->p.method->name, c->p.method->name) ? ":" : "",
                            (o->p.method->uses & RL_SP_VARIANT) ? rl_variant_name(o->p.variant) : "",
                            o->p.precision ? o->p.precision->name : "exact",
                            o->p.base != c->p.base ? " base=" : "", o->p.base != c->p.base ? ob : "",
                            o->p.factor != c->p.factor ? " factor=" : "",
                            o->p.factor != c->p.factor ? of : "", strcmp(op, prm) ? " " : "",
                            strcmp(op, prm) ? (op[0] == ';' ? op + 1 : op) : "");
      if (l >= sizeof same)
        l = sizeof same - 1;
    }
    const char *fld[] = {b[0], c->p.method->name,
                         (c->p.method->uses & RL_SP_VARIANT) ? rl_variant_name(c->p.variant) : "",
                         rl_audit_layout_name(c->layout),
                         c->p.precision ? c->p.precision->name : "exact", b[1], b[2], b[3],
                         (c->p.method->uses & RL_SP_FACTOR) ? b[4] : "1",
                         prm[0] == ';' ? prm + 1 : prm, b[5], b[6], b[7], b[8], same};
    rl_out_fields(out, fld, 15);
  }
}

/* --report pairs or positions: the best candidate's errors against the
 * exact values and against its pipeline's own values (a float32 table is
 * far from the first and close to the second, a wrong one far from
 * both); 0 or a printed error */
static int write_report(const rl_cmd_run *r, const rl_audit_input *in, const rl_audit_fit *fit,
                        rl_out *out)
{
  const rl_audit_candidate *best = &fit->cand[0];
  int report = ((const rl_audit_settings *)r->settings)->report;
  size_t n = fit->n, m = in->kind == RL_AUDIT_TABLE ? in->npos : 0;
  if (report == RL_AUDIT_REPORT_POSITIONS && !m)
    return rl_usage(r->name, "--report positions: %s holds frequencies, no positions: expected "
                             "--report candidates or pairs", r->args[0]);
  rl_schedule *fx = NULL, *fp = NULL;
  rl_schedule_params px = best->p;
  px.precision = NULL;
  double *v = calloc(4 * n + 4 * m + 1, sizeof *v);
  rl_audit_err e;
  rl_status st = v ? rl_schedule_new(&px, &fx, NULL) : RL_ENOMEM;
  if (!st)
    st = rl_schedule_new(&best->p, &fp, NULL);
  if (!st)
    st = rl_audit_compare(in, best->layout, fx, &e, v, v + n, m ? v + 4 * n : NULL,
                          m ? v + 4 * n + m : NULL);
  if (!st)
    st = rl_audit_compare(in, best->layout, fp, &e, v + 2 * n, v + 3 * n,
                          m ? v + 4 * n + 2 * m : NULL, m ? v + 4 * n + 3 * m : NULL);
  if (!st) {
    char prm[4096];
    rl_audit_params_text(&best->p, prm, sizeof prm);
    rl_out_meta(out, "best_method", best->p.method->name);
    rl_out_meta_num(out, "best_base", best->p.base);
    rl_out_meta_num(out, "best_factor", best->p.factor);
    rl_out_meta(out, "best_params", prm[0] == ';' ? prm + 1 : prm);
    rl_out_meta(out, "best_precision", best->p.precision ? best->p.precision->name : "exact");
  }
  if (!st && report == RL_AUDIT_REPORT_PAIRS) {
    rl_out_header(out, "pair,theta_fit,theta_exact,theta_pipeline,max_abs_err_exact,"
                       "max_ulp_exact,max_abs_err_pipeline,max_ulp_pipeline");
    for (size_t i = 0; i < n; i++) {
      double row[8] = {(double)i, fit->theta[i], fx->theta[i], fp->theta[i],
                       v[i], v[n + i], v[2 * n + i], v[3 * n + i]};
      rl_out_row(out, row, 8);
    }
  } else if (!st) {
    rl_out_header(out, "pos,max_abs_err_exact,max_ulp_exact,max_abs_err_pipeline,"
                       "max_ulp_pipeline");
    const double *q = v + 4 * n;
    for (size_t j = 0; j < m; j++) {
      double row[5] = {in->pos[j], q[j], q[m + j], q[2 * m + j], q[3 * m + j]};
      rl_out_row(out, row, 5);
    }
  }
  free(v);
  rl_schedule_free(fx);
  rl_schedule_free(fp);
  return st ? rl_runtime(r->name, "%s", rl_strerror(st)) : 0;
}

/* without a verification: the candidates, or the best one's report; exit
 * 1 when the table is not a clean RoPE (unidentified, broken pairs, a
 * bug found), a failed property for CI */
static int identify(rl_cmd_run *r, const rl_audit_input *in)
{
  const rl_audit_settings *s = r->settings;
  rl_audit_fit fit;
  char finding[512];
  int rc = identify_fit(r, in, &fit, finding, sizeof finding);
  if (rc)
    return rc;
  rl_sink sink = {0};
  if ((rc = rl_sink_open(&sink, r->name, &r->co, NULL))) {
    rl_audit_fit_free(&fit);
    return rc;
  }
  identify_meta(r, in, &fit, finding, &sink.out);
  if (s->report == RL_AUDIT_REPORT_CANDIDATES)
    write_candidates(&fit, &sink.out);
  else if ((rc = write_report(r, in, &fit, &sink.out))) {
    rl_audit_fit_free(&fit);
    rl_sink_abort(&sink);
    return rc;
  }
  int failed = !fit.identified || fit.bug;
  rl_audit_fit_free(&fit);
  if ((rc = rl_sink_close(&sink, NULL)))
    return rc;
  return failed && !rl_out_capturing() ? RL_EXIT_FAIL : RL_EXIT_OK;
}

/* the check across settings: the core's plan (which of identify and
 * verify, and whether --report fits it) */
static int check(rl_cmd_run *r)
{
  rl_audit_settings *s = r->settings;
  if (rl_audit_plan(s))
    return rl_usage(r->name, "--report '%s' with --expect, --tolerance, --rtol or --ulps: expected "
                             "one of them (--report describes the best candidate found without "
                             "them)", rl_audit_report_name(s->report));
  return 0;
}

static int compute(rl_cmd_run *r)
{
  const rl_audit_settings *s = r->settings;
  const char *file = r->args[0];
  double *pos = NULL;
  size_t npos = 0;
  int rc;
  if (s->positions && (rc = rl_opt_values(r->name, "--positions", s->positions,
                                          RL_ARRAY_MAX_ELEMS, &pos, &npos)))
    return rc;
  rl_audit_input in;
  char err[RL_ERR_MAX];
  rl_status st = rl_audit_load(file, s->sin, pos, npos, &in, err, sizeof err);
  free(pos);
  if (st)
    return load_error(r->name, st, err);
  rc = s->mode == RL_AUDIT_MODE_IDENTIFY ? identify(r, &in) : verify(r, &in);
  rl_audit_input_free(&in);
  return rc;
}

/* The verifications, their paragraphs before the options they explain
 * (one string literal holds at most 4095 bytes in ISO C: the help's
 * first paragraphs are the about). */
#define VERIFY_HELP \
        "With --expect, audit verifies FILE against the schedule the options below\n" \
        "give, every entry within the tolerance above (what a correct float32\n" \
        "implementation needs: numpy, torch, JAX, C with powf or exp2f); this is\n" \
        "the CI recipe. A failure names the entry and, on a 'diagnosis:' line,\n" \
        "the bug: position offset or stride, wrong arange (a rope of base\n" \
        "sqrt(base)), d - 2, half/interleaved swapped, sin sign, cos and sin\n" \
        "swapped, angles, positions or theta in bfloat16/float16, the attention\n" \
        "factor dropped or doubled; or else what the table is instead.\n" \
        "Without a schedule, exit 1 when the table is unidentified, has broken\n" \
        "pairs or a bug is found (finding:), 0 when identified.\n" \
        "\n" \
        "With --tolerance T, --rtol R or --ulps U, audit verifies FILE against the\n" \
        "schedule the options below give, as numpy's assert_allclose and\n" \
        "assert_array_max_ulp do: every |found - expected| <= T + R |expected|\n" \
        "(the parts given) and at most U ulps of the table's format. A dims\n" \
        "table is read in --layout when given (a note when the table shows the\n" \
        "other), else in the layout the table shows; neither: refused. One row\n" \
        "verdict,max_abs_err,max_ulp,tolerance,pos,pair,column,table,expected,found\n" \
        "naming the entry furthest beyond its allowance; exit 0 when every entry\n" \
        "is within, 1 when not (and one line on stderr naming the entry).\n" \
        "\n" \
        "audit:"

/* the help: a blank line between audit's own options and the schedule's */
static void blank_line(FILE *fp) { fputc('\n', fp); }

static const rl_cmd_decl decl = {
    .usage = "FILE [OPTIONS]",
    .about =
        "Which RoPE is the table in FILE, dumped from your own code, and how far\n"
        "off is it. FILE (CSV with or without a header, or NumPy .npy, float16,\n"
        "float32 or float64, C or Fortran order) holds one of:\n"
        "  inverse frequencies, one value per pair (1-D, or one column);\n"
        "  columns pos,pair,cos,sin (ropelab angles --format long);\n"
        "  a header pos,cos...,sin... (angles --format pairs, dims or hf);\n"
        "  a cos table, positions x columns, with its sin table in --sin FILE2.\n"
        "Columns are one per pair, or one per rotated dimension interleaved\n"
        "(pair i on 2i, 2i+1) or half (pair i on i and i + r/2, Hugging Face's\n"
        "duplicated halves): the layout is found from which columns repeat.\n"
        "\n"
        "Without --tolerance, --rtol or --ulps, the schedule is found by fitting:\n"
        "theta_i from the phase of each pair against position (unwrapped around\n"
        "the frequency predicted from the slower pairs, so any set of positions\n"
        "works: every 7th, a batch's position_ids), the base from the log-linear\n"
        "fit of ln theta_i against i, the factor and the method's range (yarn's\n"
        "correction dims, llama3's bands, hence the training length) from how\n"
        "each pair departs from RoPE; then the roundings of each fitted number\n"
        "and each variant, as exact values and as every framework pipeline, are\n"
        "measured: 400 on 48 rows spread over the positions, the best 48 on the\n"
        "whole table. An entry is within tolerance when off by at most what a\n"
        "correct implementation can differ by: a (K eps |m theta_i| + ulp(|m|\n"
        "theta_i)) in the angle (float64 for a float64 table, else float32; K =\n"
        "2 ln(base) + 4, a float32 pow's error as exp(y ln base)) plus 2 eps a in\n"
        "the table's format (a the amplitude); a candidate fits when\n"
        "every entry is. Fitting candidates rank by the share of entries they\n"
        "reproduce bit for bit (when it differs by more than 1%), then by the\n"
        "fewest digits, then by error; the others by the fewest pairs beyond\n"
        "tolerance, the error to two digits, then the fewest digits. One row per\n"
        "table: rank,method,variant,layout,precision,dim,rot,base,factor,params,\n"
        "max_abs_err,max_ulp,exact_share,max_err_over_tol,same_table (ulps of\n"
        "the table's own format: the narrowest of bfloat16, float16, float32,\n"
        "float64 that holds every value; same_table: the other variants and\n"
        "pipelines that give the very same values). --report pairs or positions\n"
        "gives, for the best candidate, the error per pair or per position.\n"
        "Also fitted: ntk (vLLM's form from theta_0 = s^(-2/r); Hugging Face's is\n"
        "a rope of base * s^(r/(r-2)), listed where base and s come out round),\n"
        "p-rope (trailing pairs that never rotate: fraction=), and, only when\n"
        "nothing with few parameters fits, longrope's per-pair factors\n"
        "(factors=f0:f1:..., at --base if given). When the best misses on at\n"
        "most an eighth of the pairs, the metadata and stderr say 'broken pairs:'\n"
        "with the schedule the rest follow and what is wrong with each broken\n"
        "pair (a sign, cos and sin swapped, a zeroed frequency, one column of\n"
        "two, a few positions, or its own frequency); when more, 'unidentified:\n"
        "closest is ...', and the entry that rejects it. 'finding:' (metadata\n"
        "and stderr) names a whole-table bug it undid to identify the table (cos\n"
        "and sin exchanged, every sin negated), or a bfloat16/float16 table whose\n"
        "attention factor was applied after the cast, not before as transformers\n"
        "and vLLM do.\n",
    .takes = RL_TAKES_SCHEDULE | RL_TAKES_TABLE,
    .settings_size = sizeof(rl_audit_settings),
    .groups = {{VERIFY_HELP, rl_audit_param_list, 0}},
    .own_first = 1,
    .help_own = blank_line,
    .min_args = 1,
    .max_args = 1,
    .args_name = "FILE",
    .args_expect = "'ropelab audit FILE'",
    .args_extra = "",
    .plot_refuse = " (its rows name the candidates and the entries)",
    /* it sweeps its tolerances and --report; --positions keeps its commas;
     * a --report other than candidates is not the one table a sweep writes */
    .sweep_numbers = "", .sweep_names = "", .sweep_lists = "positions",
    .sweep_refuse = "report=pairs report=positions",
    .sweep_own = rl_audit_sweep_param_list,
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_audit = {"audit", NULL,
                                    "identify a RoPE table from your code, or verify it (CI)", NULL,
                                    &decl};
