/* model_impl.h: what the readers of src/core/model share (private to the
 * module): the model file as the methods' declarations see it
 * (rl_model_src, declared in base/internal.h).  Each reader (json.c,
 * gguf.c) fills the operations for its format; model.c forms the public
 * calls from them and finds the method a file names in the registry. */
#ifndef RL_MODEL_IMPL_H
#define RL_MODEL_IMPL_H
#include <stddef.h>
#include "ropelab.h"
#include "../base/internal.h"

typedef struct rl_model_src_ops {
  rl_status (*number)(rl_model_src *s, const char *key, int where, double *v, int *found);
  rl_status (*count)(rl_model_src *s, const char *key, int where, double *v);
  rl_status (*list)(rl_model_src *s, const char *key, int where, const rl_param *d,
                    size_t want, double **v);
  rl_status (*ints)(rl_model_src *s, const char *key, int where, size_t n, long lo, long hi,
                    const char *expect, long *v);
  rl_status (*put)(rl_model_src *s, const char *param, const char *text, const char *source);
  rl_status (*put_num)(rl_model_src *s, const char *param, double v, const char *source);
  rl_status (*put_key)(rl_model_src *s, const char *param, const char *key, int where,
                       int required);
  /* the key's full name into s->name */
  void (*name)(rl_model_src *s, const char *key, int where);
  rl_status (*missing)(rl_model_src *s, const char *key, int where, const char *expect);
  /* the message's tail is formed already */
  rl_status (*bad)(rl_model_src *s, const char *key, int where, const char *tail);
  rl_status (*tensor)(rl_model_src *s, const char *name, int *found);
  rl_status (*tensor_read)(rl_model_src *s, const char *name, const rl_param *d, size_t want,
                           double **v, size_t *n);
  rl_status (*tensor_bad)(rl_model_src *s, const char *name, const char *tail);
} rl_model_src_ops;

struct rl_model_src {
  const rl_model_src_ops *ops;
  void *reader;                   /* the format's own state */
  rl_model_rope *m;
  const char *kind;               /* the method as the file names it, or NULL */
  const rl_schedule_type *named;  /* the method of that name, or NULL */
  size_t rot;                     /* the rotated width read, or 0 */
  const char *method_source;      /* a claims hook's source of the method, or NULL */
  char name[400];                 /* rl_model_src_name's text */
};

/* The declaration of format gguf (else config.json) of t, or NULL. */
const rl_model_decl *rl_model_decl_of(const rl_schedule_type *t, int gguf);
/* The method a file of the format names name (len bytes), or NULL. */
const rl_schedule_type *rl_model_method_named(int gguf, const char *name, size_t len);
/* The method with flag (RL_MN_*) in the format's declarations, or NULL. */
const rl_schedule_type *rl_model_method_flagged(int gguf, unsigned flag);
/* "a, b or c": every name the format gives a method, registry order. */
void rl_model_method_names(int gguf, char *buf, size_t n);

#endif
