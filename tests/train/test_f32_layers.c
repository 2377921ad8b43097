/* test_f32_layers.c: the float32 relative attention through sgemm
 * (rl_tlf_relattn_*_ws) against the double loops (rl_tl_relattn_*, which
 * test_layers.c checks against finite differences), with every table and
 * bias, and with xl's and deberta's subsets. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "layers.h"
#include "tap.h"

enum { B = 2, T = 7, C = 8, H = 2, NREL = 5 };

static rl_train_rng rng;

static double *rnd(size_t n)
{
  double *p = malloc(n * sizeof *p);
  for (size_t i = 0; p && i < n; i++)
    p[i] = rl_train_rng_normal(&rng);
  return p;
}

static float *tof(const double *x, size_t n)
{
  float *p = malloc((n ? n : 1) * sizeof *p);
  for (size_t i = 0; p && x && i < n; i++)
    p[i] = (float)x[i];
  return x ? p : (free(p), NULL);
}

/* the float result against the double one: worst error over the largest
 * double entry (test_f32.c's measure) */
static double rel_err(const float *f, const double *d, size_t n)
{
  double worst = 0, mx = 0;
  for (size_t i = 0; i < n; i++) {
    double e = fabs((double)f[i] - d[i]);
    worst = isnan(e) ? HUGE_VAL : fmax(worst, e);
    mx = fmax(mx, fabs(d[i]));
  }
  return mx > 0 ? worst / mx : worst;
}

/* test_f32.c's bound for a float32 gradient against float64's (34 u):
 * the entries here are chains of a few sums of at most T + hd terms. */
#define REL_TOL 2e-6

static void test_relattn(int useA, int useB, int useuv, int usebias, const char *name)
{
  static size_t idx[T * T];
  for (size_t t = 0; t < T; t++) /* a clamped distance: several pairs per entry */
    for (size_t t2 = 0; t2 < T; t2++)
      idx[t * T + t2] = t >= t2 ? (t - t2 < NREL ? t - t2 : NREL - 1) : 0;
  size_t hd = C / H, nq = B * T * 3 * C, nt = H * NREL * hd, na = B * H * T * T;
  /* inputs and their float copies (the double loops run on the floats'
   * values, so both compute at one point) */
  double *qkv = rnd(nq), *A = rnd(nt), *Bt = rnd(nt), *u = rnd(H * hd), *v = rnd(H * hd);
  double *bias = rnd(H * T * T), *g = rnd(B * T * C);
  double *all[] = {qkv, A, Bt, u, v, bias, g};
  size_t len[] = {nq, nt, nt, H * hd, H * hd, H * T * T, B * T * C};
  for (size_t k = 0; k < 7; k++)
    for (size_t i = 0; i < len[k]; i++)
      all[k][i] = (double)(float)all[k][i];
  rl_tl_rel r = {idx, NREL, 0.7, useA ? A : NULL, useB ? Bt : NULL, useuv ? u : NULL,
                 useuv ? v : NULL, usebias ? bias : NULL};
  float *fqkv = tof(qkv, nq), *fg = tof(g, B * T * C);
  rl_tlf_rel fr = {idx, NREL, 0.7f, tof(r.A, nt), tof(r.Bt, nt), tof(r.u, H * hd),
                   tof(r.v, H * hd), tof(r.bias, H * T * T)};
  double *out = calloc(B * T * C, sizeof *out), *pre = calloc(na, sizeof *pre);
  double *att = calloc(na, sizeof *att), *dpre = calloc(na, sizeof *dpre);
  double *dqkv = calloc(nq, sizeof *dqkv);
  float *fout = calloc(B * T * C, sizeof *fout), *fpre = calloc(na, sizeof *fpre);
  float *fatt = calloc(na, sizeof *fatt), *fdpre = calloc(na, sizeof *fdpre);
  float *fdqkv = calloc(nq, sizeof *fdqkv);
  float *work = malloc(RL_TL_REL_WORK(T, NREL, hd) * sizeof *work);
  rl_tl_rel d = {idx, NREL, 0.7, calloc(nt, sizeof(double)), calloc(nt, sizeof(double)),
                 calloc(H * hd, sizeof(double)), calloc(H * hd, sizeof(double)),
                 calloc(H * T * T, sizeof(double))};
  rl_tlf_rel fd = {idx, NREL, 0.7f, calloc(nt, sizeof(float)), calloc(nt, sizeof(float)),
                   calloc(H * hd, sizeof(float)), calloc(H * hd, sizeof(float)),
                   calloc(H * T * T, sizeof(float))};
  rl_tl_relattn_forward(out, pre, att, qkv, &r, B, T, C, H);
  rl_tl_relattn_backward(dqkv, &d, dpre, g, qkv, att, &r, B, T, C, H);
  rl_tlf_relattn_forward_ws(fout, fpre, fatt, fqkv, &fr, B, T, C, H, work);
  rl_tlf_relattn_backward_ws(fdqkv, &fd, fdpre, fg, fqkv, fatt, &fr, B, T, C, H, work);
  tap_le(rel_err(fout, out, B * T * C), REL_TOL, "relattn %s: float output vs double", name);
  tap_le(rel_err(fatt, att, na), REL_TOL, "relattn %s: float attention weights vs double", name);
  tap_le(rel_err(fdqkv, dqkv, nq), REL_TOL, "relattn %s: float d/dqkv vs double", name);
  if (useA)
    tap_le(rel_err(fd.A, d.A, nt), REL_TOL, "relattn %s: float d/dA vs double", name);
  if (useB)
    tap_le(rel_err(fd.Bt, d.Bt, nt), REL_TOL, "relattn %s: float d/dBt vs double", name);
  if (useuv) {
    tap_le(rel_err(fd.u, d.u, H * hd), REL_TOL, "relattn %s: float d/du vs double", name);
    if (useA)
      tap_le(rel_err(fd.v, d.v, H * hd), REL_TOL, "relattn %s: float d/dv vs double", name);
  }
  if (usebias)
    tap_le(rel_err(fd.bias, d.bias, H * T * T), REL_TOL, "relattn %s: float d/dbias vs double",
           name);
  for (size_t k = 0; k < 7; k++)
    free(all[k]);
  free(fqkv), free(fg), free(fr.A), free(fr.Bt), free(fr.u), free(fr.v), free(fr.bias);
  free(out), free(pre), free(att), free(dpre), free(dqkv);
  free(fout), free(fpre), free(fatt), free(fdpre), free(fdqkv), free(work);
  free(d.A), free(d.Bt), free(d.u), free(d.v), free(d.bias);
  free(fd.A), free(fd.Bt), free(fd.u), free(fd.v), free(fd.bias);
}

int main(void)
{
  rl_train_rng_seed(&rng, 5);
  test_relattn(1, 1, 1, 1, "every table and bias");
  test_relattn(1, 0, 1, 0, "xl's (A, u, v)");
  test_relattn(1, 1, 0, 0, "deberta's (A, Bt)");
  test_relattn(0, 0, 1, 1, "no tables (u, bias)");
  return tap_done();
}
