/* ropelab.h: the one public header of the ropelab core library.
 *
 * Names follow prefix_module_verb (rl_schedule_rope, rl_decay_eval, ...).
 * Functions that can fail return an rl_status and write results through
 * out-parameters; workspaces are owned by the caller (_alloc/_free, and
 * every _free accepts NULL).
 *
 * The core keeps three things apart, so that adding one never touches
 * the others:
 *   - a frequency schedule (rl_schedule): the theta_i of a RoPE variant;
 *   - a rotation (rl_rope_*): what RoPE does with any schedule;
 *   - a measure (rl_decay_*, rl_mc_*): what is computed from them.
 */
#ifndef ROPELAB_H
#define ROPELAB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* status                                                              */

typedef enum rl_status {
  RL_OK = 0,
  RL_EINVAL = 1,  /* an argument outside its domain (odd dim, base <= 1) */
  RL_ERANGE = 2,  /* a position past the accurately computed range */
  RL_ENOMEM = 3,  /* allocation failed */
  RL_EIO = 4,     /* reading or writing a file failed */
  RL_EFORMAT = 5, /* an input file is not in the documented format */
  RL_EOVERFLOW = 6 /* finite inputs gave a non-finite result (an overflow) */
} rl_status;

const char *rl_strerror(int status);

/* The size of every error buffer the core writes a message into (one
 * line naming the value and what is expected); the per-module names
 * below are this one size. */
#define RL_ERR_MAX 256

/* ------------------------------------------------------------------ */
/* parameter declarations                                              */

/* Every parameter of the core is declared once, as an rl_param: its key
 * (the long option without "--"; the metadata key is the same with '_'
 * for '-'), its kind, bounds, default, unit, the paper's symbol, one help
 * line, and where it is stored (an offset into its settings struct).
 * The CLI builds its long options, parsing, help, metadata, sweep axes,
 * completion and man page from these tables alone, and every message
 * about a value is formed from the declaration (git's parse-options.h,
 * one step further: the table lives in the library, not the tool). */
typedef enum rl_param_kind {
  RL_PK_REAL,  /* double, finite, within [lo, hi] (see the flags) */
  RL_PK_SIZE,  /* size_t, decimal digits only, within [lo, hi] */
  RL_PK_EVEN,  /* size_t, even, >= lo; hi guards against typos */
  RL_PK_ENUM,  /* int: the index of one of names */
  RL_PK_TEXT,  /* const char *: a non-empty text (a file name) */
  RL_PK_FLAG,  /* int set to set_to when given; takes no value */
  RL_PK_CUSTOM /* parse, format and reset of its own */
} rl_param_kind;

enum {
  RL_PF_LO_OPEN = 1u << 0,     /* > lo (default >= lo) */
  RL_PF_HI_OPEN = 1u << 1,     /* < hi (default <= hi) */
  RL_PF_FILE = 1u << 2,        /* the value names a file */
  RL_PF_NO_SWEEP = 1u << 3,    /* the value has commas of its own (a list) */
  RL_PF_NAMES = 1u << 4,       /* CUSTOM: one of rl_param_names (sweeps as names) */
  RL_PF_NUMBERS = 1u << 5,     /* CUSTOM: a number (sweeps as numbers) */
  RL_PF_META_SET = 1u << 6,    /* metadata only when given (params.set has bit) */
  RL_PF_META_NONZERO = 1u << 7,/* metadata only when the number is not 0 */
  RL_PF_META_BUILT = 1u << 8,  /* metadata from the built object (derived) */
  RL_PF_NO_META = 1u << 9,     /* never in the metadata as given */
  RL_PF_META_ALWAYS = 1u << 10,/* metadata whatever the method */
  RL_PF_NO_OPTION = 1u << 11   /* a metadata line only (a field several
                                  options set, such as --causal and
                                  --bidirectional's t5_direction) */
};

typedef struct rl_param rl_param;
struct rl_param {
  const char *key;      /* "beta-fast" */
  rl_param_kind kind;
  unsigned flags;       /* RL_PF_* */
  unsigned bit;         /* the settings' "given" bit (RL_SP_* for schedules), or 0 */
  size_t offset;        /* offsetof the field in its settings struct */
  double lo, hi;        /* bounds; hi = INFINITY for none */
  double dflt;          /* default of REAL, SIZE, EVEN; ENUM, FLAG: the int */
  int set_to;           /* FLAG: the value the option stores */
  const char *const *names; /* ENUM: the names, NULL-terminated */
  const char *metavar;  /* "B" in "--base B" */
  const char *symbol;   /* the paper's symbol ("beta", "s", "L"), or NULL */
  const char *unit;     /* "tokens", "rad/token", or NULL */
  const char *help;     /* one line, lowercase, no period */
  const char *expect;   /* what a message says is expected, or NULL: from the bounds */
  const char *dflt_text;/* the default as help writes it, where not the number */
  /* where the names come from a registry (methods, pipelines) */
  const char *const *(*names_fn)(void);
  /* CUSTOM: text into the field (RL_EINVAL with err), back to text, default */
  rl_status (*parse)(const rl_param *d, void *obj, const char *arg, char *err, size_t n);
  int (*format)(const rl_param *d, const void *obj, char *buf, size_t n);
  void (*reset)(const rl_param *d, void *obj);
  /* metadata: write the value only when this holds for obj (NULL: always) */
  int (*meta_if)(const void *obj);
  /* the names (schemes) that take it, space-separated, or NULL: every one */
  const char *only;
};

/* Text into d's field of obj: RL_OK, or RL_EINVAL with err "invalid
 * --KEY 'ARG': expected ..." (the closest name for an enumeration). */
rl_status rl_param_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n);
/* The field as text (numbers shortest round-trip, as the CSV writes
 * them); returns what snprintf returns. */
int rl_param_format(const rl_param *d, const void *obj, char *buf, size_t n);
/* "a number > 0", "an even integer >= 2", "interleaved or half" ... */
void rl_param_expect(const rl_param *d, char *buf, size_t n);
/* The metadata key: the option's key with '_' for '-' ("beta_fast"). */
void rl_param_meta_key(const rl_param *d, char *buf, size_t n);
/* The default as help writes it ("10000", "interleaved", "dim"). */
void rl_param_default_text(const rl_param *d, char *buf, size_t n);
/* d's field of obj set to its default. */
void rl_param_set_default(const rl_param *d, void *obj);
/* x within d's bounds (and finite). */
int rl_param_in_bounds(const rl_param *d, double x);
/* The names of an enumeration (registries' ones included), NULL-terminated. */
const char *const *rl_param_names(const rl_param *d);
size_t rl_param_count_names(const rl_param *d);
/* arg as one of d's names: its index, or RL_EINVAL with the message. */
rl_status rl_param_enum_index(const rl_param *d, const char *arg, int *idx, char *err,
                              size_t n);
/* A finite number from the whole of arg in the C locale: RL_OK, RL_EINVAL
 * (not a number), RL_EOVERFLOW (inf, nan), RL_ERANGE (overflows a double). */
rl_status rl_param_number(const char *arg, double *out);
/* How a sweep takes d: a list of numbers, of names, or not at all. */
enum { RL_PARAM_SWEEP_NONE = 0, RL_PARAM_SWEEP_NUMBERS = 1, RL_PARAM_SWEEP_NAMES = 2 };
int rl_param_sweeps(const rl_param *d);

/* The index of the candidate closest to word (a prefix, or an optimal
 * string alignment distance small for its length, as git's help.c
 * suggests commands), or n when none is close. */
size_t rl_suggest(const char *word, const char *const *cands, size_t n);
/* "a, b or c" into buf. */
void rl_names_alternatives(const char *const *names, size_t n, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* frequency schedules                                                 */

/* How the rotated dimensions are paired. */
typedef enum rl_layout {
  RL_LAYOUT_INTERLEAVED = 0, /* (x_2i, x_2i+1): RoFormer, GPT-J, Meta Llama */
  RL_LAYOUT_HALF = 1         /* (x_i, x_i+r/2): GPT-NeoX, Hugging Face */
} rl_layout;

/* A frequency schedule is an object of a schedule type (GSL's solver-type
 * habit, roots/brent.c): one file per method in src/core/schedules/, each
 * ending with its rl_schedule_type, all listed in one registry.  A type
 * turns rl_schedule_params into the per-pair frequencies theta_i and the
 * head's attention factor; where the method has them, also a map of
 * relative positions (ReRoPE), a per-pair amplitude growing with position
 * (xPos), a query scale (log-n) and a dependence on the current length
 * (dynamic NTK, LongRoPE: the schedule is built for params.seq_len).
 * Rotations, decay, Monte Carlo, checks and the rope schemes take an
 * rl_schedule, so a new method touches no measure and no command. */

/* Implementations whose numbers differ for the same named method. */
typedef enum rl_variant {
  RL_VARIANT_HF = 0,   /* Hugging Face transformers modeling_rope_utils.py */
  RL_VARIANT_GGML = 1, /* llama.cpp's ggml (ggml_rope_ext, ggml_rope_yarn_corr_dims) */
  RL_VARIANT_VLLM = 2  /* vLLM model_executor/layers/rotary_embedding */
} rl_variant;
#define RL_VARIANT_COUNT 3
const char *rl_variant_name(rl_variant v);

typedef struct rl_schedule_type rl_schedule_type;

/* Largest head dimension accepted: a guard against typos that would
 * allocate gigabytes, far above any published model (d <= 256). */
#define RL_DIM_MAX 1048576

/* Bits of rl_schedule_params: which parameters a type takes, which it
 * requires, and (params.set) which the caller gave explicitly, so that a
 * parameter the method does not use is an error, not silently ignored. */
enum {
  RL_SP_FACTOR = 1u << 0,
  RL_SP_TRAIN_LEN = 1u << 1,
  RL_SP_SEQ_LEN = 1u << 2,
  RL_SP_BETA = 1u << 3,      /* beta_fast, beta_slow */
  RL_SP_TRUNCATE = 1u << 4,
  RL_SP_MSCALE = 1u << 5,    /* mscale, mscale_all_dim */
  RL_SP_RAMP = 1u << 6,
  RL_SP_LLAMA3 = 1u << 7,    /* low_freq_factor, high_freq_factor */
  RL_SP_FACTORS = 1u << 8,   /* factors_file */
  RL_SP_FRACTION = 1u << 9,
  RL_SP_SCALE_BASE = 1u << 10,
  RL_SP_WINDOW = 1u << 11,
  RL_SP_LEAK = 1u << 12,
  RL_SP_SECTIONS = 1u << 13,
  RL_SP_FREQS_FILE = 1u << 14,
  RL_SP_VARIANT = 1u << 15,
  RL_SP_ATTN = 1u << 16      /* attention_factor given explicitly */
};

#define RL_SP_OWN_MAX 8      /* slots for the methods' own numbers */
#define RL_SP_PARAMS_MAX 128 /* declared schedule parameters at most */
typedef struct rl_schedule_params {
  const rl_schedule_type *method; /* rope */
  size_t dim;            /* head dimension d, even >= 2 (128) */
  size_t rot;            /* rotated dimensions r, even <= d; 0 = d (0) */
  double base;           /* > 1 (10000) */
  rl_layout layout;      /* interleaved */
  rl_variant variant;    /* hf */
  double factor;         /* scale s >= 1 (1) */
  double train_len;      /* original context L, 0 = none (0) */
  double seq_len;        /* current length N, 0 = train_len (0) */
  double beta_fast, beta_slow; /* yarn (32, 1) */
  int truncate;          /* yarn: round the correction range (1) */
  int ramp_paper;        /* yarn: 0 the code's ramp over pair index,
                            1 the paper's ramp over r = L/lambda (0) */
  double mscale, mscale_all_dim; /* yarn, DeepSeek form; 0 = none */
  double attention_factor;       /* 0 = the method's own (0) */
  double low_freq_factor, high_freq_factor; /* llama3 (1, 4) */
  const char *factors_file;  /* longrope: CSV pair,short,long */
  const double *factors; /* longrope: n factors in memory (the list in use), instead
                            of factors_file; the caller's, not kept (NULL) */
  double fraction;       /* p-rope: fraction of pairs kept rotating (0.75) */
  double scale_base;     /* xpos (512) */
  double window, leak;   /* rerope window w (512), leaky-rerope k (16) */
  size_t sections[3];    /* mrope: pairs per axis t, h, w; 0 = none */
  const char *freqs_file;/* file: CSV with a theta column */
  unsigned set;          /* RL_SP_* given explicitly by the caller */
  const struct rl_precision *precision; /* pipeline (see "precision"); NULL = exact */
  /* A method's own numbers, in the slots its declarations name
   * (.offset = RL_SP_OWN(k)), so a new method needs no field here; the
   * default of the chosen method's own parameters is filled in by
   * rl_schedule_new where they were not given. */
  double own[RL_SP_OWN_MAX];
  /* which declared parameters were given, by their index in
   * rl_schedule_param_list (rl_schedule_param_mark) */
  unsigned char given[RL_SP_PARAMS_MAX / 8];
} rl_schedule_params;
#define RL_SP_OWN(k) (offsetof(rl_schedule_params, own) + (size_t)(k) * sizeof(double))

/* The defaults noted above: the one place they are set (the CLI parses
 * into this and never restates them). */
void rl_schedule_params_default(rl_schedule_params *p);

/* Band of a pair, as its method defines it. */
enum {
  RL_BAND_EXTRAPOLATED = 0, /* the plain RoPE frequency kept */
  RL_BAND_INTERPOLATED = 1, /* scaled by the full factor 1/s */
  RL_BAND_BETWEEN = 2,      /* in between */
  RL_BAND_UNROTATED = 3     /* theta = 0 (p-rope) */
};
const char *rl_band_name(int band);

/* A built schedule.  The fields are read-only for callers. */
typedef struct rl_schedule {
  size_t dim, rot, n;    /* n = rot / 2 pairs; rot..dim-1 pass through */
  double base;           /* the effective base (ntk, dynamic: rescaled) */
  double *theta;         /* n frequencies, radians per position */
  double attn;           /* attention factor: the multiplier on cos, sin */
  double logit_mult;     /* attn^2: the multiplier on q.k */
  double *amp_rate;      /* xpos: per pair ln(zeta_i)/scale_base, or NULL:
                            query at m scaled e^{m rate}, key at n e^{-n rate} */
  unsigned char *band;   /* n RL_BAND_* */
  unsigned char *axis;   /* mrope: n axis indices 0 t, 1 h, 2 w; or NULL */
  const rl_schedule_type *type;
  rl_schedule_params p;  /* as built (file names not kept) */
  char note[200];        /* what the method derived, for the metadata
                            (yarn: its correction range), or "" */
  /* The exact frequency is theta[i] + theta_lo[i] (double-double: the
   * method's formula evaluated in 113-bit arithmetic, see "precision");
   * under a framework pipeline theta holds the framework's frequencies
   * (float32 values) and theta_lo is zero. */
  double *theta_lo;
  const struct rl_precision *prec; /* the pipeline (never NULL once built) */
  struct rl_pipe *pipe;  /* the pipeline's private state, or NULL */
} rl_schedule;

/* What a method is and does: see src/core/schedules/schedule_impl.h. */
struct rl_schedule_type {
  const char *name, *summary, *paper, *code;
  unsigned uses;         /* RL_SP_* it takes */
  unsigned needs;        /* RL_SP_* it requires */
  unsigned variants;     /* 1 << RL_VARIANT_* it has (0: one formula) */
  rl_status (*init)(rl_schedule *s, char *err);
  /* relative position as the method uses it (rerope); NULL: identity */
  double (*relpos)(const rl_schedule *s, double r);
  /* the query scale at length len (log-n); NULL: 1 */
  double (*qscale)(const rl_schedule *s, double len);
  /* the parameters only this method declares (in its own file), NULL-
   * terminated, or NULL; those it shares with others are declared in
   * schedule.c and named by the bits of uses */
  const rl_param *const *params;
};

/* The registered types, NULL-terminated, and one by name (or NULL). */
const rl_schedule_type *const *rl_schedule_types(void);
const rl_schedule_type *rl_schedule_type_find(const char *name);

/* Every schedule parameter, declared once: the shared ones, then each
 * method's own in registry order; NULL-terminated, in the order of the
 * metadata.  Fields are in rl_schedule_params (offset). */
const rl_param *const *rl_schedule_param_list(void);
const rl_param *rl_schedule_param_find(const char *key);
/* 1 when method t takes parameter d: the bits of t->uses for shared
 * parameters with a bit, membership of t->params for a method's own, and
 * every method for the rest (dim, rot, base, layout, method, precision). */
int rl_schedule_param_applies(const rl_param *d, const rl_schedule_type *t);
/* Record that d was given in p (its bit in p->set, and p->given), so that
 * rl_schedule_new refuses it for a method that does not take it and keeps
 * it rather than the method's default. */
void rl_schedule_param_mark(rl_schedule_params *p, const rl_param *d);
int rl_schedule_param_given(const rl_schedule_params *p, const rl_param *d);
/* d is stored in a method's own slots (RL_SP_OWN). */
int rl_schedule_param_is_own(const rl_param *d);

/* Build a schedule.  RL_EINVAL for parameters the method cannot take
 * (err, RL_SCHEDULE_ERR_MAX bytes or NULL, then holds one lowercase line
 * naming the parameter, the value and what is expected); RL_EIO /
 * RL_EFORMAT for an unreadable / malformed file. */
#define RL_SCHEDULE_ERR_MAX RL_ERR_MAX
rl_status rl_schedule_new(const rl_schedule_params *p, rl_schedule **out, char *err);
/* RoFormer's schedule: theta_i = base^(-2i/r), i = 0..r/2-1, each the
 * double nearest to the exact value (computed in long double).
 * Requires even dim >= 2, even 2 <= rot <= dim, finite base > 1. */
rl_status rl_schedule_rope(size_t dim, size_t rot, double base, rl_schedule **out);
/* A schedule of rot/2 pairs with theta zero and attention factor 1, for
 * frequencies computed elsewhere. */
rl_status rl_schedule_alloc(size_t dim, size_t rot, rl_schedule **out);
void rl_schedule_free(rl_schedule *s);

/* 2*pi/theta: positions per full turn of pair i (inf when theta = 0). */
double rl_schedule_wavelength(const rl_schedule *s, size_t i);
/* theta_i over RoFormer's theta_i of the same d, r and base. */
double rl_schedule_ratio(const rl_schedule *s, size_t i);
/* The relative position the method uses for relative distance r
 * (query - key); r itself for most methods.  Odd: map(-r) = -map(r). */
double rl_schedule_relpos(const rl_schedule *s, double r);
/* The query scale at length len (1 for most methods). */
double rl_schedule_qscale(const rl_schedule *s, double len);
/* e^{r rate_i}: the amplitude xPos gives pair i's logit at relative
 * distance r = query - key; 1 for other methods. */
double rl_schedule_amplitude(const rl_schedule *s, size_t i, double r);
/* Nonzero when the logit at distance r is sum_i w_i(r) cos(r theta_i)
 * with w = logit_mult alone: no position map, amplitude or query scale. */
int rl_schedule_is_plain(const rl_schedule *s);
/* One line describing the schedule for the CSV metadata. */
void rl_schedule_describe(const rl_schedule *s, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* accurate angles                                                     */

/* Positions |m| <= RL_POS_MAX are accurate: see rl_angle_sincos. */
#define RL_POS_MAX 2147483648.0 /* 2^31 */

/* m*theta reduced to [-pi, pi], computed from the exact product of the two
 * doubles m and theta (four exact partial products in long double) and a
 * four-part 2*pi (Cody-Waite).  Absolute error below 2^-55 for
 * |m| <= RL_POS_MAX and |theta| <= 1. */
long double rl_angle_reduce(double m, double theta);

/* cos and sin of m*theta, reduced by pi/2 with the same exact products and
 * an error-free (TwoSum) accumulation; each within 0.55 ulp of the exact
 * value (measured against libquadmath by tests/base/test_angle.c).  Returns RL_ERANGE (and leaves c, s alone) when
 * |m| > RL_POS_MAX, |theta| > 1, or either is not finite. */
rl_status rl_angle_sincos(double m, double theta, double *c, double *s);

/* ------------------------------------------------------------------ */
/* precision: the seam every cos/sin, rotation and logit goes through   */

/* A precision pipeline is the order of operations and the number format
 * of one framework's RoPE (src/core/precision/, one file per family, a
 * registry as the schedules').  It is chosen in rl_schedule_params
 * (.precision) and carried by the built schedule, so every measure that
 * takes an rl_schedule computes through it:
 *   - the frequencies: exact (double-double, the default), fp64 (the
 *     double nearest each exact frequency, ropelab before 0.2), or the
 *     framework's float32 inv_freq (theta[] then holds those values);
 *   - cos and sin of position m (rl_rope_cossin, rl_schedule_cossin): exact
 *     pipelines give the correctly rounded double of the exact angle's
 *     cos/sin; framework ones compute the angle and cosf/sinf in float32
 *     as the framework orders them, then round the table to table_dtype;
 *   - the rotation (rl_rope_apply_pipeline): q, k rounded to act_dtype and
 *     the products and sums rounded as the framework's kernels do.
 * Measures of a relative distance r (decay, mc, check) use the table at
 * position r with the key at position 0. */

/* Number formats.  bfloat16 and float16 values are produced by correct
 * rounding (to nearest, ties to even) from float32. */
typedef enum rl_dtype {
  RL_DTYPE_F64 = 0,  /* IEEE binary64 */
  RL_DTYPE_F32 = 1,  /* IEEE binary32 (C float, no excess precision) */
  RL_DTYPE_BF16 = 2, /* bfloat16: binary32's exponent, 8-bit significand */
  RL_DTYPE_F16 = 3   /* IEEE binary16: max 65504, subnormals below 2^-14 */
} rl_dtype;
const char *rl_dtype_name(rl_dtype t);
/* x rounded to t (F64: x itself; BF16 and F16 from float32: x is first
 * rounded to float32, then to the narrow format). */
double rl_dtype_round(rl_dtype t, double x);
/* The spacing of t's numbers at |x| (ulp(x), ulp(0) the smallest
 * subnormal); inf for an infinite or NaN x. */
double rl_dtype_ulp(rl_dtype t, double x);
/* The 16-bit encodings: correct rounding of a float32, and back. */
uint16_t rl_bf16_bits(float x);
uint16_t rl_f16_bits(float x);
float rl_bf16_value(uint16_t bits);
float rl_f16_value(uint16_t bits);
/* rl_bf16_value(rl_bf16_bits(x)), rl_f16_value(rl_f16_bits(x)). */
float rl_bf16_round(float x);
float rl_f16_round(float x);

typedef struct rl_pipe rl_pipe;
typedef struct rl_precision rl_precision;
struct rl_precision {
  const char *name;     /* "exact", "fp64", "hf-fp32", ... */
  const char *summary;  /* one line */
  const char *code;     /* the reference lines it follows (file, function) */
  int variant;          /* the rl_variant whose formulas it computes; -1 any */
  int exact;            /* 1: exact and fp64 (accurate angles, doubles) */
  rl_dtype freq_dtype;  /* the frequencies as held */
  rl_dtype table_dtype; /* cos and sin as stored before the rotation */
  rl_dtype act_dtype;   /* q and k, and the rotation's results */
  int fused;            /* 1: the rotation computed in float32 and rounded
                           once to act_dtype (ggml); 2: the same with
                           fused multiply-adds (ggml built with FMA);
                           0: each product and
                           the sum rounded to act_dtype (PyTorch ops) */
  /* Replace the exact frequencies of s (theta + theta_lo, filled by the
   * method) with the pipeline's, and set up s->pipe.  NULL: keep. */
  rl_status (*init)(rl_schedule *s, char *err);
  /* c[i] = scale cos, s[i] = scale sin of position m for every pair, as
   * the pipeline computes them (scale: 1, or the attention factor). */
  void (*cossin)(const rl_schedule *s, double m, double scale, double *c, double *sn);
  /* The same for pair i alone (the row's bits), so that pair-by-pair
   * callers cost O(pairs) per position, not O(pairs^2). */
  void (*sincos1)(const rl_schedule *s, size_t i, double m, double scale, double *c,
                  double *sn);
};

/* The registered pipelines, NULL-terminated; one by name (or NULL). */
const rl_precision *const *rl_precisions(void);
const rl_precision *rl_precision_find(const char *name);
/* The default (exact) and today's double pipeline (fp64). */
const rl_precision *rl_precision_exact(void);
const rl_precision *rl_precision_fp64(void);

/* The per-pair seam: c = cos, s = sin of position m for pair i as the
 * schedule's pipeline computes them (no attention factor).  Exact
 * pipelines cost one accurate sincos; framework ones compute the row
 * (ggml's angles are a running product over the pairs): use
 * rl_rope_cossin for whole rows.  RL_ERANGE past RL_POS_MAX. */
rl_status rl_schedule_sincos(const rl_schedule *f, size_t i, double m, double *c, double *s);

/* y = R(m) x as the schedule's pipeline computes it: x rounded to the
 * pipeline's act_dtype, cos/sin its table (times the attention factor
 * when with_attn), products and sums rounded as its kernel does.  For
 * exact and fp64 the same as rl_rope_apply_elementwise (with_attn
 * multiplies y by attn).  x and y may alias. */
rl_status rl_rope_apply_pipeline(const rl_schedule *f, rl_layout layout, double m, int with_attn,
                                 const double *x, double *y);
/* y = the rotation of x by a table row (c, sn: n entries as
 * rl_rope_cossin / rl_schedule_cossin give them, for callers that keep
 * tables) in the schedule's pipeline's arithmetic: exact and fp64 in
 * double (y_a = x_a c - x_b s, y_b = x_b c + x_a s, pass-through copied),
 * framework pipelines as rl_rope_apply_pipeline.  x and y may alias. */
rl_status rl_rope_apply_row(const rl_schedule *f, rl_layout layout, const double *c,
                            const double *sn, const double *x, double *y);

/* The precision envelope (`ropelab precision`): a pipeline's table and
 * rotation against the exact ones over positions.  For pair i at
 * position m, with (c, s) the pipeline's table entry and (C, S) the exact
 * cos and sin (no attention factor):
 *   cos, sin  |c - C|, |s - S|
 *   angle     |atan2(s C - c S, c C + s S)|: the angle between the
 *             pipeline's and the exact rotation, radians
 *   logit     |<R_m q, R_{m+r} k> - <q, R_r k>| for the pair's two
 *             components, the left side in the pipeline's arithmetic, the
 *             right side exact (the relative property: the logit of one
 *             relative distance r should not depend on the absolute
 *             position m; Wang et al. 2024, "When Precision Meets
 *             Position: BFloat16 Breaks Down RoPE in Long-Context
 *             Training", TMLR 2025).  q and k are drawn once from seed,
 *             entries N(0, 1/sqrt(d)) so that q.k has unit variance, then
 *             rounded to the pipeline's act_dtype (both sides use the
 *             rounded vectors); the dot product is summed in double, so
 *             the attention matmul's own rounding is not counted.
 * The total logit error is that of the whole head's sum.  Exact rows are
 * advanced by complex multiplication from accurate angles re-seeded every
 * 64 positions (error below 1e-13, far under float32's 6e-8). */
/* Defaults of `ropelab precision` (owned here, as every default). */
#define RL_PREC_ENV_TO 131072   /* last position: 128K */
#define RL_PREC_ENV_POINTS 64   /* log-spaced rows */
#define RL_PREC_ENV_DISTANCE 1  /* r of the relative property */
typedef struct rl_prec_err {
  double cos, sin, angle, logit; /* worst absolute errors */
} rl_prec_err;
typedef struct rl_prec_env rl_prec_env;
/* pipe: the schedule under a pipeline; exact: the same schedule built
 * exact (both must outlive the workspace, same n).  distance r >= 0. */
rl_status rl_prec_env_alloc(const rl_schedule *pipe, const rl_schedule *exact, double distance,
                            unsigned long seed, rl_prec_env **out);
void rl_prec_env_free(rl_prec_env *e);
/* Positions m0, m0 + 1, ..., m0 + count - 1 (all within RL_POS_MAX, and
 * m + r too): per pair maxima merged into pair[n] (may be NULL), the
 * head's into *total (may be NULL; its logit is the whole head's sum, its
 * other fields the max over pairs).  Large counts run on two threads. */
rl_status rl_prec_env_run(rl_prec_env *e, double m0, size_t count, rl_prec_err *pair,
                          rl_prec_err *total);

/* cos and sin of m*(theta_hi + theta_lo), the frequency a double-double:
 * as rl_angle_sincos with the product m*theta_lo added to the exact
 * partial products (its rounding is below 2^-80 for the ranges there). */
rl_status rl_angle_sincos2(double m, double theta_hi, double theta_lo, double *c, double *s);
/* The same values, within the same 0.55 ulp (proof in
 * src/core/base/angle_rows.c), for positions m = m0 + j step, j < count
 * (m0 and step integers, every position within RL_POS_MAX), and n pairs
 * (theta_lo may be NULL: 0), into c[j n + i], s[j n + i]: a double-double
 * recurrence reseeded from exact angles, a few ns an entry.  RL_ERANGE
 * when the positions or frequencies are out of range (nothing written). */
rl_status rl_angle_sincos_rows(const double *theta, const double *theta_lo, size_t n, double m0,
                               double step, size_t count, double *c, double *s);

/* ------------------------------------------------------------------ */
/* rotations                                                           */


/* Index of the two components of pair i in a layout. */
void rl_layout_pair(rl_layout layout, size_t rot, size_t i, size_t *a, size_t *b);

/* The permutation that maps interleaved to half-split:
 * y[j] = x[perm[j]] turns an interleaved vector (or the rows of W_q, W_k)
 * into its half-split form.  perm has dim entries; the pass-through
 * dimensions map to themselves. */
void rl_layout_perm(size_t dim, size_t rot, size_t *perm);

/* y = P x (to_half != 0) or y = P^T x (to_half == 0); x and y distinct. */
void rl_layout_permute(size_t dim, size_t rot, int to_half, const double *x, double *y);

/* Three independent implementations of y = R(m) x.  x and y may alias
 * except for rl_rope_apply_matrix.  All return RL_ERANGE past RL_POS_MAX. */

/* The explicit dim x dim block-diagonal matrix, row-major, into R. */
rl_status rl_rope_matrix(const rl_schedule *f, rl_layout layout, double m, double *R);
/* y = R(m) x by a matrix-vector product with the matrix above
 * (ws: dim*dim doubles of caller scratch). */
rl_status rl_rope_apply_matrix(const rl_schedule *f, rl_layout layout, double m,
                               const double *x, double *y, double *ws);
/* y = x * cos + rot(x) * sin (RoFormer eq. 34). */
rl_status rl_rope_apply_elementwise(const rl_schedule *f, rl_layout layout, double m,
                                    const double *x, double *y);
/* pairs as complex numbers multiplied by e^{i m theta}. */
rl_status rl_rope_apply_complex(const rl_schedule *f, rl_layout layout, double m,
                                const double *x, double *y);

/* cos(m theta_i), sin(m theta_i) for all n pairs. */
rl_status rl_rope_cossin(const rl_schedule *f, double m, double *c, double *s);
/* The table as frameworks store it: attn cos(m theta_i), attn sin(m
 * theta_i) (Hugging Face multiplies cos and sin by attention_scaling). */
rl_status rl_schedule_cossin(const rl_schedule *sc, double m, double *c, double *s);
/* The same for positions m0 + j step, j < count, into c[j n + i] and
 * s[j n + i]: the same values (exact and fp64 pipelines: by
 * rl_angle_sincos_rows, within the same 0.55 ulp, when m0 and step are
 * integers; otherwise row by row).  RL_ERANGE as rl_schedule_cossin. */
rl_status rl_schedule_cossin_rows(const rl_schedule *sc, double m0, double step, size_t count,
                                  double *c, double *s);
/* M-RoPE: y = R(pos) x with pair i turned by pos[axis_i] theta_i
 * (Qwen2-VL; pos = {t, h, w}); for schedules without axes, by pos[0]. */
rl_status rl_rope_apply_axes(const rl_schedule *f, rl_layout layout, const double pos[3],
                             const double *x, double *y);

/* ------------------------------------------------------------------ */
/* grids of relative distances                                         */

typedef struct rl_grid {
  double from, to, step; /* linear grid: from + j*step, j = 0.. while <= to */
  size_t points;         /* number of rows */
  int log;               /* 1: points log-spaced values from..to (from > 0) */
} rl_grid;

/* Linear grid [from, to] with step > 0; every value must lie within
 * [-RL_POS_MAX, RL_POS_MAX].  The last row is the largest grid value
 * <= to (plus a relative 1e-12 slack, so 0:0.1:1 ends at 1). */
rl_status rl_grid_linear(double from, double to, double step, rl_grid *g);
/* points >= 2 values, log-spaced from from > 0 to to > from, both ends
 * included; points == 1 gives from alone. */
rl_status rl_grid_log(double from, double to, size_t points, rl_grid *g);
/* Value of row j; for a linear grid fma(j, step, from). */
double rl_grid_at(const rl_grid *g, size_t j);
/* Nonzero when every linear grid value is an exact double, so a constant
 * angle step is exact and the fast recurrence applies. */
int rl_grid_is_exact(const rl_grid *g);

/* The default grids of the commands that evaluate over one (the CLI
 * prints these, never restates them): a linear grid from, to, step, and
 * for a log grid its first value and number of points. */
typedef struct rl_grid_default {
  double from, to, step;
  double log_from;
  size_t log_points;
} rl_grid_default;
/* RoFormer Fig. 2's r = 0..256 (decay, and profile on the same axis);
 * log-spaced, 256 points from 1 to 256. */
extern const rl_grid_default rl_grid_fig2;
/* A cos/sin table short enough to diff by eye: positions 0..15 (angles). */
extern const rl_grid_default rl_grid_table;
/* Chen et al. 2023, Appendix B Figure 5: s = 0..4095 (bound pi). */
extern const rl_grid_default rl_grid_pi_fig5;

/* A list of values in the sweep syntax: comma-separated items, each a
 * number or a range START:STOP:STEP (STEP +S / -S arithmetic, xK
 * geometric; STOP included when reached to 1e-9 of a step), e.g.
 * "500,1e4,5e5", "1:8:x2", "0:1:0.25".  *out (malloc'd, caller frees)
 * holds *count <= max values in the order given.  RL_EINVAL with a
 * message in err (the bad item quoted, what was expected) otherwise. */
rl_status rl_values_parse(const char *text, size_t max, double **out, size_t *count, char *err,
                          size_t errlen);

/* ------------------------------------------------------------------ */
/* long-term decay (RoFormer section 3.4.3)                            */

/* RoFormer's relative upper bound
 *   (1/n) * sum_{j=1..n} |S_j|,  S_j = sum_{k<j} e^{i r theta_k},
 * as the schedule's logit has it: times the logit multiplier (attention
 * factor squared) and query scale, each term weighted by its amplitude
 * (xpos) and r mapped by the schedule (rerope).  The schedule must
 * outlive the workspaces that take it (decay, Monte Carlo).
 * by direct summation with accurate angles (the reference).  NaN when r
 * is outside [-RL_POS_MAX, RL_POS_MAX] or not finite. */
double rl_decay_bound_ref(const rl_schedule *f, double r);
/* Men et al. 2024, eq. 9: B_r = sum_i cos(r theta_i) (reference), with
 * the same multipliers, weights and map. */
double rl_decay_similarity_ref(const rl_schedule *f, double r);

/* A streaming evaluator of bound and similarity over a grid: memory is
 * O(n) whatever the number of rows.  On linear grids it advances the
 * phases by complex multiplication and re-seeds them from accurate
 * angles every RL_DECAY_RESEED rows (rows that are rounded doubles, as
 * with step 0.1, turned by their rounding); relative error stays below 1e-12
 * (measured by tests/measures/test_decay.c). */
#define RL_DECAY_RESEED 256
typedef struct rl_decay_ws rl_decay_ws;
rl_status rl_decay_alloc(const rl_schedule *f, const rl_grid *g, rl_decay_ws **out);
void rl_decay_free(rl_decay_ws *w);
/* Rows j0 .. j0+count-1: r[k], bound[k], sim[k]; any output may be NULL.
 * Calls in increasing j0 are fastest; any order is correct. */
rl_status rl_decay_eval(rl_decay_ws *w, size_t j0, size_t count,
                        double *r, double *bound, double *sim);
/* Threads rl_decay_eval may use, 1 or 2 (the default); the results are
 * bitwise the same either way. */
void rl_decay_threads(rl_decay_ws *w, int n);

/* ------------------------------------------------------------------ */
/* Monte Carlo over random queries and keys                            */

/* The samples are drawn afresh from seed at every r (common random
 * numbers: every distance sees the same q, k). */
typedef struct rl_mc_result {
  double ind_mean, ind_se;   /* q^T R_r k, q and k independent N(0, sigma^2 I) */
  double self_mean, self_se; /* q^T R_r q */
  double self_expect;        /* 2 sigma^2 B_r + sigma^2 (d - r_rot): closed form */
  double abel_max;           /* max over samples of |q^T R_r k| / Abel bound (<= 1) */
} rl_mc_result;

/* The sigma rl_mc_alloc accepts.  Every result but abel_max is sigma^2
 * times the one at sigma = 1 (computed so, from unit draws); this range
 * keeps sigma^2 within 1e-200..1e200, so that sigma^2 times a unit result
 * (at most about 2^27 times the logit weight for d <= 2^20) stays finite
 * and normal, i.e. one rounding from the exact product. */
#define RL_MC_SIGMA_MIN 1e-100
#define RL_MC_SIGMA_MAX 1e100

typedef struct rl_mc_ws rl_mc_ws;
rl_status rl_mc_alloc(const rl_schedule *f, size_t samples, double sigma,
                      unsigned long seed, rl_mc_ws **out);
void rl_mc_free(rl_mc_ws *w);
rl_status rl_mc_eval(rl_mc_ws *w, double r, rl_mc_result *res);
/* res[j] = rl_mc_eval at r[j] for j < nr, bitwise, with every sample
 * drawn once for all nr distances instead of once per distance. */
rl_status rl_mc_eval_many(rl_mc_ws *w, size_t nr, const double *r, rl_mc_result *res);

/* ------------------------------------------------------------------ */
/* property checks (what `ropelab check` runs)                         */

typedef struct rl_check_params {
  rl_schedule_params sched; /* the schedule the RoPE checks run on */
  unsigned long seed;
  size_t trials;  /* random vectors / positions per property */
} rl_check_params;

typedef struct rl_check_result {
  double error;     /* the measured error */
  double tolerance; /* the bound it must stay within */
  int pass;
  char detail[160]; /* what was measured, for the report */
} rl_check_result;

typedef struct rl_check {
  const char *name;
  const char *summary;
  rl_status (*run)(const rl_check_params *p, rl_check_result *res);
} rl_check;

/* The registered checks, terminated by an entry with name == NULL. */
const rl_check *rl_check_list(void);

/* Samples the Monte Carlo mean checks (mc_independent_mean, mc_self_mean)
 * need.  Their tolerance, 4 standard errors, is a false alarm of
 * 2 Phi(-4) = 6.3e-5 per distance for a normal mean of known standard
 * error; the error is estimated from the N samples, so the ratio is
 * Student's t with N - 1 degrees of freedom, whose tail P(|t| > 4) is
 * 3.1e-3 at N = 10 (49 times the normal rate), 7.7e-4 at 20 and 1.2e-4
 * at 100: N >= 100 keeps it within twice the rate the tolerance was set
 * for (2 checks x 10 distances: <= 0.25% of seeds fail a correct core). */
#define RL_CHECK_MC_MIN_TRIALS 100
/* The fewest trials check c can be judged with (1 for most checks). */
size_t rl_check_min_trials(const rl_check *c);

/* ------------------------------------------------------------------ */
/* numbers as text                                                     */

/* Shortest decimal (at most 17 significant digits) that strtod reads back
 * as exactly x, in the C locale whatever the process locale is.
 * buf must hold RL_NUMFMT_MAX bytes; returns the length. */
#define RL_NUMFMT_MAX 32
int rl_numfmt(double x, char *buf);
/* Exactly 17 significant digits (trailing zeros dropped, "%.17g"'s
 * notation), which always read back as x: about twice as fast as
 * rl_numfmt, for outputs of 10^7 numbers and more (`matrix`).  The last
 * digit may differ by one from glibc's correctly rounded "%.17g" where x
 * lies within 0.0055 units of a tie; it reads back exactly either way. */
int rl_numfmt17(double x, char *buf);

/* ---- schemes (positional encodings side by side) ---- */
/* Every positional scheme RoFormer compares RoPE with, behind one
 * interface, so that a measure written for RoPE runs for all of them.
 * The attention logit between a query at position i with content x_i and
 * a key at position j with content x_j is split as RoFormer section 2.2
 * writes (W_q(x_i + p_i))^T W_k(x_j + p_j):
 *   cc    content-content   (W_q x_i)^T (W_k x_j), with the scheme's scale
 *   cp    content-position  (xl: term b; deberta: c2p)
 *   pc    position-content  (xl: term c, u^T k; deberta: p2c)
 *   pp    position-position (xl: term d; tupe: untied (U_q p_i).(U_k p_j))
 *   bias  a content-free scalar added to the logit (t5, alibi, tupe-r)
 *   mix   what a rotation changes (rope, rope2d): total - cc
 *   total the logit as the scheme's paper computes it, scale included;
 *         total = cc + cp + pc + pp + bias + mix up to rounding.
 * Every term is already scaled (1/sqrt(d); tupe 1/sqrt(2d); deberta
 * 1/sqrt(3d); t5 folds the scale into W_q as T5 does, see below).
 *
 * The positional contribution is defined once, for every scheme:
 *   positional = total - cc = cp + pc + pp + bias + mix,
 * i.e. the logit minus what the same content gives with position ignored
 * (for rope: minus the unrotated logit).
 *
 * Content projections.  Each head h owns d x d matrices W_q^h, W_k^h
 * (and W_r^h for xl, U_q^h, U_k^h for tupe), entries N(0, 1/d), so that
 * for content N(0, I) the logits are O(1).  They are drawn on the head's
 * first use from a gsl_rng_mt19937 stream of its own (seeded with a hash
 * of cfg.seed and h; W_q, W_k first), so one seed gives every scheme the
 * same content logit, and showing one head of a large model costs d^2,
 * not H d^2.  The tables every head shares come from the stream seeded
 * with cfg.seed itself.  cfg.identity = 1 makes W_q = W_k = I instead.
 * t5 has no 1/sqrt(d) in its attention; its init folds the scale into
 * W_q (Hugging Face T5 init std (d_model d_kv)^-1/2), which gives the
 * same cc as the common W_q with cc scaled by 1/sqrt(d), as done here.
 * Learned tables use BERT's N(0, 0.02^2) unless stated otherwise:
 *   learned  table max_len x d, N(0, 0.02^2)
 *   t5       bias num_buckets x H, N(0, 1/d) (HF T5 init d_model^-1/2)
 *   deberta  relative embeddings 2k x d, N(0, 0.02^2) then LayerNorm
 *            (norm_rel_ebd of DeBERTa-v3); projected by the content W_q,
 *            W_k (share_att_key)
 *   xl       W_r N(0, 1/d); u, v N(0, 0.02^2) (Transformer-XL init_std)
 *   tupe     positions (max_len + 1) x d N(0, 0.02^2) then LayerNorm
 *            (pos_ln); U_q, U_k N(0, 1/d); relative bias (num_buckets + 1)
 *            x H, N(0, 0.02^2).
 * A parameter file replaces the seeded table (formats:
 * experiments/params/README.md).
 *
 * Positions are doubles.  Table schemes (learned, t5, deberta, tupe,
 * binary) need integers (RL_EINVAL otherwise); every scheme returns
 * RL_ERANGE past |p| = RL_POS_MAX.  learned and tupe need
 * 0 <= p < max_len; past it cfg.past decides: error (RL_ERANGE), clamp
 * (to the nearest row) or wrap (p mod max_len).  tupe treats position 0
 * as [CLS].
 *
 * Cost.  rl_scheme_prepare projects one content vector at one position
 * (O(d^2)) into a prepared vector of rl_scheme_prep_len(s) doubles;
 * rl_scheme_pair then gives the logit of a prepared query and key in
 * O(d) (t5, tupe-r: plus one log for the bucket).  An n x n logit matrix
 * is thus 2n prepares and n^2 pairs; nothing n x n is stored.  prepare
 * and pair only read the scheme and may run in parallel threads;
 * rl_scheme_logit uses the scheme's scratch and must not. */

typedef struct rl_scheme rl_scheme;

/* What the learned and tupe tables do with positions past max_len. */
typedef enum rl_past_policy {
  RL_PAST_ERROR = 0, /* RL_ERANGE */
  RL_PAST_CLAMP = 1, /* the last (first) row */
  RL_PAST_WRAP = 2   /* row p mod max_len */
} rl_past_policy;
/* "error", "clamp", "wrap" -> policy; RL_EINVAL for anything else. */
rl_status rl_past_policy_parse(const char *name, rl_past_policy *out);
const char *rl_past_policy_name(rl_past_policy p);

typedef struct rl_scheme_cfg {
  size_t dim;        /* per-head dimension d; even for sinusoidal, xl,
                        rope; a multiple of 4 for rope2d (default 64) */
  size_t heads;      /* H (8) */
  rl_schedule_params rope; /* rope, rope2d: the frequency schedule and
                        layout (its dim follows dim; rope2d builds it for
                        d/2); its base is also sinusoidal's and xl's */
  size_t width;      /* rope2d: p -> (p / width, p % width) (32) */
  size_t max_len;    /* learned, tupe: table length (512) */
  rl_past_policy past; /* learned, tupe: positions >= max_len (error) */
  size_t num_buckets;  /* t5, tupe-r (32) */
  size_t max_distance; /* t5, tupe-r (128) */
  int bidirectional;   /* t5: 1 encoder, 0 causal decoder (1) */
  int tupe_rel;        /* tupe: add the T5-bucket bias, TUPE-R (1) */
  size_t position_buckets;       /* deberta: 0 = no log buckets (256) */
  size_t max_relative_positions; /* deberta (512, DeBERTa-v3) */
  size_t seed;         /* gsl_rng_mt19937 seed of every drawn parameter (1) */
  int identity;        /* 1: W_q = W_k = I (0) */
  const char *param_file; /* CSV replacing the scheme's table, or NULL */
  size_t head;         /* the head a command shows, < heads (0) */
} rl_scheme_cfg;

/* The defaults noted above (from the declarations below). */
void rl_scheme_cfg_default(rl_scheme_cfg *cfg);
/* Every scheme parameter of rl_scheme_cfg but the schedule's (cfg.rope,
 * rl_schedule_param_list; cfg.dim is --dim's), declared once: the CLI's
 * options, help and metadata come from these.  NULL-terminated. */
const rl_param *const *rl_scheme_param_list(void);

/* Scheme properties the compare command reports; each one is measured
 * by a check in `ropelab check` (check_schemes.c). */
enum {
  RL_SCHEME_RELATIVE = 1u << 0,   /* positional depends on i - j only */
  RL_SCHEME_ABSOLUTE = 1u << 1,   /* position added to the input */
  RL_SCHEME_LEARNED = 1u << 2,    /* has trained positional parameters */
  RL_SCHEME_ROTATION = 1u << 3,   /* position enters by rotating q, k */
  RL_SCHEME_BIAS = 1u << 4,       /* adds a content-free bias */
  RL_SCHEME_UNBOUNDED = 1u << 5,  /* any position without a table limit */
  RL_SCHEME_LINEAR = 1u << 6,     /* per-token factorisable: usable
                                     inside linear attention */
  RL_SCHEME_INTEGER = 1u << 7,    /* needs integer positions */
  RL_SCHEME_2D = 1u << 8          /* positions are (row, col) */
};

typedef struct rl_scheme_info {
  const char *name;     /* "rope", "t5", ... */
  const char *summary;  /* one line */
  const char *paper;    /* citation */
  const char *code;     /* reference code the implementation follows */
  const char *relpos;   /* sign convention of its relative position */
  unsigned flags;       /* RL_SCHEME_* */
} rl_scheme_info;

/* The schemes, terminated by an entry with name == NULL. */
const rl_scheme_info *rl_scheme_list(void);
/* The entry of name, or NULL. */
const rl_scheme_info *rl_scheme_find(const char *name);

/* Size of the message buffer of rl_scheme_alloc. */
#define RL_SCHEME_ERR_MAX RL_ERR_MAX

/* Build scheme name for cfg.  RL_EINVAL for an unknown name or a cfg it
 * cannot take, RL_EIO / RL_EFORMAT for an unreadable / malformed
 * cfg->param_file.  On failure err (RL_SCHEME_ERR_MAX bytes, may be
 * NULL) holds one lowercase line, problem first, value quoted. */
rl_status rl_scheme_alloc(const char *name, const rl_scheme_cfg *cfg,
                          rl_scheme **out, char *err);
void rl_scheme_free(rl_scheme *s);
const rl_scheme_info *rl_scheme_get_info(const rl_scheme *s);
/* The configuration as used (param_file's table may set max_len). */
const rl_scheme_cfg *rl_scheme_get_cfg(const rl_scheme *s);

typedef struct rl_logit_terms {
  double cc, cp, pc, pp, bias, mix, total;
} rl_logit_terms;

/* The logit of query (position i, content xq) and key (j, xk) for head
 * (< H); xq, xk have d entries.  Not thread-safe (scheme scratch). */
rl_status rl_scheme_logit(rl_scheme *s, size_t head, double i, double j,
                          const double *xq, const double *xk, rl_logit_terms *t);
/* positional = t.total - t.cc of the same call (see above). */
rl_status rl_scheme_positional(rl_scheme *s, size_t head, double i, double j,
                               const double *xq, const double *xk, double *value);

/* The fast path.  role: RL_ROLE_QUERY or RL_ROLE_KEY. */
enum { RL_ROLE_QUERY = 0, RL_ROLE_KEY = 1 };
size_t rl_scheme_prep_len(const rl_scheme *s);
rl_status rl_scheme_prepare(const rl_scheme *s, size_t head, int role, double pos,
                            const double *x, double *out);
/* pq prepared as a query at i, pk as a key at j (same head, same i, j). */
rl_status rl_scheme_pair(const rl_scheme *s, size_t head, double i, double j,
                         const double *pq, const double *pk, rl_logit_terms *t);

/* rope2d at explicit 2-D positions (row, col); RL_EINVAL for other
 * schemes.  The 1-D calls map p to (floor(p / width), p mod width),
 * p a non-negative integer. */
rl_status rl_scheme_prepare2d(const rl_scheme *s, size_t head, int role,
                              double row, double col, const double *x, double *out);
rl_status rl_scheme_pair2d(const rl_scheme *s, size_t head, double ri, double ci,
                           double rj, double cj, const double *pq, const double *pk,
                           rl_logit_terms *t);
rl_status rl_scheme_logit2d(rl_scheme *s, size_t head, double ri, double ci,
                            double rj, double cj, const double *xq, const double *xk,
                            rl_logit_terms *t);

/* The positional vector p(pos) (d entries) of the schemes that have one:
 * sinusoidal (sin, cos interleaved), learned (table row), integer,
 * binary, tupe (row pos + 1 after LayerNorm) and xl (R_pos at relative
 * distance pos: d/2 sines, then d/2 cosines).  RL_EINVAL for others. */
rl_status rl_scheme_encoding(const rl_scheme *s, double pos, double *out);

/* Positional parameters a model needs for sequences of length len, given
 * d and H of the cfg (content W_q, W_k not counted):
 *   nope, sinusoidal, rope, rope2d, alibi, integer, binary   0
 *   learned  len d            t5  num_buckets H
 *   deberta  2k d, k = position_buckets or max_relative_positions
 *   xl       H (d^2 + 2d)     tupe (len + 1) d + 2 H d^2
 *                                  + (num_buckets + 1) H with tupe_rel */
size_t rl_scheme_param_count(const rl_scheme *s, size_t len);

/* The scheme's main table, in the row layout of its parameter file (so
 * that writing it out gives a file rl_scheme_alloc reads back):
 *   t5 "bucket,head,bias" rows*cols = num_buckets x H (data[b*H + h]);
 *   alibi "head,slope" H x 1; learned "position,v0.." max_len x d;
 *   deberta "bucket,v0.." 2k x d; tupe "position,v0.." (max_len+1) x d.
 * RL_EINVAL for schemes without one. */
typedef struct rl_scheme_table {
  const char *format; /* the CSV header's first columns */
  size_t rows, cols;
  const double *data; /* row-major, owned by the scheme */
} rl_scheme_table;
rl_status rl_scheme_get_table(const rl_scheme *s, rl_scheme_table *t);
/* The frequency schedule of sinusoidal, xl, rope and rope2d (rope2d: the
 * one of each d/2 half), or NULL for the other schemes. */
const rl_schedule *rl_scheme_get_schedule(const rl_scheme *s);

/* T5 (Raffel et al. 2020, sec. 2.1; HF modeling_t5.py
 * _relative_position_bucket) with rel = key - query
 * (memory_position - context_position).  -1 when num_buckets < 2 (< 4
 * bidirectional) or max_distance <= the exact range. */
long rl_t5_bucket(long rel, int bidirectional, long num_buckets, long max_distance);
/* DeBERTa-v2/v3 make_log_bucket_position with rel = query - key;
 * rel itself when bucket_size <= 0 or max_position <= 0 (no bucketing,
 * as build_relative_position); LONG_MIN when max_position - 1 <= bucket_size/2. */
long rl_deberta_bucket(long rel, long bucket_size, long max_position);
/* ALiBi slopes of H heads (Press et al. 2022; get_slopes in
 * ofirpress/attention_with_linear_biases): 2^(-8h/H), h = 1..H, for H a
 * power of two; otherwise those of the power of two c below H, then every
 * other slope of 2c.  RL_EINVAL for H == 0. */
rl_status rl_scheme_alibi_slopes(size_t heads, double *slopes);
/* TUPE-R's bucket for a query at position i and a key at j (Ke et al.
 * 2021, eq. 7; guolinke/TUPE): [CLS] is position 0 and has buckets of
 * its own, num_buckets / 2 (a bucket T5's bidirectional rule never
 * gives) for its row and num_buckets for its column; other pairs take
 * T5's bidirectional bucket of j - i.  -1 where T5 gives none. */
long rl_tupe_bucket(long i, long j, long num_buckets, long max_distance);
#define RL_T5_RELPOS "key - query (memory_position - context_position)"
#define RL_DEBERTA_RELPOS "query - key"

/* The scheme properties of `ropelab check`, NULL-terminated. */
extern const rl_check rl_checks_schemes[];

/* ------------------------------------------------------------------ */
/* numeric arrays from a user's files (src/core/io/npy.c, array.c)     */

/* A 1-D or 2-D array of finite numbers, row-major whatever the file's
 * order.  elem is the file's storage: 16, 32 or 64 (IEEE binary16, 32,
 * 64 in a .npy), or for CSV text 32 when every field has at most 9
 * significant digits (then data holds the float32 each field denotes,
 * strtof's) and 64 otherwise. */
typedef struct rl_array {
  size_t rows, cols;   /* 1-D: cols = 1 */
  int ndim;            /* 1 or 2 */
  double *data;        /* rows x cols (malloc'ed) */
  int elem;            /* 16, 32 or 64 */
  int npy;             /* 1 for a .npy file, 0 for CSV */
  int fortran;         /* .npy: the file was in Fortran (column) order */
  char *header;        /* CSV: the header line, or NULL when none */
} rl_array;
#define RL_ARRAY_MAX_ELEMS ((size_t)1 << 27) /* 1 GiB of doubles */
/* A NumPy .npy array held in memory (format versions 1.0, 2.0, 3.0;
 * descr '<f2' '<f4' '<f8', '>' byte-swapped, '=' native; fortran_order
 * True or False; shape (n,) or (n, m), n, m >= 1).  name labels the
 * messages.  RL_EFORMAT with err
 * "NAME: problem: expected ..." for anything else, a short or long data
 * part, NaN or infinity. */
rl_status rl_npy_parse(const unsigned char *buf, size_t len, const char *name, rl_array *a,
                       char *err, size_t errsize);
/* The whole of the regular file path, NUL-terminated, at most max bytes
 * (*buf malloc'ed, *len bytes).  Opened without blocking and checked on
 * the open descriptor: a FIFO, device, socket or directory is RL_EIO
 * ("not a regular file"), never read; a larger file or one holding a
 * NUL byte (which C string functions would silently stop at) is
 * RL_EFORMAT naming FILE:LINE.  err (errsize bytes) says why. */
rl_status rl_io_slurp(const char *path, size_t max, char **buf, size_t *len, char *err,
                      size_t errsize);
/* A file: .npy when it starts with NumPy's magic string (or is named
 * *.npy), otherwise CSV of numbers (lines starting with '#' skipped, an
 * optional header line of names, the same number of fields on every
 * line).  RL_EIO (exit 3) when it cannot be read, a directory, not a
 * regular file; RL_EFORMAT (exit 2) when malformed or empty. */
rl_status rl_array_read(const char *path, rl_array *a, char *err, size_t errsize);
void rl_array_free(rl_array *a);
/* The index of header column name (CSV with a header), or -1. */
int rl_array_column(const rl_array *a, const char *name);

/* A .npy file of rows x cols doubles (format 1.0, '<f8', C order;
 * src/core/io/npy_write.c), streamed: rl_npy_create writes the header to
 * a temporary file beside path, rl_npy_append adds whole rows,
 * rl_npy_commit checks that every declared row came and renames the file
 * into place (nothing appears at path otherwise), rl_npy_abort removes
 * it.  err receives "problem 'PATH': reason" (RL_EIO for the file system,
 * RL_EINVAL for a shape or row count).  rl_npy_write: a whole array. */
typedef struct rl_npy_writer rl_npy_writer;
rl_status rl_npy_create(const char *path, size_t rows, size_t cols, rl_npy_writer **w,
                        char *err, size_t errsize);
rl_status rl_npy_append(rl_npy_writer *w, const double *vals, size_t nrows, char *err,
                        size_t errsize);
rl_status rl_npy_commit(rl_npy_writer *w, char *err, size_t errsize);
void rl_npy_abort(rl_npy_writer *w);
rl_status rl_npy_write(const char *path, const double *data, size_t rows, size_t cols, char *err,
                       size_t errsize);

/* ------------------------------------------------------------------ */
/* audit: which RoPE is a user's table, and how far off is it          */
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
/* What a framework can legitimately differ by at one entry (pair i of
 * schedule sc at position m, the table in in->fmt): the frequency a few
 * ulps off carried to m and the angle's own rounding, a (2 |m|
 * ulp_A(theta_i) + ulp_A(|m| theta_i)), in the format A the angle is
 * formed in (float64 for a float64 table, float32 otherwise), plus the
 * value's rounding in the table's format, a libm ulp and the attention
 * factor's product, 2 eps_T a (a = sc->attn); inverse frequencies: 4
 * ulps of in->fmt at theta_i. */
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
                            (longrope: p.factors points into the fit's) */
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
} rl_audit_fit;
/* dim_hint: the head dimension when known (rot < dim), else 0. */
rl_status rl_audit_identify(const rl_audit_input *in, size_t dim_hint, rl_audit_fit *fit,
                            char *err, size_t errsize);
/* The same, with the base when known (> 1; 0: none): LongRoPE's per-pair
 * factors trade off against the base, so only a base given, or one the
 * table pins down (two equal neighbouring factors), is tried for it. */
rl_status rl_audit_identify_hint(const rl_audit_input *in, size_t dim_hint, double base_hint,
                                 rl_audit_fit *fit, char *errbuf, size_t errsize);
void rl_audit_fit_free(rl_audit_fit *fit);

/* ------------------------------------------------------------------ */
/* published bounds (src/core/bounds)                                  */

/* Men et al. 2024, "Base of RoPE Bounds Context Length" (arXiv:2405.14591,
 * eq. 9 and sec. 3.3): a context length L asks for
 *   B_r = sum_i cos(r theta_i) >= 0  for every r = 0 .. L-1
 * (the query attends more to a similar key than to a random one at every
 * distance), and the lower bound of the base is
 *   base_L = inf{ base : B_r >= 0 for every r in 0..L-1 }.
 * The set of feasible bases is not an interval (feasibility flips on
 * relative steps of about 1e-5), so no bisection; what is searched:
 *   staged (the default; Su, kexue.fm/archives/10122, "numerical
 *     solution"): B = start_factor * L (must be feasible); for stage
 *     k = 1..stages the grid b_j = (j / 10^k) * B, j = 1, 2, ... is scanned
 *     upward and the first feasible b_j becomes B.  The result is B; the
 *     previous grid point b_{j-1} of the last stage is infeasible.
 *   fine: the staged result b_s and its previous grid point p, then the
 *     geometric grid p (1 + tolerance)^k, k = 1, 2, ..., scanned upward
 *     while below b_s: the first feasible point (or b_s).  It refines
 *     the staged answer inside (p, b_s] to a relative step `tolerance`;
 *     feasible bases below p, if any, are not looked for.
 * B_r counts every pair of the head: the (dim - rot)/2 pass-through
 * pairs add cos 0 = 1 each.  The schedule is built at each candidate base
 * from sched (its method, factor, ...; logit multipliers do not change a
 * sign and are ignored); methods with a position map, amplitude or query
 * scale, and 'file' (frequencies without a base), are refused. */
/* The lengths `ropelab bound men` computes by default (the paper's table:
 * 1K .. 1M), and the length of the other bounds (LLaMA 2's 4096). */
#define RL_MEN_LEN_DEFAULT "1024:1048576:x2"
#define RL_BOUND_LEN_DEFAULT "4096"
typedef enum rl_men_search { RL_MEN_STAGED = 0, RL_MEN_FINE = 1 } rl_men_search;

typedef struct rl_men_params {
  rl_schedule_params sched; /* the schedule; its base is what is searched */
  rl_men_search search;     /* staged */
  int stages;               /* decimal stages, 1..9 (5, as Su) */
  double start_factor;      /* the search starts at start_factor * L (1000, as Su) */
  double tolerance;         /* fine: relative grid step, MIN <= tol <= 0.01 (1e-8) */
} rl_men_params;
/* The smallest fine step honoured in double precision: 1 + tol is
 * 1 + m 2^-52, so tol is carried to within 2^-53 / tol relative, and each
 * grid point p (1 + tol)^k is rounded by about 2^-52 relative; at 2^-45
 * the step is exact to 1/256 and the rounding stays under 1/128 of it.
 * Below 2^-53, 1 + tol == 1 and the grid never advanced (an endless loop). */
#define RL_MEN_TOLERANCE_MIN 0x1p-45
void rl_men_params_default(rl_men_params *p);

typedef struct rl_men_result {
  double len;               /* L */
  double base;              /* the base found (feasible) */
  double min_similarity;    /* min over r < L of B_r at base (exact angles) */
  double min_similarity_err;/* its error bound: the cosines' rounding and each
                               theta_k an ulp off carried to r (r sum theta_k 2^-52) */
  double argmin;            /* where */
  double previous_base;     /* the grid point below base (infeasible); 0 when
                               every grid point down to the first was feasible */
  double previous_first_fail; /* first r where B_r < 0 at previous_base; -1 if none */
  double previous_similarity; /* B_r there */
  double candidates;        /* bases tested */
  double full_scans;        /* of them, scanned over r (the rest failed at a
                               remembered r); a scan of an infeasible base
                               stops after the first chunk of rows holding
                               a negative B_r */
  double rechecks;          /* rows whose sign needed exact angles */
  double ambiguous;         /* rows with |B_r| within double rounding of 0
                               (decided by the sign of the exact sum) */
  double rows_scanned;      /* rows of B_r the scans computed */
  double witness_evals;     /* B_r computed at remembered r */
} rl_men_result;

/* base_L for each of n lengths (integers 1 <= L <= RL_POS_MAX + 1) on up
 * to threads threads (lengths taken longest first).  progress (may be
 * NULL) is called, serialised, with the number of lengths done.
 * RL_EINVAL with a line in err (RL_BOUND_ERR_MAX bytes, may be NULL) for
 * parameters it cannot take; RL_ERANGE when the start base is not
 * feasible. */
#define RL_BOUND_ERR_MAX RL_ERR_MAX
rl_status rl_men_bases(const rl_men_params *p, const double *len, size_t n, int threads,
                       void (*progress)(void *ctx, size_t done), void *ctx,
                       rl_men_result *out, char *err);

/* B_r >= 0 for every r < len with this schedule (plus its pass-through
 * pairs)?  *first_fail = the first r with B_r < 0, or len. */
rl_status rl_men_feasible(const rl_schedule *s, double len, double *first_fail);
/* B_r of this schedule (plus its pass-through pairs) at distance r, from
 * exact angles (the value the sign tests decide on). */
double rl_men_similarity(const rl_schedule *s, double r);

/* The power law base = a x^k fitted by least squares to (ln x, ln base),
 * as Men et al. fit Figure 1 (y = 0.0424 x^1.628, x the context length in
 * tokens).  n >= 2 points with x, y > 0 and two distinct x. */
rl_status rl_men_fit(const double *x, const double *y, size_t n, double *a, double *k);

/* Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation"
 * (arXiv:2310.05209, ICLR 2024; eq. 13 and Theorem 3, eq. 16a-d), with d
 * the rotated dimensions, base the pre-training base (their 10000):
 *   critical_dim   d_extra = 2 ceil((d/2) log_base(T_train / 2 pi)),
 *                  clamped to [0, d]
 *   critical_base  beta_0 = base^(log_{T_train/2pi}(T_tune/2pi))   (16a)
 *   extrapolation_limit  for a fine-tuning base beta:
 *                  2 pi beta^(d_extra/d) when beta > beta_0 (16b),
 *                  else T_tune (16c)
 *   critical_dim_tuned  d'_extra = 2 ceil((d/2) log_beta(T_tune/2pi)),
 *                  clamped, for beta <= beta_0 (16c; d_extra otherwise)
 *   beta1..3       2 T_tune/pi, T_tune/pi, T_tune/(2 pi): below them the
 *                  lowest pair turns a quarter, half, full period within
 *                  T_tune (16d; Theorem 1 with T_tune = T_train). */
typedef struct rl_liu_result {
  double critical_dim, critical_base, extrapolation_limit, critical_dim_tuned;
  double beta1, beta2, beta3;
} rl_liu_result;
/* RL_EINVAL unless rot even >= 2, base > 1, tune_base > 1,
 * train_len > 2 pi, tune_len >= train_len, all finite. */
rl_status rl_liu_bounds(size_t rot, double base, double train_len, double tune_len,
                        double tune_base, rl_liu_result *out);

/* Chen et al. 2023, "Extending Context Window of Large Language Models via
 * Positional Interpolation" (arXiv:2306.15595), Theorem 2.1, eq. 5-7:
 * |a(s) - a_linear(s)| <= d max|h_j| (s - s1)(s2 - s) / (8 ln c)
 * <= d max|h_j| / (32 ln c) between integers.  The constant 32 ln c
 * (294.73 for c = 10000) as a double: */
double rl_pi_interp_denominator(double base);
/* Their extrapolation quantity (eq. 8, Appendix B Figure 5):
 *   B(s)/d = (1/d) sum_{k=0}^{d/2-1} |A_{k+1}(s)|,
 *   A_k(s) = sum_{j<k} e^{i s theta_j},
 * for the rotated pairs of s (d = its rot), at s from a grid:
 * b_over_d[j] for grid row j (count rows from j0).  B(0)/d = (n+1)/4 with
 * n = d/2 pairs (16.25 for d = 128).  The schedule must be plain
 * (rl_schedule_is_plain); multipliers are left out. */
rl_status rl_pi_b_over_d(const rl_schedule *s, const rl_grid *g, size_t j0, size_t count,
                         double *sv, double *b_over_d);
/* Their ratio of the extrapolation bound (eq. 8, 2 max|h| B(s)) to the
 * interpolation bound (eq. 7, d max|h| / (32 ln c)):
 *   2 (B(s)/d) 32 ln c   (>= 2 * 294.73 ~ 600 where B(s) >= d). */
double rl_pi_ratio(double b_over_d, double base);
/* The interpolation bound from a schedule's own frequencies: the proof of
 * Theorem 2.1 before its RoPE-only step sum_j theta_j^2 ~ d / (4 ln c),
 * max|h| sum_j theta_j^2 / 8 (over the n rotated pairs).  The sum, of
 * theta + theta_lo, in long double: */
double rl_pi_sum_theta_sq(const rl_schedule *s);
/* The ratio against that bound, for schedules other than plain RoPE:
 *   2 B(s) / (sum theta^2 / 8) = 16 rot (B(s)/d) / sum theta^2
 * (B(s)/d as rl_pi_b_over_d gives it: B over rot). */
double rl_pi_ratio_theta(double b_over_d, size_t rot, double sum_theta_sq);

/* YaRN (Peng et al. 2023, arXiv:2309.00071, sec. 3.2; the code's
 * correction range, HF _find_correction_range, ggml
 * ggml_rope_yarn_corr_dims): the pair index where a pair turns b times
 * within L, cd(b) = rot ln(L / (2 pi b)) / (2 ln base); low = cd(beta_fast),
 * high = cd(beta_slow); rounded outward (floor, ceil) with truncate, then
 * clamped to [0, rot - 1]: *low_exact, *high_exact before rounding and
 * clamping, *low, *high as used.  Computed by the yarn schedule's own
 * code (src/core/schedules/yarn.c). */
rl_status rl_yarn_correction_range(size_t rot, double base, double train_len,
                                   double beta_fast, double beta_slow, int truncate,
                                   double *low_exact, double *high_exact, double *low,
                                   double *high);
/* YaRN's attention factor 0.1 ln s + 1 (1 for s <= 1), sec. 3.4 eq. 22. */
double rl_yarn_attention_factor(double factor);

/* The correction range and attention factor of the yarn schedule that
 * p (its dim, rot, base, factor, betas, truncate, mscale, variant) gives
 * for original length train_len.  err as rl_schedule_new. */
typedef struct rl_yarn_result {
  double low_exact, high_exact, low, high, attention_factor;
} rl_yarn_result;
rl_status rl_yarn_bounds(const rl_schedule_params *p, double train_len, rl_yarn_result *out,
                         char *err);

/* The bound checks of `ropelab check`, NULL-terminated. */
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

/* What a scheme's positional input is, for the unseen measure. */
enum {
  RL_INPUT_NONE = 0,     /* nope: none */
  RL_INPUT_ABSOLUTE = 1, /* the two positions (unseen: query position >= L) */
  RL_INPUT_RELATIVE = 2, /* the distance (unseen: >= L) */
  RL_INPUT_BUCKET = 3,   /* the bucket of the distance (unseen: no distance < L has it) */
  RL_INPUT_ANGLE = 4,    /* per rotary pair the angle (see rl_unseen_eval) */
  RL_INPUT_OFFSET2D = 5  /* rope2d: the (row, column) offset */
};
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
  RL_EX_SHIFT = 1u << 3
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
} rl_extrap_params;
void rl_extrap_params_default(rl_extrap_params *p);
/* The method's length parameters for an evaluation of lengths up to N
 * past L: train_len = L where the method takes it, factor = N / L where
 * it takes one and p->set lacks RL_SP_FACTOR. */
void rl_extrap_method_params(rl_schedule_params *p, size_t L, size_t N);
/* Whether a scheme of cfg must be rebuilt for every length (a method
 * whose schedule depends on the current length: dynamic, log-n). */
int rl_extrap_per_length(const char *scheme, const rl_scheme_cfg *cfg);

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

/* ------------------------------------------------------------------ */
/* modules with their own header (one per module, under src/ropelab/)  */
#include "ropelab/model.h"
#include "ropelab/train.h"

#ifdef __cplusplus
}
#endif
#endif
