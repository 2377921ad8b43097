/* test_methods.c: the scaling methods of src/core/schedules against
 * published numbers and hand derivations (never the program's own
 * output): YaRN, NTK-aware, Llama 2 / Llama 3.1 settings, dynamic NTK,
 * p-RoPE, xPos, ReRoPE, log-n, M-RoPE, and the errors of rl_schedule_new. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ropelab.h"
#include "tap.h"

#define PI_L 3.141592653589793238462643383279502884L

static rl_schedule_params params(const char *method, size_t dim, double base)
{
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.method = rl_schedule_type_find(method);
  p.dim = dim;
  p.base = base;
  return p;
}

static void factor(rl_schedule_params *p, double s, double L)
{
  p->factor = s;
  p->set |= RL_SP_FACTOR;
  if (L > 0) {
    p->train_len = L;
    p->set |= RL_SP_TRAIN_LEN;
  }
}

/* build or stop: a test that cannot build its schedule cannot go on */
static rl_schedule *build(const rl_schedule_params *p)
{
  rl_schedule *s;
  char err[RL_ERR_MAX];
  if (rl_schedule_new(p, &s, err)) {
    printf("# cannot build '%s': %s\n", p->method ? p->method->name : "?", err);
    exit(1);
  }
  return s;
}

/* RoFormer's theta_i = base^(-2i/r) in long double, by powl */
static long double plain(long double base, size_t i, size_t r)
{
  return powl(base, -(long double)(2 * i) / (long double)r);
}

static void test_yarn_attention(void)
{
  rl_schedule_params p = params("yarn", 128, 10000);
  factor(&p, 8, 4096);
  rl_schedule *s = build(&p);
  /* YaRN sec. 3.4: sqrt(1/t) = 0.1 ln s + 1; at s = 8 the paper and HF
   * give 1.2079442 (7 digits) */
  tap_abs_close(s->attn, 1.2079442, 1e-7, "yarn s=8: attention factor 1.2079442 (published)");
  double want = (double)(0.1L * logl(8.0L) + 1.0L);
  tap_ulp_close(s->attn, want, 2.0, "yarn s=8: attention factor 0.1 ln 8 + 1");
  tap_ulp_close(s->logit_mult, want * want, 2.0, "yarn s=8: logit multiplier attn^2");
  rl_schedule_free(s);
}

static void test_ntk_base(void)
{
  rl_schedule_params p = params("ntk", 128, 10000);
  factor(&p, 2, 0);
  rl_schedule *s = build(&p);
  /* bloc97's NTK-aware base: 10000 * 2^(128/126) = 20221.26 */
  tap_abs_close(s->base, 20221.26, 5e-3, "ntk s=2 d=128: base 20221.26 (published)");
  tap_ulp_close(s->base, (double)(10000.0L * powl(2.0L, 128.0L / 126.0L)), 2.0,
                "ntk s=2 d=128: base 10000 * 2^(128/126)");
  rl_schedule_free(s);
}

static void test_yarn_llama2(void)
{
  rl_schedule_params p = params("yarn", 128, 10000);
  factor(&p, 8, 4096);
  rl_schedule *s = build(&p), *r = tap_rope(128, 128, 10000);
  /* the correction range of Llama 2 with YaRN: cd(b) = 64 ln(4096 /
   * (2 pi b)) / ln 10000 gives 20.94 (b = 32) and 45.03 (b = 1) */
  double lo = 0, hi = 0;
  const char *at = strstr(s->note, "correction range ");
  int got = at && sscanf(at, "correction range %lf .. %lf", &lo, &hi) == 2;
  tap_ok(got, "yarn llama 2: the note gives the correction range ('%s')", s->note);
  tap_abs_close(lo, 20.94, 5e-3, "yarn llama 2: low 20.94 before rounding (note)");
  tap_abs_close(hi, 45.03, 5e-3, "yarn llama 2: high 45.03 before rounding (note)");
  /* recomputed here: floor(20.94) = 20, ceil(45.03) = 46 */
  long double cl = 64.0L * logl(4096.0L / (2 * PI_L * 32)) / logl(10000.0L);
  long double ch = 64.0L * logl(4096.0L / (2 * PI_L * 1)) / logl(10000.0L);
  tap_abs_close(cl, 20.94, 5e-3, "yarn llama 2: low recomputed");
  tap_abs_close(ch, 45.03, 5e-3, "yarn llama 2: high recomputed");
  tap_ok(floorl(cl) == 20 && ceill(ch) == 46, "yarn llama 2: rounded range 20 .. 46");
  int keep = 1, interp = 1;
  for (size_t i = 0; i <= 20; i++)
    keep &= s->theta[i] == r->theta[i] && s->band[i] == RL_BAND_EXTRAPOLATED;
  double worst = 0;
  for (size_t i = 46; i < 64; i++) {
    interp &= s->band[i] == RL_BAND_INTERPOLATED;
    worst = fmax(worst, tap_ulps(s->theta[i], r->theta[i] / 8));
  }
  tap_ok(keep, "yarn llama 2: pairs 0..20 keep theta bitwise (ratio 1)");
  tap_ok(interp, "yarn llama 2: pairs 46..63 interpolated");
  tap_le(worst, 1.0, "yarn llama 2: pairs 46..63 theta/8 (ulps)");
  int between = 1;
  for (size_t i = 21; i < 46; i++)
    between &= s->band[i] == RL_BAND_BETWEEN;
  tap_ok(between, "yarn llama 2: pairs 21..45 between");
  rl_schedule_free(s);
  rl_schedule_free(r);
}

static void test_llama31(void)
{
  rl_schedule_params p = params("llama3", 128, 500000);
  factor(&p, 8, 8192);
  rl_schedule *s = build(&p);
  /* lambda_i = 2 pi 500000^(i/64).  Extrapolated: lambda < 8192/4 = 2048
   *   <=> i < 64 ln(2048/(2 pi)) / ln 500000 = 64 * 5.78674 / 13.12236
   *   = 28.22: pairs 0..28, 29 of them.
   * Interpolated: lambda > 8192 <=> i > 64 ln(8192/(2 pi)) / ln 500000
   *   = 64 * 7.17303 / 13.12236 = 34.98: pairs 35..63, 29 of them.
   * Between: 29..34, 6 pairs. */
  size_t cnt[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < s->n; i++)
    cnt[s->band[i]]++;
  tap_ok(cnt[RL_BAND_EXTRAPOLATED] == 29, "llama 3.1: 29 extrapolated pairs (%zu)",
         cnt[RL_BAND_EXTRAPOLATED]);
  tap_ok(cnt[RL_BAND_BETWEEN] == 6, "llama 3.1: 6 pairs between (%zu)", cnt[RL_BAND_BETWEEN]);
  tap_ok(cnt[RL_BAND_INTERPOLATED] == 29, "llama 3.1: 29 interpolated pairs (%zu)",
         cnt[RL_BAND_INTERPOLATED]);
  tap_ok(s->band[28] == RL_BAND_EXTRAPOLATED && s->band[29] == RL_BAND_BETWEEN &&
             s->band[34] == RL_BAND_BETWEEN && s->band[35] == RL_BAND_INTERPOLATED,
         "llama 3.1: band edges at 28|29 and 34|35");
  /* pair 32 between: g = (8192 theta/(2 pi) - 1)/(4 - 1),
   * theta' = (1 - g) theta/8 + g theta; pair 40: theta/8 */
  long double t32 = plain(500000, 32, 128), g = (8192 * t32 / (2 * PI_L) - 1) / 3;
  tap_ulp_close(s->theta[32], (double)((1 - g) * t32 / 8 + g * t32), 1.0,
                "llama 3.1: pair 32 smoothed frequency");
  tap_ulp_close(s->theta[40], (double)(plain(500000, 40, 128) / 8), 1.0,
                "llama 3.1: pair 40 theta/8");
  rl_schedule_free(s);
}

static void test_dynamic(void)
{
  rl_schedule *r = tap_rope(128, 128, 10000);
  rl_schedule_params p = params("dynamic", 128, 10000);
  factor(&p, 8, 4096);
  p.seq_len = 4096;
  p.set |= RL_SP_SEQ_LEN;
  rl_schedule *h = build(&p);
  int same = h->base == 10000;
  for (size_t i = 0; i < 64; i++)
    same &= h->theta[i] == r->theta[i];
  tap_ok(same, "dynamic hf at seq_len = train_len: rope bitwise");
  p.seq_len = 8 * 4096;
  rl_schedule *hs = build(&p);
  rl_schedule_params v = params("dynamic", 128, 10000);
  factor(&v, 8, 4096);
  v.variant = RL_VARIANT_VLLM;
  v.set |= RL_SP_VARIANT;
  rl_schedule *vl = build(&v);
  same = vl->base == hs->base;
  for (size_t i = 0; i < 64; i++)
    same &= vl->theta[i] == hs->theta[i];
  tap_ok(same, "dynamic vllm = hf at seq_len = s L, bitwise");
  /* hf, s = 2, N = 2L: base (2 * 2 - 1)^(r/(r-2)) = base 3^(128/126) */
  rl_schedule_params q = params("dynamic", 128, 10000);
  factor(&q, 2, 4096);
  q.seq_len = 8192;
  q.set |= RL_SP_SEQ_LEN;
  rl_schedule *h2 = build(&q);
  tap_ulp_close(h2->base, (double)(10000.0L * powl(3.0L, 128.0L / 126.0L)), 2.0,
                "dynamic hf s=2 N=2L: base 10000 * 3^(128/126)");
  rl_schedule_free(r);
  rl_schedule_free(h);
  rl_schedule_free(hs);
  rl_schedule_free(vl);
  rl_schedule_free(h2);
}

static void test_prope(void)
{
  rl_schedule_params p = params("p-rope", 8, 10000);
  rl_schedule_set(&p, "fraction", 0.5);
  rl_schedule *s = build(&p);
  /* 4 pairs, half rotate: theta_0 = 1, theta_1 = 10000^(-1/4) = 0.1 */
  tap_ok(s->theta[0] == 1.0 && s->theta[1] == 0.1 && s->band[0] == RL_BAND_EXTRAPOLATED &&
             s->band[1] == RL_BAND_EXTRAPOLATED,
         "p-rope 0.5 d=8: pairs 0, 1 rotate (theta 1, 0.1)");
  tap_ok(s->theta[2] == 0 && s->theta[3] == 0 && s->band[2] == RL_BAND_UNROTATED &&
             s->band[3] == RL_BAND_UNROTATED,
         "p-rope 0.5 d=8: pairs 2, 3 unrotated (theta 0)");
  rl_schedule_free(s);
}

static void test_xpos(void)
{
  rl_schedule_params p = params("xpos", 128, 10000);
  rl_schedule *s = build(&p);
  /* torchscale XPOS: zeta_i = (2i + 0.4 r)/(1.4 r), rate ln(zeta_i)/512 */
  double worst = 0;
  for (size_t i = 0; i < s->n; i++)
    worst = fmax(worst, tap_ulps(s->amp_rate[i],
                                 (double)(logl((2.0L * i + 0.4L * 128) / (1.4L * 128)) / 512)));
  tap_le(worst, 2.0, "xpos: amp_rate_i = ln((2i + 0.4 r)/(1.4 r))/512 (ulps)");
  tap_ok(rl_schedule_amplitude(s, 0, 0) == 1.0 && rl_schedule_amplitude(s, 63, 0) == 1.0,
         "xpos: amplitude 1 at distance 0");
  rl_schedule_free(s);
}

static void test_rerope(void)
{
  rl_schedule_params p = params("rerope", 128, 10000);
  rl_schedule *s = build(&p);
  /* window 512: min(|r|, w) with the sign of r */
  tap_ok(rl_schedule_relpos(s, 100) == 100 && rl_schedule_relpos(s, 600) == 512 &&
             rl_schedule_relpos(s, -600) == -512,
         "rerope w=512: 100, 600, -600 -> 100, 512, -512");
  rl_schedule_free(s);
  p = params("leaky-rerope", 128, 10000);
  s = build(&p);
  /* beyond w: w + (|r| - w)/k = 512 + 88/16 = 517.5 */
  tap_ok(rl_schedule_relpos(s, 100) == 100 && rl_schedule_relpos(s, 600) == 517.5 &&
             rl_schedule_relpos(s, -600) == -517.5,
         "leaky-rerope w=512 k=16: 100, 600, -600 -> 100, 517.5, -517.5");
  rl_schedule_free(s);
}

static void test_logn(void)
{
  rl_schedule_params p = params("log-n", 128, 10000);
  p.train_len = 4096;
  p.set |= RL_SP_TRAIN_LEN;
  rl_schedule *s = build(&p);
  /* ln 2^13 / ln 2^12 = 13/12 */
  tap_ulp_close(rl_schedule_qscale(s, 8192), 13.0 / 12.0, 2.0, "log-n L=4096: qscale(8192) = 13/12");
  tap_ok(rl_schedule_qscale(s, 1000) == 1.0 && rl_schedule_qscale(s, 4096) == 1.0,
         "log-n L=4096: qscale 1 up to L");
  rl_schedule_free(s);
}

static void test_mrope(void)
{
  rl_schedule_params p = params("mrope", 128, 10000);
  rl_schedule_set_text(&p, "sections", "16,24,24", NULL, 0);
  rl_schedule *s = build(&p);
  /* Qwen2-VL: pairs 0..15 t, 16..39 h, 40..63 w */
  tap_ok(s->axis && s->axis[15] == 0 && s->axis[16] == 1 && s->axis[39] == 1 && s->axis[40] == 2,
         "mrope 16,24,24: pairs 15, 16, 39, 40 on axes t, h, h, w");
  rl_schedule_free(s);
}

/* rl_schedule_new fails with want and a message containing text */
static void expect_error(const rl_schedule_params *p, rl_status want, const char *text,
                         const char *what)
{
  rl_schedule *s = NULL;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_schedule_new(p, &s, err);
  tap_ok(st == want && !s && strstr(err, text), "%s: status %d, '%s'", what, (int)st, err);
  rl_schedule_free(s);
}

/* a file in $TMPDIR holding text; its name into path */
static int temp_file(char *path, size_t size, const char *text)
{
  const char *dir = getenv("TMPDIR");
  snprintf(path, size, "%s/ropelab-test-XXXXXX", dir && dir[0] ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0)
    return -1;
  size_t n = strlen(text);
  int ok = write(fd, text, n) == (ssize_t)n;
  close(fd);
  return ok ? 0 : -1;
}

static void test_errors(void)
{
  rl_schedule_params p = params("yarn", 128, 10000);
  factor(&p, 8, 4096);
  rl_schedule_set(&p, "window", 512);
  expect_error(&p, RL_EINVAL, "--window does not apply to method 'yarn'", "yarn --window");
  p = params("linear", 128, 10000);
  factor(&p, 0.5, 0);
  expect_error(&p, RL_EINVAL, "invalid --factor '0.5': expected a number >= 1", "factor 0.5");
  p = params("yarn", 128, 10000);
  factor(&p, 8, 4096);
  rl_schedule_set(&p, "beta-fast", 1);
  rl_schedule_set(&p, "beta-slow", 1);
  expect_error(&p, RL_EINVAL, "expected beta-fast > beta-slow", "yarn beta_fast = beta_slow");
  p = params("linear", 128, 10000);
  expect_error(&p, RL_EINVAL, "method 'linear' needs --factor", "linear without --factor");
  p = params("dynamic", 128, 10000);
  factor(&p, 8, 4096);
  p.variant = RL_VARIANT_GGML;
  p.set |= RL_SP_VARIANT;
  expect_error(&p, RL_EINVAL, "method 'dynamic' has no 'ggml' variant", "dynamic ggml");
  char path[4096];
  if (temp_file(path, sizeof path, "pair,short,long\n0,1,2\n1,1,2\n") == 0) {
    p = params("longrope", 128, 10000);
    factor(&p, 8, 4096);
    rl_schedule_set_text(&p, "factors", path, NULL, 0);
    expect_error(&p, RL_EFORMAT, "2 rows, expected one per rotary pair (64)",
                 "longrope factors with 2 rows");
    /* with 64 rows it builds: short factor 1, long 2 (sanity of the fixture) */
    FILE *f = fopen(path, "w");
    if (f) {
      fprintf(f, "pair,short,long\n");
      for (int i = 0; i < 64; i++)
        fprintf(f, "%d,1,2\n", i);
      fclose(f);
    }
    rl_schedule *s = NULL, *r = tap_rope(128, 128, 10000);
    rl_schedule_set(&p, "seq-len", 8192);
    int ok = rl_schedule_new(&p, &s, NULL) == RL_OK;
    tap_ok(ok && s->theta[63] == r->theta[63] / 2 && s->theta[0] == 0.5,
           "longrope: N > L uses the long factors (theta/2)");
    rl_schedule_free(s);
    rl_schedule_free(r);
    unlink(path);
  } else {
    tap_ok(0, "cannot write a temporary file");
  }
  p = params("file", 128, 10000);
  rl_schedule_set_text(&p, "freqs-file", "/nonexistent/ropelab/freqs.csv", NULL, 0);
  expect_error(&p, RL_EIO, "/nonexistent/ropelab/freqs.csv", "file: missing file");
  p = params("longrope", 128, 10000);
  factor(&p, 8, 4096);
  rl_schedule_set_text(&p, "factors", "/nonexistent/ropelab/factors.csv", NULL, 0);
  expect_error(&p, RL_EIO, "/nonexistent/ropelab/factors.csv", "longrope: missing file");
  /* factors in memory (a config's lists, audit's fit) are held to the
   * bound the message states, 1e-6 */
  static double tiny[64];
  for (int i = 0; i < 64; i++)
    tiny[i] = i == 5 ? 1e-7 : 1;
  p = params("longrope", 128, 10000);
  factor(&p, 8, 4096);
  rl_schedule_set_list(&p, "short-factors", tiny);
  expect_error(&p, RL_EINVAL, "invalid factor 1e-07 of pair 5: expected a positive number >= 1e-6",
               "longrope: a factor of 1e-7 in memory");
}

int main(void)
{
  test_yarn_attention();
  test_ntk_base();
  test_yarn_llama2();
  test_llama31();
  test_dynamic();
  test_prope();
  test_xpos();
  test_rerope();
  test_logn();
  test_mrope();
  test_errors();
  return tap_done();
}
