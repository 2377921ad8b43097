/* pos_impl.h (internal to src/core/train): a positional scheme of the
 * trainer as a type object, one per scheme (pos_abs.c, pos_bias.c,
 * pos_rel.c, pos_rope.c), listed in pos.c, the registry (GSL's solver
 * types: {name, hooks} chosen at run time; the defaults its own, as
 * dav1d's library owns its settings).
 *
 * What the kernels (model_chunk.h) test per element or per layer are
 * the properties below (embed, bias, rel, rotate, content_div), never a
 * scheme: a new scheme that reuses a mechanism sets its properties; one
 * with a new mechanism adds a property and its kernel.  The rest are
 * hooks called once per model or per chunk. */
#ifndef RL_TRAIN_POS_IMPL_H
#define RL_TRAIN_POS_IMPL_H

#include <stddef.h>
#include "model_impl.h"
#include "ropelab.h"

/* what is added to the token embedding */
enum { RL_TPE_NONE, RL_TPE_FIXED /* m->pe, made by init */, RL_TPE_LEARNED /* P_WPE */ };
/* the per-thread [H][T][T] bias on the logits */
enum {
  RL_TPB_NONE,
  RL_TPB_SLOPES,  /* -slope_h (i - j), m->slopes (alibi) */
  RL_TPB_BUCKETS, /* a learned bias per head and bucket, P_T5 */
  RL_TPB_ABSPAIR  /* (U_q pbar_i).(U_k pbar_j): P_TUPE, P_TUPEQ, P_TUPEK */
};
/* the relative terms between q, k and a table of relative rows */
enum {
  RL_TPR_NONE,
  RL_TPR_SINUSOID, /* W_r R_{i-j}, R fixed (m->xlR), u and v: P_XLW, P_XLU, P_XLV */
  RL_TPR_TABLE     /* the layer's q, k projections of a learned table, P_DEB */
};
/* which of the schedule options the scheme takes */
enum { RL_TPS_NONE, RL_TPS_BASE /* --base: cfg.base */, RL_TPS_ALL /* a rope schedule */ };

typedef struct rl_tpos {
  const char *name; /* the scheme registry's name (rl_scheme_find) */
  /* ---- what the kernels test */
  unsigned char embed, bias, rel;
  unsigned char rotate;      /* q, k turned by a schedule's table (rl_train_set_rope) */
  unsigned char content_div; /* the content logit over sqrt(content_div hd) */
  /* ---- the model */
  /* its own parameter tensors' sizes into ps (the others are 0 there) */
  void (*param_sizes)(const rl_train_cfg *c, size_t ps[P_COUNT]);
  /* RL_EINVAL with err (RL_ERR_MAX) for a configuration it cannot take, or NULL */
  rl_status (*check)(const rl_train_cfg *c, char *err);
  /* the fixed tables (pe, slopes, xlR: rl_tm_table), after the parameters
   * are drawn; the model is freed by the caller on failure; or NULL */
  rl_status (*init)(rl_train_model *m, char *err);
  /* rel: the table's rows (nrel), and the row of distance r < max_T */
  size_t (*rel_rows)(const rl_train_cfg *c);
  size_t (*rel_row)(const rl_train_cfg *c, size_t r, size_t nrel);
  /* the logit added at distance dist for head h (rl_train_pos_bias), or
   * NULL; measure: what it is, for the metadata */
  double (*pos_bias)(const rl_train_model *m, size_t h, size_t dist);
  const char *bias_measure;
  /* ---- the run */
  unsigned char sched;      /* RL_TPS_* */
  unsigned char fixed_rows; /* a position table of max_T rows: no longer lengths */
  rl_train_recipe recipe;   /* recipe.c: the defaults measured to learn */
} rl_tpos;

/* The registry's entry of scheme index pos (< rl_train_pos_count()). */
const rl_tpos *rl_tpos_at(int pos);
/* n zeroed doubles counted in the model's bytes (model.c); *oom set on failure */
double *rl_tm_table(rl_train_model *m, size_t n, int *oom);

/* The registry: one line per scheme, in the order of the names (help,
 * --scheme, the recipes); pos.c builds the table from it.  The index of
 * a scheme, RL_TRAIN_POS_IDX_name, is for its default (settings.c) only:
 * code asks the declaration (rl_tpos_at), never compares an index. */
#define RL_TRAIN_POS_LIST(X) \
  X(nope) X(sinusoidal) X(learned) X(t5) X(alibi) X(rope) X(xl) X(deberta) X(tupe) \
  RL_TRAIN_POS_TEST(X)
#ifdef RL_TEST_TPOS /* the test build's scheme (tests/train/newscheme) */
#define RL_TRAIN_POS_TEST(X) X(integer)
#else
#define RL_TRAIN_POS_TEST(X)
#endif

#define RL_TRAIN_POS_DECL(n) extern const rl_tpos rl_tpos_##n;
RL_TRAIN_POS_LIST(RL_TRAIN_POS_DECL)
#undef RL_TRAIN_POS_DECL
/* RL_TRAIN_POS_N for pos.c alone: the test build compiles only pos.c with
 * its extra line, so every other file asks rl_train_pos_count() */
#define RL_TRAIN_POS_IDX(n) RL_TRAIN_POS_IDX_##n,
enum { RL_TRAIN_POS_LIST(RL_TRAIN_POS_IDX) RL_TRAIN_POS_N };
#undef RL_TRAIN_POS_IDX
#endif
