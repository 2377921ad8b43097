/* scheme_impl.h: the inside of rl_scheme, shared by the scheme files
 * (private to the core).
 *
 * A scheme is an ops table plus the parameters it drew or read.  The
 * generic code (scheme.c) checks arguments and positions, draws the
 * common W_q, W_k and dispatches; each family file fills the ops. */
#ifndef RL_SCHEME_IMPL_H
#define RL_SCHEME_IMPL_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"

/* What one head owns, built on its first use (rl_sch_head_ready) from
 * its own random stream: a command that shows one head of a d = 4096
 * model draws d^2 numbers, not H d^2. */
typedef struct rl_sch_head {
  double *wq, *wk;  /* d x d, row-major: (W x)_r = sum_c W[r d + c] x_c;
                       NULL with cfg.identity */
  double *m;        /* the scheme's own: xl W_r (d x d); tupe U_q, U_k */
  double *v;        /* xl W_r^T v (d); tupe theta_cls->others, theta_others->cls */
} rl_sch_head;

typedef struct rl_scheme_ops {
  rl_scheme_info info;
  /* the parameters every head shares, from the scheme's stream (seeded
   * with cfg.seed); may read cfg.param_file; err as rl_scheme_alloc */
  rl_status (*init)(rl_scheme *s, gsl_rng *rng, char *err);
  /* head h's own parameters, after its W_q, W_k from the head's stream
   * (rng continues it); or NULL */
  rl_status (*head_init)(const rl_scheme *s, size_t h, rl_sch_head *hd, gsl_rng *rng);
  /* out = the prepared vector of content x at position pos[0..1] */
  rl_status (*prep)(const rl_scheme *s, size_t head, int role, const double *pos,
                    const double *x, double *out);
  /* the terms from prepared vectors; pi, pj as given to prep */
  rl_status (*pair)(const rl_scheme *s, size_t head, const double *pi,
                    const double *pj, const double *pq, const double *pk,
                    rl_logit_terms *t);
  rl_status (*encode)(const rl_scheme *s, double pos, double *out); /* or NULL */
  size_t (*count)(const rl_scheme *s, size_t len);
  size_t prep_mult; /* prepared length = prep_mult * d */
  /* A prepared key as two steps (rl_scheme_key_state, ropelab/scheme_key.h):
   * key_state writes what depends on the position alone (key_state_len
   * doubles; 0 or NULL: no split), key_from builds from it and the content
   * the same bytes as prep(RL_ROLE_KEY) */
  size_t (*key_state_len)(const rl_scheme *s);
  rl_status (*key_state)(const rl_scheme *s, size_t head, const double *pos, double *st);
  void (*key_from)(const rl_scheme *s, size_t head, const double *x, const double *st,
                   double *out);
  /* For the schemes whose logit is affine in the key's projected content
   * k = W_k x with coefficients set by the query alone (not by either
   * position): ut, uc (d each) such that total = ut.k + total at k = 0
   * and cc = uc.k, for the query prepared as pq; or NULL */
  void (*key_coef)(const rl_scheme *s, size_t head, const double *pq, double *ut, double *uc);
  /* the positional parameters its paper trains that init and head_init
   * draw (rl_scheme_drawn): all of them, and those left when
   * cfg.param_file gives the table; NULL for none */
  const char *drawn, *drawn_with_file;
  /* count's formula as `compare` writes it ("len*d"); NULL: "0" */
  const char *count_formula;
} rl_scheme_ops;

struct rl_scheme {
  const rl_scheme_ops *ops;
  rl_scheme_cfg cfg;
  size_t d, H;
  double scale;     /* content scale (1/sqrt(d), 1/sqrt(2d), ...) */
  rl_sch_head *hd;  /* H heads; hd[h] valid once built[h] */
  atomic_uchar *built;
  pthread_mutex_t *lock; /* serialises building a head (prepare and pair
                            run in parallel threads) */
  double *scratch;  /* 2 prep_len for rl_scheme_logit */
  rl_schedule *f;      /* sinusoidal, xl, rope; rope2d: one half */
  /* tables, meaning per scheme (scheme files say which) */
  double *tab;      /* learned, tupe positions, deberta rel, t5 bias, alibi */
  size_t tab_rows, tab_cols;
  const char *tab_format;
  double *m1;       /* tupe: the table after LayerNorm */
  double *v1, *v2, *v3; /* xl u, v (H d each); tupe: rel bias (v3) */
  char paramfile[256]; /* copy of cfg.param_file */
};

/* total = the sum of the terms (additive schemes) */
static inline void rl_sch_total(rl_logit_terms *t)
{
  t->total = t->cc + t->cp + t->pc + t->pp + t->bias + t->mix;
}
/* key_coef of the schemes whose only content term is cc (nope, t5,
 * alibi, tupe): ut = uc = pq scaled */
void rl_sch_cc_coef(const rl_scheme *s, size_t head, const double *pq, double *ut, double *uc);
/* y = W x for a d x d row-major W (W NULL: identity) */
void rl_sch_matvec(const double *W, const double *x, double *y, size_t d);
/* y = W^T x (W NULL: identity) */
void rl_sch_matvec_t(const double *W, const double *x, double *y, size_t d);
double rl_sch_dot(const double *a, const double *b, size_t d);
/* entries N(0, sd^2) */
void rl_sch_gauss(gsl_rng *rng, double *v, size_t n, double sd);
/* each row of a rows x cols table to mean 0, variance 1 (LayerNorm with
 * gamma = 1, beta = 0, eps 1e-7 as DeBERTa's config) */
void rl_sch_layernorm(double *t, size_t rows, size_t cols);
/* Build head h if it is not yet (thread-safe; RL_ENOMEM on failure).
 * rl_scheme_prepare and rl_scheme_pair call it before the ops. */
rl_status rl_sch_head_ready(const rl_scheme *s, size_t h);
/* W_q^h, W_k^h of the common projections (NULL: identity); head built */
const double *rl_sch_wq(const rl_scheme *s, size_t head);
const double *rl_sch_wk(const rl_scheme *s, size_t head);
/* An integer position as a table row under cfg.past: *row in [0, len). */
rl_status rl_sch_row(const rl_scheme *s, double pos, size_t len, size_t *row);
/* Nonzero when p is an integer. */
int rl_sch_isint(double p);
void rl_sch_err(char *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Parameter files (scheme_params.c).  Comment lines start with '#'; the
 * first other line is the header, checked against want_header's first
 * columns (want_header "bucket,head,bias" must match exactly; a header
 * ending in "v0" must continue v1.. v{cols-2}).
 * key-value rows: "key,head,value" into tab[key*H + head], every entry once.
 * vector rows: "index,v0..v{d-1}", indices 0..rows-1 each once, in any
 * order; *rows set from the file, at most max_rows (every index is
 * checked against the rows the file holds before the table is
 * allocated). */
rl_status rl_sch_read_kv(const char *path, const char *header, size_t nkey,
                         size_t nsub, double limit, double *tab, char *err);
rl_status rl_sch_read_vec(const char *path, const char *first, size_t d,
                          size_t max_rows, double limit, double **tab, size_t *rows, char *err);
/* Every value read must have |value| <= limit, the largest for which the
 * logits and every measure's sums stay finite (derivation in params.c):
 * rl_sch_param_limit(kind, d) for each kind of table. */
typedef enum rl_sch_table {
  RL_SCH_TAB_BIAS,    /* t5 bucket,head,bias */
  RL_SCH_TAB_SLOPE,   /* alibi head,slope */
  RL_SCH_TAB_LEARNED, /* learned position,v0.. */
  RL_SCH_TAB_TUPE,    /* tupe position,v0.. (before its LayerNorm) */
  RL_SCH_TAB_DEBERTA  /* deberta bucket,v0.. */
} rl_sch_table;
double rl_sch_param_limit(rl_sch_table kind, size_t d);
/* "head,slope": H rows. */
rl_status rl_sch_read_slopes(const char *path, size_t H, double *tab, char *err);

extern const rl_scheme_ops rl_sch_nope, rl_sch_sinusoidal, rl_sch_learned,
    rl_sch_integer, rl_sch_binary, rl_sch_xl, rl_sch_t5, rl_sch_tupe,
    rl_sch_deberta, rl_sch_alibi, rl_sch_rope, rl_sch_rope2d;
#endif
