/* layers_impl.h: the trainer's layers, forward and backward (layers.h),
 * written once over `real` and compiled twice: layers.c (double, the
 * names rl_tl_*) and layers_f32.c (float, rl_tlf_*), each defining
 * IMPL_REAL and IMPL_TL before including this file.  The backward formulas
 * are the chain rule written out per layer, as llm.c's train_gpt2.c lays
 * them out; the matrix products go through CBLAS (dgemm, sgemm).  The
 * constants are written (real)c, so the double build is the same
 * arithmetic, and the same bits, as before it was a template; the float
 * build uses the float functions (expf, ...) and accumulates in float,
 * as a float32 trainer does (PyTorch's CPU kernels, llm.c). */
#include <math.h>
#include <string.h>
#include "layers.h"
#include "ropelab.h"
#include "../base/internal.h"

typedef IMPL_REAL real;
#define TL(name) IMPL_TL(name)
#ifdef IMPL_FLOAT
#define R_EXP expf
#define R_LOG logf
#define R_SQRT sqrtf
#define R_GEMM rl_blas_sgemm
#define R_HUGE HUGE_VALF
#else
#define R_EXP exp
#define R_LOG log
#define R_SQRT sqrt
#define R_GEMM rl_blas_dgemm
#define R_HUGE HUGE_VAL
#endif
#define R(c) ((real)(c))
/* y[0..n) = e^y in place, libm's exp or expf bits.  A vector expf
 * (4 lanes, 1.03e-7 relative error) was tried, 2026-12-06: it changed
 * every scheme's float32 training, and the defaults' >= 99% was measured
 * on libm's bits; the float build's lanes (expf_vec.c) are glibc's expf
 * itself, the same double operations per lane, so the same floats. */
#ifdef IMPL_FLOAT
#define R_EXP_INPLACE(y, n) rl_tl_expf_inplace((y), (n))
#else
#define R_EXP_INPLACE(y, n)                                                              \
  do {                                                                                   \
    for (size_t i_ = 0; i_ < (n); i_++)                                                  \
      (y)[i_] = R_EXP((y)[i_]);                                                          \
  } while (0)
#endif

void TL(encoder_forward)(real *out, const int *inp, const real *wte, const real *wpe,
                           size_t B, size_t T, size_t C)
{
  for (size_t b = 0; b < B; b++)
    for (size_t t = 0; t < T; t++) {
      real *o = out + (b * T + t) * C;
      const real *e = wte + (size_t)inp[b * T + t] * C;
      for (size_t c = 0; c < C; c++)
        o[c] = e[c] + (wpe ? wpe[t * C + c] : R(0.0));
    }
}

void TL(encoder_backward)(real *dwte, real *dwpe, const real *dout, const int *inp,
                            size_t B, size_t T, size_t C)
{
  for (size_t b = 0; b < B; b++)
    for (size_t t = 0; t < T; t++) {
      const real *d = dout + (b * T + t) * C;
      real *e = dwte + (size_t)inp[b * T + t] * C;
      for (size_t c = 0; c < C; c++) {
        e[c] += d[c];
        if (dwpe)
          dwpe[t * C + c] += d[c];
      }
    }
}

void TL(layernorm_forward)(real *out, real *mean, real *rstd, const real *inp,
                             const real *w, const real *b, size_t N, size_t C)
{
  /* two rows at a time: their sums are independent chains whose
   * additions overlap, each in the order of c (the same bits) */
  size_t n = 0;
  for (; n + 2 <= N; n += 2) {
    const real *x = inp + n * C, *y = x + C;
    real m = 0, my = 0, v = 0, vy = 0;
    for (size_t c = 0; c < C; c++)
      m += x[c], my += y[c];
    m /= (real)C, my /= (real)C;
    for (size_t c = 0; c < C; c++)
      v += (x[c] - m) * (x[c] - m), vy += (y[c] - my) * (y[c] - my);
    mean[n] = m, mean[n + 1] = my;
    rstd[n] = R(1.0) / R_SQRT(v / (real)C + R(1e-5)), rstd[n + 1] = R(1.0) / R_SQRT(vy / (real)C + R(1e-5));
  }
  for (; n < N; n++) {
    const real *x = inp + n * C;
    real m = 0, v = 0;
    for (size_t c = 0; c < C; c++)
      m += x[c];
    m /= (real)C;
    for (size_t c = 0; c < C; c++)
      v += (x[c] - m) * (x[c] - m);
    mean[n] = m, rstd[n] = R(1.0) / R_SQRT(v / (real)C + R(1e-5));
  }
  for (n = 0; n < N; n++) {
    const real *x = inp + n * C;
    real m = mean[n], s = rstd[n];
    for (size_t c = 0; c < C; c++)
      out[n * C + c] = (x[c] - m) * s * w[c] + b[c];
  }
}

/* Row n's part of LayerNorm's backward once its sums are known (sd, sdx:
 * the means of dxhat and of dxhat xhat): dw, db and dinp. */
static void layernorm_backward_row(real *dinp, real *dw, real *db, const real *d,
                                   const real *x, const real *w, real m, real s,
                                   real sd, real sdx, size_t C)
{
  for (size_t c = 0; c < C; c++) {
    real xh = (x[c] - m) * s, dxh = d[c] * w[c];
    db[c] += d[c];
    dw[c] += xh * d[c];
    dinp[c] += s * (dxh - sd - xh * sdx);
  }
}

void TL(layernorm_backward)(real *dinp, real *dw, real *db, const real *dout,
                              const real *inp, const real *w, const real *mean,
                              const real *rstd, size_t N, size_t C)
{
  /* dxhat = dout w; dx = s (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
   * Two rows' sums at a time, as the forward's (chains that overlap, each
   * in the order of c), then their rows in order: dw and db take row n
   * before row n + 1, as before. */
  for (size_t n = 0; n < N; n += 2) {
    size_t k = n + 1 < N ? 2 : 1;
    real sd[2] = {0, 0}, sdx[2] = {0, 0};
    const real *x = inp + n * C, *d = dout + n * C;
    if (k == 2) {
      const real *x1 = x + C, *d1 = d + C;
      real m = mean[n], s = rstd[n], m1 = mean[n + 1], s1 = rstd[n + 1];
      for (size_t c = 0; c < C; c++) {
        real xh = (x[c] - m) * s, dxh = d[c] * w[c];
        real xh1 = (x1[c] - m1) * s1, dxh1 = d1[c] * w[c];
        sd[0] += dxh, sdx[0] += dxh * xh;
        sd[1] += dxh1, sdx[1] += dxh1 * xh1;
      }
    } else {
      for (size_t c = 0; c < C; c++) {
        real xh = (x[c] - mean[n]) * rstd[n], dxh = d[c] * w[c];
        sd[0] += dxh, sdx[0] += dxh * xh;
      }
    }
    for (size_t j = 0; j < k; j++)
      layernorm_backward_row(dinp + (n + j) * C, dw, db, d + j * C, x + j * C, w, mean[n + j],
                             rstd[n + j], sd[j] / (real)C, sdx[j] / (real)C, C);
  }
}

void TL(matmul_forward)(real *out, const real *inp, const real *w, const real *bias,
                          size_t N, size_t C, size_t OC)
{
  real beta = R(0.0);
  if (bias) {
    for (size_t n = 0; n < N; n++)
      memcpy(out + n * OC, bias, OC * sizeof *out);
    beta = R(1.0);
  }
  R_GEMM(CblasNoTrans, CblasTrans, (int)N, (int)OC, (int)C, R(1.0), inp,
              (int)C, w, (int)C, beta, out, (int)OC);
}

void TL(matmul_backward)(real *dinp, real *dw, real *dbias, const real *dout,
                           const real *inp, const real *w, size_t N, size_t C, size_t OC)
{
  /* dinp[N][C] += dout[N][OC] w[OC][C]; dw[OC][C] += dout^T inp */
  R_GEMM(CblasNoTrans, CblasNoTrans, (int)N, (int)C, (int)OC, R(1.0), dout,
              (int)OC, w, (int)C, R(1.0), dinp, (int)C);
  R_GEMM(CblasTrans, CblasNoTrans, (int)OC, (int)C, (int)N, R(1.0), dout,
              (int)OC, inp, (int)C, R(1.0), dw, (int)C);
  if (dbias)
    for (size_t n = 0; n < N; n++)
      for (size_t o = 0; o < OC; o++)
        dbias[o] += dout[n * OC + o];
}

/* The two dims of pair i in a head, as rl_layout pairs them. */
static void pair_dims(size_t i, size_t rot, int half, size_t *a, size_t *b)
{
  if (half)
    *a = i, *b = i + rot / 2;
  else
    *a = 2 * i, *b = 2 * i + 1;
}

void TL(rope_forward)(real *out, const real *inp, const real *cs, const real *sn,
                        size_t B, size_t T, size_t C, size_t H, size_t rot, int half)
{
  size_t hd = C / H, np = rot / 2;
  for (size_t b = 0; b < B; b++)
    for (size_t t = 0; t < T; t++) {
      const real *x = inp + (b * T + t) * 3 * C;
      real *y = out + (b * T + t) * 3 * C;
      memcpy(y, x, 3 * C * sizeof *y);
      for (size_t part = 0; part < 2; part++) /* q, then k */
        for (size_t h = 0; h < H; h++) {
          size_t o = part * C + h * hd;
          for (size_t i = 0; i < np; i++) {
            size_t a, bb;
            pair_dims(i, rot, half, &a, &bb);
            real c = cs[t * np + i], s = sn[t * np + i];
            y[o + a] = x[o + a] * c - x[o + bb] * s;
            y[o + bb] = x[o + bb] * c + x[o + a] * s;
          }
        }
    }
}

void TL(rope_backward)(real *dinp, const real *dout, const real *cs, const real *sn,
                         size_t B, size_t T, size_t C, size_t H, size_t rot, int half)
{
  size_t hd = C / H, np = rot / 2;
  for (size_t b = 0; b < B; b++)
    for (size_t t = 0; t < T; t++) {
      const real *dy = dout + (b * T + t) * 3 * C;
      real *dx = dinp + (b * T + t) * 3 * C;
      /* the rotated dims are overwritten below by the transpose */
      real *tmp = dx; /* accumulate: add the pass-through first */
      for (size_t part = 0; part < 3; part++)
        for (size_t h = 0; h < H; h++) {
          size_t o = part * C + h * hd;
          for (size_t e = 0; e < hd; e++)
            if (part == 2 || e >= rot)
              tmp[o + e] += dy[o + e];
        }
      for (size_t part = 0; part < 2; part++)
        for (size_t h = 0; h < H; h++) {
          size_t o = part * C + h * hd;
          for (size_t i = 0; i < np; i++) {
            size_t a, bb;
            pair_dims(i, rot, half, &a, &bb);
            real c = cs[t * np + i], s = sn[t * np + i];
            dx[o + a] += dy[o + a] * c + dy[o + bb] * s;
            dx[o + bb] += -dy[o + a] * s + dy[o + bb] * c;
          }
        }
    }
}

/* out[i] = x . y_i for i < n (y_i at y + i * stride), each sum in the
 * order of e.  Four rows at a time: their sums are independent chains,
 * so the additions' latency overlaps (the dot products are short, hd
 * terms, and one chain at a time waited on every addition); each sum is
 * still the same additions in the same order, so the same bits. */
static void dots(real *out, const real *x, const real *y, size_t stride, size_t n,
                 size_t hd)
{
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const real *y0 = y + i * stride, *y1 = y0 + stride, *y2 = y1 + stride, *y3 = y2 + stride;
    real s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t e = 0; e < hd; e++) {
      s0 += x[e] * y0[e];
      s1 += x[e] * y1[e];
      s2 += x[e] * y2[e];
      s3 += x[e] * y3[e];
    }
    out[i] = s0, out[i + 1] = s1, out[i + 2] = s2, out[i + 3] = s3;
  }
  for (; i < n; i++) {
    const real *yi = y + i * stride;
    real s0 = 0;
    for (size_t e = 0; e < hd; e++)
      s0 += x[e] * yi[e];
    out[i] = s0;
  }
}

/* One query row t of causal attention, shared by plain and relative
 * attention: the softmax of pre[0..t] (mx its maximum) into a, the rest of
 * the row zeroed, and out = sum_t2 a[t2] v_t2 (v_t2 at v + t2 * stride). */
static void softmax_value_forward(real *o, real *pre, real *a, real mx, const real *v,
                                  size_t t, size_t T, size_t stride, size_t hd)
{
  real sum = 0;
  for (size_t t2 = 0; t2 <= t; t2++)
    sum += a[t2] = R_EXP(pre[t2] - mx);
  for (size_t t2 = 0; t2 < T; t2++) {
    if (t2 <= t)
      a[t2] /= sum;
    else
      a[t2] = pre[t2] = R(0.0);
  }
  memset(o, 0, hd * sizeof *o);
  for (size_t t2 = 0; t2 <= t; t2++)
    for (size_t e = 0; e < hd; e++)
      o[e] += a[t2] * v[t2 * stride + e];
}

/* Its backward for the row's output gradient g: dv += a g, and through
 * the softmax dp = a (s - sum a s) with s_t2 = v_t2 . g (kept in da when
 * given). */
static void softmax_value_backward(real *dp, real *da, const real *a, const real *g,
                                   const real *v, real *dv, size_t t, size_t stride,
                                   size_t hd)
{
  dots(dp, g, v, stride, t + 1, hd);
  real dot = 0;
  for (size_t t2 = 0; t2 <= t; t2++) {
    real *dvr = dv + t2 * stride;
    for (size_t e = 0; e < hd; e++)
      dvr[e] += a[t2] * g[e];
    if (da)
      da[t2] = dp[t2];
    dot += a[t2] * dp[t2];
  }
  for (size_t t2 = 0; t2 <= t; t2++)
    dp[t2] = a[t2] * (dp[t2] - dot);
}

#ifdef IMPL_FLOAT
/* float: per sequence and head, the attention's products as sgemm over
 * the whole T x T square (PyTorch's bmm), the causal half then masked:
 * twice the products of the triangle, at the BLAS kernel's rate rather
 * than the scalar loops' (the loops below, float64's, were 30% of a
 * float32 step's CPU, perf, 2026-12-06).  The same function as those
 * loops; its sums in another order (test_f32.c checks the float gradient
 * against the float64 one). */
/* The causal softmax of one head's square of logits pre [T][T] (plus
 * bias [T][T] when given, added into pre) into a; above the diagonal
 * both zeroed. */
static void softmax_rows(real *pre, real *a, const real *bias, size_t T)
{
  for (size_t t = 0; t < T; t++) {
    real *p = pre + t * T, *ar = a + t * T, mx = -R_HUGE, sum = 0;
    for (size_t t2 = 0; t2 <= t; t2++) {
      if (bias)
        p[t2] += bias[t * T + t2];
      if (p[t2] > mx)
        mx = p[t2];
    }
    for (size_t t2 = 0; t2 <= t; t2++)
      ar[t2] = p[t2] - mx;
    R_EXP_INPLACE(ar, t + 1); /* then the sum, in order */
    for (size_t t2 = 0; t2 <= t; t2++)
      sum += ar[t2];
    for (size_t t2 = 0; t2 < T; t2++) {
      if (t2 <= t)
        ar[t2] /= sum;
      else
        ar[t2] = p[t2] = R(0.0);
    }
  }
}

/* Its backward, in place: dp [T][T] holds the gradient of a and becomes
 * that of pre, a (dp - sum a dp) per row, zero above the diagonal; datt
 * (when given) keeps the gradient of a, dbias (when given) += dp. */
static void softmax_rows_backward(real *dp, real *datt, real *dbias, const real *a, size_t T)
{
  for (size_t t = 0; t < T; t++) {
    const real *ar = a + t * T;
    real *g = dp + t * T, dot = 0;
    for (size_t t2 = 0; t2 <= t; t2++) {
      if (datt)
        datt[t * T + t2] = g[t2];
      dot += ar[t2] * g[t2];
    }
    for (size_t t2 = 0; t2 < T; t2++) {
      g[t2] = t2 <= t ? ar[t2] * (g[t2] - dot) : R(0.0);
      if (dbias && t2 <= t)
        dbias[t * T + t2] += g[t2];
    }
  }
}

void TL(attention_forward)(real *out, real *preatt, real *att, const real *qkv,
                           const real *bias, size_t B, size_t T, size_t C, size_t H,
                           real scale)
{
  size_t hd = C / H;
  int ld = (int)(3 * C), n = (int)T;
  for (size_t b = 0; b < B; b++)
    for (size_t h = 0; h < H; h++) {
      const real *q = qkv + (b * T) * 3 * C + h * hd;
      real *pre = preatt + (b * H + h) * T * T, *a = att + (b * H + h) * T * T;
      R_GEMM(CblasNoTrans, CblasTrans, n, n, (int)hd, scale, q, ld, q + C, ld, R(0.0), pre, n);
      softmax_rows(pre, a, bias ? bias + h * T * T : NULL, T);
      R_GEMM(CblasNoTrans, CblasNoTrans, n, (int)hd, n, R(1.0), a, n, q + 2 * C, ld, R(0.0),
             out + (b * T) * C + h * hd, (int)C);
    }
}

void TL(attention_backward)(real *dqkv, real *dbias, real *dpreatt, real *datt,
                            const real *dout, const real *qkv, const real *att,
                            size_t B, size_t T, size_t C, size_t H, real scale)
{
  size_t hd = C / H;
  int ld = (int)(3 * C), n = (int)T;
  for (size_t b = 0; b < B; b++)
    for (size_t h = 0; h < H; h++) {
      const real *q = qkv + (b * T) * 3 * C + h * hd, *d = dout + (b * T) * C + h * hd;
      real *dq = dqkv + (b * T) * 3 * C + h * hd;
      const real *a = att + (b * H + h) * T * T;
      real *dp = dpreatt + (b * H + h) * T * T;
      /* through out = att v: datt = dout v^T, dv += att^T dout */
      R_GEMM(CblasNoTrans, CblasTrans, n, n, (int)hd, R(1.0), d, (int)C, q + 2 * C, ld, R(0.0),
             dp, n);
      R_GEMM(CblasTrans, CblasNoTrans, n, (int)hd, n, R(1.0), a, n, d, (int)C, R(1.0),
             dq + 2 * C, ld);
      /* through the softmax, row by row; zero above the diagonal */
      softmax_rows_backward(dp, datt ? datt + (b * H + h) * T * T : NULL,
                            dbias ? dbias + h * T * T : NULL, a, T);
      /* pre = scale q k^T: dq += scale dp k, dk += scale dp^T q */
      R_GEMM(CblasNoTrans, CblasNoTrans, n, (int)hd, n, scale, dp, n, q + C, ld, R(1.0), dq, ld);
      R_GEMM(CblasTrans, CblasNoTrans, n, (int)hd, n, scale, dp, n, q, ld, R(1.0), dq + C, ld);
    }
}
#else
void TL(attention_forward)(real *out, real *preatt, real *att, const real *qkv,
                             const real *bias, size_t B, size_t T, size_t C, size_t H,
                             real scale)
{
  size_t hd = C / H;
  for (size_t b = 0; b < B; b++)
    for (size_t h = 0; h < H; h++)
      for (size_t t = 0; t < T; t++) {
        const real *q = qkv + (b * T + t) * 3 * C + h * hd;
        real *pre = preatt + ((b * H + h) * T + t) * T;
        real *a = att + ((b * H + h) * T + t) * T;
        const real *k0 = qkv + (b * T) * 3 * C + C + h * hd; /* key 0 of this head */
        dots(pre, q, k0, 3 * C, t + 1, hd);
        real mx = -R_HUGE;
        for (size_t t2 = 0; t2 <= t; t2++) {
          real v = pre[t2] * scale + (bias ? bias[(h * T + t) * T + t2] : R(0.0));
          pre[t2] = v;
          if (v > mx)
            mx = v;
        }
        softmax_value_forward(out + (b * T + t) * C + h * hd, pre, a, mx, qkv + (b * T) * 3 * C
                              + 2 * C + h * hd, t, T, 3 * C, hd);
      }
}

void TL(attention_backward)(real *dqkv, real *dbias, real *dpreatt, real *datt,
                              const real *dout, const real *qkv, const real *att,
                              size_t B, size_t T, size_t C, size_t H, real scale)
{
  size_t hd = C / H;
  for (size_t b = 0; b < B; b++)
    for (size_t h = 0; h < H; h++)
      for (size_t t = 0; t < T; t++) {
        const real *a = att + ((b * H + h) * T + t) * T;
        real *da = datt ? datt + ((b * H + h) * T + t) * T : NULL;
        real *dp = dpreatt + ((b * H + h) * T + t) * T;
        const real *d = dout + (b * T + t) * C + h * hd;
        /* through out = sum att v */
        size_t vo = (b * T) * 3 * C + 2 * C + h * hd; /* position 0's v of this head */
        softmax_value_backward(dp, da, a, d, qkv + vo, dqkv + vo, t, 3 * C, hd);
        const real *q = qkv + (b * T + t) * 3 * C + h * hd;
        real *dq = dqkv + (b * T + t) * 3 * C + h * hd;
        for (size_t t2 = 0; t2 <= t; t2++) {
          const real *k = qkv + (b * T + t2) * 3 * C + C + h * hd;
          real *dk = dqkv + (b * T + t2) * 3 * C + C + h * hd;
          real g = dp[t2] * scale;
          for (size_t e = 0; e < hd; e++) {
            dq[e] += g * k[e];
            dk[e] += g * q[e];
          }
          if (dbias)
            dbias[(h * T + t) * T + t2] += dp[t2];
        }
      }
}
#endif

void TL(alibi_bias)(real *bias, const real *slopes, size_t H, size_t T)
{
  for (size_t h = 0; h < H; h++)
    for (size_t t = 0; t < T; t++)
      for (size_t t2 = 0; t2 < T; t2++)
        bias[(h * T + t) * T + t2] = t2 <= t ? -slopes[h] * (real)(t - t2) : R(0.0);
}

void TL(t5_forward)(real *bias, const real *t5, size_t H, size_t T, size_t nb,
                      size_t maxd)
{
  for (size_t t = 0; t < T; t++)
    for (size_t t2 = 0; t2 < T; t2++) {
      long k = t2 <= t ? rl_t5_bucket((long)t2 - (long)t, 0, (long)nb, (long)maxd) : -1;
      for (size_t h = 0; h < H; h++)
        bias[(h * T + t) * T + t2] = k >= 0 ? t5[(size_t)k * H + h] : R(0.0);
    }
}

void TL(t5_backward)(real *dt5, const real *dbias, size_t H, size_t T, size_t nb,
                       size_t maxd)
{
  for (size_t t = 0; t < T; t++)
    for (size_t t2 = 0; t2 <= t; t2++) {
      long k = rl_t5_bucket((long)t2 - (long)t, 0, (long)nb, (long)maxd);
      if (k < 0)
        continue;
      for (size_t h = 0; h < H; h++)
        dt5[(size_t)k * H + h] += dbias[(h * T + t) * T + t2];
    }
}

#define GELU_C R(0.7978845608028654) /* sqrt(2/pi) */

/* GELU's tanh u as 1 - 2 / (e^{2u} + 1): GELU uses t only as 1 + t and 1 - t^2,
 * where this is as accurate as tanh (absolute error a few ulp of 1; the
 * relative error of t near u = 0 does not matter there), and glibc's exp
 * costs well under the expm1 inside its tanh (GELU's tanh was 17% of a
 * training step's CPU, perf).  e^{2u} overflows to inf for u > 354
 * (float: 44): then t = 1 exactly, as it should be. */
void TL(gelu_forward)(real *out, real *th, const real *inp, size_t N)
{
  /* the exponents, their exponentials (libm's calls), then the rest in a loop of its
   * own that vectorises its divisions (perf, t5: the layer with its exp
   * calls 14.0% of a step's CPU before, 12.7% after; float32 with expf's
   * calls 5%, 2026-12-06) */
  for (size_t i = 0; i < N; i++) {
    real x = inp[i];
    th[i] = R(2.0) * (GELU_C * (x + R(0.044715) * x * x * x));
  }
  R_EXP_INPLACE(th, N);
  for (size_t i = 0; i < N; i++) {
    real x = inp[i], t = R(1.0) - R(2.0) / (th[i] + R(1.0));
    th[i] = t;
    out[i] = R(0.5) * x * (R(1.0) + t);
  }
}

/* GELU's derivative at x (t its tanh) times the output gradient g */
static inline real gelu_grad(real x, real t, real g)
{
  real du = GELU_C * (R(1.0) + R(3.0) * R(0.044715) * x * x);
  return g * (R(0.5) * (R(1.0) + t) + R(0.5) * x * (R(1.0) - t * t) * du);
}

/* R(0.0) + x, not x: the sum the zeroed buffer gave (+0 for x = -0);
 * the compiler may not drop it (signed zeros) */
void TL(gelu_backward_first)(real *dinp, const real *inp, const real *th, const real *dout,
                             size_t N)
{
  for (size_t i = 0; i < N; i++)
    dinp[i] = R(0.0) + gelu_grad(inp[i], th[i], dout[i]);
}

void TL(residual_forward)(real *out, const real *a, const real *b, size_t N)
{
  for (size_t i = 0; i < N; i++)
    out[i] = a[i] + b[i];
}

void TL(residual_backward_first)(real *da, real *db, const real *dout, size_t N)
{
  for (size_t i = 0; i < N; i++)
    da[i] = db[i] = R(0.0) + dout[i];
}

double TL(crossentropy_forward)(real *losses, real *probs, const real *logits,
                                  const int *tgt, size_t N, size_t V)
{
  double total = 0;
  size_t count = 0;
  for (size_t n = 0; n < N; n++) {
    const real *z = logits + n * V;
    real *p = probs + n * V, mx = -R_HUGE, sum = 0;
    for (size_t v = 0; v < V; v++)
      if (z[v] > mx)
        mx = z[v];
    for (size_t v = 0; v < V; v++)
      p[v] = z[v] - mx;
    R_EXP_INPLACE(p, V);
    for (size_t v = 0; v < V; v++)
      sum += p[v];
    for (size_t v = 0; v < V; v++)
      p[v] /= sum;
    losses[n] = 0;
    if (tgt[n] >= 0) {
      /* log-sum-exp form: exact where p[tgt] underflows */
      losses[n] = mx + R_LOG(sum) - z[tgt[n]];
      total += (double)losses[n];
      count++;
    }
  }
  return count ? total / (double)count : 0.0;
}

void TL(crossentropy_backward)(real *dlogits, const real *probs, const int *tgt, size_t N,
                                 size_t V, size_t count)
{
  if (!count)
    for (size_t n = 0; n < N; n++)
      count += tgt[n] >= 0;
  if (!count)
    return;
  real w = R(1.0) / (real)count;
  for (size_t n = 0; n < N; n++) {
    if (tgt[n] < 0)
      continue;
    for (size_t v = 0; v < V; v++)
      dlogits[n * V + v] += w * (probs[n * V + v] - (v == (size_t)tgt[n] ? R(1.0) : R(0.0)));
  }
}

#ifdef IMPL_FLOAT
/* float: relative attention as the plain attention's float build, per
 * sequence and head through sgemm (the scalar loops below, float64's,
 * were 41% of an xl float32 step's CPU, perf, 2026-12-06): the content
 * logits (q + u) k^T over the square; the position terms as the products
 * with the whole table, QA = (q + v) A^T [T][nrel] and KB = k Bt^T,
 * each logit then reading its entry QA[t][idx[t][t2]], KB[t2][idx[t][t2]]
 * (gathered; the backward scatters into the same shapes).  The same
 * function as the loops, its sums in another order (test_f32_layers.c
 * checks it against the double build). */

/* the table rows the causal triangle reads: 1 + its largest index */
static size_t rel_rows(const TL(rel) *r, size_t T)
{
  size_t nr = 0;
  for (size_t t = 0; t < T; t++)
    for (size_t t2 = 0; t2 <= t; t2++)
      nr = r->idx[t * T + t2] >= nr ? r->idx[t * T + t2] + 1 : nr;
  return nr < r->nrel ? nr : r->nrel;
}

/* rows of q (leading dimension ld) plus the vector w into out [T][hd], or
 * q itself when w is NULL; *ldo its leading dimension */
static const real *plus_row(real *out, const real *q, int ld, const real *w, size_t T,
                            size_t hd, int *ldo)
{
  *ldo = ld;
  if (!w)
    return q;
  for (size_t t = 0; t < T; t++)
    for (size_t e = 0; e < hd; e++)
      out[t * hd + e] = q[t * (size_t)ld + e] + w[e];
  *ldo = (int)hd;
  return out;
}

void TL(relattn_forward_ws)(real *out, real *preatt, real *att, const real *qkv,
                            const TL(rel) *r, size_t B, size_t T, size_t C, size_t H,
                            real *work)
{
  size_t hd = C / H, nr = rel_rows(r, T);
  int ld = (int)(3 * C), n = (int)T, ldq, ldv;
  real *qu = work, *qv = qu + T * hd, *qa = qv + T * hd, *kb = qa + T * r->nrel;
  for (size_t b = 0; b < B; b++)
    for (size_t h = 0; h < H; h++) {
      const real *q = qkv + (b * T) * 3 * C + h * hd, *k = q + C;
      real *pre = preatt + (b * H + h) * T * T, *a = att + (b * H + h) * T * T;
      const real *qq = plus_row(qu, q, ld, r->u ? r->u + h * hd : NULL, T, hd, &ldq);
      R_GEMM(CblasNoTrans, CblasTrans, n, n, (int)hd, r->scale, qq, ldq, k, ld, R(0.0), pre, n);
      if (r->A) {
        const real *qw = plus_row(qv, q, ld, r->v ? r->v + h * hd : NULL, T, hd, &ldv);
        R_GEMM(CblasNoTrans, CblasTrans, n, (int)nr, (int)hd, r->scale, qw, ldv,
               r->A + h * r->nrel * hd, (int)hd, R(0.0), qa, (int)nr);
        for (size_t t = 0; t < T; t++)
          for (size_t t2 = 0; t2 <= t; t2++)
            pre[t * T + t2] += qa[t * nr + r->idx[t * T + t2]];
      }
      if (r->Bt) {
        R_GEMM(CblasNoTrans, CblasTrans, n, (int)nr, (int)hd, r->scale, k, ld,
               r->Bt + h * r->nrel * hd, (int)hd, R(0.0), kb, (int)nr);
        for (size_t t = 0; t < T; t++)
          for (size_t t2 = 0; t2 <= t; t2++)
            pre[t * T + t2] += kb[t2 * nr + r->idx[t * T + t2]];
      }
      softmax_rows(pre, a, r->bias ? r->bias + h * T * T : NULL, T);
      R_GEMM(CblasNoTrans, CblasNoTrans, n, (int)hd, n, R(1.0), a, n, q + 2 * C, ld, R(0.0),
             out + (b * T) * C + h * hd, (int)C);
    }
}

void TL(relattn_backward_ws)(real *dqkv, TL(rel) *d, real *dpreatt, const real *dout,
                             const real *qkv, const real *att, const TL(rel) *r, size_t B,
                             size_t T, size_t C, size_t H, real *work)
{
  size_t hd = C / H, nr = rel_rows(r, T), NR = r->nrel;
  int ld = (int)(3 * C), n = (int)T, ldq, ldv;
  real s = r->scale;
  real *qu = work, *qv = qu + T * hd, *dqa = qv + T * hd, *dkb = dqa + T * NR;
  real *col = dkb + T * NR, *row = col + T;
  for (size_t b = 0; b < B; b++)
    for (size_t h = 0; h < H; h++) {
      const real *q = qkv + (b * T) * 3 * C + h * hd, *k = q + C;
      const real *g = dout + (b * T) * C + h * hd, *a = att + (b * H + h) * T * T;
      real *dq = dqkv + (b * T) * 3 * C + h * hd, *dk = dq + C;
      real *dp = dpreatt + (b * H + h) * T * T;
      /* through out = att v, then the softmax */
      R_GEMM(CblasNoTrans, CblasTrans, n, n, (int)hd, R(1.0), g, (int)C, q + 2 * C, ld, R(0.0),
             dp, n);
      R_GEMM(CblasTrans, CblasNoTrans, n, (int)hd, n, R(1.0), a, n, g, (int)C, R(1.0),
             dq + 2 * C, ld);
      softmax_rows_backward(dp, NULL, d->bias ? d->bias + h * T * T : NULL, a, T);
      /* content: dq += s dp k, dk += s dp^T (q + u), du += s sum_t (dp k)_t */
      const real *qq = plus_row(qu, q, ld, r->u ? r->u + h * hd : NULL, T, hd, &ldq);
      R_GEMM(CblasNoTrans, CblasNoTrans, n, (int)hd, n, s, dp, n, k, ld, R(1.0), dq, ld);
      R_GEMM(CblasTrans, CblasNoTrans, n, (int)hd, n, s, dp, n, qq, ldq, R(1.0), dk, ld);
      if (d->u) {
        real *du = d->u + h * hd;
        for (size_t t2 = 0; t2 < T; t2++) {
          col[t2] = 0;
          for (size_t t = t2; t < T; t++)
            col[t2] += dp[t * T + t2];
        }
        for (size_t t2 = 0; t2 < T; t2++)
          for (size_t e = 0; e < hd; e++)
            du[e] += s * col[t2] * k[t2 * (size_t)ld + e];
      }
      if (r->A) { /* dQA[t][idx] += dp[t][t2]; dq += s dQA A, dv, dA */
        const real *A = r->A + h * NR * hd;
        memset(dqa, 0, T * nr * sizeof *dqa);
        for (size_t t = 0; t < T; t++)
          for (size_t t2 = 0; t2 <= t; t2++)
            dqa[t * nr + r->idx[t * T + t2]] += dp[t * T + t2];
        R_GEMM(CblasNoTrans, CblasNoTrans, n, (int)hd, (int)nr, s, dqa, (int)nr, A, (int)hd,
               R(1.0), dq, ld);
        if (d->v) {
          real *dvb = d->v + h * hd;
          for (size_t i = 0; i < nr; i++) {
            row[i] = 0;
            for (size_t t = 0; t < T; t++)
              row[i] += dqa[t * nr + i];
          }
          for (size_t i = 0; i < nr; i++)
            for (size_t e = 0; e < hd; e++)
              dvb[e] += s * row[i] * A[i * hd + e];
        }
        if (d->A) {
          const real *qw = plus_row(qv, q, ld, r->v ? r->v + h * hd : NULL, T, hd, &ldv);
          R_GEMM(CblasTrans, CblasNoTrans, (int)nr, (int)hd, n, s, dqa, (int)nr, qw, ldv, R(1.0),
                 d->A + h * NR * hd, (int)hd);
        }
      }
      if (r->Bt) { /* dKB[t2][idx] += dp[t][t2]; dk += s dKB Bt, dBt += s dKB^T k */
        memset(dkb, 0, T * nr * sizeof *dkb);
        for (size_t t = 0; t < T; t++)
          for (size_t t2 = 0; t2 <= t; t2++)
            dkb[t2 * nr + r->idx[t * T + t2]] += dp[t * T + t2];
        R_GEMM(CblasNoTrans, CblasNoTrans, n, (int)hd, (int)nr, s, dkb, (int)nr,
               r->Bt + h * NR * hd, (int)hd, R(1.0), dk, ld);
        if (d->Bt)
          R_GEMM(CblasTrans, CblasNoTrans, (int)nr, (int)hd, n, s, dkb, (int)nr, k, ld, R(1.0),
                 d->Bt + h * NR * hd, (int)hd);
      }
    }
}
#else
void TL(relattn_forward_ws)(real *out, real *preatt, real *att, const real *qkv,
                            const TL(rel) *r, size_t B, size_t T, size_t C, size_t H,
                            real *work)
{
  (void)work;
  TL(relattn_forward)(out, preatt, att, qkv, r, B, T, C, H);
}

void TL(relattn_backward_ws)(real *dqkv, TL(rel) *d, real *dpreatt, const real *dout,
                             const real *qkv, const real *att, const TL(rel) *r, size_t B,
                             size_t T, size_t C, size_t H, real *work)
{
  (void)work;
  TL(relattn_backward)(dqkv, d, dpreatt, dout, qkv, att, r, B, T, C, H);
}
#endif

/* the loops (the double build's, and the float build's reference) */
void TL(relattn_forward)(real *out, real *preatt, real *att, const real *qkv,
                           const TL(rel) *r, size_t B, size_t T, size_t C, size_t H)
{
  size_t hd = C / H;
  for (size_t b = 0; b < B; b++)
    for (size_t h = 0; h < H; h++)
      for (size_t t = 0; t < T; t++) {
        const real *q = qkv + (b * T + t) * 3 * C + h * hd;
        const real *u = r->u ? r->u + h * hd : NULL, *v = r->v ? r->v + h * hd : NULL;
        real *pre = preatt + ((b * H + h) * T + t) * T;
        real *a = att + ((b * H + h) * T + t) * T;
        real mx = -R_HUGE;
        for (size_t t2 = 0; t2 <= t; t2++) {
          const real *k = qkv + (b * T + t2) * 3 * C + C + h * hd;
          size_t ix = r->idx[t * T + t2];
          const real *A = r->A ? r->A + (h * r->nrel + ix) * hd : NULL;
          const real *Bt = r->Bt ? r->Bt + (h * r->nrel + ix) * hd : NULL;
          real s = 0;
          for (size_t e = 0; e < hd; e++) {
            real qu = q[e] + (u ? u[e] : R(0.0));
            s += qu * k[e];
            if (A)
              s += (q[e] + (v ? v[e] : R(0.0))) * A[e];
            if (Bt)
              s += k[e] * Bt[e];
          }
          s = s * r->scale + (r->bias ? r->bias[(h * T + t) * T + t2] : R(0.0));
          pre[t2] = s;
          if (s > mx)
            mx = s;
        }
        softmax_value_forward(out + (b * T + t) * C + h * hd, pre, a, mx, qkv + (b * T) * 3 * C
                              + 2 * C + h * hd, t, T, 3 * C, hd);
      }
}

void TL(relattn_backward)(real *dqkv, TL(rel) *d, real *dpreatt, const real *dout,
                            const real *qkv, const real *att, const TL(rel) *r, size_t B,
                            size_t T, size_t C, size_t H)
{
  size_t hd = C / H;
  for (size_t b = 0; b < B; b++)
    for (size_t h = 0; h < H; h++)
      for (size_t t = 0; t < T; t++) {
        const real *a = att + ((b * H + h) * T + t) * T;
        real *dp = dpreatt + ((b * H + h) * T + t) * T;
        const real *g = dout + (b * T + t) * C + h * hd;
        /* through out = sum att v, then the softmax */
        size_t vo = (b * T) * 3 * C + 2 * C + h * hd; /* position 0's v of this head */
        softmax_value_backward(dp, NULL, a, g, qkv + vo, dqkv + vo, t, 3 * C, hd);
        const real *q = qkv + (b * T + t) * 3 * C + h * hd;
        real *dq = dqkv + (b * T + t) * 3 * C + h * hd;
        const real *u = r->u ? r->u + h * hd : NULL, *vb = r->v ? r->v + h * hd : NULL;
        real *du = d->u ? d->u + h * hd : NULL, *dvb = d->v ? d->v + h * hd : NULL;
        for (size_t t2 = 0; t2 <= t; t2++) {
          const real *k = qkv + (b * T + t2) * 3 * C + C + h * hd;
          real *dk = dqkv + (b * T + t2) * 3 * C + C + h * hd;
          size_t ix = r->idx[t * T + t2];
          const real *A = r->A ? r->A + (h * r->nrel + ix) * hd : NULL;
          const real *Bt = r->Bt ? r->Bt + (h * r->nrel + ix) * hd : NULL;
          real *dA = A && d->A ? d->A + (h * r->nrel + ix) * hd : NULL;
          real *dB = Bt && d->Bt ? d->Bt + (h * r->nrel + ix) * hd : NULL;
          real s = dp[t2] * r->scale;
          if (d->bias)
            d->bias[(h * T + t) * T + t2] += dp[t2];
          for (size_t e = 0; e < hd; e++) {
            /* s ((q + u).k + (q + v).A + k.Bt) */
            dq[e] += s * (k[e] + (A ? A[e] : R(0.0)));
            dk[e] += s * (q[e] + (u ? u[e] : R(0.0)) + (Bt ? Bt[e] : R(0.0)));
            if (du)
              du[e] += s * k[e];
            if (A && dvb)
              dvb[e] += s * A[e];
            if (dA)
              dA[e] += s * (q[e] + (vb ? vb[e] : R(0.0)));
            if (dB)
              dB[e] += s * k[e];
          }
        }
      }
}
