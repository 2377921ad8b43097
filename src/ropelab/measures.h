/* measures.h: measures of any scheme: structure, profiles, past the training length.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_MEASURES_H
#define ROPELAB_MEASURES_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "param.h"
#include "schedule.h"
#include "check.h"
#include "scheme.h"
#include "audit.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const rl_check rl_checks_bounds[];
/* measures of any scheme (src/core/measures)                          */

/* Where a measure failed: the query and key positions, and whether the
 * scheme returned a non-finite logit there (rather than refusing the
 * position). */
typedef struct rl_measure_err {
  double i, j;
  int nonfinite;
} rl_measure_err;

/* ---- structure of the positional matrix (structure.c) ---- */
/* P (n x n, row-major) of positional(i, j) = total - cc, query at i, key
 * at j, content xs + i * stride at position i (stride 0: the same
 * content everywhere); T (may be NULL) the terms.  RL_EOVERFLOW with
 * e->nonfinite for a non-finite logit, else the scheme's status. */
rl_status rl_structure_matrix(const rl_scheme *s, size_t head, size_t n, const double *xs,
                              size_t stride, double *P, rl_logit_terms *T, rl_measure_err *e);
typedef struct rl_toeplitz {
  double distance;  /* ||P - T(P)||_F / ||P||_F, T(P) = diagonal means (0 if P = 0) */
  double asymmetry; /* ||P - P^T||_F / ||P||_F */
  size_t distinct;  /* diagonal means apart by more than tol * max |mean| */
} rl_toeplitz;
/* RL_EOVERFLOW when a norm overflows (entries above ~1e154 / n). */
rl_status rl_structure_toeplitz(const double *P, size_t n, double tol, rl_toeplitz *out);
/* Singular values (GSL SVD) above rel_tol times the largest;
 * RL_EOVERFLOW for a non-finite entry. */
rl_status rl_structure_rank(const double *P, size_t n, double rel_tol, size_t *rank);
/* The size of the matrix whose rank tells a per-position feature map
 * (rank bounded by d) from a full-rank bias: 4d + 16, at least len,
 * capped at the table of learned/tupe under --past error. */
size_t rl_structure_rank_len(const rl_scheme *s, size_t len);
/* Position of the far probe: 2^20 + max_len, past any table. */
#define RL_STRUCTURE_FAR 1048576.0
/* 1 when prepare and pair succeed with a finite logit at positions
 * RL_STRUCTURE_FAR + max_len and one less; 0 otherwise; -1 no memory. */
int rl_structure_unbounded(const rl_scheme *s, size_t head, const double *x);
/* Bit k set when term k of (cc, cp, pc, pp, bias, mix) is nonzero in
 * any of the count terms. */
unsigned rl_structure_terms(const rl_logit_terms *T, size_t count);

/* ---- a scheme's properties side by side (structure_props.c) ---- */
/* `ropelab compare`'s settings, declared once (param.h): the length of
 * the measured matrices, the verdicts' relative tolerance, the table's
 * form and whether the timed cost is a column. */
enum { RL_COMPARE_CSV = 0, RL_COMPARE_MARKDOWN = 1 };
typedef struct rl_compare_settings {
  size_t len;  /* 2 .. 4096 */
  double tol;  /* in (0, 1) */
  int format;  /* RL_COMPARE_* */
  int timings; /* pair_ns measured and written */
} rl_compare_settings;
const rl_param *const *rl_compare_param_list(void); /* NULL-terminated */
/* Singular values above this fraction of the largest count in the rank
 * (entries are differences of O(1) logits: error ~ d eps). */
#define RL_COMPARE_RANK_TOL 1e-10
/* The contents: max(4d + 16, len) x d draws N(0, 1) from seed (GSL's
 * mt19937), *xs malloc'd: row i is position i's. */
rl_status rl_compare_contents(size_t len, size_t d, unsigned long seed, double **xs);
typedef struct rl_scheme_props {
  size_t params;              /* rl_scheme_param_count at len */
  const char *params_formula; /* rl_scheme_param_formula */
  rl_toeplitz toe;            /* same content, len x len */
  int relative, tells_sign;   /* toe.distance <= tol, toe.asymmetry > tol */
  int unbounded;              /* rl_structure_unbounded */
  size_t rank, rank_n;        /* at rank_n = rl_structure_rank_len */
  int linear;                 /* rank <= 2d + 2 < rank_n */
  size_t prep_len;            /* rl_scheme_prep_len */
  double pair_ns;             /* timed ns per pair of the rank's matrix */
  char terms[64];             /* the nonzero terms, "cc+cp+pc+pp" */
  char expansion[96];         /* "keeps cc cp; drops pc pp; adds bias" */
} rl_scheme_props;
/* Every property of s over contents xs (rl_compare_contents): RL_ENOMEM,
 * RL_EOVERFLOW with e->nonfinite for a non-finite logit (without: a norm
 * of the whole matrix overflowed), else the scheme's status at e->i, e->j. */
rl_status rl_structure_props(const rl_scheme *s, size_t head, size_t n, double tol,
                             const double *xs, rl_scheme_props *pr, rl_measure_err *e);

/* ---- the n x n logit matrix (matrix.c) ---- */
/* `ropelab matrix`'s settings, declared once (param.h): n (--len), the
 * first position, the term written (all of them in a long table unless
 * given, rl_matrix_plan), the layout, the contents, the numbers' form. */
enum {
  RL_MATRIX_TERM_TOTAL, RL_MATRIX_TERM_POSITIONAL, RL_MATRIX_TERM_CC, RL_MATRIX_TERM_CP,
  RL_MATRIX_TERM_PC, RL_MATRIX_TERM_PP, RL_MATRIX_TERM_BIAS, RL_MATRIX_TERM_MIX,
  RL_MATRIX_TERM_ALL /* total, cc, cp, pc, pp, bias, mix */
};
enum { RL_MATRIX_LONG = 0, RL_MATRIX_GRID = 1 };     /* format */
enum { RL_MATRIX_RANDOM = 0, RL_MATRIX_SAME = 1 };   /* content */
enum { RL_MATRIX_SET_TERM = 1u << 0 };
typedef struct rl_matrix_settings {
  size_t len, offset;
  int term, format, content;
  int shortest;   /* shortest round-trip numbers, else 17 significant digits */
  unsigned set;   /* RL_MATRIX_SET_*: given */
} rl_matrix_settings;
const rl_param *const *rl_matrix_param_list(void); /* NULL-terminated */
/* The term where not given (all in a long table, total in a grid);
 * RL_EINVAL with err when a position passes RL_POS_MAX. */
rl_status rl_matrix_plan(rl_matrix_settings *s, char *err, size_t n);
/* "total", ..., "mix", or "all" for RL_MATRIX_TERM_ALL. */
const char *rl_matrix_term_name(int term);
/* The values a pair gives: 7 for every term, else 1. */
size_t rl_matrix_values(const rl_matrix_settings *s);
/* The keys at positions offset .. offset + len - 1 prepared on contents
 * drawn from seed (GSL's mt19937, N(0, 1): len x d, or one d with
 * content same); the scheme's status with e->j the key's position. */
typedef struct rl_matrix_ws rl_matrix_ws;
rl_status rl_matrix_alloc(const rl_scheme *s, size_t head, const rl_matrix_settings *set,
                          unsigned long seed, rl_matrix_ws **out, rl_measure_err *e);
void rl_matrix_free(rl_matrix_ws *w);
size_t rl_matrix_scratch_len(const rl_matrix_ws *w);
/* Row i (query at offset + i): len x rl_matrix_values values into vals,
 * key by key; RL_EOVERFLOW with e->nonfinite for a non-finite value,
 * else the scheme's status at e->i, e->j. */
rl_status rl_matrix_row(const rl_matrix_ws *w, size_t i, double *scratch, double *vals,
                        rl_measure_err *e);

/* ---- positional profile against distance (profile.c) ---- */
/* The query at q with content xs[s] (samples x d), the key at q - r with
 * content xs[s] (same) or ys[s] (independent).  Thread-safe evaluation
 * with caller scratch of rl_profile_scratch_len doubles. */
typedef struct rl_profile_ws rl_profile_ws;
typedef struct rl_profile_point {
  double same;      /* mean over samples, the same content at both positions */
  double mean, se;  /* independent contents: mean, standard error */
} rl_profile_point;
rl_status rl_profile_alloc(const rl_scheme *s, size_t head, double q, size_t samples,
                           const double *xs, const double *ys, rl_profile_ws **out);
void rl_profile_free(rl_profile_ws *w);
size_t rl_profile_scratch_len(const rl_profile_ws *w);
/* RL_EOVERFLOW with e->nonfinite for a non-finite mean or se. */
rl_status rl_profile_eval(const rl_profile_ws *w, double r, double *scratch,
                          rl_profile_point *out, rl_measure_err *e);

/* `ropelab profile`'s own settings, declared once (param.h): the query
 * position (default max(to, 0): keys q - r >= 0 for r >= 0, set by
 * rl_profile_plan), the content samples, and how its figure scales each
 * scheme (figure only: the CSV is never scaled). */
enum {
  RL_PROFILE_SET_QUERY_POS = 1u << 0,
  RL_PROFILE_SET_SAMPLES = 1u << 1,
  RL_PROFILE_SET_MEASURE = 1u << 2
};
enum { RL_PROFILE_NORM_AUTO = 0, RL_PROFILE_NORM_NONE = 1, RL_PROFILE_NORM_MAX = 2 };
/* What --checkpoint measures (--measure; the plan: rl_profile_checkpoint_plan,
 * train_run.h): the learned bias per distance (t5, alibi), the query and
 * key norm per rotation pair (rope), the attention logit by distance on
 * task inputs (every scheme). */
enum { RL_PROFILE_CK_BIAS = 0, RL_PROFILE_CK_PAIR_NORMS, RL_PROFILE_CK_LOGIT };
typedef struct rl_profile_settings {
  double query_pos;
  size_t samples;     /* >= 2 */
  int plot_normalize; /* RL_PROFILE_NORM_*: auto lets the figure decide */
  unsigned set;       /* RL_PROFILE_SET_*: given */
  const char *checkpoint; /* a trained model measured instead, or NULL */
  int measure;        /* RL_PROFILE_CK_*, with checkpoint (given: RL_PROFILE_SET_MEASURE) */
} rl_profile_settings;
const rl_param *const *rl_profile_param_list(void); /* NULL-terminated */
/* --measure's names, by RL_PROFILE_CK_* (NULL-terminated). */
const char *const *rl_profile_measure_names(void);
/* The query position where not given: max(to, 0), to the last distance. */
void rl_profile_plan(rl_profile_settings *s, double to);
/* The contents of s->samples samples of dimension d from seed (GSL's
 * mt19937, N(0, 1) drawn x_0, y_0, x_1, y_1, ...): *xs malloc'd,
 * samples x d query contents then samples x d key contents. */
rl_status rl_profile_contents(const rl_profile_settings *s, size_t d, unsigned long seed,
                              double **xs);

/* ---- past the training length (window.c, unseen.c, entropy.c,
 * retrieval.c, shift.c, extrap.c) ----
 * A sequence of n tokens, the query the last one.  A local window
 * (Lambda-shaped mask: the first `sinks` tokens plus the last `window`;
 * Han et al. 2024, NAACL, LM-Infinite; Xiao et al. 2024, ICLR,
 * StreamingLLM) keeps A = min(n, sinks + window) keys and, as
 * StreamingLLM does (sec. 3.2), places them at their positions in the
 * cache, 0..A-1, with the query at A - 1.  window 0: no window, A = n. */
typedef struct rl_window {
  size_t window, sinks;
} rl_window;
size_t rl_window_keys(const rl_window *w, size_t n);
/* Cache slot (= position) of the key at distance r (0 <= r < n) from
 * the query, or -1 when the window evicted it. */
long rl_window_slot(const rl_window *w, size_t n, size_t r);

/* What a scheme's positional input is (RL_INPUT_*, ropelab/scheme.h),
 * for the unseen measure: its declaration's, but a DeBERTa with no log
 * buckets sees the distance itself. */
int rl_unseen_input(const rl_scheme *s);
const char *rl_unseen_input_name(int input);
/* The fraction of the query-key pairs of a causal sequence of n tokens
 * (every query 0..n-1, each with its keys under the window) whose
 * positional input never occurs among the pairs of a sequence of L
 * tokens.  For RL_INPUT_ANGLE, pair p of the evaluated schedule turns by
 * a = relpos(m) theta'_p at distance m; in training (schedule train, the
 * method at factor 1 and length L, rl_unseen_train_schedule) it swept
 * the arc [0, relpos(L-1) theta_p]; a is unseen when that arc is shorter
 * than 2 pi and a mod 2 pi lies past it (by more than a relative 1e-12,
 * the rounding of a scaled frequency).  per_pair (n pairs, or NULL)
 * gets each pair's fraction; total the fraction of query-key pairs with
 * any pair unseen.  total is 0 whenever n <= L. */
rl_status rl_unseen_eval(const rl_scheme *s, const rl_schedule *train, size_t L, size_t n,
                         const rl_window *w, double *total, double *per_pair);
/* The schedule the model was trained with: eval's method and parameters
 * at factor 1, length L (p-rope, xpos train with theirs); plain RoPE for
 * a position map applied at inference (rerope), a method reading files,
 * or one that cannot be built so. */
rl_status rl_unseen_train_schedule(const rl_schedule *eval, size_t L, rl_schedule **out);

/* A softmax over logits added one at a time (online, as FlashAttention
 * rescales its running sum): max, s = sum e^{l - max},
 * t = sum e^{l - max} (l - max), in long double. */
typedef struct rl_softmax_acc {
  double max;
  long double s, t;
} rl_softmax_acc;
void rl_softmax_acc_init(rl_softmax_acc *a);
void rl_softmax_acc_add(rl_softmax_acc *a, double logit);
/* Entropy of the softmax in nats: ln s - t / s (entropy.c). */
double rl_entropy_acc(const rl_softmax_acc *a);
double rl_entropy_logits(const double *l, size_t n);
/* b merged into a: a becomes the softmax of both streams (entropy.c);
 * either may be empty (as rl_softmax_acc_init left it). */
void rl_softmax_acc_merge(rl_softmax_acc *a, const rl_softmax_acc *b);
/* The attention probability of a planted key of logit planted that
 * replaced a key, given rest, the softmax of every other key (the
 * replaced one left out, never subtracted: retrieval.c):
 * e^planted / (sum_rest + e^planted); 1 for an empty rest; NaN for a
 * non-finite planted logit or rest. */
double rl_retrieval_prob(const rl_softmax_acc *rest, double planted);
/* The rests of a stream split at ncut replaced keys (cuts): seg[0..ncut]
 * the softmax of the keys before cut 0, between cut c-1 and cut c, after
 * the last cut; cut[c] the cut keys' logits.  rest[c] (ncut entries)
 * gets the softmax of every key but cut c, by merges only. */
void rl_retrieval_rests(const rl_softmax_acc *seg, const double *cut, size_t ncut,
                        rl_softmax_acc *rest);

/* Two samples of positional logits (shift.c). */
typedef struct rl_shift {
  double mean_within, sd_within, mean_past, sd_past;
  double ks; /* Kolmogorov-Smirnov: sup_x |F_within(x) - F_past(x)| */
  double w1; /* Wasserstein-1: integral |F_within - F_past| dx */
} rl_shift;
/* Sorts both arrays in place; each needs >= 2 values (RL_EINVAL);
 * RL_EOVERFLOW for a non-finite moment or distance. */
rl_status rl_shift_eval(double *within, size_t nw, double *past, size_t np, rl_shift *out);
/* On sorted samples. */
double rl_ks_distance(const double *a, size_t na, const double *b, size_t nb);
double rl_w1_distance(const double *a, size_t na, const double *b, size_t nb);

/* Logit scales applied on top of a scheme (every scheme, every length n
 * past L): none; log-n, max(1, ln n / ln L) (the query scale of the
 * log-n schedule); yarn, YaRN's temperature (0.1 ln s + 1)^2, s = n / L
 * (the logit multiplier of the yarn schedule). */
enum { RL_SCALE_NONE = 0, RL_SCALE_LOGN = 1, RL_SCALE_YARN = 2, RL_SCALE_COUNT = 3 };
const char *rl_scale_name(int scale);
rl_status rl_scale_factor(int scale, size_t L, size_t n, double *factor);

enum {
  RL_EX_UNSEEN = 1u << 0,
  RL_EX_RETRIEVAL = 1u << 1,
  RL_EX_ENTROPY = 1u << 2,
  RL_EX_SHIFT = 1u << 3,
  RL_EX_COUNT = 4 /* the measures (rl_extrap_measure_names) */
};

typedef struct rl_extrap_params {
  size_t train_len;     /* L (required) */
  const size_t *lens;   /* sequence lengths n, increasing, >= 1 */
  size_t nlens;
  const size_t *dists;  /* retrieval distances r (those >= n are skipped) */
  size_t ndists;
  const int *scales;    /* RL_SCALE_*: (none) */
  size_t nscales;
  unsigned measures;    /* RL_EX_RETRIEVAL | RL_EX_ENTROPY | RL_EX_SHIFT */
  size_t samples;       /* content samples, >= 2 (100) */
  unsigned long seed;   /* (1) */
  size_t head;          /* (0) */
  rl_window win;        /* (none) */
  int identical;        /* every key's content = the query's (0) */
  size_t shift_max;     /* distances kept per sample and side for ks, w1 (0: all,
                           unless past 2^23 per side over the samples) */
  size_t threads;       /* worker threads, 0 = online processors (0) */
  int draw_contents;    /* 1: every key's content drawn, d normals a key (the
                           stream before the logits' law); 0: where the logit
                           is affine in the key's content (rl_scheme_key_coef;
                           rope under an exact pipeline, a rotation), the
                           logits drawn from their Gaussian law given the
                           query, a few normals a key (0) */
} rl_extrap_params;
void rl_extrap_params_default(rl_extrap_params *p);
/* The settings of rl_extrap_params a command takes as options (samples,
 * local-window, sink-tokens, identical, draw-contents), declared once:
 * the CLI's options, help, messages, metadata and sweep axes come from
 * these declarations.  NULL-terminated. */
const rl_param *const *rl_extrap_param_list(void);
/* The measures' names, NULL-terminated: name k is the bit 1u << k
 * (RL_EX_UNSEEN, RL_EX_RETRIEVAL, ...); rl_param.only names them. */
const char *const *rl_extrap_measure_names(void);
/* The schedule at length n: the one rule for a method's length
 * parameters, for a model or a measure whose original context is L
 * positions (extrapolate's plan, train's scoring, evaluate).  Each is a
 * default, set only where the method takes it and p does not hold it as
 * given: a value the user gave (--train-len, --factor, --seq-len) wins.
 *   train_len = L;
 *   factor = N / L (1 when N <= L) where N > 0, the longest length the
 *     schedule serves (extrapolate); N = 0 leaves the method's own default
 *     (train and evaluate score under the factor given or the method's);
 *   seq_len = max(n, L) where n > 0, the current length (dynamic,
 *     longrope, log-n; a length within L scores as at L); n = 0 leaves it
 *     (extrapolate sets each length's own where it builds it). */
void rl_extrap_length_params(rl_schedule_params *p, size_t L, size_t N, size_t n);
/* rl_extrap_length_params(p, L, N, 0): an evaluation of lengths up to N
 * past L. */
void rl_extrap_method_params(rl_schedule_params *p, size_t L, size_t N);
/* Whether a scheme of cfg must be rebuilt for every length (a method
 * whose schedule depends on the current length: dynamic, log-n). */
int rl_extrap_per_length(const char *scheme, const rl_scheme_cfg *cfg);

/* ---- extrapolate's request and plan (extrap_plan.c) ----
 * What `ropelab extrapolate` is asked (its own settings, declared by
 * rl_extrap_request_param_list: --train-len, --eval-len, --lengths,
 * --distances, --measure, --method, --factor, --scale, --seq-len,
 * --checkpoint; the
 * pass's own by rl_extrap_param_list into ex) and what the plan makes of
 * it: the lengths, distances and scales left to the core's defaults, the
 * scheme x method product and each method's length parameters. */
#define RL_EXTRAP_LIST_MAX 4096  /* --lengths, --distances: values at most */
#define RL_EXTRAP_METHODS_MAX 32 /* --method: methods at most */
enum {
  RL_EXG_LENS = 1u << 0,    /* --lengths given */
  RL_EXG_DISTS = 1u << 1,   /* --distances given */
  RL_EXG_METHODS = 1u << 2  /* --method given (or the config's) */
};
typedef struct rl_extrap_settings {
  rl_extrap_params ex;  /* the pass (rl_extrap_param_list; lens, dists,
                           scales and measures from the plan) */
  size_t train_len, eval_len; /* L, N; 0 until given */
  const char *train_arg, *eval_arg, *lens_arg; /* as given, for messages */
  size_t lens[RL_EXTRAP_LIST_MAX + 64], nlens;
  size_t dists[RL_EXTRAP_LIST_MAX + 64], ndists;
  unsigned measures;    /* RL_EX_* the table holds, unseen included (all) */
  int scales[RL_SCALE_COUNT];
  size_t nscales;       /* 0: none */
  const rl_schedule_type *methods[RL_EXTRAP_METHODS_MAX];
  size_t nmethods;      /* 0: the schemes' own method */
  double factor;        /* > 0: every method's factor; 0: N / L */
  unsigned given;       /* RL_EXG_* */
  char lens_note[160];  /* the default lengths rounded down, said (plan) */
  const char *checkpoint; /* a trained model measured instead (--checkpoint), or NULL */
} rl_extrap_settings;
void rl_extrap_settings_default(rl_extrap_settings *s);
const rl_param *const *rl_extrap_request_param_list(void);
/* The methods 'all' means: those that need no file of a user's. */
int rl_extrap_method_in_all(const rl_schedule_type *t);
/* The plan's length policy on s (L and N given, L <= N, the given
 * lengths <= N): lengths by default L/4, L/2, L, 2L, ... up to N (a
 * length not whole taken rounded down, said in lens_note), N always
 * added, sorted without repeats; distances by default 0, 1, 2, 4, ... <
 * N; scales by default none; methods by default method (the schemes'
 * own); s->ex pointed at them.  RL_EINVAL when a scale has no finite
 * value at a length (*bad_scale, *bad_len). */
rl_status rl_extrap_plan(rl_extrap_settings *s, const rl_schedule_type *method, int *bad_scale,
                         size_t *bad_len);
/* One configuration of the product: a scheme, a method ("none" for a
 * scheme without a schedule) and the settings it runs with. */
typedef struct rl_extrap_conf {
  const char *scheme, *method;
  rl_scheme_cfg cfg;
} rl_extrap_conf;
/* The product of the schemes (names, n of them, built from cfg) and
 * the methods of s (for the rotary schemes only), each method at the
 * factor of s (else N / L) and train_len L (rl_extrap_method_params),
 * each configuration built once so that bad settings fail before any
 * output; with several methods, one a scheme cannot take (rope2d and a
 * position map) is left out.  *out (calloc'd, *n entries) to free();
 * on an error err says it and *bad is the configuration. */
rl_status rl_extrap_confs(const rl_extrap_settings *s, const char *const *names, size_t n,
                          const rl_scheme_cfg *cfg, rl_extrap_conf **out, size_t *count,
                          rl_extrap_conf *bad, char *err);

/* Results, indexed [len][dist][scale] and [len][scale]; a retrieval
 * entry with r >= n has ok 0.  Shift at the largest length, per scale:
 * shift_ok 0 when a side holds fewer than 2 values. */
typedef struct rl_extrap_result {
  double *ret_mean, *ret_se;
  unsigned char *ret_ok;
  double *ent_mean, *ent_se;
  rl_shift *shift;
  unsigned char *shift_ok;
  /* ks and w1 use every k-th distance within L and past L (1: every
   * one); means and sds always use every distance */
  size_t shift_stride_within, shift_stride_past;
} rl_extrap_result;
/* Run the sampled measures for scheme name built from cfg (projections
 * forced to the identity: the contents are the query and key vectors,
 * so a planted key equals the query).  Content per sample from a
 * sub-seed of seed: query x, then key slots 0.. in order, N(0, I);
 * every scheme and length sees the same contents.  Keys are streamed
 * in blocks, so memory is O(block + lengths), not O(n^2) or O(n d).
 * progress (may be NULL) is called between rounds of samples.
 * Errors: the scheme's status with e set (RL_EOVERFLOW and e->nonfinite
 * for a non-finite logit). */
rl_status rl_extrap_run(const char *name, const rl_scheme_cfg *cfg, const rl_extrap_params *p,
                        rl_extrap_result *res, rl_measure_err *e,
                        void (*progress)(void *ctx, size_t done, size_t total), void *ctx);
rl_status rl_extrap_result_alloc(const rl_extrap_params *p, rl_extrap_result *res);
/* The strides of the distances shift's ks and w1 use, within L and past
 * L (1: every distance; above 1 only when every distance would hold more
 * than 2^23 values a side over the samples, or shift_max says so). */
void rl_extrap_shift_strides(const rl_extrap_params *p, size_t *sw, size_t *sp);
void rl_extrap_result_free(rl_extrap_result *res);
/* The family of `ropelab check` (checks/extrapolate.c). */
extern const rl_check rl_checks_extrapolate[];
/* The properties `ropelab check --table` holds a user's cos/sin table to
 * (src/core/audit/props.c), each an rl_check_result whose tolerance is a
 * stated multiple of the table's own format epsilon
 * (rl_audit_format_eps(in->fmt): 2^-7, 2^-10, 2^-23, 2^-52):
 *  relative: over `trials` seeded Gaussian q, k and distances r between
 *    two of the table's rows, the spread over m of <R_m q, R_{m+r} k>
 *    (rows m and m + r both in the table), / (a^2 |q||k|);
 *  norm: max |cos^2 + sin^2 - attn^2| / attn^2 over every entry;
 *  layout: the two dims of each pair (layout INTERLEAVED or HALF) equal,
 *    for a table of 2n columns (n columns: nothing to pair);
 *  values: every entry against schedule sc (rl_audit_compare), read in
 *    layout, absolute.
 * A table whose width does not fit fails with error = HUGE_VAL. */
double rl_audit_format_eps(int fmt);
/* The median sqrt(cos^2 + sin^2) of a table (1 for frequencies). */
double rl_audit_amplitude(const rl_audit_input *in);
rl_status rl_audit_check_relative(const rl_audit_input *in, unsigned long seed, size_t trials,
                                  rl_check_result *res);
rl_status rl_audit_check_norm(const rl_audit_input *in, double attn, rl_check_result *res);
rl_status rl_audit_check_layout(const rl_audit_input *in, int layout, size_t n, double attn,
                                rl_check_result *res);
rl_status rl_audit_check_values(const rl_audit_input *in, int layout, const rl_schedule *sc,
                                rl_check_result *res);
/* `check --table`: property i of rl_check_table_names (relative, norm,
 * layout, values) of in, read in layout, against schedule sc (--expect)
 * or NULL: measured into res, its tolerance times s->tolerance_scale
 * (the verdict re-judged; a NaN error never passes), or *skip the reason
 * it is not measured (frequencies have no cos/sin per position; layout
 * and values need sc).  An error other than RL_ENOMEM is a property that
 * could not be measured: res says so and has not passed. */
rl_status rl_audit_check_prop(size_t i, const rl_audit_input *in, int layout,
                              const rl_schedule *sc, const rl_check_settings *s,
                              rl_check_result *res, const char **skip);
/* The layout `check --table FILE` reads a table in: layout when given,
 * else for a table of 2n dims (n: sc's pairs) the one it shows; RL_EINVAL
 * with err (naming file) when it shows neither. */
rl_status rl_audit_check_layout_choice(const rl_audit_input *in, const char *file,
                                       const rl_schedule *sc, int given, int layout, int *out,
                                       char *err, size_t n);

#ifdef __cplusplus
}
#endif
#endif
