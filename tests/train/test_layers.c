/* test_layers.c: every layer's backward (src/core/train/layers.h)
 * against central finite differences of its forward, in double.  Each
 * layer is tested as f = sum_k w_k out_k with random w (so dout = w), on
 * random O(1) inputs and parameters; every input and parameter entry is
 * differenced.  Tolerance: fd.h (relative 1e-6 at h = 1e-5). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "layers.h"
#include "fd.h"
#include "tap.h"

static rl_train_rng rng;

/* every buffer of every case, freed at the end (the leak checker runs
 * this test too) */
static void *bufs[1024];
static size_t nbufs;

static void *keep(void *p)
{
  if (!p || nbufs == sizeof bufs / sizeof *bufs)
    exit(1);
  return bufs[nbufs++] = p;
}

static double *rnd(size_t n, double sd)
{
  double *p = keep(malloc(n * sizeof *p));
  for (size_t i = 0; i < n; i++)
    p[i] = sd * rl_train_rng_normal(&rng);
  return p;
}

static double *zeros(size_t n)
{
  return keep(calloc(n, sizeof(double)));
}

static double dot(const double *a, const double *b, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

enum { B = 2, T = 7, C = 8, H = 2, OC = 5, V = 6 };

/* ---- layernorm ---- */
struct ln { double *x, *w, *b, *out, *mean, *rstd, *dw; };
static double ln_f(void *c)
{
  struct ln *s = c;
  rl_tl_layernorm_forward(s->out, s->mean, s->rstd, s->x, s->w, s->b, B * T, C);
  return dot(s->out, s->dw, B * T * C);
}
static void test_layernorm(void)
{
  struct ln s = {rnd(B * T * C, 1), rnd(C, 1), rnd(C, 1), zeros(B * T * C), zeros(B * T),
                 zeros(B * T), rnd(B * T * C, 1)};
  double *dx = zeros(B * T * C), *dw = zeros(C), *db = zeros(C);
  ln_f(&s);
  rl_tl_layernorm_backward(dx, dw, db, s.dw, s.x, s.w, s.mean, s.rstd, B * T, C);
  tap_le(fd_rel_err(ln_f, &s, s.x, B * T * C, dx), FD_TOL, "layernorm d/dinp");
  tap_le(fd_rel_err(ln_f, &s, s.w, C, dw), FD_TOL, "layernorm d/dweight");
  tap_le(fd_rel_err(ln_f, &s, s.b, C, db), FD_TOL, "layernorm d/dbias");
}

/* ---- matmul ---- */
struct mm { double *x, *w, *b, *out, *dw; };
static double mm_f(void *c)
{
  struct mm *s = c;
  rl_tl_matmul_forward(s->out, s->x, s->w, s->b, B * T, C, OC);
  return dot(s->out, s->dw, B * T * OC);
}
static void test_matmul(void)
{
  struct mm s = {rnd(B * T * C, 1), rnd(OC * C, 1), rnd(OC, 1), zeros(B * T * OC),
                 rnd(B * T * OC, 1)};
  double *dx = zeros(B * T * C), *dw = zeros(OC * C), *db = zeros(OC);
  mm_f(&s);
  rl_tl_matmul_backward(dx, dw, db, s.dw, s.x, s.w, B * T, C, OC);
  tap_le(fd_rel_err(mm_f, &s, s.x, B * T * C, dx), FD_TOL, "matmul d/dinp");
  tap_le(fd_rel_err(mm_f, &s, s.w, OC * C, dw), FD_TOL, "matmul d/dweight");
  tap_le(fd_rel_err(mm_f, &s, s.b, OC, db), FD_TOL, "matmul d/dbias");
}

/* ---- rope: a real schedule's table, partial rotation, both layouts ---- */
struct rp { double *x, *out, *dw, *cs, *sn; size_t rot; int half; };
static double rp_f(void *c)
{
  struct rp *s = c;
  rl_tl_rope_forward(s->out, s->x, s->cs, s->sn, B, T, C, H, s->rot, s->half);
  return dot(s->out, s->dw, B * T * 3 * C);
}
static void test_rope(size_t rot, int half, const char *method)
{
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.dim = C / H, p.rot = rot, p.layout = half ? RL_LAYOUT_HALF : RL_LAYOUT_INTERLEAVED;
  p.base = 100; /* every pair turns within T, so every table entry matters */
  p.method = rl_schedule_type_find(method);
  if (strcmp(method, "rope")) {
    p.factor = 2, p.train_len = 4;
    rl_schedule_param_mark(&p, rl_schedule_param_find("factor"));
    rl_schedule_param_mark(&p, rl_schedule_param_find("train-len"));
  }
  rl_schedule *f;
  char err[RL_ERR_MAX] = "";
  if (!p.method || rl_schedule_new(&p, &f, err)) {
    printf("# cannot build %s: %s\n", method, err);
    exit(1);
  }
  struct rp s = {rnd(B * T * 3 * C, 1), zeros(B * T * 3 * C), rnd(B * T * 3 * C, 1),
                 zeros(T * f->n), zeros(T * f->n), rot, half};
  rl_schedule_cossin_rows(f, 0, 1, T, s.cs, s.sn);
  double *dx = zeros(B * T * 3 * C);
  rp_f(&s);
  rl_tl_rope_backward(dx, s.dw, s.cs, s.sn, B, T, C, H, rot, half);
  tap_le(fd_rel_err(rp_f, &s, s.x, B * T * 3 * C, dx), FD_TOL, "rope %s rot=%zu %s d/dinp",
         method, rot, half ? "half" : "interleaved");
  rl_schedule_free(f);
}

/* ---- attention, with and without a bias, at 1/sqrt(hd) and TUPE's
 * 1/sqrt(2 hd) ---- */
#define SCALE (1.0 / sqrt((double)(C / H)))
struct at { double *qkv, *bias, *out, *pre, *att, *dw; double scale; };
static double at_f(void *c)
{
  struct at *s = c;
  rl_tl_attention_forward(s->out, s->pre, s->att, s->qkv, s->bias, B, T, C, H, s->scale);
  return dot(s->out, s->dw, B * T * C);
}
static void test_attention(int with_bias, double scale)
{
  struct at s = {rnd(B * T * 3 * C, 1), with_bias ? rnd(H * T * T, 1) : NULL, zeros(B * T * C),
                 zeros(B * H * T * T), zeros(B * H * T * T), rnd(B * T * C, 1), scale};
  double *dqkv = zeros(B * T * 3 * C), *dbias = zeros(H * T * T);
  double *dpre = zeros(B * H * T * T), *datt = zeros(B * H * T * T);
  at_f(&s);
  rl_tl_attention_backward(dqkv, with_bias ? dbias : NULL, dpre, datt, s.dw, s.qkv, s.att, B,
                           T, C, H, scale);
  tap_le(fd_rel_err(at_f, &s, s.qkv, B * T * 3 * C, dqkv), FD_TOL, "attention%s scale %.4g d/dqkv",
         with_bias ? " with bias" : "", scale);
  if (with_bias) /* entries above the diagonal are never read: both zero */
    tap_le(fd_rel_err(at_f, &s, s.bias, H * T * T, dbias), FD_TOL, "attention scale %.4g d/dbias",
           scale);
  /* the scale multiplies q.k alone: one logit by hand, without bias */
  if (!with_bias) {
    const double *q = s.qkv + (1 * T + 2) * 3 * C, *k = s.qkv + (1 * T + 1) * 3 * C + C;
    double v = 0;
    for (size_t e = 0; e < C / H; e++)
      v += q[e] * k[e];
    tap_abs_close(s.pre[((1 * H + 0) * T + 2) * T + 1], v * scale, 1e-15 * fabs(v),
                  "attention scale %.4g: logit (b 1, head 0, t 2, t2 1) = scale q.k", scale);
  }
}

/* ---- relative attention (xl, deberta): every table and bias ---- */
enum { NREL = 5 };
struct ra { double *qkv, *out, *pre, *att, *dw; rl_tl_rel r; };
static double ra_f(void *c)
{
  struct ra *s = c;
  rl_tl_relattn_forward(s->out, s->pre, s->att, s->qkv, &s->r, B, T, C, H);
  return dot(s->out, s->dw, B * T * C);
}
static void test_relattn(void)
{
  static size_t idx[T * T];
  for (size_t t = 0; t < T; t++) /* a clamped distance: several pairs per entry */
    for (size_t t2 = 0; t2 < T; t2++)
      idx[t * T + t2] = t >= t2 ? (t - t2 < NREL ? t - t2 : NREL - 1) : 0;
  size_t hd = C / H;
  struct ra s = {rnd(B * T * 3 * C, 1), zeros(B * T * C), zeros(B * H * T * T),
                 zeros(B * H * T * T), rnd(B * T * C, 1),
                 {idx, NREL, 0.7, rnd(H * NREL * hd, 1), rnd(H * NREL * hd, 1), rnd(H * hd, 1),
                  rnd(H * hd, 1), rnd(H * T * T, 1)}};
  double *dqkv = zeros(B * T * 3 * C), *dpre = zeros(B * H * T * T);
  rl_tl_rel d = {idx, NREL, 0.7, zeros(H * NREL * hd), zeros(H * NREL * hd), zeros(H * hd),
                 zeros(H * hd), zeros(H * T * T)};
  ra_f(&s);
  rl_tl_relattn_backward(dqkv, &d, dpre, s.dw, s.qkv, s.att, &s.r, B, T, C, H);
  tap_le(fd_rel_err(ra_f, &s, s.qkv, B * T * 3 * C, dqkv), FD_TOL, "relattn d/dqkv");
  tap_le(fd_rel_err(ra_f, &s, s.r.A, H * NREL * hd, d.A), FD_TOL, "relattn d/dA");
  tap_le(fd_rel_err(ra_f, &s, s.r.Bt, H * NREL * hd, d.Bt), FD_TOL, "relattn d/dBt");
  tap_le(fd_rel_err(ra_f, &s, s.r.u, H * hd, d.u), FD_TOL, "relattn d/du");
  tap_le(fd_rel_err(ra_f, &s, s.r.v, H * hd, d.v), FD_TOL, "relattn d/dv");
  tap_le(fd_rel_err(ra_f, &s, s.r.bias, H * T * T, d.bias), FD_TOL, "relattn d/dbias");
  /* with no tables it is the plain attention at scale 1/sqrt(hd) */
  rl_tl_rel plain = {idx, NREL, 1.0 / sqrt((double)hd), NULL, NULL, NULL, NULL, NULL};
  double *o2 = zeros(B * T * C), *p2 = zeros(B * H * T * T), *a2 = zeros(B * H * T * T);
  rl_tl_relattn_forward(s.out, s.pre, s.att, s.qkv, &plain, B, T, C, H);
  rl_tl_attention_forward(o2, p2, a2, s.qkv, NULL, B, T, C, H, SCALE);
  double worst = 0;
  for (size_t i = 0; i < B * T * C; i++)
    worst = fmax(worst, fabs(o2[i] - s.out[i]));
  tap_le(worst, 0.0, "relattn without tables = attention");
  /* one logit by hand (H = 1, hd = 2, T = 2): query 1 = (1, 2), key 0 =
   * (3, -1), u = (0.5, 0), v = (0, 1), A[1] = (2, 1), Bt[1] = (1, 1),
   * scale 1/2: ((q + u).k + (q + v).A + k.Bt) / 2 = (2.5 + 5 + 2) / 2 */
  double qkv2[12] = {9, 9, 3, -1, 0, 0, 1, 2, 9, 9, 0, 0}, A2[4] = {7, 7, 2, 1}, B2[4] = {7, 7, 1, 1};
  double u2[2] = {0.5, 0}, v2[2] = {0, 1}, out2[4], pre2[4], att2[4];
  static const size_t idx2[4] = {0, 0, 1, 0};
  rl_tl_rel h2 = {idx2, 2, 0.5, A2, B2, u2, v2, NULL};
  rl_tl_relattn_forward(out2, pre2, att2, qkv2, &h2, 1, 2, 2, 1);
  tap_abs_close(pre2[2], 4.75, 0.0, "relattn logit by hand: (2.5 + 5 + 2) / 2");
}

/* ---- t5 bias through attention: buckets past the exact range ---- */
enum { T5T = 12, NB = 8, MAXD = 10 };
struct t5 { double *tab, *bias, *qkv, *out, *pre, *att, *dw; };
static double t5_f(void *c)
{
  struct t5 *s = c;
  rl_tl_t5_forward(s->bias, s->tab, H, T5T, NB, MAXD);
  rl_tl_attention_forward(s->out, s->pre, s->att, s->qkv, s->bias, 1, T5T, C, H, SCALE);
  return dot(s->out, s->dw, T5T * C);
}
static void test_t5(void)
{
  struct t5 s = {rnd(NB * H, 1), zeros(H * T5T * T5T), rnd(T5T * 3 * C, 1), zeros(T5T * C),
                 zeros(H * T5T * T5T), zeros(H * T5T * T5T), rnd(T5T * C, 1)};
  double *dqkv = zeros(T5T * 3 * C), *dbias = zeros(H * T5T * T5T), *dtab = zeros(NB * H);
  double *dpre = zeros(H * T5T * T5T), *datt = zeros(H * T5T * T5T);
  t5_f(&s);
  rl_tl_attention_backward(dqkv, dbias, dpre, datt, s.dw, s.qkv, s.att, 1, T5T, C, H, SCALE);
  rl_tl_t5_backward(dtab, dbias, H, T5T, NB, MAXD);
  tap_le(fd_rel_err(t5_f, &s, s.tab, NB * H, dtab), FD_TOL, "t5 bias d/dtable (%d buckets, T %d)",
         NB, T5T);
  /* the causal buckets used: 0..NB/2-1 exact, the log ones up to MAXD */
  size_t used = 0;
  for (size_t k = 0; k < NB * H; k++)
    used += dtab[k] != 0;
  tap_ok(used >= (NB / 2 + 2) * H, "t5 bias: log buckets reached (%zu entries)", used);
}

/* ---- alibi bias: the formula at one entry by hand ---- */
static void test_alibi(void)
{
  double slopes[H], bias[H * T * T];
  rl_scheme_alibi_slopes(H, slopes);
  rl_tl_alibi_bias(bias, slopes, H, T);
  /* H = 2: slopes 2^-4, 2^-8 (Press et al.: 2^(-8h/H)); query 5, key 2 */
  tap_abs_close(bias[(1 * T + 5) * T + 2], -3.0 / 256.0, 0.0, "alibi bias head 1, 5 - 2");
  tap_abs_close(bias[(0 * T + 5) * T + 2], -3.0 / 16.0, 0.0, "alibi bias head 0, 5 - 2");
}

/* ---- gelu, residual, encoder ---- */
struct el { double *x, *y, *out, *dw; const int *tok; double *wte, *wpe, *th; };
static double gelu_f(void *c)
{
  struct el *s = c;
  rl_tl_gelu_forward(s->out, s->th, s->x, B * T * C);
  return dot(s->out, s->dw, B * T * C);
}
static double res_f(void *c)
{
  struct el *s = c;
  rl_tl_residual_forward(s->out, s->x, s->y, B * T * C);
  return dot(s->out, s->dw, B * T * C);
}
static double enc_f(void *c)
{
  struct el *s = c;
  rl_tl_encoder_forward(s->out, s->tok, s->wte, s->wpe, B, T, C);
  return dot(s->out, s->dw, B * T * C);
}
static void test_elementwise(void)
{
  int tok[B * T];
  for (size_t i = 0; i < B * T; i++)
    tok[i] = (int)rl_train_rng_below(&rng, V);
  struct el s = {rnd(B * T * C, 2), rnd(B * T * C, 1), zeros(B * T * C), rnd(B * T * C, 1),
                 tok, rnd(V * C, 1), rnd(T * C, 1), zeros(B * T * C)};
  double *dx = zeros(B * T * C), *dy = zeros(B * T * C);
  gelu_f(&s);
  rl_tl_gelu_backward_first(dx, s.x, s.th, s.dw, B * T * C);
  tap_le(fd_rel_err(gelu_f, &s, s.x, B * T * C, dx), FD_TOL, "gelu d/dinp");
  { /* the tanh GELU keeps (computed from exp) against libm's tanh, to an
     * absolute 4 ulp of 1: exp's 1 ulp, the sum, the quotient (< 2, so
     * its ulp <= 2^-52) and the difference with 1 each add at most one;
     * x from -40 to 40 crosses 0 and both saturations */
    enum { NG = 8001 };
    double *gx = zeros(NG), *go = zeros(NG), *gt = zeros(NG), worst = 0;
    for (size_t i = 0; i < NG; i++)
      gx[i] = -40.0 + 0.01 * (double)i;
    rl_tl_gelu_forward(go, gt, gx, NG);
    for (size_t i = 0; i < NG; i++) {
      double x = gx[i], u = 0.7978845608028654 * (x + 0.044715 * x * x * x);
      worst = fmax(worst, fabs(gt[i] - tanh(u)));
    }
    tap_le(worst, 4 * 0x1p-52, "gelu's tanh against libm's over [-40, 40]: %.3g", worst);
  }
  rl_tl_residual_backward_first(dx, dy, s.dw, B * T * C);
  tap_le(fd_rel_err(res_f, &s, s.x, B * T * C, dx), FD_TOL, "residual d/da");
  tap_le(fd_rel_err(res_f, &s, s.y, B * T * C, dy), FD_TOL, "residual d/db");
  double *dwte = zeros(V * C), *dwpe = zeros(T * C);
  rl_tl_encoder_backward(dwte, dwpe, s.dw, tok, B, T, C);
  tap_le(fd_rel_err(enc_f, &s, s.wte, V * C, dwte), FD_TOL, "encoder d/dwte");
  tap_le(fd_rel_err(enc_f, &s, s.wpe, T * C, dwpe), FD_TOL, "encoder d/dwpe");
}

/* ---- cross-entropy with ignored positions ---- */
struct ce { double *z, *loss, *p; int *tgt; };
static double ce_f(void *c)
{
  struct ce *s = c;
  return rl_tl_crossentropy_forward(s->loss, s->p, s->z, s->tgt, B * T, V);
}
static void test_crossentropy(void)
{
  int tgt[B * T];
  for (size_t i = 0; i < B * T; i++)
    tgt[i] = i % 3 == 0 ? -1 : (int)rl_train_rng_below(&rng, V);
  struct ce s = {rnd(B * T * V, 2), zeros(B * T), zeros(B * T * V), tgt};
  double *dz = zeros(B * T * V);
  ce_f(&s);
  rl_tl_crossentropy_backward(dz, s.p, tgt, B * T, V, 0);
  tap_le(fd_rel_err(ce_f, &s, s.z, B * T * V, dz), FD_TOL, "crossentropy d/dlogits");
  /* a hand-worked value: logits (0, ln 3) -> p = (1/4, 3/4), target 1 */
  double z2[2] = {0, log(3.0)}, p2[2], l2;
  int t2 = 1;
  double mean = rl_tl_crossentropy_forward(&l2, p2, z2, &t2, 1, 2);
  tap_abs_close(mean, log(4.0 / 3.0), 4 * DBL_EPSILON, "crossentropy -log(3/4)");
}

int main(void)
{
  rl_train_rng_seed(&rng, 12345);
  test_layernorm();
  test_matmul();
  test_rope(C / H, 0, "rope");
  test_rope(C / H, 1, "rope");
  test_rope(2, 0, "rope");
  test_rope(2, 1, "rope");
  test_rope(C / H, 1, "yarn");
  test_attention(0, SCALE);
  test_attention(1, SCALE);
  test_attention(0, SCALE / sqrt(2.0));
  test_attention(1, SCALE / sqrt(2.0));
  test_relattn();
  test_t5();
  test_alibi();
  test_elementwise();
  test_crossentropy();
  while (nbufs)
    free(bufs[--nbufs]);
  return tap_done();
}
