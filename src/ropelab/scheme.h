/* scheme.h: positional schemes side by side behind one interface.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_SCHEME_H
#define ROPELAB_SCHEME_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "param.h"
#include "schedule.h"
#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

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
/* The head dimension and head count rl_scheme_alloc takes.  Schemes take
 * any dimension in range, odd ones too (a scheme without rotation pairs
 * nothing), so the scheme commands read --dim as an integer up to this
 * limit instead of the schedule's even one. */
#define RL_SCHEME_DIM_MAX 65536
#define RL_SCHEME_HEADS_MAX 4096

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

/* What a scheme's positional term depends on (the unseen measure asks). */
enum {
  RL_INPUT_NONE = 0,     /* nope: none */
  RL_INPUT_ABSOLUTE = 1, /* the two positions (unseen: query position >= L) */
  RL_INPUT_RELATIVE = 2, /* the distance (unseen: >= L) */
  RL_INPUT_BUCKET = 3,   /* the bucket of the distance (unseen: no distance < L has it) */
  RL_INPUT_ANGLE = 4,    /* per rotary pair the angle (see rl_unseen_eval) */
  RL_INPUT_OFFSET2D = 5  /* rope2d: the (row, column) offset */
};
/* The rule that buckets a scheme's distances. */
enum {
  RL_BUCKETS_NONE = 0,
  RL_BUCKETS_T5 = 1,      /* rl_t5_bucket of key - query */
  RL_BUCKETS_DEBERTA = 2, /* rl_deberta_bucket of query - key (none with 0 buckets) */
  RL_BUCKETS_TUPE = 3     /* rl_tupe_bucket of the two positions (its T5 bias) */
};
/* The tables of a scheme beyond rl_scheme_get_table (`ropelab params`). */
enum {
  RL_HAS_SLOPES = 1u << 0,  /* a slope per head (alibi) */
  RL_HAS_BUCKETS = 1u << 1, /* distances to buckets, its main view (t5, deberta) */
  RL_HAS_RELEMB = 1u << 2,  /* a relative embedding R_r (xl) */
  RL_HAS_FREQS = 1u << 3    /* sinusoids of a frequency schedule (rl_scheme_get_schedule) */
};

typedef struct rl_scheme_info {
  const char *name;     /* "rope", "t5", ... */
  const char *summary;  /* one line */
  const char *paper;    /* citation */
  const char *code;     /* reference code the implementation follows */
  const char *relpos;   /* sign convention of its relative position */
  unsigned flags;       /* RL_SCHEME_* */
  int input;            /* RL_INPUT_* */
  int buckets;          /* RL_BUCKETS_* */
  unsigned has;         /* RL_HAS_* */
} rl_scheme_info;

/* The schemes, terminated by an entry with name == NULL. */
const rl_scheme_info *rl_scheme_list(void);
/* The entry of name, or NULL. */
const rl_scheme_info *rl_scheme_find(const char *name);

/* Size of the message buffer of rl_scheme_alloc. */

/* Build scheme name for cfg.  RL_EINVAL for an unknown name or a cfg it
 * cannot take, RL_EIO / RL_EFORMAT for an unreadable / malformed
 * cfg->param_file.  On failure err (RL_ERR_MAX bytes, may be
 * NULL) holds one lowercase line, problem first, value quoted. */
rl_status rl_scheme_alloc(const char *name, const rl_scheme_cfg *cfg,
                          rl_scheme **out, char *err);
void rl_scheme_free(rl_scheme *s);
const rl_scheme_info *rl_scheme_get_info(const rl_scheme *s);
/* The configuration as used (param_file's table may set max_len). */
const rl_scheme_cfg *rl_scheme_get_cfg(const rl_scheme *s);
/* The positional parameters s has in place of trained ones (those its
 * paper learns: learned, t5, deberta, xl, tupe), drawn from cfg.seed as
 * listed above, in one line ("bucket biases (buckets x heads) ~ N(0,
 * 1/d)"); those a cfg.param_file table leaves drawn; NULL when none is
 * drawn. */
const char *rl_scheme_drawn(const rl_scheme *s);
/* What the schemes s[0..n) draw instead of training, in one line for a
 * table's metadata and a figure: "random draws from seed 1, not trained:
 * t5: bucket biases ...; xl: ..." (a table read from cfg.param_file named as such), or
 * "" when none of them draws any.  Returns the length it wanted (as
 * snprintf); buf is always terminated. */
size_t rl_scheme_drawn_note(rl_scheme *const *s, size_t n, char *buf, size_t size);

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
/* That count as a formula ("len*d", "buckets*H"; "0" for none), from the
 * scheme's declaration. */
const char *rl_scheme_param_formula(const rl_scheme *s);

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

/* `ropelab params`: which of a scheme's tables to list, over which
 * distances, declared once (param.h); rl_params_plan resolves the
 * defaults that depend on the scheme and checks the range. */
enum {
  RL_PARAMS_DEFAULT = 0, /* the first the scheme has: slopes, buckets, freqs, table */
  RL_PARAMS_SLOPES = 1,  /* alibi: head,slope */
  RL_PARAMS_BUCKETS = 2, /* t5, deberta: each distance's bucket; tupe: each pair's */
  RL_PARAMS_TABLE = 3,   /* the learned table in its --params file format */
  RL_PARAMS_FREQS = 4,   /* sinusoidal, xl, rope, rope2d: pair,theta,wavelength */
  RL_PARAMS_RELEMB = 5   /* xl: Transformer-XL's relative embedding R_r */
};
enum { RL_PARAMS_SET_FROM = 1u << 0, RL_PARAMS_SET_TO = 1u << 1 };
typedef struct rl_params_settings {
  int what;      /* RL_PARAMS_* */
  long from, to; /* the distances (positions for tupe's buckets), integers of magnitude <= 1e15 */
  unsigned set;  /* RL_PARAMS_SET_*: from, to given (their defaults depend on the scheme) */
} rl_params_settings;
const rl_param *const *rl_params_param_list(void); /* NULL-terminated */
/* s's defaults for scheme si under cfg (what: the first table si has;
 * from, to where not given: -2 max_distance .. 2 max_distance for t5,
 * -2 max_relative_positions .. for deberta, -16..16 for relemb, 0..16
 * for tupe's pairs), then the checks: a table si has, a range only for
 * buckets and relemb, from <= to, at most 1e8 distances (4096 tupe
 * positions, 1e6 relemb).  RL_EINVAL with err.  note (n bytes, or NULL)
 * gets a remark for stderr, or "": t5's causal rule masks every key
 * after the query, so a range of those alone is all bucket 0. */
rl_status rl_params_plan(const rl_scheme_info *si, const rl_scheme_cfg *cfg, rl_params_settings *s,
                         char *err, size_t n, char *note, size_t nn);
/* How alibi's heads take their slopes (the metadata line slopes=): "from
 * --params", Press et al.'s 2^(-8h/H), or where H is no power of two
 * which heads take which slopes. */
void rl_alibi_slopes_rule(size_t heads, int from_file, char *buf, size_t n);
/* The rel_embeddings row DeBERTa uses for a bucket: clamp(bucket + k, 0,
 * 2k - 1), k = position_buckets or else max_relative_positions. */
double rl_deberta_row(const rl_scheme_cfg *cfg, long bucket);

/* The scheme properties of `ropelab check`, NULL-terminated. */
extern const rl_check rl_checks_schemes[];

#ifdef __cplusplus
}
#endif
#endif
