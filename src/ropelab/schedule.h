/* schedule.h: frequency schedules (rl_schedule): the theta_i of every RoPE method.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_SCHEDULE_H
#define ROPELAB_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "param.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* Bits of the parameters every method may share (declared in
 * schedule.c): which ones a type takes (uses), which it requires (needs),
 * and (params.set) which the caller gave, so that a parameter the method
 * does not use is an error, not silently ignored.  A method's own
 * parameters have no bit: their declarations in its file say that it
 * takes them (rl_schedule_type.params), and rl_schedule_param_given says
 * whether they were given. */
enum {
  RL_SP_FACTOR = 1u << 0,
  RL_SP_TRAIN_LEN = 1u << 1,
  RL_SP_SEQ_LEN = 1u << 2,
  RL_SP_VARIANT = 1u << 3,
  RL_SP_ATTN = 1u << 4       /* attention_factor given explicitly */
};

/* A method's own parameter lives in a slot of rl_schedule_params.own,
 * named by its declaration (.offset = RL_SP_OWN(k)), in the member its
 * kind stores: x (REAL), i (ENUM, FLAG), z[0] (SIZE, EVEN), s (TEXT: a
 * file name, the caller's string), v (a list of numbers in memory, the
 * caller's array); a CUSTOM declaration may use all of z (mrope's three
 * sections).  The slots are the one way a method's parameter is held, so
 * a new method needs no field here; they are shared between methods (the
 * chosen method's own defaults are filled in by rl_schedule_new), and
 * every write goes through the setters below, which record it as given. */
typedef union rl_sp_slot {
  double x;
  int i;
  size_t z[3];
  const char *s;
  const double *v;
} rl_sp_slot;

#define RL_SP_OWN_MAX 8      /* slots: the most parameters one method has */
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
  double attention_factor; /* 0 = the method's own (0) */
  unsigned set;          /* RL_SP_* given explicitly by the caller */
  const struct rl_precision *precision; /* pipeline (see "precision"); NULL = exact */
  rl_sp_slot own[RL_SP_OWN_MAX]; /* the chosen method's own parameters */
  /* which declared parameters were given, by their index in
   * rl_schedule_param_list (rl_schedule_param_mark) */
  unsigned char given[RL_SP_PARAMS_MAX / 8];
} rl_schedule_params;
#define RL_SP_OWN(k) (offsetof(rl_schedule_params, own) + (size_t)(k) * sizeof(rl_sp_slot))

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

/* What a method is and does: see src/core/schedules/schedule_impl.h.
 * Everything ropelab knows about a method is here, in its own file: its
 * parameters, how the frameworks compute it in float32, and what model
 * files call it (so that no other file names a method). */
struct rl_sched_fw;     /* the frameworks' float32 steps (core-internal) */
struct rl_model_decl;   /* how a model file names it (core-internal) */
struct rl_schedule_type {
  const char *name, *summary, *paper, *code;
  unsigned uses;         /* RL_SP_* of the shared parameters it takes */
  unsigned needs;        /* RL_SP_* of those it requires */
  unsigned variants;     /* 1 << RL_VARIANT_* it has (0: one formula) */
  unsigned flags;        /* RL_ST_* */
  size_t min_pairs;      /* the fewest rotated pairs it is defined for (0: 1) */
  rl_status (*init)(rl_schedule *s, char *err);
  /* relative position as the method uses it (rerope); NULL: identity */
  double (*relpos)(const rl_schedule *s, double r);
  /* the query scale at length len (log-n); NULL: 1 */
  double (*qscale)(const rl_schedule *s, double len);
  /* the parameters only this method declares (in its own file), NULL-
   * terminated, or NULL; those it shares with others are declared in
   * schedule.c and named by the bits of uses */
  const rl_param *const *params;
  /* How a framework computes it in its own float32 steps (the precision
   * pipelines: transformers' and vLLM's tensor formulas, ggml's
   * rope_yarn), or NULL: the plain frequencies times the method's exact
   * ratio (ggml: a per-pair rope_freqs divisor table), so a new method
   * needs none unless a framework has a code path of its own for it. */
  const struct rl_sched_fw *fw;
  /* The names and keys a Hugging Face config.json (rope_scaling's
   * rope_type) and a GGUF file (<arch>.rope.scaling.type) give it, and how
   * their keys map to its parameters; NULL: no such file names it. */
  const struct rl_model_decl *hf, *gguf;
};
/* Facts about a method that measures and checks ask (flags). */
enum {
  RL_ST_PLAIN_THETA = 1u << 0, /* its frequencies are RoFormer's base^(-2i/r),
                                  whatever its other parameters */
  RL_ST_NOT_BASE = 1u << 1,    /* its frequencies are not set by the base */
  RL_ST_USER_DATA = 1u << 2    /* it needs data only a user has (a file of
                                  factors or frequencies, sections): a
                                  comparison of every method leaves it out */,
  /* what the audit's identification fits a table to, found by these facts
     rather than by name (audit/identify.c) */
  RL_ST_DIVIDED = 1u << 3,     /* every frequency divided by the factor s */
  RL_ST_LARGER_BASE = 1u << 4  /* RoFormer's frequencies at a base raised
                                  by the factor, fixed (not by length) */
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

/* Every write of a schedule parameter goes through these setters (or
 * the option parser, which is rl_param_parse then rl_schedule_param_mark):
 * the value is stored where the declaration of key says and recorded as
 * given.  RL_EINVAL when key names no schedule parameter or the value does
 * not suit its kind (set: REAL, SIZE, EVEN, ENUM as the name's index,
 * FLAG; set_text: the option's text, err then says what is expected;
 * set_list: a list held in memory, the caller's array, not copied).
 * Bounds are checked where the schedule is built (rl_schedule_new). */
rl_status rl_schedule_set(rl_schedule_params *p, const char *key, double x);
rl_status rl_schedule_set_text(rl_schedule_params *p, const char *key, const char *text,
                               char *err, size_t n);
rl_status rl_schedule_set_list(rl_schedule_params *p, const char *key, const double *v);
/* Forget that key was given (the method's default applies again). */
void rl_schedule_unset(rl_schedule_params *p, const char *key);
/* The number key holds in p (REAL; SIZE, EVEN, ENUM, FLAG as integers);
 * a method's own parameter not given reads as its default.  NaN when key
 * names no such parameter. */
double rl_schedule_get(const rl_schedule_params *p, const char *key);
/* A list held in memory (set_list), or NULL. */
const double *rl_schedule_get_list(const rl_schedule_params *p, const char *key);

/* Build a schedule.  RL_EINVAL for parameters the method cannot take
 * (err, RL_ERR_MAX bytes or NULL, then holds one lowercase line
 * naming the parameter, the value and what is expected); RL_EIO /
 * RL_EFORMAT for an unreadable / malformed file. */
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
/* The same for every pair, into ratio[s->n] (same bits): RoFormer's theta
 * by products checked against their error bound, not a binary128 log2 and
 * exp2 per pair (2^19 pairs at d = 2^20).  RL_OK. */
rl_status rl_schedule_ratios(const rl_schedule *s, double *ratio);
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

#ifdef __cplusplus
}
#endif
#endif
