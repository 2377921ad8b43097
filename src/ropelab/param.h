/* param.h: parameter declarations: one descriptor per parameter, from which the CLI builds options, help, metadata and sweeps.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_PARAM_H
#define ROPELAB_PARAM_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

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
  RL_PF_NO_OPTION = 1u << 11,  /* a metadata line only (a field several
                                  options set, such as --causal and
                                  --bidirectional's t5_direction) */
  RL_PF_REQUIRED = 1u << 12,   /* a method's own: the method needs it given */
  RL_PF_BORROWED = 1u << 13    /* the value is the caller's pointer (a file
                                  name, a list in memory): read when the
                                  object is built, not kept in it */
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
  /* the names that take it, space-separated, or NULL: every one (schemes
   * for a scheme's parameter, bounds for a bound's, measures for
   * extrapolate's) */
  const char *only;
  /* "KEY=NAME": it applies only where the parameter KEY of the same list
   * has the value NAME (yarn's truncate with ramp=code), or NULL; the
   * check refuses it elsewhere, the metadata leaves it out and a sweep
   * leaves its cell empty */
  const char *when;
};

/* d->when holds for obj, whose parameters are list (NULL-terminated);
 * also true without a condition.  Where it does not hold, *key and
 * *val (if not NULL) name the condition's parameter and obj's value of
 * it, val into vbuf of n bytes. */
int rl_param_when_holds(const rl_param *d, const rl_param *const *list, const void *obj,
                        const rl_param **key, char *vbuf, size_t n);
/* The condition's parameter in list and its value: 1, or 0 without one. */
int rl_param_when_split(const rl_param *d, const rl_param *const *list,
                        const rl_param **key, const char **value);

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
/* The one message for a name that is none of names, into err: "invalid
 * OPT 'ARG': did you mean 'x'?", or "...: expected a, b or c" (the whole
 * list, however long), or "empty name"; word is the bad item of a list
 * ARG ("unknown 'WORD'"), or ARG itself.  RL_EINVAL (RL_ENOMEM when the
 * list cannot be formed). */
rl_status rl_names_error(const char *opt, const char *arg, const char *word,
                         const char *const *names, size_t n, char *err, size_t len);
/* The comma-separated names of arg ("bound,mc") as indexes into
 * names[0..n), in the order given: idx[0..*count), at most max.  RL_OK, or
 * RL_EINVAL with err: a word that is none of names (rl_names_error's
 * message for opt), "invalid OPT 'ARG': 'W' given twice", "invalid OPT
 * 'ARG': more than MAX items"; RL_ENOMEM when the message cannot be
 * formed.  (base/names_list.c: the one reader of such lists, the core's
 * and the CLI's.) */
rl_status rl_names_list(const char *opt, const char *arg, const char *const *names, size_t n,
                        int *idx, size_t max, size_t *count, char *err, size_t nerr);

#ifdef __cplusplus
}
#endif
#endif
