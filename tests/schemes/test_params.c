/* test_params.c: parameter files.  The example files of
 * experiments/params are read and their hand-written values come back
 * in the logits (T5 bias bucket by bucket, ALiBi slope times distance,
 * DeBERTa unit rows through identity projections, learned rows); every
 * kind of malformed file is RL_EFORMAT with a message naming the problem;
 * a seeded table written out reads back to the same logits. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ropelab.h"
#include "tap.h"

static char dir[512];
static char tmpl[64];

static const char *example(const char *name)
{
  static char path[640];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return path;
}

/* a temporary file holding text */
static const char *tmp(const char *text)
{
  snprintf(tmpl, sizeof tmpl, "/tmp/rl_params_XXXXXX");
  int fd = mkstemp(tmpl);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  return tmpl;
}

static rl_status load(const char *name, rl_scheme_cfg *c, const char *file, rl_scheme **s,
                      char *err)
{
  c->param_file = file;
  return rl_scheme_alloc(name, c, s, err);
}

static void test_examples(void)
{
  rl_scheme_cfg c;
  rl_scheme *s = NULL;
  char err[RL_ERR_MAX];
  double z[4] = {0, 0, 0, 0};
  rl_logit_terms t;

  /* t5_bias.csv: 4 buckets, 2 heads.  Bidirectional 4 buckets: halves of
   * 2, max_exact 1; rel = key - query: 0 -> 0, -1 -> 1, +1 -> 2 + 1 = 3,
   * +2 -> 2 + 1 + floor(ln 2 / ln 4 * 1) = 3 (max_distance 4). */
  rl_scheme_cfg_default(&c);
  c.dim = 4;
  c.heads = 2;
  c.num_buckets = 4;
  c.max_distance = 4;
  tap_ok(load("t5", &c, example("t5_bias.csv"), &s, err) == RL_OK, "t5_bias.csv loads %s", err);
  if (s) {
    rl_scheme_logit(s, 0, 5, 5, z, z, &t);
    tap_ok(t.bias == 0.50 && t.total == 0.50, "t5 file: rel 0 head 0 -> bucket 0 = 0.50");
    rl_scheme_logit(s, 1, 5, 4, z, z, &t);
    tap_ok(t.bias == 1.0, "t5 file: rel -1 head 1 -> bucket 1 = 1.0");
    rl_scheme_logit(s, 0, 5, 6, z, z, &t);
    tap_ok(t.bias == 2.0, "t5 file: rel +1 head 0 -> bucket 3 = 2.0");
    rl_scheme_logit(s, 1, 5, 100, z, z, &t);
    tap_ok(t.bias == -0.75, "t5 file: rel +95 head 1 -> bucket 3 = -0.75");
    rl_scheme_free(s);
  }

  /* alibi_slopes.csv: 2 heads, slopes 1/16 and 1/256 */
  rl_scheme_cfg_default(&c);
  c.dim = 4;
  c.heads = 2;
  tap_ok(load("alibi", &c, example("alibi_slopes.csv"), &s, err) == RL_OK,
         "alibi_slopes.csv loads %s", err);
  if (s) {
    rl_scheme_logit(s, 0, 0, 8, z, z, &t);
    tap_ok(t.bias == -0.5, "alibi file: -8/16");
    rl_scheme_logit(s, 1, 512, 0, z, z, &t);
    tap_ok(t.bias == -2.0, "alibi file: -512/256");
    rl_scheme_free(s);
  }

  /* deberta_rel.csv: k = 2, rows e_0..e_3, identity projections: c2p =
   * x_q[idx] / sqrt(3 d), idx = clamp(bucket(i - j) + 2, 0, 3); bucket
   * (2, 8): mid 1, |rel| <= 1 identity; beyond, mid - 1 = 0 log steps,
   * so every |rel| > 1 is sign(rel) (1 + ceil(0)) = +-1. */
  rl_scheme_cfg_default(&c);
  c.dim = 4;
  c.heads = 1;
  c.identity = 1;
  c.position_buckets = 2;
  c.max_relative_positions = 8;
  tap_ok(load("deberta", &c, example("deberta_rel.csv"), &s, err) == RL_OK,
         "deberta_rel.csv loads %s", err);
  if (s) {
    double xq[4] = {1, 2, 3, 4}, xk[4] = {10, 20, 30, 40};
    double sc = 1.0 / sqrt(12.0);
    rl_scheme_logit(s, 0, 5, 5, xq, xk, &t);
    tap_ok(t.cp == 3 * sc && t.pc == 30 * sc, "deberta file: rel 0 -> row 2");
    rl_scheme_logit(s, 0, 4, 5, xq, xk, &t);
    tap_ok(t.cp == 2 * sc && t.pc == 20 * sc, "deberta file: rel -1 -> row 1");
    rl_scheme_logit(s, 0, 9, 5, xq, xk, &t);
    tap_ok(t.cp == 4 * sc && t.pc == 40 * sc, "deberta file: rel +4 -> bucket 1, row 3");
    rl_scheme_logit(s, 0, 0, 50, xq, xk, &t);
    tap_ok(t.cp == 2 * sc, "deberta file: rel -50 -> bucket -1, row 1");
    rl_scheme_free(s);
  }

  /* learned_abs.csv: 3 rows, max_len from the file */
  rl_scheme_cfg_default(&c);
  c.dim = 4;
  tap_ok(load("learned", &c, example("learned_abs.csv"), &s, err) == RL_OK,
         "learned_abs.csv loads %s", err);
  if (s) {
    double e[4];
    tap_ok(rl_scheme_get_cfg(s)->max_len == 3, "learned file: max_len 3 from the file");
    rl_scheme_encoding(s, 1, e);
    tap_ok(e[0] == 0.02 && e[3] == 0.04, "learned file: row 1 read exactly");
    tap_ok(rl_scheme_encoding(s, 3, e) == RL_ERANGE, "learned file: position 3 RL_ERANGE");
    rl_scheme_free(s);
  }
}

typedef struct { const char *text, *why, *needle; } bad;

static void test_malformed(void)
{
  const bad t5[] = {
      {"", "empty file", "empty"},
      {"bucket,head,bias\n0,0,1\n0,1,1\n1,0,1\n", "missing entry", "missing"},
      {"bucket,head,bias\n0,0,1\n0,1,abc\n1,0,1\n1,1,1\n", "non-number", "'abc'"},
      {"bucket,head,bias\n0,0,1\n0,0,1\n1,0,1\n1,1,1\n", "duplicate", "duplicate"},
      {"bucket,head,weight\n0,0,1\n0,1,1\n1,0,1\n1,1,1\n", "wrong header", "header"},
      {"bucket,head,bias\n0,0,1,9\n0,1,1\n1,0,1\n1,1,1\n", "extra column", "columns"},
      {"bucket,head,bias\n0,0,1\n0,2,1\n1,0,1\n1,1,1\n", "head out of range", "'2'"},
      {"bucket,head,bias\n0,0,1\n0,1,1\n1,0,1\n1,1,1\n2,0,1\n", "bucket out of range", "'2'"},
      {"bucket,head,bias\n0,0,1\n0,1,1e999\n1,0,1\n1,1,1\n", "infinite", "1e999"},
      {"bucket,head,bias\n0,0,1\n0,1,nan\n1,0,1\n1,1,1\n", "NaN", "nan"},
      {"bucket,head,bias\n0.5,0,1\n0,1,1\n1,0,1\n1,1,1\n", "fractional index", "0.5"},
  };
  rl_scheme_cfg c;
  rl_scheme *s = NULL;
  char err[RL_ERR_MAX];
  for (size_t k = 0; k < sizeof t5 / sizeof *t5; k++) {
    rl_scheme_cfg_default(&c);
    c.dim = 4;
    c.heads = 2;
    c.num_buckets = 2;
    c.bidirectional = 0; /* 2 causal buckets: a 2 x 2 table */
    c.max_distance = 4;
    const char *path = tmp(t5[k].text);
    rl_status st = load("t5", &c, path, &s, err);
    tap_ok(st == RL_EFORMAT && !s && strstr(err, t5[k].needle),
           "t5 %s: RL_EFORMAT, message: %s", t5[k].why, err);
    unlink(path);
  }
  /* a well-formed 2 x 2 file with comments, blanks and CRLF reads */
  rl_scheme_cfg_default(&c);
  c.dim = 4;
  c.heads = 2;
  c.num_buckets = 2;
  c.bidirectional = 0;
  c.max_distance = 4;
  const char *path = tmp("# comment\r\n\r\nbucket, head, bias\r\n1,1,4\r\n0,0,1\r\n 0 , 1 , 2 \r\n1,0,3\r\n");
  tap_ok(load("t5", &c, path, &s, err) == RL_OK, "t5: comments, blanks, CRLF, any order %s", err);
  unlink(path);
  if (s) {
    double z[4] = {0};
    rl_logit_terms t;
    rl_scheme_logit(s, 1, 7, 3, z, z, &t); /* causal rel -4: bucket 1 */
    tap_ok(t.bias == 4, "t5: causal bucket 1, head 1 = 4");
    rl_scheme_free(s);
  }

  const bad vec[] = {
      {"position,v0,v1\n0,1,2\n1,3,4\n", "too few columns (d=4)", "header"},
      {"position,v0,v1,v2,v3\n0,1,2,3,4\n2,1,2,3,4\n", "gap in indices", "each index once"},
      {"position,v0,v1,v2,v3\n0,1,2,3\n", "short row", "columns"},
      {"position,v0,v1,v2,v3\n", "no rows", "no rows"},
      {"pos,v0,v1,v2,v3\n0,1,2,3,4\n", "wrong first column", "header"},
      {"position,v0,v1,v3,v2\n0,1,2,3,4\n", "wrong column names", "header"},
      {"position,v0,v1,v2,v3\n-1,1,2,3,4\n", "negative index", "'-1'"},
  };
  for (size_t k = 0; k < sizeof vec / sizeof *vec; k++) {
    rl_scheme_cfg_default(&c);
    c.dim = 4;
    path = tmp(vec[k].text);
    rl_status st = load("learned", &c, path, &s, err);
    tap_ok(st == RL_EFORMAT && !s && strstr(err, vec[k].needle),
           "learned %s: RL_EFORMAT, message: %s", vec[k].why, err);
    unlink(path);
  }
  rl_scheme_cfg_default(&c);
  c.dim = 4;
  c.position_buckets = 4; /* needs 8 rows; the example has 4 */
  c.max_relative_positions = 16;
  tap_ok(load("deberta", &c, example("deberta_rel.csv"), &s, err) == RL_EFORMAT,
         "deberta: 4 rows for 2k = 8: RL_EFORMAT: %s", err);
  rl_scheme_cfg_default(&c);
  c.heads = 3;
  tap_ok(load("alibi", &c, example("alibi_slopes.csv"), &s, err) == RL_EFORMAT,
         "alibi: 2 slopes for 3 heads: RL_EFORMAT: %s", err);
  rl_scheme_cfg_default(&c);
  tap_ok(load("t5", &c, "/nonexistent/t5.csv", &s, err) == RL_EIO && strstr(err, "nonexistent"),
         "missing file: RL_EIO: %s", err);
}

/* A seeded table written with %.17g reads back bit for bit. */
static void test_roundtrip(void)
{
  const char *names[] = {"t5", "alibi", "learned", "deberta", "tupe"};
  for (int k = 0; k < 5; k++) {
    rl_scheme_cfg c;
    rl_scheme_cfg_default(&c);
    c.dim = 4;
    c.heads = 2;
    c.max_len = 8;
    c.position_buckets = 4;
    c.max_relative_positions = 16;
    rl_scheme *a = NULL, *b = NULL;
    char err[RL_ERR_MAX];
    rl_scheme_alloc(names[k], &c, &a, err);
    rl_scheme_table t;
    if (!a || rl_scheme_get_table(a, &t)) {
      tap_ok(0, "%s exports a table", names[k]);
      rl_scheme_free(a);
      continue;
    }
    snprintf(tmpl, sizeof tmpl, "/tmp/rl_params_XXXXXX");
    int fd = mkstemp(tmpl);
    FILE *f = fdopen(fd, "w");
    int kv = strchr(t.format, ',') != NULL; /* key-value formats */
    if (kv && t.cols > 1) { /* bucket,head,bias */
      fprintf(f, "%s\n", t.format);
      for (size_t r = 0; r < t.rows; r++)
        for (size_t h = 0; h < t.cols; h++)
          fprintf(f, "%zu,%zu,%.17g\n", r, h, t.data[r * t.cols + h]);
    } else if (kv) { /* head,slope */
      fprintf(f, "%s\n", t.format);
      for (size_t r = 0; r < t.rows; r++)
        fprintf(f, "%zu,%.17g\n", r, t.data[r]);
    } else {
      fprintf(f, "%s", t.format);
      for (size_t v = 0; v < t.cols; v++)
        fprintf(f, ",v%zu", v);
      fprintf(f, "\n");
      for (size_t r = 0; r < t.rows; r++) {
        fprintf(f, "%zu", r);
        for (size_t v = 0; v < t.cols; v++)
          fprintf(f, ",%.17g", t.data[r * t.cols + v]);
        fprintf(f, "\n");
      }
    }
    fclose(f);
    c.param_file = tmpl;
    rl_status st = rl_scheme_alloc(names[k], &c, &b, err);
    double xq[4] = {0.3, -1.2, 0.7, 2.0}, xk[4] = {1.1, 0.4, -0.6, 0.2};
    int same = !st;
    for (int i = 1; same && i < 6; i++)
      for (int j = 1; same && j < 6; j++) {
        rl_logit_terms u, w;
        rl_scheme_logit(a, 1, i, j, xq, xk, &u);
        rl_scheme_logit(b, 1, i, j, xq, xk, &w);
        same = u.total == w.total;
      }
    tap_ok(same, "%s: table written with %%.17g reads back to identical logits %s", names[k],
           st ? err : "");
    unlink(tmpl);
    rl_scheme_free(a);
    rl_scheme_free(b);
  }
}

/* A one-head T5 table keeps its head column: the header, not H, decides
 * the columns (once rejected as a bad header). */
static void test_one_head(void)
{
  rl_scheme_cfg c;
  rl_scheme *s = NULL;
  char err[RL_ERR_MAX] = "";
  rl_scheme_cfg_default(&c);
  c.dim = 4;
  c.heads = 1;
  c.num_buckets = 4;
  c.max_distance = 4;
  c.identity = 1;
  const char *path = tmp("bucket,head,bias\n0,0,0.5\n1,0,-1\n2,0,2\n3,0,4\n");
  rl_status st = load("t5", &c, path, &s, err);
  tap_ok(st == RL_OK && s, "t5 one head: bucket,head,bias accepted (%s)", err);
  if (s) {
    /* rel = key - query = +1: bidirectional 4 buckets, max_exact 1:
     * 2 + 1 = bucket 3 (as in test_examples), bias 4 */
    double z[4] = {0, 0, 0, 0};
    rl_logit_terms t;
    st = rl_scheme_logit(s, 0, 5, 6, z, z, &t);
    tap_ok(st == RL_OK && t.bias == 4.0, "t5 one head: bias of rel +1 is the file's 4 (got %g)", t.bias);
  }
  rl_scheme_free(s);
  remove(path);
}

/* The limits on |value| checked at load (derivation in
 * src/core/schemes/params.c), recomputed here from their closed forms
 * for d = 4: LAMBDA = 2^491 bounds a positional logit; t5 bias LAMBDA;
 * alibi slope LAMBDA / 2^32 = 2^459; learned sqrt(LAMBDA / (2 16^2
 * 4^1.5)) = sqrt(2^479) = sqrt(2) 2^239; deberta sqrt(3) LAMBDA / (2 16^3
 * 4^1.5) = sqrt(3) 2^475; tupe 2^510 / sqrt(4) = 2^509.  The limit itself
 * (and its negative) loads, the next double up is RL_EFORMAT naming the
 * column, file line 2 and the range. */
static void test_limits(void)
{
  static const struct {
    const char *scheme, *head, *col;
    double lim;
  } k[] = {
      {"t5", "bucket,head,bias", "bias", 0},
      {"alibi", "head,slope", "slope", 0},
      {"learned", "position,v0,v1,v2,v3", "v0", 0},
      {"deberta", "bucket,v0,v1,v2,v3", "v0", 0},
      {"tupe", "position,v0,v1,v2,v3", "v0", 0},
  };
  double lims[] = {ldexp(1, 491), ldexp(1, 459), ldexp(sqrt(2.0), 239), ldexp(sqrt(3.0), 475),
                   ldexp(1, 509)};
  for (size_t n = 0; n < sizeof k / sizeof *k; n++)
    for (int above = 0; above < 2; above++) {
      double v = above ? nextafter(lims[n], INFINITY) : lims[n];
      char text[4096], *p = text;
      p += sprintf(p, "%s\n", k[n].head);
      if (!strcmp(k[n].scheme, "t5"))
        for (int b = 0; b < 4; b++)
          p += sprintf(p, "%d,0,%.17g\n", b, b % 2 ? -v : v);
      else if (!strcmp(k[n].scheme, "alibi"))
        p += sprintf(p, "0,%.17g\n", v);
      else /* deberta: 2k = 2 rows (max_relative_positions 1); learned 2
              rows; tupe 3 (max_len 2, positions 0 = [CLS] and 1) */
        for (int r = 0; r < (strcmp(k[n].scheme, "tupe") ? 2 : 3); r++)
          p += sprintf(p, "%d,%.17g,%.17g,%.17g,%.17g\n", r, v, -v, r ? v : -v, v);
      rl_scheme_cfg c;
      rl_scheme_cfg_default(&c);
      c.dim = 4;
      c.heads = 1;
      c.num_buckets = 4;
      c.max_distance = 4;
      c.position_buckets = 0;
      c.max_relative_positions = 1;
      rl_scheme *s = NULL;
      char err[RL_ERR_MAX] = "";
      const char *path = tmp(text);
      rl_status st = load(k[n].scheme, &c, path, &s, err);
      if (!above) {
        tap_ok(st == RL_OK, "%s: |value| = limit %.17g loads (%s)", k[n].scheme, lims[n], err);
        /* the logits at the limit are finite, content N(0, 1)-sized */
        double xq[4] = {1.5, -0.5, 2, -1}, xk[4] = {-2, 1, 0.5, 1.5};
        rl_logit_terms t = {0};
        st = s ? rl_scheme_logit(s, 0, 1, 0, xq, xk, &t) : RL_EINVAL;
        tap_ok(st == RL_OK && isfinite(t.total) && isfinite(t.total - t.cc),
               "%s: logit at the limit finite (%g)", k[n].scheme, t.total);
      } else {
        char want[128];
        snprintf(want, sizeof want, "%s '%.17g' out of range in '%s' line 2: expected -",
                 k[n].col, v, path);
        tap_ok(st == RL_EFORMAT && !s && strstr(err, want),
               "%s: the next double above the limit is RL_EFORMAT: %s", k[n].scheme, err);
      }
      rl_scheme_free(s);
      remove(path);
    }
}

int main(void)
{
  const char *d = getenv("RL_PARAMS_DIR");
  snprintf(dir, sizeof dir, "%s", d ? d : "experiments/params");
  test_examples();
  test_malformed();
  test_roundtrip();
  test_one_head();
  test_limits();
  return tap_done();
}
