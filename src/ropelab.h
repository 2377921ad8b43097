/* ropelab.h: the one public header of the ropelab core library.
 *
 * Names follow prefix_module_verb (rl_freqs_rope, rl_decay_eval, ...).
 * Functions that can fail return an rl_status and write results through
 * out-parameters; workspaces are owned by the caller (_alloc/_free, and
 * every _free accepts NULL).
 *
 * The core keeps three things apart, so that adding one never touches
 * the others:
 *   - a frequency schedule (rl_freqs): the theta_i of a RoPE variant;
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
  RL_EFORMAT = 5  /* an input file is not in the documented format */
} rl_status;

const char *rl_strerror(int status);

/* ------------------------------------------------------------------ */
/* frequency schedules                                                 */

/* A frequency schedule: n = rot/2 rotary pairs with angular frequency
 * theta[i] (radians per position).  Dimensions rot..dim-1 pass through
 * unrotated (partial rotary, as GPT-NeoX's rotary_pct and Hugging Face's
 * partial_rotary_factor). */
typedef struct rl_freqs {
  size_t dim;    /* head dimension d, even, >= 2 */
  size_t rot;    /* rotated dimensions r, even, 2 <= r <= d */
  size_t n;      /* r / 2 */
  double base;   /* base of the schedule, or 0 when theta came from elsewhere */
  double *theta; /* n frequencies */
} rl_freqs;

/* Allocate a schedule of rot/2 pairs with theta left zero, for schedules
 * computed elsewhere (later: the context-extension methods). */
rl_status rl_freqs_alloc(size_t dim, size_t rot, rl_freqs **out);
void rl_freqs_free(rl_freqs *f);

/* RoFormer's schedule: theta_i = base^(-2i/r), i = 0..r/2-1, each the
 * double nearest to the exact value (computed in long double).
 * Requires even dim >= 2, even 2 <= rot <= dim, finite base > 1. */
rl_status rl_freqs_rope(size_t dim, size_t rot, double base, rl_freqs **out);

/* 2*pi/theta: positions per full turn of pair i. */
double rl_freqs_wavelength(const rl_freqs *f, size_t i);

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
 * value (measured against libquadmath by tests/core/test_angle.c).  Returns RL_ERANGE (and leaves c, s alone) when
 * |m| > RL_POS_MAX, |theta| > 1, or either is not finite. */
rl_status rl_angle_sincos(double m, double theta, double *c, double *s);

/* ------------------------------------------------------------------ */
/* rotations                                                           */

/* How the rotated dimensions are paired. */
typedef enum rl_layout {
  RL_LAYOUT_INTERLEAVED = 0, /* (x_2i, x_2i+1): RoFormer, GPT-J, Meta Llama */
  RL_LAYOUT_HALF = 1         /* (x_i, x_i+r/2): GPT-NeoX, Hugging Face */
} rl_layout;

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
rl_status rl_rope_matrix(const rl_freqs *f, rl_layout layout, double m, double *R);
/* y = R(m) x by a matrix-vector product with the matrix above
 * (ws: dim*dim doubles of caller scratch). */
rl_status rl_rope_apply_matrix(const rl_freqs *f, rl_layout layout, double m,
                               const double *x, double *y, double *ws);
/* y = x * cos + rot(x) * sin (RoFormer eq. 34). */
rl_status rl_rope_apply_elementwise(const rl_freqs *f, rl_layout layout, double m,
                                    const double *x, double *y);
/* pairs as complex numbers multiplied by e^{i m theta}. */
rl_status rl_rope_apply_complex(const rl_freqs *f, rl_layout layout, double m,
                                const double *x, double *y);

/* cos(m theta_i), sin(m theta_i) for all n pairs. */
rl_status rl_rope_cossin(const rl_freqs *f, double m, double *c, double *s);

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

/* ------------------------------------------------------------------ */
/* long-term decay (RoFormer section 3.4.3)                            */

/* RoFormer's relative upper bound
 *   (1/n) * sum_{j=1..n} |S_j|,  S_j = sum_{k<j} e^{i r theta_k},
 * by direct summation with accurate angles (the reference). */
double rl_decay_bound_ref(const rl_freqs *f, double r);
/* Men et al. 2024, eq. 9: B_r = sum_i cos(r theta_i) (reference). */
double rl_decay_similarity_ref(const rl_freqs *f, double r);

/* A streaming evaluator of bound and similarity over a grid: memory is
 * O(n) whatever the number of rows.  On exact grids it advances the
 * phases by complex multiplication and re-seeds them from accurate
 * angles every RL_DECAY_RESEED rows; relative error stays below 1e-12
 * (measured by tests/test_decay.c). */
#define RL_DECAY_RESEED 256
typedef struct rl_decay_ws rl_decay_ws;
rl_status rl_decay_alloc(const rl_freqs *f, const rl_grid *g, rl_decay_ws **out);
void rl_decay_free(rl_decay_ws *w);
/* Rows j0 .. j0+count-1: r[k], bound[k], sim[k]; any output may be NULL.
 * Calls in increasing j0 are fastest; any order is correct. */
rl_status rl_decay_eval(rl_decay_ws *w, size_t j0, size_t count,
                        double *r, double *bound, double *sim);

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

typedef struct rl_mc_ws rl_mc_ws;
rl_status rl_mc_alloc(const rl_freqs *f, size_t samples, double sigma,
                      unsigned long seed, rl_mc_ws **out);
void rl_mc_free(rl_mc_ws *w);
rl_status rl_mc_eval(rl_mc_ws *w, double r, rl_mc_result *res);

/* ------------------------------------------------------------------ */
/* property checks (what `ropelab check` runs)                         */

typedef struct rl_check_params {
  size_t dim, rot;
  double base;
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

/* ------------------------------------------------------------------ */
/* numbers as text                                                     */

/* Shortest decimal (at most 17 significant digits) that strtod reads back
 * as exactly x, in the C locale whatever the process locale is.
 * buf must hold RL_NUMFMT_MAX bytes; returns the length. */
#define RL_NUMFMT_MAX 32
int rl_numfmt(double x, char *buf);

#ifdef __cplusplus
}
#endif
#endif
