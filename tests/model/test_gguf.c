/* test_gguf.c: rl_model_read_gguf (src/core/model/gguf.c) on GGUF headers
 * written by tests/model/gguf_write.h for real models' RoPE settings, and
 * on malformed headers (truncated at every byte, lying counts, wrong
 * types, nested and huge arrays, non-ASCII keys, misaligned and
 * out-of-file tensor offsets, version 1 and unknown versions).
 *
 * The expected fields are written here from the models' published
 * settings and llama.cpp's converter (convert_hf_to_gguf.py), not from the
 * reader's output:
 *  - Llama 2 7B: hidden 4096, 32 heads, max_position_embeddings 4096,
 *    rope_theta 10000 (meta-llama/Llama-2-7b-hf config.json).
 *  - Llama 3.1 8B: rope_theta 500000, 131072 positions, rope_scaling
 *    llama3 factor 8, low_freq_factor 1, high_freq_factor 4, original 8192
 *    (meta-llama/Llama-3.1-8B config.json); the GGUF converter bakes these
 *    into the rope_freqs tensor (LlamaModel.generate_extra_tensors): factor
 *    1 for wavelengths < 8192/4, 8 for > 8192/1, else
 *    1 / ((1 - smooth) / 8 + smooth), smooth = (8192 / wavelen - 1) / (4 - 1).
 *  - Mistral 7B v0.1: hidden 4096, 32 heads (8 KV), 32768 positions,
 *    rope_theta 10000 (mistralai/Mistral-7B-v0.1 config.json); llama.cpp
 *    converts it as arch "llama".
 *  - Qwen2.5 7B with YaRN: hidden 3584, 28 heads, 32768 positions,
 *    rope_theta 1000000, and the model card's rope_scaling {type yarn,
 *    factor 4.0, original_max_position_embeddings 32768}.
 *  - Phi-3-mini-128k-instruct: hidden 3072, 32 heads, 131072 positions,
 *    original 4096, rope_theta 10000, the long_factor / short_factor lists
 *    below (found with the code search in a Microsoft babilong evaluation
 *    script's LONGROPE_PARAMS, a copy of the model's config.json
 *    rope_scaling; a GGUF dump of Phi-3.1-mini-128k-instruct in public notes
 *    shows phi3.rope.dimension_count 96, context_length 131072,
 *    original_context_length 4096, attn_factor 1.190238118171692 and the
 *    48-element F32 tensors rope_factors_long.weight / _short.weight).
 *  - DeepSeek-V2-Lite: hidden 2048, 16 heads, kv_lora_rank 512,
 *    qk_nope_head_dim 128, qk_rope_head_dim 64, 163840 positions,
 *    rope_theta 10000, yarn factor 40, original 4096, mscale_all_dim 0.707;
 *    the converter (DeepseekV2Model) writes rope.dimension_count 64,
 *    key_length 512 + 64, key_length_mla 128 + 64 and
 *    yarn_log_multiplier 0.1 * mscale_all_dim.
 *  - Pythia 410M (GPT-NeoX): hidden 1024, 16 heads, rotary_pct 0.25,
 *    rotary_emb_base 10000, 2048 positions (EleutherAI/pythia-410m
 *    config.json); rope.dimension_count int(0.25 * 64) = 16.
 * Numbers the file holds as float32 are expected as (double)(float)x: the
 * reader must give the file's number exactly (tolerance 0). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gguf_write.h"
#include "ref/ggml_ref.h"
#include "ropelab.h"
#include "tap.h"

static char dir[4096];

static const char *path_of(const char *name)
{
  static char p[4400];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  return p;
}

/* Phi-3-mini-128k-instruct rope_scaling (see above) */
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

/* Llama 3.1's rope_freqs as llama.cpp's converter computes them */
static void llama31_freqs(float *out)
{
  const double base = 500000, factor = 8, low = 1, high = 4, old = 8192;
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < 64; i++) {
    double freq = 1 / pow(base, (2.0 * i) / 128);
    double wl = 2 * pi / freq, f;
    if (wl < old / high)
      f = 1;
    else if (wl > old / low)
      f = factor;
    else {
      double smooth = (old / wl - low) / (high - low);
      f = 1 / ((1 - smooth) / factor + smooth);
    }
    out[i] = (float)f;
  }
}

static void common_llama(gw *w, const char *arch, uint32_t ctx, uint32_t emb, uint32_t heads,
                         uint32_t heads_kv, uint32_t rot, float base)
{
  char k[128];
  gw_kv_str(w, "general.architecture", arch);
  gw_kv_str(w, "general.name", "test header");
  snprintf(k, sizeof k, "%s.context_length", arch), gw_kv_u32(w, k, ctx);
  snprintf(k, sizeof k, "%s.embedding_length", arch), gw_kv_u32(w, k, emb);
  snprintf(k, sizeof k, "%s.attention.head_count", arch), gw_kv_u32(w, k, heads);
  snprintf(k, sizeof k, "%s.attention.head_count_kv", arch), gw_kv_u32(w, k, heads_kv);
  snprintf(k, sizeof k, "%s.rope.dimension_count", arch), gw_kv_u32(w, k, rot);
  snprintf(k, sizeof k, "%s.rope.freq_base", arch), gw_kv_f32(w, k, base);
}

static const char *const toks[] = {"<s>", "</s>", "hello", "\xe2\x96\x81world"};
static const float scores[] = {0, 0, -1.5f, -2.25f};

/* a Q4_0 block (18 bytes per 32 weights) standing for the weights */
static unsigned char q4_block[18];
static const gw_tensor weight = {"token_embd.weight", 2, {32, 1}, 2, q4_block, 18};

static void write_llama2(gw *w)
{
  gw_begin(w, 2, 1); /* version 2 */
  common_llama(w, "llama", 4096, 4096, 32, 32, 128, 10000);
  gw_kv_strs(w, "tokenizer.ggml.tokens", toks, 4);
  gw_kv_f32s(w, "tokenizer.ggml.scores", scores, 4);
  gw_kv_bool(w, "tokenizer.ggml.add_bos_token", 1);
  gw_finish(w, &weight, 1, 32);
}

static float l31[64];
static void write_llama31(gw *w)
{
  llama31_freqs(l31);
  gw_begin(w, 3, 2);
  common_llama(w, "llama", 131072, 4096, 32, 8, 128, 500000);
  gw_kv_u32(w, "general.alignment", 64);
  gw_tensor t[2] = {weight, {"rope_freqs.weight", 1, {64}, 0, l31, sizeof l31}};
  gw_finish(w, t, 2, 64);
}

static void write_mistral(gw *w)
{
  gw_begin(w, 3, 1);
  common_llama(w, "llama", 32768, 4096, 32, 8, 128, 10000);
  gw_kv_u64(w, "general.quantization_version", 2);
  gw_kv_f64(w, "general.some_double", 0.5);
  gw_finish(w, &weight, 1, 32);
}

static void write_qwen25_yarn(gw *w)
{
  gw_begin(w, 3, 1);
  common_llama(w, "qwen2", 32768, 3584, 28, 4, 128, 1000000);
  gw_kv_str(w, "qwen2.rope.scaling.type", "yarn");
  gw_kv_f32(w, "qwen2.rope.scaling.factor", 4);
  gw_kv_u32(w, "qwen2.rope.scaling.original_context_length", 32768);
  /* YaRN's beta defaults (Peng et al. 2023, transformers' defaults) */
  gw_kv_f32(w, "qwen2.rope.scaling.yarn_beta_fast", 32);
  gw_kv_f32(w, "qwen2.rope.scaling.yarn_beta_slow", 1);
  gw_finish(w, &weight, 1, 32);
}

static float p3l[48], p3s[48];
static void write_phi3(gw *w)
{
  for (int i = 0; i < 48; i++)
    p3l[i] = (float)phi3_long[i], p3s[i] = (float)phi3_short[i];
  gw_begin(w, 3, 3);
  common_llama(w, "phi3", 131072, 3072, 32, 32, 96, 10000);
  gw_kv_u32(w, "phi3.rope.scaling.original_context_length", 4096);
  /* converter: sqrt(1 + ln(131072/4096) / ln 4096) */
  gw_kv_f32(w, "phi3.rope.scaling.attn_factor", (float)sqrt(1 + log(32.0) / log(4096.0)));
  gw_tensor t[3] = {weight, {"rope_factors_long.weight", 1, {48}, 0, p3l, sizeof p3l},
                    {"rope_factors_short.weight", 1, {48}, 0, p3s, sizeof p3s}};
  gw_finish(w, t, 3, 32);
}

static void write_dsv2lite(gw *w)
{
  gw_begin(w, 3, 1);
  common_llama(w, "deepseek2", 163840, 2048, 16, 16, 64, 10000);
  gw_kv_u32(w, "deepseek2.attention.key_length", 512 + 64);
  gw_kv_u32(w, "deepseek2.attention.key_length_mla", 128 + 64);
  gw_kv_str(w, "deepseek2.rope.scaling.type", "yarn");
  gw_kv_f32(w, "deepseek2.rope.scaling.factor", 40);
  gw_kv_u32(w, "deepseek2.rope.scaling.original_context_length", 4096);
  gw_kv_f32(w, "deepseek2.rope.scaling.yarn_log_multiplier", (float)(0.1 * 0.707));
  gw_finish(w, &weight, 1, 32);
}

static void write_pythia(gw *w)
{
  gw_begin(w, 3, 1);
  common_llama(w, "gptneox", 2048, 1024, 16, 16, 16, 10000);
  /* a nested array (array of arrays of uint32), which the reader skips */
  gw_key(w, "general.nested", GW_ARR);
  gw_u32(w, GW_ARR);
  gw_u64(w, 2);
  for (int i = 0; i < 2; i++) {
    gw_u32(w, GW_U32);
    gw_u64(w, 3);
    for (int j = 0; j < 3; j++)
      gw_u32(w, (uint32_t)(i * 3 + j));
  }
  gw_finish(w, &weight, 1, 32);
}

typedef struct model {
  const char *name;
  void (*write)(gw *);
} model_t;
static const model_t models[] = {
    {"llama2_7b", write_llama2},       {"llama31_8b", write_llama31},
    {"mistral_7b", write_mistral},     {"qwen25_7b_yarn", write_qwen25_yarn},
    {"phi3_mini_128k", write_phi3},    {"deepseek_v2_lite", write_dsv2lite},
    {"pythia_410m", write_pythia}};
#define NMODELS (sizeof models / sizeof *models)

static const char *save(const model_t *md, gw *w)
{
  char name[128];
  snprintf(name, sizeof name, "%s.gguf", md->name);
  md->write(w);
  const char *p = path_of(name);
  gw_save(w, p);
  return p;
}

/* field key equals want (numbers compared as numbers) */
static void field(const rl_model_rope *m, const char *model, const char *key, const char *want)
{
  const char *got = rl_model_rope_get(m, key);
  if (!got || !want) {
    tap_ok(!got == !want, "%s: %s is %s (expected %s)", model, key, got ? got : "unset",
           want ? want : "unset");
    return;
  }
  char *e1, *e2;
  double a = strtod(got, &e1), b = strtod(want, &e2);
  if (!*e1 && !*e2 && *got && *want)
    tap_ok(a == b, "%s: %s = %s (expected %s)", model, key, got, want);
  else
    tap_ok(!strcmp(got, want), "%s: %s = %s (expected %s)", model, key, got, want);
}

/* the source recorded for key */
static void source(const rl_model_rope *m, const char *who, const char *key, const char *want)
{
  const char *got = NULL;
  for (size_t i = 0; i < m->n_fields; i++)
    if (!strcmp(m->fields[i].key, key))
      got = m->fields[i].source;
  tap_ok(got && !strcmp(got, want), "%s: %s comes from '%s' (expected '%s')", who, key,
         got ? got : "(unset)", want);
}

static void fnum(const rl_model_rope *m, const char *model, const char *key, double want)
{
  char buf[64];
  snprintf(buf, sizeof buf, "%.17g", want);
  field(m, model, key, buf);
}

static rl_model_rope read_ok(const char *p, const char *model)
{
  rl_model_rope m;
  char err[RL_ERR_MAX] = "";
  rl_model_rope_init(&m);
  rl_status st = rl_model_read(p, &m, err, sizeof err);
  tap_ok(st == RL_OK, "%s: read (%s)", model, err);
  return m;
}

static int has_note(const rl_model_rope *m, const char *part)
{
  for (size_t i = 0; i < m->n_notes; i++)
    if (strstr(m->notes[i], part))
      return 1;
  return 0;
}

/* Llama 3.1 8B as llama.cpp's converter writes it (see the top) */
static void check_llama31(const rl_model_rope *m, const char *who)
{
  field(m, who, "method", "longrope");
  fnum(m, who, "base", 500000);
  fnum(m, who, "dim", 128);
  fnum(m, who, "rot", 128);
  fnum(m, who, "factor", 1);
  fnum(m, who, "train-len", 131072);
  tap_ok(m->n_factors == 64 && m->long_factor && m->short_factor, "%s: 64 rope_freqs factors", who);
  if (m->n_factors == 64) {
    int same = 1;
    for (int i = 0; i < 64; i++)
      same &= m->long_factor[i] == (double)l31[i] && m->short_factor[i] == (double)l31[i];
    tap_ok(same, "%s: the factors are the file's float32 values, short = long", who);
    /* by hand: pair 0's wavelength 2 pi < 2048 keeps 1; pair 63's
     * 2 pi 500000^(63/64) ~ 2.5e6 > 8192 divides by 8 */
    tap_ok(m->long_factor[0] == 1 && m->long_factor[63] == 8, "%s: factor 1 at pair 0, 8 at 63",
           who);
  }
  tap_ok(has_note(m, "rope_freqs"), "%s: a note says how rope_freqs is read", who);
}

/* Phi-3-mini-128k-instruct as llama.cpp's converter writes it */
static void check_phi3(const rl_model_rope *m, const char *who)
{
  field(m, who, "method", "longrope");
  fnum(m, who, "factor", 32); /* 131072 / 4096 */
  fnum(m, who, "train-len", 4096);
  fnum(m, who, "dim", 96);
  fnum(m, who, "rot", 96);
  fnum(m, who, "base", 10000);
  fnum(m, who, "attention-factor", (double)(float)1.1902380714238083);
  source(m, who, "train-len", "phi3.rope.scaling.original_context_length");
  source(m, who, "factor", "phi3.context_length / phi3.rope.scaling.original_context_length");
  source(m, who, "dim", "phi3.embedding_length / phi3.attention.head_count");
  source(m, who, "attention-factor", "phi3.rope.scaling.attn_factor");
  tap_ok(m->n_factors == 48, "%s: 48 factors per list (%zu)", who, m->n_factors);
  if (m->n_factors == 48) {
    int same = 1;
    for (int i = 0; i < 48; i++)
      same &= m->long_factor[i] == (double)(float)phi3_long[i] &&
              m->short_factor[i] == (double)(float)phi3_short[i];
    tap_ok(same, "%s: long and short lists equal the config's, as float32", who);
  }
  tap_ok(m->context_len == 131072 && m->arch && !strcmp(m->arch, "phi3"),
         "%s: arch phi3, context 131072", who);
}

static void test_models(void)
{
  gw w;
  rl_model_rope m;
  const char *p;

  p = save(&models[0], &w), free(w.b);
  m = read_ok(p, "llama2");
  tap_ok(m.arch && !strcmp(m.arch, "llama") && m.format && !strcmp(m.format, "gguf"),
         "llama2: arch llama, format gguf");
  field(&m, "llama2", "method", "rope");
  fnum(&m, "llama2", "dim", 128);
  fnum(&m, "llama2", "rot", 128);
  fnum(&m, "llama2", "base", 10000);
  fnum(&m, "llama2", "train-len", 4096);
  source(&m, "llama2", "train-len", "llama.context_length");
  field(&m, "llama2", "factor", NULL);
  tap_ok(m.context_len == 4096 && m.n_factors == 0, "llama2: context 4096, no factor lists");
  rl_model_rope_free(&m);

  p = save(&models[1], &w), free(w.b);
  m = read_ok(p, "llama3.1");
  check_llama31(&m, "llama3.1");
  rl_model_rope_free(&m);

  p = save(&models[2], &w), free(w.b);
  m = read_ok(p, "mistral");
  field(&m, "mistral", "method", "rope");
  fnum(&m, "mistral", "train-len", 32768);
  fnum(&m, "mistral", "dim", 128);
  fnum(&m, "mistral", "base", 10000);
  rl_model_rope_free(&m);

  p = save(&models[3], &w), free(w.b);
  m = read_ok(p, "qwen2.5");
  field(&m, "qwen2.5", "method", "yarn");
  fnum(&m, "qwen2.5", "factor", 4);
  fnum(&m, "qwen2.5", "train-len", 32768);
  fnum(&m, "qwen2.5", "dim", 128); /* 3584 / 28 */
  fnum(&m, "qwen2.5", "base", 1000000);
  fnum(&m, "qwen2.5", "beta-fast", 32);
  fnum(&m, "qwen2.5", "beta-slow", 1);
  source(&m, "qwen2.5", "train-len", "qwen2.rope.scaling.original_context_length");
  source(&m, "qwen2.5", "factor", "qwen2.rope.scaling.factor");
  source(&m, "qwen2.5", "method", "qwen2.rope.scaling.type");
  source(&m, "qwen2.5", "base", "qwen2.rope.freq_base");
  tap_ok(m.arch && !strcmp(m.arch, "qwen2"), "qwen2.5: arch qwen2");
  rl_model_rope_free(&m);

  p = save(&models[4], &w), free(w.b);
  m = read_ok(p, "phi3");
  check_phi3(&m, "phi3");
  rl_model_rope_free(&m);

  p = save(&models[5], &w), free(w.b);
  m = read_ok(p, "deepseek-v2-lite");
  field(&m, "deepseek-v2-lite", "method", "yarn");
  fnum(&m, "deepseek-v2-lite", "factor", 40);
  fnum(&m, "deepseek-v2-lite", "train-len", 4096);
  fnum(&m, "deepseek-v2-lite", "rot", 64);
  fnum(&m, "deepseek-v2-lite", "dim", 192); /* key_length_mla, not the compressed 576 */
  source(&m, "deepseek-v2-lite", "dim", "deepseek2.attention.key_length_mla");
  source(&m, "deepseek-v2-lite", "train-len", "deepseek2.rope.scaling.original_context_length");
  tap_ok(has_note(&m, "yarn_log_multiplier"), "deepseek-v2-lite: a note on yarn_log_multiplier");
  rl_model_rope_free(&m);

  /* llama.cpp's rules on a file without a scaling type (llama_model::
   * load_hparams): the older rope.scale_linear key is the factor and the
   * type defaults to linear; with YaRN, attn_factor is a note, not the
   * attention factor */
  gw_begin(&w, 3, 0);
  common_llama(&w, "llama", 16384, 4096, 32, 32, 128, 10000);
  gw_kv_f32(&w, "llama.rope.scale_linear", 4);
  gw_finish(&w, NULL, 0, 32);
  gw_save(&w, path_of("linear.gguf")), free(w.b);
  m = read_ok(path_of("linear.gguf"), "scale_linear");
  field(&m, "scale_linear", "method", "linear");
  fnum(&m, "scale_linear", "factor", 4);
  fnum(&m, "scale_linear", "train-len", 16384);
  tap_ok(has_note(&m, "no rope.scaling.type"), "scale_linear: a note says linear is llama.cpp's default");
  rl_model_rope_free(&m);
  gw_begin(&w, 3, 0);
  common_llama(&w, "qwen2", 131072, 3584, 28, 4, 128, 1000000);
  gw_kv_str(&w, "qwen2.rope.scaling.type", "yarn");
  gw_kv_f32(&w, "qwen2.rope.scaling.factor", 4);
  gw_kv_f32(&w, "qwen2.rope.scaling.attn_factor", 1.25f);
  gw_finish(&w, NULL, 0, 32);
  gw_save(&w, path_of("yarn_attn.gguf")), free(w.b);
  m = read_ok(path_of("yarn_attn.gguf"), "yarn attn_factor");
  field(&m, "yarn attn_factor", "attention-factor", NULL);
  fnum(&m, "yarn attn_factor", "train-len", 131072); /* no original: context_length */
  tap_ok(has_note(&m, "attn_factor is 1.25"), "yarn attn_factor: a note gives it");
  rl_model_rope_free(&m);

  p = save(&models[6], &w), free(w.b);
  m = read_ok(p, "pythia");
  field(&m, "pythia", "method", "rope");
  fnum(&m, "pythia", "dim", 64);
  fnum(&m, "pythia", "rot", 16);
  fnum(&m, "pythia", "train-len", 2048);
  tap_ok(m.arch && !strcmp(m.arch, "gptneox"), "pythia: arch gptneox");
  rl_model_rope_free(&m);
}

static void refused(const char *name, const unsigned char *b, size_t n, const char *part);

/* The same models in files written by ggml's own GGUF writer
 * (tests/model/ref: gguf_ref.c, make_ref.sh, ggml d99724f2) */
static void test_ggml_files(void)
{
  static const struct {
    const char *name;
    const unsigned char *b;
    size_t n;
    void (*check)(const rl_model_rope *, const char *);
  } refs[] = {{"phi3 (ggml's writer)", ref_phi3_mini_128k, sizeof ref_phi3_mini_128k, check_phi3},
              {"llama3.1 (ggml's writer)", ref_llama31_8b, sizeof ref_llama31_8b, check_llama31}};
  if (!l31[0])
    llama31_freqs(l31);
  for (size_t i = 0; i < sizeof refs / sizeof *refs; i++) {
    const char *p = path_of("ggml.gguf");
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(refs[i].b, 1, refs[i].n, f) != refs[i].n || fclose(f))
      exit(1);
    rl_model_rope m = read_ok(p, refs[i].name);
    refs[i].check(&m, refs[i].name);
    rl_model_rope_free(&m);
  }
  /* general.alignment 64 over data laid out at 32 (ggml's writer ignores
   * the key): ggml's gguf_init_from_file refuses it, and so does ropelab */
  refused("ggml's file claiming alignment 64", ref_llama31_8b_align64,
          sizeof ref_llama31_8b_align64, "past the end");
}

/* A malformed file: RL_EFORMAT with one line naming the file. */
static void refused(const char *name, const unsigned char *b, size_t n, const char *part)
{
  const char *p = path_of("bad.gguf");
  FILE *f = fopen(p, "wb");
  if (!f || (n && fwrite(b, 1, n, f) != n) || fclose(f))
    exit(1);
  rl_model_rope m;
  char err[RL_ERR_MAX] = "";
  rl_model_rope_init(&m);
  rl_status st = rl_model_read_gguf(p, &m, err, sizeof err);
  int one_line = err[0] && !strchr(err, '\n') && strstr(err, p) != NULL;
  tap_ok(st == RL_EFORMAT && one_line && (!part || strstr(err, part)),
         "%s: refused with one line%s%s: %s", name, part ? " naming " : "", part ? part : "", err);
  tap_ok(m.n_fields == 0 && !m.arch && !m.long_factor, "%s: nothing left in the model", name);
}

static void put64(unsigned char *b, size_t at, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    b[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

static void test_truncated(void)
{
  gw w;
  write_phi3(&w);
  const char *p = path_of("trunc.gguf");
  int all = 1;
  size_t worst = 0;
  char err[RL_ERR_MAX];
  for (size_t k = 0; k < w.n; k++) {
    FILE *f = fopen(p, "wb");
    if (!f || (k && fwrite(w.b, 1, k, f) != k) || fclose(f))
      exit(1);
    rl_model_rope m;
    rl_model_rope_init(&m);
    err[0] = 0;
    rl_status st = rl_model_read_gguf(p, &m, err, sizeof err);
    int ok = st == RL_EFORMAT && err[0] && !strchr(err, '\n') && m.n_fields == 0;
    if (!ok && all)
      worst = k;
    all &= ok;
  }
  tap_ok(all, "phi3 header truncated at each of its %zu bytes: refused with one line "
              "(first failure at %zu)", w.n, worst);
  free(w.b);
}

static void test_malformed(void)
{
  gw w;
  unsigned char *b;

  /* lying counts */
  write_mistral(&w);
  b = w.b;
  put64(b, 16, UINT64_MAX);
  refused("n_kv 2^64-1", b, w.n, "key/value count");
  put64(b, 16, w.nkv + 1);
  refused("n_kv one too many", b, w.n, NULL);
  free(w.b);
  write_mistral(&w);
  put64(w.b, 8, (uint64_t)1 << 62);
  refused("n_tensors 2^62", w.b, w.n, "tensor count");
  put64(w.b, 8, 0);
  put64(w.b, 24, (uint64_t)1 << 40); /* the first key's length */
  refused("key length 2^40", w.b, w.n, "length");
  free(w.b);

  /* an array of 2^61 strings */
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  size_t at = w.n + 8 + strlen("tokenizer.ggml.tokens") + 4 + 4;
  gw_kv_strs(&w, "tokenizer.ggml.tokens", toks, 4);
  gw_finish(&w, NULL, 0, 32);
  put64(w.b, at, (uint64_t)1 << 61);
  refused("string array length 2^61", w.b, w.n, "tokenizer.ggml.tokens");
  put64(w.b, at, 5); /* one more than written */
  refused("string array length one too many", w.b, w.n, NULL);
  free(w.b);

  /* nested arrays: 2 levels read, 9 levels refused */
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_key(&w, "general.deep", GW_ARR);
  for (int d = 0; d < 9; d++) {
    gw_u32(&w, GW_ARR);
    gw_u64(&w, 1);
  }
  gw_u32(&w, GW_U8);
  gw_u64(&w, 0);
  gw_finish(&w, NULL, 0, 32);
  refused("arrays nested 10 deep", w.b, w.n, "nests arrays");
  free(w.b);

  /* wrong types */
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_kv_str(&w, "llama.rope.freq_base", "10000");
  gw_finish(&w, NULL, 0, 32);
  refused("freq_base as a string", w.b, w.n, "llama.rope.freq_base");
  free(w.b);
  gw_begin(&w, 3, 0);
  gw_kv_u32(&w, "general.architecture", 7);
  gw_finish(&w, NULL, 0, 32);
  refused("architecture as a number", w.b, w.n, "general.architecture");
  free(w.b);
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_kv_f32(&w, "general.alignment", 32);
  gw_finish(&w, NULL, 0, 32);
  refused("alignment as float32", w.b, w.n, "general.alignment");
  free(w.b);
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_kv_u32(&w, "general.alignment", 48);
  gw_finish(&w, NULL, 0, 32);
  refused("alignment 48", w.b, w.n, "power of two");
  free(w.b);
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_key(&w, "general.odd", 13);
  gw_u32(&w, 0);
  gw_finish(&w, NULL, 0, 32);
  refused("value type 13", w.b, w.n, "general.odd");
  free(w.b);
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_kv_bool(&w, "general.flag", 2);
  gw_finish(&w, NULL, 0, 32);
  refused("bool byte 2", w.b, w.n, "general.flag");
  free(w.b);
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_kv_str(&w, "llama.rope.scaling.type", "dynamic");
  gw_finish(&w, NULL, 0, 32);
  refused("scaling type dynamic", w.b, w.n, "expected none, linear, yarn or longrope");
  free(w.b);
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.name", "no architecture");
  gw_finish(&w, NULL, 0, 32);
  refused("no general.architecture", w.b, w.n, "general.architecture");
  free(w.b);

  /* a key given twice; a tensor under both of llama.cpp's spellings */
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_kv_f32(&w, "llama.rope.freq_base", 10000);
  gw_kv_f32(&w, "llama.rope.freq_base", 500000);
  gw_finish(&w, NULL, 0, 32);
  refused("a key twice", w.b, w.n, "given twice");
  free(w.b);
  {
    float one[4] = {1, 1, 1, 1};
    gw_tensor two[2] = {{"rope_freqs", 1, {4}, 0, one, sizeof one},
                        {"rope_freqs.weight", 1, {4}, 0, one, sizeof one}};
    gw_begin(&w, 3, 2);
    common_llama(&w, "llama", 4096, 64, 8, 8, 8, 10000);
    gw_finish(&w, two, 2, 32);
    refused("rope_freqs and rope_freqs.weight", w.b, w.n, "expected one of them");
    free(w.b);
  }
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_kv_u32(&w, "llama.context_length", 0);
  gw_finish(&w, NULL, 0, 32);
  refused("context_length 0", w.b, w.n, "llama.context_length");
  free(w.b);
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_kv_u64(&w, "llama.rope.dimension_count", (uint64_t)1 << 62);
  gw_finish(&w, NULL, 0, 32);
  refused("dimension_count 2^62", w.b, w.n, "llama.rope.dimension_count");
  free(w.b);

  /* keys that are not printable ASCII */
  gw_begin(&w, 3, 0);
  gw_kv_str(&w, "general.architecture", "llama");
  gw_kv_u32(&w, "general.\xff\xfe", 1);
  gw_finish(&w, NULL, 0, 32);
  refused("non-UTF-8 key", w.b, w.n, "ASCII");
  free(w.b);
  gw_begin(&w, 3, 0);
  gw_kv_u32(&w, "", 1);
  gw_finish(&w, NULL, 0, 32);
  refused("empty key", w.b, w.n, "empty");
  free(w.b);

  /* tensors: misaligned, past the end, wrong type, wrong length */
  float f4[4] = {1, 1, 1, 1};
  gw_tensor t = {"rope_freqs.weight", 1, {4}, 0, f4, sizeof f4};
  gw_begin(&w, 3, 1);
  common_llama(&w, "llama", 4096, 64, 8, 8, 8, 10000);
  size_t off_at;
  gw_finish(&w, &t, 1, 32);
  /* the tensor's offset is the 8 bytes before the 4 padding bytes... find
   * it: the info ends with type (4) and offset (8) right before padding */
  off_at = 0;
  for (size_t i = 0; i + 17 < w.n; i++)
    if (!memcmp(w.b + i, "rope_freqs.weight", 17))
      off_at = i + 17 + 4 + 8 + 4;
  put64(w.b, off_at, 4);
  refused("tensor offset 4 with alignment 32", w.b, w.n, "aligned");
  put64(w.b, off_at, (uint64_t)1 << 40);
  refused("tensor offset past the end", w.b, w.n, "past the end");
  put64(w.b, off_at, 0);
  w.b[off_at - 4] = 1; /* F16 */
  refused("rope_freqs as F16", w.b, w.n, "F32");
  w.b[off_at - 4] = 0;
  put64(w.b, off_at - 12, 5); /* 5 factors for 4 pairs */
  refused("rope_freqs of the wrong length", w.b, w.n, "one per rotary pair");
  put64(w.b, off_at - 12, 4);
  {
    rl_model_rope m;
    char err[RL_ERR_MAX] = "";
    rl_model_rope_init(&m);
    const char *p = path_of("ok.gguf");
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(w.b, 1, w.n, f) != w.n || fclose(f))
      exit(1);
    tap_ok(rl_model_read_gguf(p, &m, err, sizeof err) == RL_OK && m.n_factors == 4,
           "the unpatched small file reads (%s)", err);
    rl_model_rope_free(&m);
  }
  put64(w.b, off_at - 12, (uint64_t)1 << 62); /* a huge dimension */
  refused("rope_freqs of 2^62 factors", w.b, w.n, "rope_freqs");
  free(w.b);

  /* a factor below LongRoPE's smallest, 1e-6 (longrope.c): refused here,
   * naming the tensor and the bound the schedule holds it to (float32
   * 1e-7 is 1.0000000116860974e-07, Python struct's round trip) */
  float tiny[4] = {1, 1, 1e-7f, 1};
  gw_tensor tt = {"rope_freqs.weight", 1, {4}, 0, tiny, sizeof tiny};
  gw_begin(&w, 3, 1);
  common_llama(&w, "llama", 4096, 64, 8, 8, 8, 10000);
  gw_finish(&w, &tt, 1, 32);
  refused("a rope_freqs factor of 1e-7", w.b, w.n,
          "tensor 'rope_freqs.weight' value 2 is 1.0000000116860974e-07: expected a positive "
          "number >= 1e-6");
  free(w.b);

  /* versions */
  unsigned char hdr[24] = "GGUF";
  memset(hdr + 4, 0, 20);
  hdr[4] = 1;
  refused("version 1", hdr, sizeof hdr, "version 1");
  hdr[4] = 4;
  refused("version 4", hdr, sizeof hdr, "expected version 2 or 3");
  hdr[4] = 0, hdr[7] = 3;
  refused("big-endian version 3", hdr, sizeof hdr, "big-endian");
  memcpy(hdr, "GGUX", 4);
  refused("bad magic", hdr, sizeof hdr, "magic");
  refused("empty file", hdr, 0, NULL);
}

int main(int argc, char **argv)
{
  if (argc == 3 && !strcmp(argv[1], "--write-corpus")) {
    /* the fuzz seed corpus: every model's header */
    snprintf(dir, sizeof dir, "%s", argv[2]);
    for (size_t i = 0; i < NMODELS; i++) {
      gw w;
      save(&models[i], &w);
      free(w.b);
    }
    return 0;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/ropelab-gguf.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_models();
  test_ggml_files();
  test_truncated();
  test_malformed();
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    printf("# could not remove %s\n", dir);
  return tap_done();
}
