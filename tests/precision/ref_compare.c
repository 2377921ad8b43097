/* ref_compare.c: ropelab's framework pipelines against the reference
 * tables of tests/precision/refs, made once from the real code running
 * (torch + transformers' RoPE functions, ggml built from source:
 * tests/precision/refgen/gen_refs.py says how and with what versions).
 * Every entry must be the reference's bits: no tolerance.
 *   ref_compare REFDIR MANIFEST...   (TAP, one line per table)
 * A line with a twelfth field X (a file of DIM float32 values) holds the
 * framework's rotation of x at each position instead of cos/sin:
 * compared with rl_rope_apply_pipeline (adjacent pairs, attention factor
 * included), every output float32.
 * A table whose pipeline this build does not have is reported as a skip. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

static void *slurp(const char *dir, const char *name, const char *ext, size_t *len)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b)
    b[n] = 0;
  *len = (size_t)n;
  return b;
}

static int opt(const char *s, double *v)
{
  if (!strcmp(s, "-"))
    return 0;
  *v = strtod(s, NULL);
  return 1;
}

/* One table: 0 ok, 1 differs, 2 skipped, 3 broken input. */
static int check(const char *dir, char *line, int k)
{
  char name[256], pos[256], prec[64], meth[64], fac[64], tl[64], sl[64], partner[256];
  char xname[256] = "";
  size_t dim, rot;
  double base;
  int nf = sscanf(line, "%255s %255s %63s %63s %zu %zu %lf %63s %63s %63s %255s %255s", name, pos,
                  prec, meth, &dim, &rot, &base, fac, tl, sl, partner, xname);
  if (nf != 11 && nf != 12) {
    printf("not ok %d - bad manifest line: %s\n", k, line);
    return 3;
  }
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.precision = rl_precision_find(prec);
  if (!p.precision) {
    printf("ok %d - %s # SKIP no pipeline '%s' in this build\n", k, name, prec);
    return 2;
  }
  p.method = rl_schedule_type_find(meth);
  p.dim = dim;
  p.rot = rot;
  p.base = base;
  if (opt(fac, &p.factor))
    p.set |= RL_SP_FACTOR;
  if (opt(tl, &p.train_len))
    p.set |= RL_SP_TRAIN_LEN;
  if (opt(sl, &p.seq_len))
    p.set |= RL_SP_SEQ_LEN;
  rl_schedule *s;
  char err[RL_ERR_MAX];
  if (!p.method || rl_schedule_new(&p, &s, err)) {
    printf("not ok %d - %s: %s\n", k, name, p.method ? err : "unknown method");
    return 3;
  }
  size_t plen, tlen, dlen = 0;
  char *ptext = slurp(dir, pos, "", &plen);
  uint32_t *ref = NULL;
  unsigned char *diff = NULL;
  if (!strcmp(partner, "-")) {
    ref = slurp(dir, name, ".f32", &tlen);
  } else {
    ref = slurp(dir, partner, ".f32", &tlen);
    diff = slurp(dir, name, ".diff", &dlen);
  }
  if (!ptext || !ref || (strcmp(partner, "-") && !diff)) {
    printf("not ok %d - %s: missing reference file\n", k, name);
    rl_schedule_free(s);
    return 3;
  }
  size_t nent = tlen / 4;
  for (size_t r = 0; r + 8 <= dlen; r += 8) { /* the partner's entries replaced */
    uint32_t at, v;
    memcpy(&at, diff + r, 4);
    memcpy(&v, diff + r + 4, 4);
    if (at < nent)
      ref[at] = v;
  }
  size_t n = s->n, npos = 0, compared = 0, differ = 0;
  double *x = NULL, *y = NULL;
  if (*xname) { /* rotation table: dim outputs per position */
    size_t xlen;
    float *xf = slurp(dir, xname, "", &xlen);
    if (!xf || xlen != dim * 4) {
      printf("not ok %d - %s: bad x file %s\n", k, name, xname);
      free(xf);
      free(ptext);
      free(ref);
      free(diff);
      rl_schedule_free(s);
      return 3;
    }
    x = malloc(dim * sizeof *x);
    y = malloc(dim * sizeof *y);
    for (size_t j = 0; j < dim; j++)
      x[j] = (double)xf[j];
    free(xf);
  }
  size_t row = x ? dim : 2 * n;
  double *c = malloc(n * sizeof *c), *sn = malloc(n * sizeof *sn);
  char *save = NULL, first[256] = "";
  for (char *t = strtok_r(ptext, "\n", &save); t; t = strtok_r(NULL, "\n", &save), npos++) {
    double m = strtod(t, NULL);
    if ((npos + 1) * row > nent ||
        (x ? rl_rope_apply_pipeline(s, RL_LAYOUT_INTERLEAVED, m, 1, x, y)
           : rl_schedule_cossin(s, m, c, sn))) {
      differ = SIZE_MAX;
      snprintf(first, sizeof first, "table too short or position %s refused", t);
      break;
    }
    for (size_t j = 0; x && j < dim; j++) {
      float g = (float)y[j], w;
      uint32_t wb = ref[npos * dim + j], gb;
      memcpy(&w, &wb, 4);
      memcpy(&gb, &g, 4);
      compared++;
      if (gb != wb && differ++ == 0)
        snprintf(first, sizeof first, "first at position %s output %zu: got %a want %a", t, j,
                 (double)g, (double)w);
    }
    for (size_t i = 0; !x && i < n; i++)
      for (int q = 0; q < 2; q++) {
        float g = (float)(q ? sn[i] : c[i]), w;
        uint32_t wb = ref[(npos * n + i) * 2 + (size_t)q], gb;
        memcpy(&w, &wb, 4);
        memcpy(&gb, &g, 4);
        compared++;
        if (gb != wb && differ++ == 0)
          snprintf(first, sizeof first, "first at position %s pair %zu %s: got %a want %a", t, i,
                   q ? "sin" : "cos", (double)g, (double)w);
      }
  }
  int bad = differ != 0 || npos * row != nent;
  if (differ == SIZE_MAX)
    printf("not ok %d - %s (%s): %s\n", k, name, prec, first);
  else
    printf("%s %d - %s (%s): %zu entries at %zu positions compared, %zu differ%s%s\n",
           bad ? "not ok" : "ok", k, name, prec, compared, npos, differ, *first ? "; " : "",
           first);
  free(c);
  free(sn);
  free(x);
  free(y);
  free(ptext);
  free(ref);
  free(diff);
  rl_schedule_free(s);
  return bad;
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: ref_compare REFDIR MANIFEST...\n");
    return 2;
  }
  int k = 0, failed = 0;
  for (int a = 2; a < argc; a++) {
    FILE *f = fopen(argv[a], "r");
    if (!f) {
      printf("not ok %d - cannot open %s\n", ++k, argv[a]);
      failed++;
      continue;
    }
    char line[2048];
    while (fgets(line, sizeof line, f)) {
      line[strcspn(line, "\n")] = 0;
      if (!*line || *line == '#')
        continue;
      int r = check(argv[1], line, ++k);
      failed += r == 1 || r == 3;
    }
    fclose(f);
  }
  printf("1..%d\n", k);
  return failed ? 1 : 0;
}
