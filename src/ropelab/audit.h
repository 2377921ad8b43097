/* audit.h: audit: which RoPE is a user's table, and how far off it is.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_AUDIT_H
#define ROPELAB_AUDIT_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* (src/core/audit/)                                                   */

/* What a user's file held, as the audit reads it (rl_audit_load):
 * inverse frequencies (one value per pair), or a cos and a sin table of
 * npos positions x ncols columns (one column per pair, or per rotated
 * dimension in either layout). */
enum { RL_AUDIT_FREQS = 0, RL_AUDIT_TABLE = 1 };
typedef struct rl_audit_input {
  int kind;              /* RL_AUDIT_FREQS or RL_AUDIT_TABLE */
  size_t npos, ncols;    /* FREQS: npos = 0, ncols values */
  double *pos;           /* npos positions (TABLE) */
  double *cos, *sin;     /* npos x ncols, row-major (TABLE) */
  double *freq;          /* ncols inverse frequencies (FREQS) */
  int elem;              /* the file's number format: 16, 32 or 64 bits */
  int fmt;               /* narrowest format holding every value exactly:
                            16 (float16), 17 (bfloat16), 32 or 64 */
  char form[48];         /* how it was read, for the metadata */
} rl_audit_input;

/* Read path (CSV or .npy, rl_array_read): one column of inverse
 * frequencies; columns pos,pair,cos,sin (`ropelab angles` long format);
 * a header pos,cos...,sin... (angles pairs, dims, hf); or, with
 * sin_path, a cos table whose sin table is sin_path (same shape).
 * Rows are positions 0, 1, 2, ... unless a pos column or positions
 * (npositions values, one per row) say otherwise.  Errors as
 * rl_array_read ("FILE: problem: expected ..."), RL_EFORMAT also for a
 * table too small to identify. */
rl_status rl_audit_load(const char *path, const char *sin_path, const double *positions,
                        size_t npositions, rl_audit_input *in, char *err, size_t errsize);
void rl_audit_input_free(rl_audit_input *in);

/* How a table's columns hold the pairs. */
enum {
  RL_AUDIT_LAYOUT_PAIRS = 0,       /* one column per pair (complex, freqs) */
  RL_AUDIT_LAYOUT_INTERLEAVED = 1, /* dims 2i, 2i+1 = pair i */
  RL_AUDIT_LAYOUT_HALF = 2         /* dims i, i + r/2 = pair i (HF) */
};
const char *rl_audit_layout_name(int layout);
/* The layout a table shows: the one under which all but an eighth of
 * the pairs have two equal columns at every position; PAIRS when
 * neither (or for frequencies). */
int rl_audit_layout_of(const rl_audit_input *in);

/* The error of a table against a schedule's exact values, with the
 * table's columns read in layout: over every entry, the largest absolute
 * difference and the largest in ulps of the table's own format (in->fmt)
 * at the expected value, and where the worst (absolute) one is. */
typedef struct rl_audit_err {
  double max_abs, max_ulp;
  double worst_pos;      /* TABLE: its position; FREQS: -1 */
  size_t worst_pair, worst_col;
  int worst_sin;         /* 1 when the worst entry is in the sin table */
  double expected, found;
  /* Against the tolerance model (rl_audit_entry_tol): the largest
   * |found - expected| / tolerance and its entry (within when <= 1). */
  double max_ratio, r_pos, r_expected, r_found, r_tol;
  size_t r_pair, r_col;
  int r_sin;
  size_t nexact, nentries; /* entries equal bit for bit, and compared */
  size_t bad_pairs;        /* pairs with an entry beyond its tolerance */
  unsigned long long hash; /* of the expected values: equal tables, equal hash */
} rl_audit_err;
/* What a correct implementation can legitimately differ by at one entry
 * (pair i of schedule sc at position m, the table in in->fmt): the
 * frequency off by K eps_A relative, K = 2 ln(base) + 4 (a pow formed
 * as exp(y ln base) in format A, as XLA's and exp2f-based C code do;
 * compare.c derives it), carried to the angle, and the angle's own
 * rounding: a (K eps_A |m| theta_i + ulp_A(|m| theta_i)), in the format
 * A the angle is formed in (float64 for a float64 table, float32
 * otherwise), plus the value's rounding in the table's format, a libm
 * ulp and the attention factor's product, 2 eps_T a (a = sc->attn):
 * "ulps of the table's dtype times the angle's size".  Inverse
 * frequencies: K eps_A theta_i + ulp_A(theta_i). */
double rl_audit_entry_tol(const rl_audit_input *in, const rl_schedule *sc, size_t i, double m);
/* pair_abs, pair_ulp (n = rot/2 entries) and pos_abs, pos_ulp (npos)
 * may be NULL; otherwise they receive the per-pair and per-position
 * maxima.  RL_EINVAL when the table's width does not fit the schedule
 * (n columns, or rot in a dims layout). */
rl_status rl_audit_compare(const rl_audit_input *in, int layout, const rl_schedule *sc,
                           rl_audit_err *e, double *pair_abs, double *pair_ulp,
                           double *pos_abs, double *pos_ulp);
/* The same with pair_ratio (n entries, or NULL): per pair the largest
 * |found - expected| / rl_audit_entry_tol. */
rl_status rl_audit_compare_ratio(const rl_audit_input *in, int layout, const rl_schedule *sc,
                                 rl_audit_err *e, double *pair_abs, double *pair_ulp,
                                 double *pair_ratio, double *pos_abs, double *pos_ulp);

/* numpy's assert_allclose and assert_array_max_ulp on every entry:
 * |found - expected| <= atol + rtol |expected| (atol, rtol < 0: not
 * checked) and ulps of in->fmt at expected <= maxulp (< 0: not
 * checked).  e as rl_audit_compare's, with max_ratio the largest share
 * of an entry's allowance (pass: <= 1) and r_* that entry. */
rl_status rl_audit_allclose(const rl_audit_input *in, int layout, const rl_schedule *sc,
                            double atol, double rtol, double maxulp, rl_audit_err *e);

/* One candidate schedule and its error. */
typedef struct rl_audit_candidate {
  rl_schedule_params p;  /* method, variant, dim, rot, base, factor, ...
                            (longrope: its short-factors list points into the fit's) */
  int layout;
  double max_abs_err, max_ulp;
  int fits;              /* every entry within its tolerance (max_ratio <= 1) */
  double max_ratio;      /* the largest error / tolerance (rl_audit_entry_tol) */
  size_t nexact, nentries; /* entries it reproduces bit for bit, of all */
  size_t bad_pairs;      /* pairs with an entry beyond tolerance */
  unsigned long long hash; /* of its values on the table: equal, same table */
  long same_as;          /* -1, or the index of the better-ranked candidate
                            that gives the same table (one row, two names) */
  rl_audit_err err;      /* where it is worst */
} rl_audit_candidate;

/* What identification found: the layout of the columns, the frequency
 * fitted to each pair (slope of the unwrapped phase against position),
 * the attention factor (median of sqrt(cos^2 + sin^2)), the base of the
 * log-linear fit of ln theta_i against i over the leading pairs, and the
 * candidates ranked by max_abs_err (best first). */
typedef struct rl_audit_fit {
  int layout;
  size_t n;              /* pairs */
  double *theta;         /* n fitted frequencies */
  double attn, base_fit;
  size_t ncand;
  rl_audit_candidate *cand;
  /* A candidate fits when its max_abs_err is within tolerance: 4 ulps of
   * the table's format at the amplitude (frequencies: max_ulp <= 4);
   * fitting candidates rank by how few digits their parameters need,
   * then by error; the others by error.  identified = the best fits; if
   * not, it is only the closest.  note: what the table cannot tell apart
   * (NTK's base against rope's), or "". */
  double fit_tol;
  int identified;
  char note[256];
  /* When the best candidate misses on a few pairs only: how many pairs
   * are within tolerance, and what is wrong with each of the others
   * ("pair 17: its sin has the wrong sign; ..."); else "". */
  size_t good_pairs;
  char broken[512];
  /* Why the best candidate is rejected (the entry, its error and its
   * tolerance), or "". */
  char why[320];
  double *factors;       /* longrope candidates' fitted per-pair factors */
  /* Set by rl_audit_findings: 1 when its finding is a bug (the table is
   * not what a correct implementation writes), 0 for a note. */
  int bug;
} rl_audit_fit;
/* dim_hint: the head dimension when known (rot < dim), else 0. */
rl_status rl_audit_identify(const rl_audit_input *in, size_t dim_hint, rl_audit_fit *fit,
                            char *err, size_t errsize);
/* The same, with the base when known (> 1; 0: none): LongRoPE's per-pair
 * factors trade off against the base, so only a base given, or one the
 * table pins down (two equal neighbouring factors), is tried for it. */
rl_status rl_audit_identify_hint(const rl_audit_input *in, size_t dim_hint, double base_hint,
                                 rl_audit_fit *fit, char *errbuf, size_t errsize);
/* The same, calling progress (may be NULL) as the candidates are
 * measured (done of total), for a caller that shows it. */
rl_status rl_audit_identify_progress(const rl_audit_input *in, size_t dim_hint, double base_hint,
                                     rl_audit_fit *fit,
                                     void (*progress)(void *ctx, size_t done, size_t total),
                                     void *progress_ctx, char *errbuf, size_t errsize);
/* Pairs above which identification is refused: its cost is O(pairs) per
 * candidate schedule (about 0.25 ms a pair in all, measured by
 * experiments/bench_audit.sh), far beyond any published model (d <= 256,
 * 128 pairs) at 65536 pairs (d = 131072). */
#define RL_AUDIT_MAX_PAIRS 65536
void rl_audit_fit_free(rl_audit_fit *fit);

/* `ropelab audit`'s own settings, declared once (param.h), and the plan:
 * without a tolerance (--tolerance, --rtol, --ulps) or --expect, the
 * table is identified (rl_audit_identify) and --report says what is
 * written of the best candidate; --expect verifies against the
 * tolerance model (rl_audit_compare), a tolerance as numpy's
 * assert_allclose does (rl_audit_allclose). */
enum { RL_AUDIT_MODE_IDENTIFY = 0, RL_AUDIT_MODE_MODEL = 1, RL_AUDIT_MODE_ALLCLOSE = 2 };
enum { RL_AUDIT_REPORT_CANDIDATES = 0, RL_AUDIT_REPORT_PAIRS = 1, RL_AUDIT_REPORT_POSITIONS = 2 };
typedef struct rl_audit_settings {
  const char *sin;          /* the sin table of a cos table, or NULL */
  const char *positions;    /* the rows' positions as text ("0:4095:1"), or NULL */
  int expect;               /* verify against the schedule given */
  double tolerance, rtol, ulps; /* >= 0 when given, else -1 */
  int report;               /* RL_AUDIT_REPORT_* */
  int mode;                 /* RL_AUDIT_MODE_*: set by rl_audit_plan */
} rl_audit_settings;
const rl_param *const *rl_audit_param_list(void);       /* NULL-terminated */
const rl_param *const *rl_audit_sweep_param_list(void); /* those a sweep takes */
const char *rl_audit_report_name(int report);
/* s->mode from the settings given; RL_EINVAL when a --report other than
 * candidates is asked of a verification (it describes identification's
 * best candidate). */
rl_status rl_audit_plan(rl_audit_settings *s);
/* "float16", "bfloat16", "float32" or "float64" for rl_audit_input.fmt. */
const char *rl_audit_format_name(int fmt);
/* The method parameters that distinguish candidate p, "k=v;..." (a
 * leading ';' when it has no training length), read through the
 * declarations (rl_schedule_get). */
void rl_audit_params_text(const rl_schedule_params *p, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
