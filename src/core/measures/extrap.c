/* extrap.c: the sampled measures past the training length (retrieval,
 * entropy, shift) in one streaming pass over the keys (ropelab.h,
 * rl_extrap_run).
 *
 * Setting.  A sequence of n tokens whose last one queries all of them
 * (causal attention includes itself); under a window the A kept keys sit
 * at cache positions 0..A-1 and the query at A - 1 (window.c).
 * Projections are the identity: the contents are the query and key
 * vectors.
 *
 * The random stream (the contract).  Sample s has its own stream (GSL's
 * mt19937 seeded from a master stream of seed; gsl_ran_gaussian_ziggurat
 * normals): first the query's content x (d normals), then key slot 0, 1,
 * ... in order, each a fixed count of normals: its content y_k ~ N(0, I_d)
 * (d normals) where contents are drawn, or two (z_k, u_k) where the
 * logits are drawn from their law (law_init).  What slot k gets depends
 * on (seed, sample, k) and the path alone, never on the lengths,
 * distances, scales or measures asked, nor on the threads: a length's
 * numbers are the same bytes whether it is measured alone or inside any
 * list, in any order (tests: extrap's alone_in_lists, the case
 * extrapolate_lengths_alone).  Every scheme, method and length on one
 * path sees the same x and slot numbers (common random numbers); a length
 * n reads the first slots of the stream.  The two paths are two streams.
 * (Until 2026-12 a slot under the law drew as many normals as the rank of
 * the Gram matrix of every length's coefficients, and the shift's one
 * more only when measured, so a length's numbers followed the list.)
 *
 * Cost.  One stream over the A slots of the longest length serves every
 * length at once (each length's query prepared once; the key at slot k
 * pairs with the queries of the lengths whose A exceeds k), in blocks of
 * BLOCK keys, so memory is O(BLOCK d + lengths), never O(n^2) or O(n d).
 * Schemes whose schedule depends on the current length (dynamic, log-n)
 * get one stream per length.  For rope with a plain rotation (no
 * position map, no xPos amplitude) the keys of a block are rotated with
 * the schedule's cos/sin table (rl_schedule_cossin, computed once per
 * position) and their logits against every length's query are one
 * matrix product (rl_blas_dgemm: OpenBLAS, opened at the first product,
 * or GSL's CBLAS, a build option); other schemes use rl_scheme_prepare / rl_scheme_pair,
 * with the part of a key that depends on its position alone (xl's
 * sines, W_k p of the additive family, tupe's U_k p, rope2d's cos and
 * sin) computed once per position for every sample
 * (ropelab/scheme_key.h; table of at most TABLE_MAX doubles).
 * Samples run on worker threads; results are kept per sample and
 * reduced in sample order, so they do not depend on the thread count. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../base/internal.h"
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stddef.h>
#include "ropelab.h"

#define BLOCK 256
#define TABLE_MAX (1u << 24) /* cos/sin entries kept per scheme: 2 x 128 MiB */
#define THREADS_MAX 64

#define EX_FIELD(f) offsetof(rl_extrap_params, f)
/* the measures that draw contents; unseen is an exact count, so the
 * sampling options do not apply to it (the CLI refuses them there) */
#define SAMPLED "retrieval entropy shift"
static const rl_param p_samples = {
    .key = "samples", .kind = RL_PK_SIZE, .offset = EX_FIELD(samples), .lo = 2, .hi = 1e8,
    .dflt = 100, .metavar = "S", .help = "content samples, >= 2", .only = SAMPLED};
/* StreamingLLM (Xiao et al. 2024) and LM-Infinite (Han et al. 2024) */
static const rl_param p_window = {
    .key = "local-window", .kind = RL_PK_SIZE, .offset = EX_FIELD(win.window), .lo = 0,
    .hi = RL_POS_MAX, .dflt = 0, .metavar = "W", .unit = "tokens",
    .help = "keep only the last W tokens and the --sink-tokens first ones, at their "
            "cache positions (StreamingLLM, LM-Infinite); 0 = no window"};
static const rl_param p_sinks = {
    .key = "sink-tokens", .kind = RL_PK_SIZE, .offset = EX_FIELD(win.sinks), .lo = 0,
    .hi = RL_POS_MAX, .dflt = 0, .metavar = "K", .unit = "tokens",
    .help = "initial tokens kept by the window"};
/* the metadata says these two in words (content=, draw=) */
static const rl_param p_identical = {
    .key = "identical", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META,
    .offset = EX_FIELD(identical), .dflt = 0, .set_to = 1, .only = SAMPLED,
    .help = "every key's content equals the query's (so with nope every logit is equal: "
            "a check of the measures)"};
static const rl_param p_draw = {
    .key = "draw-contents", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META,
    .offset = EX_FIELD(draw_contents), .dflt = 0, .set_to = 1, .only = SAMPLED,
    .help = "draw every key's d-dimensional content (the slower path, kept for checking): "
            "by default, where a logit is affine in the key's content (nope, t5, alibi, "
            "tupe, xl, sinusoidal, learned, integer, binary; rope under an exact "
            "pipeline), the logits are drawn from their Gaussian law given the query, two "
            "normals a key: the same expectations, another random stream"};
static const rl_param *const extrap_params[] = {&p_samples, &p_window, &p_sinks, &p_identical,
                                                &p_draw, NULL};

const rl_param *const *rl_extrap_param_list(void) { return extrap_params; }

/* bit k of rl_extrap_params.measures (and RL_EX_UNSEEN) is name k */
static const char *const measure_names[] = {"unseen", "retrieval", "entropy", "shift", NULL};
_Static_assert(sizeof measure_names / sizeof *measure_names == RL_EX_COUNT + 1,
               "one name per measure");

const char *const *rl_extrap_measure_names(void) { return measure_names; }

void rl_extrap_params_default(rl_extrap_params *p)
{
  static const int none = RL_SCALE_NONE;
  *p = (rl_extrap_params){0};
  p->scales = &none;
  p->nscales = 1;
  p->measures = RL_EX_RETRIEVAL | RL_EX_ENTROPY | RL_EX_SHIFT;
  for (const rl_param *const *d = extrap_params; *d; d++)
    rl_param_set_default(*d, p); /* samples, window, sinks, flags */
  p->seed = 1;
  p->shift_max = 0; /* all distances, unless that is past 2^24 values */
}

const char *rl_scale_name(int scale)
{
  static const char *const n[] = {"none", "logn", "yarn"};
  return scale >= 0 && scale < RL_SCALE_COUNT ? n[scale] : "unknown";
}

rl_status rl_scale_factor(int scale, size_t L, size_t n, double *factor)
{
  *factor = 1;
  if (scale == RL_SCALE_NONE || n <= L)
    return scale >= 0 && scale < RL_SCALE_COUNT ? RL_OK : RL_EINVAL;
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.dim = 64;
  rl_schedule_set(&p, "train-len", (double)L);
  /* the methods the scales are: log-n's query scale, YaRN's attention
   * factor at s = n / L */
  if (scale == RL_SCALE_LOGN) {
    p.method = rl_schedule_type_find("log-n");
  } else if (scale == RL_SCALE_YARN) {
    p.method = rl_schedule_type_find("yarn");
    rl_schedule_set(&p, "factor", (double)n / (double)L);
  } else {
    return RL_EINVAL;
  }
  rl_schedule *f;
  rl_status st = rl_schedule_new(&p, &f, NULL);
  if (st)
    return st;
  /* log-n scales the query (so the logit) by ln n / ln L; YaRN's factor
   * multiplies cos and sin of q and k, so the logit by its square */
  *factor = scale == RL_SCALE_LOGN ? rl_schedule_qscale(f, (double)n) : f->logit_mult;
  rl_schedule_free(f);
  return RL_OK;
}

/* The one rule for "the schedule at length n" (issue 34): extrapolate,
 * train's scoring and evaluate all come here.  Every value is a default:
 * a parameter the caller holds as given (the user's --train-len, --factor,
 * --seq-len) is kept, so the user's value wins over the model's or the
 * command's length.  It was two rules: train's scoring set train_len to
 * the training context over a --train-len given to evaluate. */
void rl_extrap_length_params(rl_schedule_params *p, size_t L, size_t N, size_t n)
{
  const rl_schedule_type *t = p->method;
  if ((t->uses & RL_SP_TRAIN_LEN) && !(p->set & RL_SP_TRAIN_LEN))
    rl_schedule_set(p, "train-len", (double)L);
  if (N && (t->uses & RL_SP_FACTOR) && !(p->set & RL_SP_FACTOR))
    rl_schedule_set(p, "factor", N > L ? (double)N / (double)L : 1);
  /* against the schedule's own L: the user's --train-len where kept */
  double Ls = (t->uses & RL_SP_TRAIN_LEN) && p->train_len > 0 ? p->train_len : (double)L;
  if (n && (t->uses & RL_SP_SEQ_LEN) &&
      !rl_schedule_param_given(p, rl_schedule_param_find("seq-len")))
    rl_schedule_set(p, "seq-len", (double)n > Ls ? (double)n : Ls);
}

void rl_extrap_method_params(rl_schedule_params *p, size_t L, size_t N)
{
  rl_extrap_length_params(p, L, N, 0);
}

/* The schemes that rotate by a frequency schedule (rope, rope2d). */
static int has_schedule(const char *name)
{
  const rl_scheme_info *i = rl_scheme_find(name);
  return i && (i->flags & RL_SCHEME_ROTATION);
}

int rl_extrap_per_length(const char *name, const rl_scheme_cfg *cfg)
{
  if (!has_schedule(name) || !(cfg->rope.method->uses & RL_SP_SEQ_LEN))
    return 0;
  /* dynamic NTK's vLLM variant scales once and refuses a current length */
  rl_schedule_params p = cfg->rope;
  p.dim = cfg->dim;
  rl_schedule_set(&p, "seq-len", p.train_len > 0 ? p.train_len : 1);
  rl_schedule *f;
  if (rl_schedule_new(&p, &f, NULL))
    return 0;
  rl_schedule_free(f);
  return 1;
}

void rl_extrap_shift_strides(const rl_extrap_params *p, size_t *sw, size_t *sp)
{
  size_t L = p->train_len, S = p->samples ? p->samples : 1;
  size_t Amax = rl_window_keys(&p->win, p->lens[p->nlens - 1]);
  size_t win = Amax < L ? Amax : L, past = Amax > L ? Amax - L : 0;
  size_t smax = p->shift_max;
  if (!smax) { /* every distance, within 2^23 kept values a side */
    size_t cap = ((size_t)1 << 23) / S;
    smax = win > past ? win : past;
    if (smax > cap)
      smax = cap ? cap : 1;
  }
  *sw = win ? (win + smax - 1) / smax : 1;
  *sp = past ? (past + smax - 1) / smax : 1;
}

rl_status rl_extrap_result_alloc(const rl_extrap_params *p, rl_extrap_result *r)
{
  size_t nr = p->nlens * p->ndists * p->nscales, ne = p->nlens * p->nscales;
  *r = (rl_extrap_result){0};
  r->ret_mean = calloc(nr + 1, sizeof *r->ret_mean);
  r->ret_se = calloc(nr + 1, sizeof *r->ret_se);
  r->ret_ok = calloc(nr + 1, 1);
  r->ent_mean = calloc(ne + 1, sizeof *r->ent_mean);
  r->ent_se = calloc(ne + 1, sizeof *r->ent_se);
  r->shift = calloc(p->nscales + 1, sizeof *r->shift);
  r->shift_ok = calloc(p->nscales + 1, 1);
  if (!r->ret_mean || !r->ret_se || !r->ret_ok || !r->ent_mean || !r->ent_se || !r->shift ||
      !r->shift_ok) {
    rl_extrap_result_free(r);
    return RL_ENOMEM;
  }
  return RL_OK;
}

void rl_extrap_result_free(rl_extrap_result *r)
{
  if (!r) /* every _free accepts NULL (ropelab.h) */
    return;
  free(r->ret_mean);
  free(r->ret_se);
  free(r->ret_ok);
  free(r->ent_mean);
  free(r->ent_se);
  free(r->shift);
  free(r->shift_ok);
  *r = (rl_extrap_result){0};
}

/* ---- one scheme instance and the lengths it serves ---- */

struct inst {
  rl_scheme *s;
  size_t *li, nl;  /* indices into p->lens */
  size_t amax;     /* slots streamed: the largest A */
  int fast;        /* rope, plain rotation: table + BLAS */
  const rl_schedule *f;
  rl_layout layout;
  double mult;     /* fast: 1/sqrt(d) times log-n's query scale */
  double *tc, *ts; /* fast: attn cos, attn sin of positions 0..amax-1, or NULL */
  double *ks;      /* other schemes: the key state of positions 0..nks-1
                      (ropelab/scheme_key.h), ksl doubles each, or NULL */
  size_t ksl, nks;
  int law;         /* the logits drawn from their law (rl_extrap_params.draw_contents) */
};

/* Everything the workers share (read-only while they run). */
struct run {
  const rl_extrap_params *p;
  size_t d, pl, L;
  const double *sf;      /* scale factors [len][scale] */
  const unsigned long *sub; /* per-sample seeds */
  const struct inst *in;
  int shift_len;         /* index of the largest length if this instance serves it, else -1 */
  size_t sw, sp, nw, np; /* shift: strides and counts within / past L */
  /* per-sample results */
  double *ent;           /* [sample][len][scale] */
  double *ret;           /* [sample][len][dist][scale] */
  double *shw, *shp;     /* [sample][nw], [sample][np] */
  /* every distance's logit, per sample and side: count, first value K,
   * sum of (x - K), sum of (x - K)^2, for the means and sds exactly */
  long double *mom;      /* [sample][side][4] */
};

struct worker {
  struct run *r;
  size_t sample;
  rl_status st;
  rl_measure_err e;
  /* scratch */
  double *x, *Y, *K, *R, *C, *pq, *pk, *qr, *tmpc, *tmps;
  rl_softmax_acc *acc;   /* [len][scale] */
  double *plant;         /* [len][dist]: the planted logit */
  long *slot;            /* [len][dist]: the planted key's slot, -1 evicted or r >= n */
  /* retrieval: the softmax of every key but the one a planted key
   * replaces (a cut), as its prefix (acc just before it) merged with its
   * suffix (the keys after it in its block of BLOCK slots one by one, then
   * each later block's softmax in order): sums of positive terms only
   * (retrieval.c), and built the same way whatever the other distances'
   * slots, so a distance's value does not depend on the --distances list */
  long *cut;             /* [len][cut]: the distinct slots, ascending */
  size_t *jcut;          /* [len][dist]: the cut of the distance's slot */
  size_t *ncut, *cur;    /* [len]: the number of cuts, the next cut in the stream */
  size_t *bcut;          /* [len]: the first cut of the current block */
  rl_softmax_acc *pre, *suf; /* [len][scale][cut]: prefix, suffix */
  rl_softmax_acc *blk;   /* [len][scale]: the current block's keys */
  /* the logits' law (law_init): coefficients [m][d] of cc (the longest
   * length's) then each length's total, each total's sd [len]; a slot's
   * two normals [BLOCK] each */
  double *co, *sd, *g, *zero, *zt, *z0;
  /* the longest length's total's variance, cc's variance, their
   * covariance (rope: per slot, in the stream), cc's regression on the
   * total and the sd of the rest (the other schemes) */
  double var_t, var_cc, cov, alpha, beta;
  gsl_rng *rng;
};

/* y = R(pos) x from cos/sin (attention factor included), pairs as the
 * layout places them, in the schedule's precision pipeline's arithmetic
 * (exact: double; hf-bf16: bfloat16 activations, ...: the seam,
 * rl_rope_apply_row); pass-through dimensions copied (rounded to the
 * activation dtype under a framework pipeline). */
static void rotate(const struct inst *in, const double *c, const double *s, const double *x,
                   double *y, size_t d)
{
  (void)d; /* the schedule's dim */
  (void)rl_rope_apply_row(in->f, in->layout, c, s, x, y);
}

/* Under a framework pipeline the contents as the model holds them (its
 * activation dtype), so that cc of the fast path is the logit of the
 * vectors it rotates, as rl_scheme_prepare's (schemes/rope.c). */
static void act_round(const struct inst *in, double *v, size_t d)
{
  for (size_t k = 0; in->fast && !in->f->prec->exact && k < d; k++)
    v[k] = rl_dtype_round(in->f->prec->act_dtype, v[k]);
}

static rl_status cossin_at(const struct inst *in, size_t pos, double *c, double *s,
                           const double **cp, const double **sp)
{
  if (in->tc) {
    *cp = in->tc + pos * in->f->n;
    *sp = in->ts + pos * in->f->n;
    return RL_OK;
  }
  *cp = c, *sp = s;
  return rl_schedule_cossin(in->f, (double)pos, c, s);
}

static void draw(struct worker *w, double *v)
{
  size_t d = w->r->d;
  if (w->r->p->identical) {
    memcpy(v, w->x, d * sizeof *v);
    return;
  }
  for (size_t k = 0; k < d; k++)
    v[k] = gsl_ran_gaussian_ziggurat(w->rng, 1.0);
}

/* total and cc of the query of length index l (prepared in w->pq or
 * rotated in w->qr) with key content y at slot k (rotated key yr when fast) */
static rl_status pair_generic(struct worker *w, size_t l, size_t k, double *total, double *cc)
{
  const struct run *r = w->r;
  const struct inst *in = r->in;
  size_t A = rl_window_keys(&r->p->win, r->p->lens[in->li[l]]);
  rl_logit_terms t;
  rl_status st = rl_scheme_pair(in->s, r->p->head, (double)(A - 1), (double)k,
                                w->pq + l * r->pl, w->pk, &t);
  if (st) {
    w->e = (rl_measure_err){(double)(A - 1), (double)k, 0};
    return st;
  }
  *total = t.total, *cc = t.cc;
  return RL_OK;
}

static double dot(const double *a, const double *b, size_t n)
{
  double s = 0;
  for (size_t k = 0; k < n; k++)
    s += a[k] * b[k];
  return s;
}

/* The logits' law for this sample: given the query, a key of content
 * y ~ N(0, I_d) at slot k has total_l = a_l.y + b_l(k) for every length
 * l and cc = c.y (rl_scheme_key_coef), so each total is Gaussian with
 * mean b_l(k) and the sd |a_l|, the same at every slot, and cc (the
 * shift's, at the longest length N) is Gaussian jointly with total_N.
 * A slot's key then costs two normals (z, u) instead of d (issue 21):
 *   total_l = b_l(k) + |a_l| z           for every length l,
 *   cc      = alpha (total_N - b_N(k)) + beta u,
 * alpha = Cov(cc, total_N) / Var(total_N), beta^2 = Var(cc) - alpha Cov.
 * Each length's totals have their exact law, and cc with total_N its
 * exact joint law; across lengths the totals of a slot share its z
 * (correlation 1 where contents give a_l.a_m / |a_l||a_m|), which no
 * measure reads: each is a function of one length's logits.  What a slot
 * draws is fixed (two normals), so a length's numbers do not depend on
 * which other lengths are measured (they did when a slot drew the rank of
 * the Gram matrix of every length's coefficients and its factor mixed
 * them). */
static rl_status law_init(struct worker *w)
{
  const struct run *r = w->r;
  const struct inst *in = r->in;
  size_t d = r->d, nl = in->nl;
  if (in->fast) {
    /* rope: total_l = mult (R_k y).q_l = mult y.(R_k^T q_l) with q_l the
     * rotated query; R_k R_k^T = D, attn^2 on the rotated dimensions and
     * 1 on those passed through, the same at every k, so Var(total_l) =
     * mult^2 q_l^T D q_l is fixed (Cov(cc, total_N) is not: see
     * sample_run) */
    for (size_t l = 0; l < nl; l++) {
      double *a = w->co + (l + 1) * d;
      for (size_t j = 0; j < d; j++)
        a[j] = w->qr[l * d + j] * in->mult * (j < in->f->rot ? in->f->attn : 1.0);
      w->var_t = dot(a, a, d);
      w->sd[l] = sqrt(w->var_t);
    }
    /* var_t is the longest length's (the last) */
    w->var_cc = dot(w->x, w->x, d) / (double)d;
    return RL_OK;
  }
  for (size_t l = 0; l < nl; l++) {
    double *a = w->co + (l + 1) * d;
    rl_status st = rl_scheme_key_coef(in->s, r->p->head, w->pq + l * r->pl, a, w->g);
    if (st)
      return st;
    if (l == nl - 1) /* cc serves the shift, at the largest length */
      memcpy(w->co, w->g, d * sizeof *w->g);
    w->var_t = dot(a, a, d); /* the last: the longest length's */
    w->sd[l] = sqrt(w->var_t);
  }
  w->var_cc = dot(w->co, w->co, d);
  w->cov = dot(w->co, w->co + nl * d, d);
  /* where cc's coefficients are the total's (nope: total = cc) alpha is
   * 1 and beta 0 exactly, so total - cc is the positional part to the
   * rounding of one subtraction; beta^2 within the rounding of the dot
   * products (8 (d + 2) 2^-53 of the larger variance, the tolerance the
   * pivoted Cholesky of this law had) is 0 */
  w->alpha = w->var_t > 0 ? w->cov / w->var_t : 0;
  double b2 = w->var_cc - w->alpha * w->cov;
  double tol = 8.0 * (double)(d + 2) * 0x1p-53 * fmax(w->var_cc, w->var_t);
  w->beta = b2 > tol ? sqrt(b2) : 0;
  return RL_OK;
}

static int cmp_long(const void *a, const void *b)
{
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* The cuts of length index l: its distinct planted slots in stream order,
 * each distance's cut, empty suffixes and block. */
static void cuts_init(struct worker *w, size_t l)
{
  const rl_extrap_params *p = w->r->p;
  size_t nd = p->ndists, nsc = p->nscales, nc = 0;
  long *cut = w->cut + l * nd;
  for (size_t j = 0; j < nd; j++)
    if (w->slot[l * nd + j] >= 0)
      cut[nc++] = w->slot[l * nd + j];
  qsort(cut, nc, sizeof *cut, cmp_long);
  size_t u = 0;
  for (size_t c = 0; c < nc; c++)
    if (!u || cut[c] != cut[u - 1])
      cut[u++] = cut[c];
  w->ncut[l] = u;
  w->cur[l] = 0;
  for (size_t j = 0; j < nd; j++) {
    long sl = w->slot[l * nd + j];
    const long *f = sl >= 0 ? bsearch(&sl, cut, u, sizeof *cut, cmp_long) : NULL;
    w->jcut[l * nd + j] = f ? (size_t)(f - cut) : 0;
  }
  w->bcut[l] = 0;
  for (size_t q = 0; q < nsc; q++) {
    rl_softmax_acc_init(&w->blk[l * nsc + q]);
    for (size_t c = 0; c < u; c++)
      rl_softmax_acc_init(&w->suf[(l * nsc + q) * nd + c]);
  }
}

/* The stream of one sample through one instance. */
static rl_status sample_run(struct worker *w)
{
  struct run *r = w->r;
  const rl_extrap_params *p = r->p;
  const struct inst *in = r->in;
  size_t d = r->d, nl = in->nl, nd = p->ndists, nsc = p->nscales, sm = w->sample;
  double isd = 1 / sqrt((double)d);
  int ret = (p->measures & RL_EX_RETRIEVAL) && nd > 0;
  rl_status st;
  gsl_rng_set(w->rng, r->sub[sm]);
  for (size_t k = 0; k < d; k++)
    w->x[k] = gsl_ran_gaussian_ziggurat(w->rng, 1.0);
  act_round(in, w->x, d);
  /* queries, and planted keys (content x at the slot of distance r) */
  for (size_t l = 0; l < nl; l++) {
    size_t n = p->lens[in->li[l]], A = rl_window_keys(&p->win, n);
    const double *c, *s;
    if (in->fast) {
      if ((st = cossin_at(in, A - 1, w->tmpc, w->tmps, &c, &s)))
        return w->e = (rl_measure_err){(double)(A - 1), (double)(A - 1), 0}, st;
      rotate(in, c, s, w->x, w->qr + l * d, d);
    } else if ((st = rl_scheme_prepare(in->s, p->head, RL_ROLE_QUERY, (double)(A - 1), w->x,
                                       w->pq + l * r->pl))) {
      return w->e = (rl_measure_err){(double)(A - 1), (double)(A - 1), 0}, st;
    }
    for (size_t j = 0; j < nd; j++) {
      long slot = w->slot[l * nd + j] = rl_window_slot(&p->win, n, p->dists[j]);
      double tot = 0, cc = 0;
      if (slot < 0)
        continue;
      if (in->fast) {
        if ((st = cossin_at(in, (size_t)slot, w->tmpc, w->tmps, &c, &s)))
          return w->e = (rl_measure_err){(double)(A - 1), (double)slot, 0}, st;
        rotate(in, c, s, w->x, w->K, d);
        tot = rl_blas_ddot((int)d, w->K, 1, w->qr + l * d, 1) * in->mult;
      } else {
        if ((st = rl_scheme_prepare(in->s, p->head, RL_ROLE_KEY, (double)slot, w->x, w->pk)))
          return w->e = (rl_measure_err){(double)(A - 1), (double)slot, 0}, st;
        if ((st = pair_generic(w, l, (size_t)slot, &tot, &cc)))
          return st;
      }
      if (!isfinite(tot))
        return w->e = (rl_measure_err){(double)(A - 1), (double)slot, 1}, RL_EOVERFLOW;
      w->plant[l * nd + j] = tot;
    }
    for (size_t q = 0; q < nsc; q++)
      rl_softmax_acc_init(&w->acc[l * nsc + q]);
    if (ret)
      cuts_init(w, l);
  }
  if (in->law && (st = law_init(w)))
    return st;
  /* the stream of random keys */
  for (size_t k0 = 0; k0 < in->amax; k0 += BLOCK) {
    size_t b = in->amax - k0 < BLOCK ? in->amax - k0 : BLOCK;
    for (size_t i = 0; i < b; i++) {
      if (in->law) { /* two normals a slot, whatever is measured (law_init) */
        w->zt[i] = gsl_ran_gaussian_ziggurat(w->rng, 1.0);
        w->z0[i] = gsl_ran_gaussian_ziggurat(w->rng, 1.0);
        continue;
      }
      draw(w, w->Y + i * d);
      act_round(in, w->Y + i * d, d);
    }
    if (in->fast && in->law) {
      /* totals sd_l z; cc (the shift's, at the largest length l*) from
       * its law given total_l*: Cov(cc, total_l*) = mult/sqrt(d)
       * (R_k x).q_l* changes with k, so cc = alpha t + beta u with
       * alpha = Cov / Var(total_l*), beta^2 = Var(cc) - alpha Cov */
      for (size_t i = 0; i < b; i++) {
        for (size_t l = 0; l < nl; l++)
          w->R[i * nl + l] = w->sd[l] * w->zt[i];
        w->C[i] = 0;
        if (r->shift_len < 0)
          continue;
        const double *c, *s;
        if ((st = cossin_at(in, k0 + i, w->tmpc, w->tmps, &c, &s)))
          return w->e = (rl_measure_err){0, (double)(k0 + i), 0}, st;
        rotate(in, c, s, w->x, w->K, d);
        double v = dot(w->K, w->qr + (nl - 1) * d, d) * in->mult * isd;
        double al = w->var_t > 0 ? v / w->var_t : 0, b2 = w->var_cc - al * v;
        w->C[i] = al * w->R[i * nl + nl - 1] + sqrt(b2 > 0 ? b2 : 0) * w->z0[i];
      }
    } else if (in->fast) {
      for (size_t i = 0; i < b; i++) {
        const double *c, *s;
        if ((st = cossin_at(in, k0 + i, w->tmpc, w->tmps, &c, &s)))
          return w->e = (rl_measure_err){0, (double)(k0 + i), 0}, st;
        rotate(in, c, s, w->Y + i * d, w->K + i * d, d);
      }
      /* R = K Q^T (b x nl): every key of the block against every query */
      rl_blas_dgemm(CblasNoTrans, CblasTrans, (int)b, (int)nl, (int)d, in->mult,
                  w->K, (int)d, w->qr, (int)d, 0.0, w->R, (int)nl);
      rl_blas_dgemv(CblasNoTrans, (int)b, (int)d, isd, w->Y, (int)d, w->x, 1, 0.0,
                  w->C, 1);
    }
    for (size_t i = 0; i < b; i++) {
      size_t k = k0 + i;
      /* under the law: the key of content 0 gives the means b_l(k) */
      const double *y = in->law ? w->zero : w->Y + i * d;
      if (!in->fast && k < in->nks)
        rl_scheme_prepare_key_from(in->s, p->head, y, in->ks + k * in->ksl, w->pk);
      else if (!in->fast && (st = rl_scheme_prepare(in->s, p->head, RL_ROLE_KEY, (double)k, y,
                                                    w->pk)))
        return w->e = (rl_measure_err){0, (double)k, 0}, st;
      /* the other schemes' cc (law_init) */
      double ccz = in->law && !in->fast
                       ? w->alpha * w->sd[nl - 1] * w->zt[i] + w->beta * w->z0[i]
                       : 0;
      for (size_t l = 0; l < nl; l++) {
        size_t li = in->li[l], n = p->lens[li], A = rl_window_keys(&p->win, n);
        if (k >= A)
          continue;
        double tot, cc;
        if (in->fast) {
          tot = w->R[i * nl + l], cc = w->C[i];
        } else if ((st = pair_generic(w, l, k, &tot, &cc))) {
          return st;
        } else if (in->law) {
          tot += w->sd[l] * w->zt[i], cc += ccz;
        }
        if (!isfinite(tot) || !isfinite(cc))
          return w->e = (rl_measure_err){(double)(A - 1), (double)k, 1}, RL_EOVERFLOW;
        /* retrieval: the key goes into the suffixes of this block's
         * earlier cuts and into the block; a cut's prefix is every key
         * before it (acc, before this key) */
        size_t c = ret ? w->cur[l] : 0;
        int is_cut = ret && c < w->ncut[l] && w->cut[l * nd + c] == (long)k;
        for (size_t q = 0; q < nsc; q++) {
          double v = tot * r->sf[li * nsc + q];
          if (ret) {
            rl_softmax_acc *su = w->suf + (l * nsc + q) * nd;
            for (size_t e = w->bcut[l]; e < c; e++)
              rl_softmax_acc_add(&su[e], v);
            rl_softmax_acc_add(&w->blk[l * nsc + q], v);
            if (is_cut)
              w->pre[(l * nsc + q) * nd + c] = w->acc[l * nsc + q];
          }
          rl_softmax_acc_add(&w->acc[l * nsc + q], v);
        }
        if (is_cut)
          w->cur[l] = c + 1;
        if ((int)li == r->shift_len) {
          size_t m = A - 1 - k; /* distance */
          long double *mo = r->mom + (sm * 2 + (m >= r->L)) * 4, x = (long double)(tot - cc);
          if (mo[0] == 0)
            mo[1] = x;
          mo[0] += 1;
          mo[2] += x - mo[1];
          mo[3] += (x - mo[1]) * (x - mo[1]);
          if (m < r->L && m % r->sw == 0 && m / r->sw < r->nw)
            r->shw[sm * r->nw + m / r->sw] = tot - cc;
          else if (m >= r->L && (m - r->L) % r->sp == 0 && (m - r->L) / r->sp < r->np)
            r->shp[sm * r->np + (m - r->L) / r->sp] = tot - cc;
        }
      }
    }
    /* the block's end for each length it reached: its softmax merged into
     * the suffixes of the earlier blocks' cuts */
    for (size_t l = 0; ret && l < nl; l++) {
      if (rl_window_keys(&p->win, p->lens[in->li[l]]) <= k0)
        continue;
      for (size_t q = 0; q < nsc; q++) {
        rl_softmax_acc *su = w->suf + (l * nsc + q) * nd, *bk = &w->blk[l * nsc + q];
        for (size_t e = 0; e < w->bcut[l]; e++)
          rl_softmax_acc_merge(&su[e], bk);
        rl_softmax_acc_init(bk);
      }
      w->bcut[l] = w->cur[l];
    }
  }
  /* per-sample results */
  for (size_t l = 0; l < nl; l++) {
    size_t li = in->li[l];
    for (size_t q = 0; q < nsc; q++) {
      const rl_softmax_acc *a = &w->acc[l * nsc + q];
      double sfac = r->sf[li * nsc + q];
      r->ent[(sm * p->nlens + li) * nsc + q] = rl_entropy_acc(a);
      for (size_t j = 0; j < nd; j++) {
        long slot = w->slot[l * nd + j];
        double pr = 0;
        if (ret && slot >= 0) {
          size_t c = (l * nsc + q) * nd + w->jcut[l * nd + j];
          rl_softmax_acc rest = w->pre[c];
          rl_softmax_acc_merge(&rest, &w->suf[c]);
          pr = rl_retrieval_prob(&rest, w->plant[l * nd + j] * sfac);
        }
        r->ret[((sm * p->nlens + li) * nd + j) * nsc + q] = pr;
      }
    }
  }
  return RL_OK;
}

static void *worker_main(void *arg)
{
  struct worker *w = arg;
  w->st = sample_run(w);
  return NULL;
}

static void worker_free(struct worker *w)
{
  free(w->x), free(w->Y), free(w->K), free(w->R), free(w->C), free(w->pq), free(w->pk);
  free(w->qr), free(w->tmpc), free(w->tmps), free(w->acc), free(w->plant);
  free(w->slot), free(w->cut), free(w->jcut), free(w->ncut), free(w->cur), free(w->bcut);
  free(w->pre), free(w->suf), free(w->blk), free(w->co), free(w->sd), free(w->g), free(w->zero);
  free(w->zt), free(w->z0);
  gsl_rng_free(w->rng);
}

static rl_status worker_alloc(struct worker *w, struct run *r)
{
  const rl_extrap_params *p = r->p;
  size_t d = r->d, nl = p->nlens, nd = p->ndists ? p->ndists : 1;
  *w = (struct worker){0};
  w->r = r;
  w->x = malloc(d * sizeof *w->x);
  w->Y = malloc(BLOCK * d * sizeof *w->Y);
  w->K = malloc(BLOCK * d * sizeof *w->K);
  w->R = malloc(BLOCK * nl * sizeof *w->R);
  w->C = malloc(BLOCK * sizeof *w->C);
  w->pq = malloc(nl * r->pl * sizeof *w->pq);
  w->pk = malloc(r->pl * sizeof *w->pk);
  w->qr = malloc(nl * d * sizeof *w->qr);
  w->tmpc = malloc(d * sizeof *w->tmpc);
  w->tmps = malloc(d * sizeof *w->tmps);
  w->acc = malloc(nl * p->nscales * sizeof *w->acc);
  w->plant = calloc(nl * nd, sizeof *w->plant);
  w->slot = calloc(nl * nd, sizeof *w->slot);
  w->cut = calloc(nl * nd, sizeof *w->cut);
  w->jcut = calloc(nl * nd, sizeof *w->jcut);
  w->ncut = calloc(nl, sizeof *w->ncut);
  w->cur = calloc(nl, sizeof *w->cur);
  w->bcut = calloc(nl, sizeof *w->bcut);
  w->pre = malloc(nl * p->nscales * nd * sizeof *w->pre);
  w->suf = malloc(nl * p->nscales * nd * sizeof *w->suf);
  w->blk = malloc(nl * p->nscales * sizeof *w->blk);
  w->co = malloc((nl + 1) * (d > 0 ? d : 1) * sizeof *w->co);
  w->sd = malloc(nl * sizeof *w->sd);
  w->g = malloc((d > 0 ? d : 1) * sizeof *w->g);
  w->zero = calloc(d, sizeof *w->zero);
  w->zt = malloc(BLOCK * sizeof *w->zt);
  w->z0 = malloc(BLOCK * sizeof *w->z0);
  w->rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!w->z0 || !w->zt || !w->co || !w->sd || !w->g || !w->zero || !w->x || !w->Y || !w->K || !w->R || !w->C || !w->pq || !w->pk || !w->qr || !w->tmpc ||
      !w->tmps || !w->acc || !w->plant || !w->slot || !w->cut || !w->jcut ||
      !w->ncut || !w->cur || !w->bcut || !w->pre || !w->suf || !w->blk || !w->rng) {
    worker_free(w);
    *w = (struct worker){0};
    return RL_ENOMEM;
  }
  return RL_OK;
}

static size_t online_cpus(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > THREADS_MAX ? THREADS_MAX : (size_t)n;
}

/* Progress in units of an instance's work (issue 33 item 5: the tables
 * of a long length cost seconds before the first sample, so they count):
 * a sample counts amax x d, the tables their entries times what one
 * costs against a sample's multiply-add (CPU time on this machine at
 * L = 1e4, N = 1e5, d = 128: rope's exact cos/sin table 1.45 s for
 * 6.4e6 entries, 0.05 s a sample, so about 60; a key state, sinusoidal's,
 * about 5).  An estimate for the time left, not a measure. */
#define UNIT_COSSIN 60
#define UNIT_KEY_STATE 5
#define TABLE_BLOCK 4096 /* positions between progress reports */

#define UNIT_POS 1024 /* the caller's units of an instance's position */

/* An instance's share of the caller's units is its positions' (amax x
 * UNIT_POS, from base); within it, its tables and samples in the units
 * above (setup, sample). */
struct prog {
  void (*fn)(void *ctx, size_t done, size_t total);
  void *ctx;
  size_t base, span, total;
  size_t setup, sample, samples;
};

static void prog_report(const struct prog *pg, size_t units)
{
  double all = (double)pg->setup + (double)pg->samples * (double)pg->sample;
  if (pg->fn)
    pg->fn(pg->ctx, pg->base + (size_t)((double)pg->span * ((double)units / (all > 0 ? all : 1))),
           pg->total);
}

/* Run every sample through one instance on the worker threads. */
static rl_status run_inst(struct run *r, struct worker *ws, size_t nt, const struct prog *pg,
                          rl_measure_err *e)
{
  size_t done = 0;
  size_t S = r->p->samples;
  for (size_t s0 = 0; s0 < S; s0 += nt) {
    size_t used = S - s0 < nt ? S - s0 : nt;
    pthread_t th[THREADS_MAX];
    int started[THREADS_MAX] = {0};
    for (size_t t = 0; t < used; t++) {
      ws[t].r = r;
      ws[t].sample = s0 + t;
      if (t > 0)
        started[t] = !pthread_create(&th[t], NULL, worker_main, &ws[t]);
    }
    worker_main(&ws[0]);
    for (size_t t = 1; t < used; t++) {
      if (started[t])
        pthread_join(th[t], NULL);
      else
        worker_main(&ws[t]);
    }
    for (size_t t = 0; t < used; t++)
      if (ws[t].st) {
        if (e)
          *e = ws[t].e;
        return ws[t].st;
      }
    done += used;
    prog_report(pg, pg->setup + done * pg->sample);
  }
  return RL_OK;
}

static void free_inst(struct inst *in)
{
  rl_scheme_free(in->s);
  free(in->li);
  free(in->tc);
  free(in->ts);
  free(in->ks);
  *in = (struct inst){0};
}

/* Build the instance serving lens[li[0..nl-1]] (seq_len = n when the
 * schedule depends on the length). */
static rl_status build_inst(const char *name, const rl_scheme_cfg *cfg0,
                            const rl_extrap_params *p, const size_t *li, size_t nl, int per_len,
                            struct inst *in)
{
  rl_scheme_cfg cfg = *cfg0;
  cfg.identity = 1;
  *in = (struct inst){0};
  if (per_len) {
    rl_schedule_set(&cfg.rope, "seq-len", (double)p->lens[li[0]]);
  }
  rl_status st = rl_scheme_alloc(name, &cfg, &in->s, NULL);
  if (st)
    return st;
  in->li = malloc(nl * sizeof *in->li);
  if (!in->li)
    return RL_ENOMEM;
  memcpy(in->li, li, nl * sizeof *li);
  in->nl = nl;
  for (size_t l = 0; l < nl; l++) {
    size_t A = rl_window_keys(&p->win, p->lens[li[l]]);
    if (A > in->amax)
      in->amax = A;
  }
  in->f = rl_scheme_get_schedule(in->s);
  in->layout = cfg.rope.layout;
  /* the fast path: a one-dimensional rotation by a plain schedule */
  unsigned sf = rl_scheme_get_info(in->s)->flags;
  in->fast = (sf & RL_SCHEME_ROTATION) && !(sf & RL_SCHEME_2D) && in->f &&
             !in->f->type->relpos && !in->f->amp_rate;
  /* what each key position contributes, once for every sample (same
   * bytes as preparing it per key); up to the first position the scheme
   * refuses, which the stream then reports as before */
  if (!in->fast && !p->draw_contents && !p->identical) {
    size_t pl = rl_scheme_prep_len(in->s), d = cfg.dim;
    double *t = calloc(pl + 2 * d, sizeof *t);
    if (!t)
      return RL_ENOMEM;
    in->law = rl_scheme_key_coef(in->s, p->head, t, t + pl, t + pl + d) == RL_OK;
    free(t);
  } else if (in->fast && in->f->prec->exact && !p->draw_contents && !p->identical) {
    in->law = 1; /* a rotation: the logits' law in law_init */
  }
  in->ksl = in->fast ? 0 : rl_scheme_key_state_len(in->s);
  if (in->ksl && in->amax * in->ksl <= TABLE_MAX)
    in->ks = malloc(in->amax * in->ksl * sizeof *in->ks);
  if (in->fast) {
    in->mult = 1 / sqrt((double)cfg.dim) * rl_schedule_qscale(in->f, in->f->p.seq_len);
    size_t n = in->f->n;
    if (in->amax * n <= TABLE_MAX) {
      in->tc = malloc(in->amax * n * sizeof *in->tc);
      in->ts = malloc(in->amax * n * sizeof *in->ts);
      if (!in->tc || !in->ts)
        return RL_ENOMEM;
    }
  }
  return RL_OK;
}

/* The instance's units: its tables, one sample. */
static void inst_units(const struct inst *in, size_t d, size_t *setup, size_t *sample)
{
  *sample = in->amax * d;
  *setup = in->tc ? in->amax * in->f->n * UNIT_COSSIN
                  : in->ks ? in->amax * in->ksl * UNIT_KEY_STATE : 0;
}

/* The tables of positions 0..amax-1 (same bytes as computing each at
 * its key): the cos/sin of a fast instance, the key state of the others
 * (up to the first position the scheme refuses, which the stream then
 * reports as before). */
static rl_status build_tables(struct inst *in, const rl_extrap_params *p, const struct prog *pg)
{
  size_t n = in->f ? in->f->n : 0;
  for (size_t k0 = 0; in->tc && k0 < in->amax; k0 += TABLE_BLOCK) {
    size_t k1 = in->amax - k0 < TABLE_BLOCK ? in->amax : k0 + TABLE_BLOCK;
    for (size_t k = k0; k < k1; k++) {
      rl_status st = rl_schedule_cossin(in->f, (double)k, in->tc + k * n, in->ts + k * n);
      if (st)
        return st;
    }
    prog_report(pg, k1 * n * UNIT_COSSIN);
  }
  for (int stop = 0; in->ks && !stop && in->nks < in->amax;) {
    size_t k1 = in->amax - in->nks < TABLE_BLOCK ? in->amax : in->nks + TABLE_BLOCK;
    while (in->nks < k1 && !(stop = rl_scheme_key_state(in->s, p->head, (double)in->nks,
                                                        in->ks + in->nks * in->ksl) != RL_OK))
      in->nks++;
    prog_report(pg, in->nks * in->ksl * UNIT_KEY_STATE);
  }
  return RL_OK;
}

static void mean_se(const double *v, size_t n, size_t stride, double *mean, double *se)
{
  /* on the values scaled by a power of two near their largest, so that
   * the squares of probabilities below 1e-154 do not underflow to 0 (the
   * scaling is exact and undone at the end) */
  double big = 0;
  for (size_t k = 0; k < n; k++)
    big = fmax(big, fabs(v[k * stride]));
  int sh = big > 0 && isfinite(big) ? ilogb(big) : 0;
  double m = 0, m2 = 0;
  for (size_t k = 0; k < n; k++) {
    double x = ldexp(v[k * stride], -sh), dl = x - m;
    m += dl / (double)(k + 1);
    m2 += dl * (x - m);
  }
  *mean = ldexp(m, sh) + 0.0;
  *se = ldexp(sqrt(m2 / (double)(n - 1) / (double)n), sh);
}

rl_status rl_extrap_run(const char *name, const rl_scheme_cfg *cfg, const rl_extrap_params *p,
                        rl_extrap_result *res, rl_measure_err *e,
                        void (*progress)(void *ctx, size_t done, size_t total), void *ctx)
{
  if (e)
    *e = (rl_measure_err){0};
  if (p->samples < 2 || p->nlens < 1 || p->train_len < 1 || p->nscales < 1 || !p->lens)
    return RL_EINVAL;
  for (size_t l = 0; l < p->nlens; l++)
    if (p->lens[l] < 1 || (l && p->lens[l] <= p->lens[l - 1]))
      return RL_EINVAL;
  size_t nl = p->nlens, nd = p->ndists, nsc = p->nscales, S = p->samples;
  size_t nt = p->threads ? p->threads : online_cpus();
  if (nt > S)
    nt = S;
  if (nt > THREADS_MAX)
    nt = THREADS_MAX;
  int per_len = rl_extrap_per_length(name, cfg);
  /* OpenBLAS opened (on one thread) before the workers start: base/blas.c */
  rl_blas_load();
  struct run r = {0};
  r.p = p;
  r.d = cfg->dim;
  r.L = p->train_len;
  struct worker ws[THREADS_MAX];
  memset(ws, 0, sizeof ws);
  struct inst in = {0};
  double *sf = malloc(nl * nsc * sizeof *sf);
  unsigned long *sub = malloc(S * sizeof *sub);
  size_t *all = malloc(nl * sizeof *all);
  gsl_rng *master = gsl_rng_alloc(gsl_rng_mt19937);
  rl_status st = RL_OK;
  size_t nmax = p->lens[nl - 1], Amax = rl_window_keys(&p->win, nmax);
  /* shift: distances 0..min(A, L)-1 within, L..A-1 past, thinned */
  size_t win = Amax < r.L ? Amax : r.L, past = Amax > r.L ? Amax - r.L : 0;
  rl_extrap_shift_strides(p, &r.sw, &r.sp);
  r.nw = (win + r.sw - 1) / r.sw;
  r.np = past ? (past + r.sp - 1) / r.sp : 0;
  r.ent = malloc(S * nl * nsc * sizeof *r.ent);
  r.ret = malloc((S * nl * nd * nsc + 1) * sizeof *r.ret);
  r.shw = malloc((S * r.nw + 1) * sizeof *r.shw);
  r.shp = malloc((S * r.np + 1) * sizeof *r.shp);
  double *tw = malloc((S * r.nw + 1) * sizeof *tw), *tp = malloc((S * r.np + 1) * sizeof *tp);
  r.mom = calloc(S * 8, sizeof *r.mom);
  res->shift_stride_within = r.sw;
  res->shift_stride_past = r.sp;
  if (!sf || !sub || !all || !master || !r.ent || !r.ret || !r.shw || !r.shp || !tw || !tp ||
      !r.mom) {
    st = RL_ENOMEM;
    goto out;
  }
  for (size_t l = 0; l < nl; l++) {
    all[l] = l;
    for (size_t q = 0; q < nsc; q++)
      if ((st = rl_scale_factor(p->scales[q], r.L, p->lens[l], &sf[l * nsc + q])))
        goto out;
  }
  r.sf = sf;
  gsl_rng_set(master, p->seed);
  for (size_t s = 0; s < S; s++) {
    sub[s] = gsl_rng_get(master);
    if (!sub[s]) /* mt19937 turns 0 into 4357: keep the streams distinct */
      sub[s] = 1;
  }
  r.sub = sub;
  size_t ninst = per_len ? nl : 1;
  struct prog pg = {progress, ctx, 0, 0, 0, 0, 0, S};
  for (size_t i = 0; i < ninst; i++)
    pg.total += rl_window_keys(&p->win, p->lens[per_len ? i : nl - 1]) * UNIT_POS;
  for (size_t i = 0; i < ninst; i++) {
    if ((st = build_inst(name, cfg, p, per_len ? &all[i] : all, per_len ? 1 : nl, per_len, &in)))
      goto out;
    pg.base += pg.span;
    pg.span = in.amax * UNIT_POS;
    inst_units(&in, cfg->dim, &pg.setup, &pg.sample);
    if ((st = build_tables(&in, p, &pg)))
      goto out;
    r.in = &in;
    r.pl = rl_scheme_prep_len(in.s);
    r.shift_len = (p->measures & RL_EX_SHIFT) && in.li[in.nl - 1] == nl - 1 ? (int)(nl - 1) : -1;
    for (size_t t = 0; t < nt; t++)
      if ((st = worker_alloc(&ws[t], &r)))
        goto out;
    st = run_inst(&r, ws, nt, &pg, e);
    for (size_t t = 0; t < nt; t++)
      worker_free(&ws[t]), memset(&ws[t], 0, sizeof ws[t]);
    free_inst(&in);
    if (st)
      goto out;
  }
  /* reduce in sample order */
  for (size_t l = 0; l < nl; l++)
    for (size_t q = 0; q < nsc; q++) {
      size_t ei = l * nsc + q;
      mean_se(r.ent + ei, S, nl * nsc, &res->ent_mean[ei], &res->ent_se[ei]);
      for (size_t j = 0; j < nd; j++) {
        size_t ri = (l * nd + j) * nsc + q;
        res->ret_ok[ri] = p->dists[j] < p->lens[l];
        if (res->ret_ok[ri])
          mean_se(r.ret + ri, S, nl * nd * nsc, &res->ret_mean[ri], &res->ret_se[ri]);
        /* NaN: a scaled logit that overflowed (rl_retrieval_prob;
         * no spread of finite logits gives one): an error, not a row */
        if ((p->measures & RL_EX_RETRIEVAL) && res->ret_ok[ri] &&
            !(isfinite(res->ret_mean[ri]) && isfinite(res->ret_se[ri]))) {
          st = RL_EOVERFLOW;
          if (e)
            *e = (rl_measure_err){NAN, NAN, 1};
        }
      }
    }
  for (size_t q = 0; q < nsc && (p->measures & RL_EX_SHIFT); q++) {
    double fac = sf[(nl - 1) * nsc + q];
    for (size_t k = 0; k < S * r.nw; k++)
      tw[k] = r.shw[k] * fac;
    for (size_t k = 0; k < S * r.np; k++)
      tp[k] = r.shp[k] * fac;
    rl_status sst = rl_shift_eval(tw, S * r.nw, tp, S * r.np, &res->shift[q]);
    /* means and sds over every distance, whatever the thinning above:
     * each sample's (count, mean, M2) from its shifted sums, merged in
     * sample order (Chan, Golub, LeVeque 1979) */
    for (int side = 0; side < 2 && sst == RL_OK; side++) {
      long double n = 0, mean = 0, m2 = 0;
      for (size_t sm = 0; sm < S; sm++) {
        const long double *mo = r.mom + (sm * 2 + (size_t)side) * 4;
        if (mo[0] == 0)
          continue;
        long double nb = mo[0], mb = mo[1] + mo[2] / nb, qb = mo[3] - mo[2] * mo[2] / nb;
        long double nn = n + nb, dl = mb - mean;
        mean += dl * nb / nn;
        m2 += qb + dl * dl * n * nb / nn;
        n = nn;
      }
      if (n >= 2) {
        double mu = (double)mean * fac + 0.0, sd = sqrt((double)(m2 / (n - 1))) * fabs(fac);
        if (side)
          res->shift[q].mean_past = mu, res->shift[q].sd_past = sd;
        else
          res->shift[q].mean_within = mu, res->shift[q].sd_within = sd;
      }
    }
    res->shift_ok[q] = sst == RL_OK;
    if (sst == RL_EOVERFLOW) { /* an overflow is an error, not a row left out */
      st = RL_EOVERFLOW;
      if (e)
        *e = (rl_measure_err){NAN, NAN, 1};
    }
  }
  for (size_t k = 0; k < nl * nsc; k++)
    if (!isfinite(res->ent_mean[k]) || !isfinite(res->ent_se[k])) {
      st = RL_EOVERFLOW;
      if (e)
        *e = (rl_measure_err){NAN, NAN, 1};
    }
out:
  for (size_t t = 0; t < THREADS_MAX; t++)
    if (ws[t].rng)
      worker_free(&ws[t]);
  free_inst(&in);
  free(sf), free(sub), free(all), free(r.ent), free(r.ret), free(r.shw), free(r.shp), free(r.mom);
  free(tw), free(tp);
  gsl_rng_free(master);
  return st;
}
