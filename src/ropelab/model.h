/* model.h: a model's RoPE as its own files state it (a Hugging
 * Face config.json, a GGUF header), turned into schedule settings.
 *
 * Both readers produce the same thing: a list of (declaration key, value
 * text, source) triples that the caller applies with rl_param_parse onto
 * rl_schedule_params before the command line's own options, so an option
 * given explicitly overrides one field and the metadata can say where
 * each value came from.  Per-pair lists (LongRoPE's short/long factors,
 * GGUF's rope_freqs) are kept as numbers, not text. */
#ifndef ROPELAB_MODEL_H
#define ROPELAB_MODEL_H

#include <stddef.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_model_field {
  char *key;    /* a schedule declaration's key: "method", "factor", "train-len" */
  char *value;  /* its text, as rl_param_parse reads it */
  char *source; /* where it came from: "rope_scaling.factor", "llama.rope.freq_base" */
} rl_model_field;

typedef struct rl_model_rope {
  /* Input, set by the caller after rl_model_rope_init: the attention
   * layer type whose RoPE is read ("full_attention", "sliding_attention")
   * from a config with one RoPE per layer type (Gemma 3: rope_theta with
   * rope_scaling for full attention, rope_local_base_freq for sliding
   * attention; newer configs: rope_parameters keyed by layer type).
   * NULL: such a config is refused, naming its layer types; a layer type
   * given for a config with one RoPE for every layer is refused too. */
  const char *layer_type;
  char *path;          /* the file read */
  const char *format;  /* "config.json" or "gguf" */
  char *arch;          /* model_type / general.architecture, or NULL */
  /* the model's own name where the file states one (config.json's
   * _name_or_path, "meta-llama/Llama-3.1-8B"; GGUF's general.name), else
   * NULL: printable ASCII, at most 255 bytes */
  char *name;
  rl_model_field *fields;
  size_t n_fields;
  /* LongRoPE's per-pair factor lists (n_factors each), or NULL */
  double *short_factor, *long_factor;
  size_t n_factors;
  double context_len;  /* max_position_embeddings / <arch>.context_length; 0 = not stated */
  /* Where the frameworks read this file differently (one sentence each:
   * "transformers reads rope_scaling.type 'dynamic'; llama.cpp has no
   * dynamic scaling"), for the metadata and `ropelab report`. */
  char **notes;
  size_t n_notes;
} rl_model_rope;

/* s[0..n) is a name a page and a folder can carry: 1 to 255 printable
 * ASCII bytes. */
int rl_model_name_ok(const char *s, size_t n);

void rl_model_rope_init(rl_model_rope *m);
void rl_model_rope_free(rl_model_rope *m); /* accepts NULL */
/* Append a field (copies the strings); a key already present is replaced. */
rl_status rl_model_rope_set(rl_model_rope *m, const char *key, const char *value, const char *source);
/* The value of key, or NULL. */
const char *rl_model_rope_get(const rl_model_rope *m, const char *key);
rl_status rl_model_rope_note(rl_model_rope *m, const char *note);

/* Readers: RL_OK, or RL_EFORMAT / RL_EINVAL (malformed or contradictory
 * file: err names the file, the key and what is expected), RL_EIO
 * (unreadable), RL_ENOMEM.  rl_model_read picks the reader by the file's
 * first bytes ("GGUF" magic, else JSON). */
rl_status rl_model_read_json(const char *path, rl_model_rope *m, char *err, size_t n);
rl_status rl_model_read_gguf(const char *path, rl_model_rope *m, char *err, size_t n);
rl_status rl_model_read(const char *path, rl_model_rope *m, char *err, size_t n);


#ifdef __cplusplus
}
#endif
#endif
