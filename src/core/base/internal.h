/* internal.h: what several modules of the core share that the public API
 * (ropelab.h) does not offer: the one internal header a module may include
 * from outside its own folder.  Each module's own private header
 * (schedules/schedule_impl.h, schemes/scheme_impl.h, ...) stays inside its
 * folder; tests/layout/private_headers.sh checks that no other module
 * reaches one.  Where a declaration's code lives is said beside it. */
#ifndef RL_CORE_INTERNAL_H
#define RL_CORE_INTERNAL_H
#include <stddef.h>
#include <stdlib.h>
#include "ropelab.h"

/* ---- messages (base/errf.c) */

/* Formats into err[0..n-1] when err is not NULL and n > 0; returns st,
 * so that a failure is one statement: return rl_errf(RL_EFORMAT, ...). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
rl_status rl_errf(rl_status st, char *err, size_t n, const char *fmt, ...);
/* A user's text as a message quotes it: whole up to RL_CUT_MAX bytes, else
 * its start (not splitting a UTF-8 character), "..." and its length, so
 * that the message around it stays whole (a 2,000-byte CSV field no
 * longer pushes "expected ..." past the message buffer).  Returns buf. */
#define RL_CUT_MAX 64
#define RL_CUT_BUF (RL_CUT_MAX + 40)
const char *rl_cut(const char *s, char *buf, size_t n);

/* ---- arrays for the vector loops (measures/decay.c, bounds/men_scan.c) */

/* count doubles, 64-byte aligned (a cache line, an AVX-512 vector); the
 * size rounded up to a multiple of the alignment, as C11's aligned_alloc
 * asks.  Freed with free(). */
static inline double *rl_dalloc(size_t count)
{
  size_t bytes = (count * sizeof(double) + 63) / 64 * 64;
  return aligned_alloc(64, bytes ? bytes : 64);
}

/* ---- the strict CSV reader (io/csv.c) of the small numeric files a user
 * hands the core (schedule frequencies, LongRoPE factors, scheme tables).
 * Lines starting with '#' are comments (one "# key=value" line may be
 * captured); the first other line is the header; every later line holds
 * one field per header column; the columns asked for hold finite numbers,
 * read in the C locale (the others may hold text).  Errors name
 * FILE:LINE, the problem and what was expected. */

#define RL_CSV_MAX_BYTES (64u << 20) /* a schedule file is kilobytes */

typedef struct rl_csv_table {
  size_t rows, ncols;
  double *data;        /* rows x ncols, column k = want[k] (malloc'ed) */
  int *present;        /* ncols flags: whether column k was in the header */
  double meta;         /* value of "# <meta_key>=..." */
  int has_meta;
} rl_csv_table;

/* Read the columns named in want (want[k] may be absent from the header
 * when bit k of optional is set).  RL_EIO when the file cannot be read,
 * RL_EFORMAT when it is malformed; err (errsize bytes) then says why. */
rl_status rl_csv_read(const char *path, const char *const *want, size_t ncols,
                      unsigned optional, const char *meta_key, rl_csv_table *t, char *err,
                      size_t errsize);
void rl_csv_free(rl_csv_table *t);

/* ---- a schedule owns its pipeline's private state (s->pipe, struct
 * rl_pipe, which only the files of precision/ read) and frees it with
 * itself (precision/registry.c); NULL is a no-op. */
struct rl_pipe;
void rl_pipe_free(struct rl_pipe *p);

/* ---- RoPE's own theta_k (k < rot/2) at base, the same doubles as
 * rl_schedule_new's for method rope at exact precision, without building
 * a schedule, for the many bases of a search (schedules/schedule.c; used
 * by bounds/men.c). */
void rl_sched_plain_theta(double base, size_t rot, double *theta);

/* ---- what a method's file declares beyond its parameters: how model
 * files name it (model/: json.c, gguf.c read through these) and how the
 * frameworks compute it in float32 (precision/: hf.c, ggml.c call these).
 * The types are in ropelab/schedule.h (rl_schedule_type.hf, .gguf, .fw). */

/* A model file being read, as a method's hook sees it (model/model.c). */
typedef struct rl_model_src rl_model_src;

/* One key of a model file and the schedule parameter it sets. */
typedef struct rl_model_key {
  const char *key;   /* config.json: a key of rope_scaling (rope_parameters);
                        GGUF: the key after "<arch>." */
  const char *param; /* the declaration it sets ("beta-fast"), or NULL: the
                        method's read hook reads it */
  unsigned flags;    /* RL_MK_* */
} rl_model_key;
enum {
  RL_MK_REQUIRED = 1u << 0,  /* a file without it is refused */
  RL_MK_ZERO_UNSET = 1u << 1,/* a zero reads as not given (transformers'
                                "beta_fast or 32") */
  RL_MK_BOOL = 1u << 2       /* true or false, read as yes or no */
};

typedef struct rl_model_decl rl_model_decl;
struct rl_model_decl {
  const char *const *names;  /* what the format calls the method, NULL-terminated */
  const rl_model_key *keys;  /* {NULL}-terminated, or NULL */
  /* what the keys do not say (lengths read elsewhere, lists, notes), run
   * after the method is recorded (GGUF: before the shared factor and
   * lengths, config.json: after its keys); or NULL */
  rl_status (*read)(rl_model_src *src);
  /* GGUF: the file is this method's whatever its type key says (LongRoPE's
   * factor tensors): *mine = 1, or 0; or NULL */
  rl_status (*claims)(rl_model_src *src, int *mine);
  unsigned flags;            /* RL_MN_* */
  /* RL_MN_DEFAULT: what the file's reader calls the method it picks for a
   * file that names none ("linear (position interpolation)") */
  const char *note;
};
enum {
  RL_MN_DEFAULT = 1u << 0,   /* the method of a file that names none (config.json:
                                no rope_type is "default"; GGUF: llama.cpp reads
                                no rope.scaling.type as linear) */
  RL_MN_SCALED = 1u << 1,    /* only with a factor above 1; with none or 1 the file
                                is the RL_MN_UNSCALED method (llama.cpp) */
  RL_MN_UNSCALED = 1u << 2,  /* the method of a file without scaling */
  RL_MN_OWN_FACTOR = 1u << 3 /* GGUF: its read hook sets the factor (the shared
                                rope.scaling.factor key is not read for it) */
};

/* Where a key is: the method's section (config.json's rope_scaling or
 * rope_parameters; GGUF: after "<arch>."), or the file's top level. */
enum { RL_MS_SCALING = 0, RL_MS_TOP = 1 };
/* The method as the file names it (its rope_type, rope.scaling.type), or
 * NULL when it names none; the type the file names, or NULL. */
const char *rl_model_src_kind(const rl_model_src *s);
const rl_schedule_type *rl_model_src_named(const rl_model_src *s);
/* What is read so far (its LongRoPE lists, context length). */
rl_model_rope *rl_model_src_rope(rl_model_src *s);
/* The rotated width as read, 0 when the file does not say. */
size_t rl_model_src_rot(const rl_model_src *s);
/* The key's name as messages and sources write it ("rope_scaling.factor",
 * "max_position_embeddings", "llama.rope.scaling.factor"); the text stays
 * valid until the next call. */
const char *rl_model_src_name(rl_model_src *s, const char *key, int where);
/* A finite number at key: *found 0 when the key is absent or null. */
rl_status rl_model_src_number(rl_model_src *s, const char *key, int where, double *v,
                              int *found);
/* A positive integer at key (4096.0 read as 4096), or *v = 0 when absent. */
rl_status rl_model_src_count(rl_model_src *s, const char *key, int where, double *v);
/* A list of want numbers (one per rotary pair) at key, each within the
 * bounds of the declaration d (its message names the key and the item),
 * into a new array; absent is refused. */
rl_status rl_model_src_list(rl_model_src *s, const char *key, int where, const rl_param *d,
                            size_t want, double **v);
/* n integers from lo to hi at key; anything else (absent included) is
 * refused, expecting expect. */
rl_status rl_model_src_ints(rl_model_src *s, const char *key, int where, size_t n, long lo,
                            long hi, const char *expect, long *v);
/* A setting for the schedule: param's text from source, checked by its
 * declaration where the format does (config.json). */
rl_status rl_model_src_put(rl_model_src *s, const char *param, const char *text,
                           const char *source);
rl_status rl_model_src_put_num(rl_model_src *s, const char *param, double v,
                               const char *source);
/* The number at key into param, the key as its source; absent: refused
 * when required (expecting a number), else nothing. */
rl_status rl_model_src_put_key(rl_model_src *s, const char *param, const char *key, int where,
                               int required);
/* One sentence where the frameworks read the file differently. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
rl_status rl_model_src_note(rl_model_src *s, const char *fmt, ...);
/* RL_EFORMAT with the message: "missing KEY in config 'P': expected E"
 * (GGUF: "'P' at offset 0: no key 'KEY': expected E"). */
rl_status rl_model_src_missing(rl_model_src *s, const char *key, int where, const char *expect);
/* RL_EFORMAT with "invalid KEY 'VALUE' in config 'P': " and the rest
 * (GGUF: "'P' at offset N: " and the rest, N the key's offset). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
rl_status rl_model_src_bad(rl_model_src *s, const char *key, int where, const char *fmt, ...);
/* GGUF tensors (name or name.weight): *found; and its float32 values, one
 * per rotary pair when want > 0, each within the bounds of the
 * declaration d, into a new array. */
rl_status rl_model_src_tensor(rl_model_src *s, const char *name, int *found);
rl_status rl_model_src_tensor_read(rl_model_src *s, const char *name, const rl_param *d,
                                   size_t want, double **v, size_t *n);
/* RL_EFORMAT: "'P' at offset N: " and the rest, N the tensor's offset. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
rl_status rl_model_src_tensor_bad(rl_model_src *s, const char *name, const char *fmt, ...);
/* The method's source in the metadata, where it is not the type key. */
void rl_model_src_method_source(rl_model_src *s, const char *source);

/* The frameworks' float32 steps of a method (rl_schedule_type.fw). */
typedef struct rl_torch {
  size_t rot;
  int vllm;            /* vLLM's formulas, else transformers' */
  double base;         /* the base the default inv_freq is computed at (the
                          schedule's effective base); torch_init may change it */
  float pos_div;       /* positions divided by this (1; vLLM linear: s) */
  double aux[2];       /* the hook's own numbers (yarn: its correction range) */
  /* base ** (f32(2i) / f32(rot)) as ATen's pow kernel computes pair i
   * under this pipeline (SLEEF or glibc) */
  float (*pow)(const struct rl_torch *t, double base, size_t i);
  /* the default: inv times pair i's exact ratio rounded to float32 */
  float (*by_ratio)(const rl_schedule *s, size_t i, float inv);
  int sleef;           /* the pipeline's, for pow */
} rl_torch;
typedef struct rl_ggml {
  size_t rot;
  float freq_scale;    /* 1, or 1/s (linear, yarn) */
  float ext_factor;    /* 0, or 1 (yarn) */
  float corr[2];       /* yarn's correction dims */
} rl_ggml;
typedef struct rl_sched_fw rl_sched_fw;
struct rl_sched_fw {
  /* transformers / vLLM: before the pairs (may refuse with err, change
   * t->base and t->pos_div, keep aux); then pair i from the default
   * inv = 1 / pow(t->base, i); NULL torch_theta: inv times the exact ratio */
  rl_status (*torch_init)(const rl_schedule *s, rl_torch *t, char *err);
  float (*torch_theta)(const rl_schedule *s, const rl_torch *t, size_t i, float inv);
  /* ggml: the scale and YaRN's ramp llama.cpp passes (no divisor table);
   * or NULL, and then a divisor per pair where the method changes the
   * frequencies: ggml_divisor's (from transformers' float32 inv_freq of
   * pair i, as llama.cpp's converter computes it), else 1/ratio */
  void (*ggml_init)(const rl_schedule *s, rl_ggml *g);
  float (*ggml_divisor)(const rl_schedule *s, size_t i, float inv);
};

#endif
