/* gguf_ref.c: reference GGUF files written by ggml's own GGUF writer
 * (ggml src/gguf.cpp: gguf_init_empty, gguf_set_val_*, gguf_add_tensor,
 * gguf_write_to_file), for test_gguf: the Phi-3-mini-128k and Llama 3.1 8B
 * headers as llama.cpp's converter lays them out, with their per-pair
 * factor tensors, so that the reader is checked on files it did not
 * write itself.  Built and run by tests/model/ref/make_ref.sh; the model
 * facts are those of tests/model/test_gguf.c (sources cited there). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ggml.h"
#include "gguf.h"

static const double phi3_long[48] = {
    1.0700000524520874, 1.1200000047683716, 1.149999976158142, 1.4199999570846558,
    1.5699999332427979, 1.7999999523162842, 2.129999876022339, 2.129999876022339,
    3.009999990463257, 5.910000324249268, 6.950000286102295, 9.070000648498535,
    9.930000305175781, 10.710000038146973, 11.130000114440918, 14.609999656677246,
    15.409998893737793, 19.809999465942383, 37.279998779296875, 38.279998779296875,
    38.599998474121094, 40.12000274658203, 46.20000457763672, 50.940006256103516,
    53.66000747680664, 54.9373893737793, 56.89738845825195, 57.28738784790039,
    59.98738479614258, 60.86738586425781, 60.887386322021484, 61.71739196777344,
    62.91739273071289, 62.957393646240234, 63.41739273071289, 63.8173942565918,
    63.83739471435547, 63.897396087646484, 63.93739700317383, 64.06739807128906,
    64.11434936523438, 64.12435150146484, 64.15435028076172, 64.19435119628906,
    64.24435424804688, 64.57435607910156, 64.69000244140625, 64.76000213623047};
static const double phi3_short[48] = {
    1.1, 1.1, 1.1, 1.3000000000000003, 1.3500000000000003, 1.3500000000000003,
    1.4000000000000004, 1.5500000000000005, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.0500000000000007,
    2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007,
    2.0500000000000007, 2.1000000000000005, 2.1000000000000005, 2.1500000000000004,
    2.25, 2.25, 2.25, 2.25, 2.25, 2.3999999999999995, 2.4499999999999993,
    2.499999999999999, 2.6999999999999984, 2.6999999999999984, 2.7499999999999982,
    2.799999999999998, 2.8999999999999977, 3.049999999999997};

static struct ggml_tensor *f32_tensor(struct ggml_context *g, const char *name, const double *v,
                                      int n)
{
  struct ggml_tensor *t = ggml_new_tensor_1d(g, GGML_TYPE_F32, n);
  ggml_set_name(t, name);
  for (int i = 0; i < n; i++)
    ((float *)t->data)[i] = (float)v[i];
  return t;
}

static void common(struct gguf_context *c, const char *arch, unsigned ctx, unsigned emb,
                   unsigned heads, unsigned heads_kv, unsigned rot, float base)
{
  char k[128];
  gguf_set_val_str(c, "general.architecture", arch);
  gguf_set_val_str(c, "general.name", "ggml reference header");
  snprintf(k, sizeof k, "%s.context_length", arch), gguf_set_val_u32(c, k, ctx);
  snprintf(k, sizeof k, "%s.embedding_length", arch), gguf_set_val_u32(c, k, emb);
  snprintf(k, sizeof k, "%s.attention.head_count", arch), gguf_set_val_u32(c, k, heads);
  snprintf(k, sizeof k, "%s.attention.head_count_kv", arch), gguf_set_val_u32(c, k, heads_kv);
  snprintf(k, sizeof k, "%s.rope.dimension_count", arch), gguf_set_val_u32(c, k, rot);
  snprintf(k, sizeof k, "%s.rope.freq_base", arch), gguf_set_val_f32(c, k, base);
  const char *toks[] = {"<s>", "</s>", "hello"};
  gguf_set_arr_str(c, "tokenizer.ggml.tokens", toks, 3);
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: gguf_ref DIR\n");
    return 2;
  }
  char path[4096];
  struct ggml_init_params ip = {1 << 20, NULL, false};

  /* Phi-3-mini-128k-instruct (Phi3MiniModel in convert_hf_to_gguf.py) */
  struct ggml_context *g = ggml_init(ip);
  struct gguf_context *c = gguf_init_empty();
  common(c, "phi3", 131072, 3072, 32, 32, 96, 10000.0f);
  gguf_set_val_u32(c, "phi3.rope.scaling.original_context_length", 4096);
  gguf_set_val_f32(c, "phi3.rope.scaling.attn_factor", (float)sqrt(1 + log(32.0) / log(4096.0)));
  gguf_add_tensor(c, f32_tensor(g, "rope_factors_long.weight", phi3_long, 48));
  gguf_add_tensor(c, f32_tensor(g, "rope_factors_short.weight", phi3_short, 48));
  snprintf(path, sizeof path, "%s/phi3_mini_128k.ggml.gguf", argv[1]);
  if (!gguf_write_to_file(c, path, false))
    return 1;
  gguf_free(c);
  ggml_free(g);

  /* Llama 3.1 8B (LlamaModel: the llama3 factors baked into rope_freqs);
   * then the same with general.alignment 64 set as a key: ggml's writer
   * still lays the data out at its default 32 (gguf_set_val_u32 does not
   * change the context's alignment), so ggml's own reader refuses that
   * file, and so must ropelab */
  double f[64];
  for (int i = 0; i < 64; i++) {
    double wl = 2 * 3.14159265358979323846 * pow(500000.0, (2.0 * i) / 128);
    double smooth = (8192 / wl - 1) / (4 - 1);
    f[i] = wl < 8192 / 4.0 ? 1 : wl > 8192 ? 8 : 1 / ((1 - smooth) / 8 + smooth);
  }
  for (int mis = 0; mis < 2; mis++) {
    g = ggml_init(ip);
    c = gguf_init_empty();
    if (mis)
      gguf_set_val_u32(c, "general.alignment", 64);
    common(c, "llama", 131072, 4096, 32, 8, 128, 500000.0f);
    gguf_add_tensor(c, f32_tensor(g, "rope_freqs.weight", f, 64));
    snprintf(path, sizeof path, "%s/%s.ggml.gguf", argv[1],
             mis ? "llama31_8b_align64" : "llama31_8b");
    if (!gguf_write_to_file(c, path, false))
      return 1;
    gguf_free(c);
    ggml_free(g);
  }
  return 0;
}
