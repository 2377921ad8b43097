/* ggml_rope_dump.c: ggml_rope_ext's cos and sin, as the real ggml CPU
 * backend computes them, for the reference tables (gen_ggml_ref.sh builds
 * and runs it; not part of ropelab's build).
 *
 * usage: ggml_rope_dump N_DIMS BASE FREQ_SCALE EXT_FACTOR BETA_FAST BETA_SLOW
 *                       N_CTX_ORIG SCALE [FF_FILE|- [X_FILE]] < positions > table.f32
 * Each pair of the input row is (1, 0), so rotate_pairs writes
 * 1 * cos - 0 * sin = cos and 1 * sin + 0 * cos = sin exactly (with or
 * without a fused multiply-add); out: per position, n_dims / 2 (cos, sin)
 * float32 pairs.  With X_FILE (n_dims float32 values), the row rotated is
 * that vector at every position instead, and the output is ggml's
 * rotated row (rotate_pairs' own arithmetic).  SCALE is the method's attention factor; as llama.cpp
 * does, the attn_factor passed to ggml is SCALE divided by ggml's own
 * YaRN magnitude 1 + 0.1 ln(1 / freq_scale) when ext_factor != 0
 * (compiled with this build's flags, as llama.cpp would be).  FF_FILE:
 * n_dims / 2 float32 frequency factors (the rope_freqs tensor). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ggml.h"
#include "ggml-cpu.h"

int main(int argc, char **argv)
{
  if (argc < 9) {
    fprintf(stderr, "usage: ggml_rope_dump N_DIMS BASE FREQ_SCALE EXT BETA_FAST BETA_SLOW "
                    "N_CTX_ORIG SCALE [FF_FILE] < positions\n");
    return 2;
  }
  int n_dims = atoi(argv[1]), n_ctx_orig = atoi(argv[7]);
  float base = strtof(argv[2], NULL), fs = strtof(argv[3], NULL), ext = strtof(argv[4], NULL);
  float bf = strtof(argv[5], NULL), bs = strtof(argv[6], NULL), scale = strtof(argv[8], NULL);
  float attn = scale;
  if (ext != 0.0f)
    attn = scale / (1.0f + 0.1f * logf(1.0f / fs));
  size_t cap = 1024, n = 0;
  int32_t *pos = malloc(cap * sizeof *pos);
  long long v;
  while (scanf("%lld", &v) == 1) {
    if (n == cap)
      pos = realloc(pos, (cap *= 2) * sizeof *pos);
    pos[n++] = (int32_t)v;
  }
  size_t chunk = 4096;
  struct ggml_init_params ip = {(size_t)64 << 20, NULL, false};
  float *ff = NULL;
  float *xin = NULL;
  if (argc > 10) {
    FILE *f = fopen(argv[10], "rb");
    xin = malloc((size_t)n_dims * sizeof *xin);
    if (!f || fread(xin, sizeof *xin, (size_t)n_dims, f) != (size_t)n_dims)
      return 3;
    fclose(f);
  }
  if (argc > 9 && strcmp(argv[9], "-")) {
    FILE *f = fopen(argv[9], "rb");
    ff = malloc((size_t)n_dims / 2 * sizeof *ff);
    if (!f || fread(ff, sizeof *ff, (size_t)n_dims / 2, f) != (size_t)n_dims / 2)
      return 3;
    fclose(f);
  }
  for (size_t at = 0; at < n; at += chunk) {
    size_t k = n - at < chunk ? n - at : chunk;
    struct ggml_context *ctx = ggml_init(ip);
    struct ggml_tensor *a = ggml_new_tensor_3d(ctx, GGML_TYPE_F32, n_dims, 1, (int64_t)k);
    struct ggml_tensor *p = ggml_new_tensor_1d(ctx, GGML_TYPE_I32, (int64_t)k);
    struct ggml_tensor *c = NULL;
    if (ff) {
      c = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, n_dims / 2);
      for (int i = 0; i < n_dims / 2; i++)
        ((float *)c->data)[i] = ff[i];
    }
    float *x = a->data;
    for (size_t j = 0; j < k * (size_t)n_dims; j++)
      x[j] = xin ? xin[j % (size_t)n_dims] : j % 2 ? 0.0f : 1.0f;
    for (size_t j = 0; j < k; j++)
      ((int32_t *)p->data)[j] = pos[at + j];
    struct ggml_tensor *r = ggml_rope_ext(ctx, a, p, c, n_dims, 0, n_ctx_orig, base, fs, ext,
                                          attn, bf, bs);
    struct ggml_cgraph *g = ggml_new_graph(ctx);
    ggml_build_forward_expand(g, r);
    if (ggml_graph_compute_with_ctx(ctx, g, 1) != GGML_STATUS_SUCCESS)
      return 3;
    fwrite(r->data, sizeof(float), k * (size_t)n_dims, stdout);
    ggml_free(ctx);
  }
  return 0;
}
