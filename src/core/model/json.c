/* json.c: rl_model_read_json, the Hugging Face config.json reader
 * (ropelab/model.h).
 *
 * The JSON is parsed by jansson (Debian libjansson-dev), chosen over
 * json-c and cJSON because it is strict RFC 8259 (no comments, no
 * trailing commas, no NaN), refuses duplicate object keys on request
 * (JSON_REJECT_DUPLICATES: a config with two "factor"s has no meaning),
 * validates UTF-8, refuses integers that overflow instead of wrapping
 * them, and reports the line and column of every error.
 *
 * The keys are read as transformers reads them (src/transformers/
 * modeling_rope_utils.py at commit ef46806472a64b0013ed413781e3afed82bfa047):
 *   - the rotary width: int(head_dim * partial_rotary_factor), head_dim
 *     the config's "head_dim" or else hidden_size // num_attention_heads
 *     (_compute_default_rope_parameters);
 *   - rope_scaling's kind: "rope_type", else the legacy "type"
 *     (rope_config_validation, _check_received_keys); both present and
 *     different is refused here, where transformers silently takes
 *     rope_type;
 *   - the method of that kind, and the keys of rope_scaling it reads, are
 *     the method's own declaration (rl_schedule_type.hf in
 *     src/core/schedules/<method>.c: the names, the keys mapped to its
 *     parameters, which are required, and a hook for the lengths, lists
 *     and notes the keys do not give), so this file names no method.
 * Newer configs carry the same dictionary as "rope_parameters", with
 * rope_theta inside it.
 * Where llama.cpp (convert_hf_to_gguf.py writing <arch>.rope.* keys,
 * llama-model-loader reading them) takes a key otherwise, the method's
 * hook adds a note (rl_model_rope_note). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "ropelab.h"
#include "model_impl.h"

typedef struct reader {
  const char *path;
  rl_model_rope *m;
  char *err;
  size_t n;
  rl_schedule_params scratch; /* every value is checked by its declaration */
  char sn[48], theta_src[96], prf_src[96]; /* a layer type's key paths (cut short) */
  /* what a method's declaration reads (rl_model_src): the top level and
   * the scaling dictionary, named sn in messages */
  const json_t *top, *sc;
  const char *scn;
} reader;

/* A JSON value as short text for messages. */
static void show(const json_t *v, char *buf, size_t n)
{
  if (json_is_real(v)) { /* the shortest text that reads back as the same double */
    char num[RL_NUMFMT_MAX];
    rl_numfmt(json_real_value(v), num);
    snprintf(buf, n, "%s", num);
    return;
  }
  /* escaped to ASCII on one line; a string without its quotes */
  char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
  if (!s) {
    snprintf(buf, n, "%s", v ? "?" : "missing");
    return;
  }
  const char *t = s;
  size_t len = strlen(s);
  if (json_is_string(v) && len >= 2)
    t = s + 1, len -= 2;
  if (len > 40)
    snprintf(buf, n, "%.37s...", t);
  else
    snprintf(buf, n, "%.*s", (int)len, t);
  free(s);
}

static rl_status bad(reader *r, const char *key, const json_t *v, const char *expect)
{
  char val[48];
  show(v, val, sizeof val);
  if (!v)
    return rl_errf(RL_EFORMAT, r->err, r->n, "missing %s in config '%s': expected %s", key,
                   r->path, expect);
  return rl_errf(RL_EFORMAT, r->err, r->n, "invalid %s '%s' in config '%s': expected %s", key,
                 val, r->path, expect);
}

static int is_num(const json_t *v)
{
  return json_is_integer(v) || json_is_real(v);
}

/* Exact text of a JSON number: integers as written, reals as the shortest
 * text that reads back as the double jansson read (strtod, correctly
 * rounded). */
static void num_text(const json_t *v, char *buf, size_t n)
{
  char num[RL_NUMFMT_MAX];
  if (json_is_integer(v)) {
    snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
  } else {
    rl_numfmt(json_real_value(v), num);
    snprintf(buf, n, "%s", num);
  }
}

/* Record key = text from source, checked by the declaration of key. */
static rl_status put(reader *r, const char *key, const char *text, const char *source)
{
  const rl_param *d = rl_schedule_param_find(key);
  if (d) {
    char e[512];
    if (rl_param_parse(d, &r->scratch, text, e, sizeof e)) {
      const char *x = strstr(e, "expected");
      return rl_errf(RL_EFORMAT, r->err, r->n, "invalid %s '%s' in config '%s': %s", source,
                     text, r->path, x ? x : e);
    }
  }
  return rl_model_rope_set(r->m, key, text, source);
}

static rl_status put_num(reader *r, const char *key, const json_t *v, const char *source)
{
  if (!is_num(v))
    return bad(r, source, v, "a number");
  char t[64];
  num_text(v, t, sizeof t);
  return put(r, key, t, source);
}

static rl_status note(reader *r, const char *fmt, ...)
{
  char buf[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return rl_model_rope_note(r->m, buf);
}

/* A positive integer key (head_dim, sizes, lengths), or 0 when absent. */
static rl_status get_count(reader *r, const json_t *obj, const char *key, const char *source,
                           json_int_t *out)
{
  const json_t *v = json_object_get(obj, key);
  *out = 0;
  if (!v || json_is_null(v))
    return RL_OK;
  /* 4096.0 is accepted as 4096: Python's int() of the float transformers
   * would compute with */
  double x = json_is_integer(v) ? (double)json_integer_value(v) : json_is_real(v) ? json_real_value(v) : (double)NAN;
  if (!(x >= 1 && x <= 0x1p53 && x == floor(x)))
    return bad(r, source, v, "a positive integer");
  *out = (json_int_t)x;
  return RL_OK;
}

/* A list of want numbers, each within d's bounds. */
static rl_status get_list(reader *r, const json_t *v, const char *source, const rl_param *d,
                          size_t want, double **out)
{
  char expect[96];
  snprintf(expect, sizeof expect, "a list of %zu positive numbers (one per rotary pair)", want);
  if (!json_is_array(v))
    return bad(r, source, v, expect);
  size_t len = json_array_size(v);
  if (len != want) {
    char val[48];
    show(v, val, sizeof val);
    return rl_errf(RL_EFORMAT, r->err, r->n,
                   "invalid %s '%s' in config '%s': %zu numbers, expected %zu (rotary width / 2)",
                   source, val, r->path, len, want);
  }
  double *x = malloc((len ? len : 1) * sizeof *x);
  if (!x)
    return RL_ENOMEM;
  for (size_t i = 0; i < len; i++) {
    const json_t *e = json_array_get(v, i);
    x[i] = is_num(e) ? (json_is_integer(e) ? (double)json_integer_value(e) : json_real_value(e)) : (double)NAN;
    if (!rl_param_in_bounds(d, x[i])) {
      char key[440], want_text[128];
      snprintf(key, sizeof key, "%s[%zu]", source, i);
      rl_param_expect(d, want_text, sizeof want_text);
      free(x);
      return bad(r, key, e, want_text);
    }
  }
  *out = x;
  return RL_OK;
}

/* ---- the file as a method's declaration sees it (rl_model_src) */

static reader *rd_of(rl_model_src *s)
{
  return s->reader;
}

static const json_t *obj_of(reader *r, int where)
{
  return where == RL_MS_TOP ? r->top : r->sc;
}

static void src_name(rl_model_src *s, const char *key, int where)
{
  reader *r = rd_of(s);
  if (where == RL_MS_TOP)
    snprintf(s->name, sizeof s->name, "%s", key);
  else
    snprintf(s->name, sizeof s->name, "%s.%s", r->scn, key);
}

static const json_t *value(rl_model_src *s, const char *key, int where)
{
  src_name(s, key, where);
  const json_t *o = obj_of(rd_of(s), where);
  return o ? json_object_get(o, key) : NULL;
}

static rl_status src_number(rl_model_src *s, const char *key, int where, double *v, int *found)
{
  const json_t *j = value(s, key, where);
  *found = 0;
  if (!j || json_is_null(j))
    return RL_OK;
  if (!is_num(j))
    return bad(rd_of(s), s->name, j, "a number");
  *v = json_is_integer(j) ? (double)json_integer_value(j) : json_real_value(j);
  *found = 1;
  return RL_OK;
}

static rl_status src_count(rl_model_src *s, const char *key, int where, double *v)
{
  json_int_t c;
  src_name(s, key, where);
  char name[sizeof s->name];
  snprintf(name, sizeof name, "%s", s->name);
  rl_status st = get_count(rd_of(s), obj_of(rd_of(s), where), key, name, &c);
  *v = st ? 0 : (double)c;
  return st;
}

static rl_status src_list(rl_model_src *s, const char *key, int where, const rl_param *d,
                          size_t want, double **v)
{
  const json_t *j = value(s, key, where);
  char name[sizeof s->name];
  snprintf(name, sizeof name, "%s", s->name);
  return get_list(rd_of(s), j, name, d, want, v);
}

static rl_status src_ints(rl_model_src *s, const char *key, int where, size_t n, long lo,
                          long hi, const char *expect, long *v)
{
  const json_t *j = value(s, key, where);
  reader *r = rd_of(s);
  if (!json_is_array(j) || json_array_size(j) != n)
    return bad(r, s->name, j, expect);
  for (size_t i = 0; i < n; i++) {
    const json_t *e = json_array_get(j, i);
    if (!json_is_integer(e) || json_integer_value(e) < lo || json_integer_value(e) > hi)
      return bad(r, s->name, j, expect);
    v[i] = (long)json_integer_value(e);
  }
  return RL_OK;
}

static rl_status src_put(rl_model_src *s, const char *param, const char *text,
                         const char *source)
{
  return put(rd_of(s), param, text, source);
}

static rl_status src_put_num(rl_model_src *s, const char *param, double v, const char *source)
{
  char t[64];
  if (v == floor(v) && fabs(v) <= 0x1p53) /* a count, as the config writes it */
    snprintf(t, sizeof t, "%.0f", v);
  else
    rl_numfmt(v, t);
  return put(rd_of(s), param, t, source);
}

static rl_status src_put_key(rl_model_src *s, const char *param, const char *key, int where,
                             int required)
{
  const json_t *j = value(s, key, where);
  char name[sizeof s->name];
  snprintf(name, sizeof name, "%s", s->name);
  if ((!j || json_is_null(j)) && !required)
    return RL_OK;
  return put_num(rd_of(s), param, j, name);
}

static rl_status src_missing(rl_model_src *s, const char *key, int where, const char *expect)
{
  src_name(s, key, where);
  return bad(rd_of(s), s->name, NULL, expect);
}

static rl_status src_bad(rl_model_src *s, const char *key, int where, const char *tail)
{
  reader *r = rd_of(s);
  const json_t *j = value(s, key, where);
  char val[48];
  show(j, val, sizeof val);
  return rl_errf(RL_EFORMAT, r->err, r->n, "invalid %s '%s' in config '%s': %s", s->name, val,
                 r->path, tail);
}

static const rl_model_src_ops json_ops = {
    .number = src_number, .count = src_count, .list = src_list, .ints = src_ints,
    .put = src_put, .put_num = src_put_num, .put_key = src_put_key, .name = src_name,
    .missing = src_missing, .bad = src_bad};

/* The keys a method declares (rl_model_key): each number into its
 * parameter, checked by the parameter's declaration. */
static rl_status read_keys(reader *r, rl_model_src *src, const rl_model_key *keys)
{
  rl_status st;
  for (const rl_model_key *k = keys; k && k->key; k++) {
    if (!k->param)
      continue;
    const json_t *v = value(src, k->key, RL_MS_SCALING);
    char name[sizeof src->name];
    snprintf(name, sizeof name, "%s", src->name);
    if (k->flags & RL_MK_REQUIRED) {
      if ((st = put_num(r, k->param, v, name)))
        return st;
      continue;
    }
    if (!v || json_is_null(v))
      continue;
    if (k->flags & RL_MK_BOOL) {
      if (!json_is_boolean(v))
        return bad(r, name, v, "true or false");
      if ((st = put(r, k->param, json_is_true(v) ? "yes" : "no", name)))
        return st;
      continue;
    }
    /* "beta_fast or 32": a zero is the default in transformers */
    if ((k->flags & RL_MK_ZERO_UNSET) && is_num(v) &&
        (json_is_integer(v) ? json_integer_value(v) == 0 : json_real_value(v) == 0))
      continue;
    if ((st = put_num(r, k->param, v, name)))
      return st;
  }
  return RL_OK;
}

/* rope_scaling / rope_parameters: the method its rope_type (or legacy
 * type) names, as the methods declare the names (rl_schedule_type.hf),
 * then the keys each method declares and what its hook reads. */
static rl_status read_scaling(reader *r, const json_t *top, const json_t *sc, const char *sn,
                              size_t rot)
{
  char src[96], src2[96];
  const json_t *rt = json_object_get(sc, "rope_type"), *ty = json_object_get(sc, "type");
  snprintf(src, sizeof src, "%s.rope_type", sn);
  snprintf(src2, sizeof src2, "%s.type", sn);
  if (rt && !json_is_string(rt))
    return bad(r, src, rt, "a string naming the kind of scaling");
  if (ty && !json_is_string(ty))
    return bad(r, src2, ty, "a string naming the kind of scaling");
  if (rt && ty && strcmp(json_string_value(rt), json_string_value(ty)))
    return rl_errf(RL_EFORMAT, r->err, r->n,
                   "contradictory %s '%s' and %s '%s' in config '%s': expected one kind "
                   "(transformers reads rope_type, the legacy type is its old name)",
                   src, json_string_value(rt), src2, json_string_value(ty), r->path);
  const json_t *kv = rt ? rt : ty;
  const char *ksrc = rt ? src : src2;
  const char *kind = kv ? json_string_value(kv) : NULL;
  const rl_schedule_type *t = kind ? rl_model_method_named(0, kind, strlen(kind))
                                   : rl_model_method_flagged(0, RL_MN_DEFAULT);
  if (!t) {
    char names[400];
    rl_model_method_names(0, names, sizeof names);
    return bad(r, ksrc, kv, names);
  }
  rl_status st = put(r, "method", t->name, kv ? ksrc : sn);
  if (st)
    return st;
  r->top = top;
  r->sc = sc;
  r->scn = sn;
  rl_model_src s = {.ops = &json_ops, .reader = r, .m = r->m, .kind = kind, .named = t,
                    .rot = rot};
  if ((st = read_keys(r, &s, t->hf->keys)))
    return st;
  /* rope_scaling's original length is checked for every method (llama3
   * and yarn read it) */
  double orig;
  if ((st = src_count(&s, "original_max_position_embeddings", RL_MS_SCALING, &orig)))
    return st;
  return t->hf->read ? t->hf->read(&s) : RL_OK;
}

/* rope_parameters keyed by attention layer type (every value an object:
 * {"full_attention": {...}, "sliding_attention": {...}}), as transformers
 * v5 standardises Gemma 3's and later models' configs
 * (Gemma3TextConfig.convert_rope_params_to_dict). */
static int per_layer_type(json_t *rp)
{
  if (!json_is_object(rp) || !json_object_size(rp))
    return 0;
  const char *k;
  json_t *v;
  json_object_foreach(rp, k, v)
    if (!json_is_object(v))
      return 0;
  return 1;
}

/* "full_attention or sliding_attention": the keys of a per-layer-type object. */
static void layer_names(json_t *rp, char *buf, size_t n)
{
  size_t len = 0;
  const char *k;
  json_t *v;
  buf[0] = 0;
  size_t i = 0, count = json_object_size(rp);
  json_object_foreach(rp, k, v) {
    (void)v;
    if (len < n)
      len += (size_t)snprintf(buf + len, n - len, "%s%s", i == 0 ? "" : i + 1 == count ? " or " : ", ", k);
    i++;
  }
}

static rl_status read_top(reader *r, const json_t *top)
{
  rl_status st;
  const json_t *mt = json_object_get(top, "model_type");
  if (json_is_string(mt) && !(r->m->arch = strdup(json_string_value(mt))))
    return RL_ENOMEM;
  const char *arch = r->m->arch ? r->m->arch : "";
  /* the name transformers saves with the config (save_pretrained writes
   * _name_or_path): what `report` names the model and its folder by */
  const json_t *nm = json_object_get(top, "_name_or_path");
  if (json_is_string(nm) && rl_model_name_ok(json_string_value(nm), json_string_length(nm)) &&
      !(r->m->name = strdup(json_string_value(nm))))
    return RL_ENOMEM;

  /* a multimodal config (Gemma 3, LLaVA, ...) keeps the language model's
   * keys in text_config, which transformers builds the text model from */
  const json_t *tc = json_object_get(top, "text_config");
  if (json_is_object(tc) && !json_object_get(top, "rope_theta") &&
      !json_object_get(top, "rope_parameters") && !json_object_get(top, "head_dim") &&
      !json_object_get(top, "hidden_size")) {
    top = tc;
    if ((st = note(r, "the RoPE keys are read from text_config (the language model of a "
                      "multimodal config)")))
      return st;
  }

  /* rope_parameters (newer configs) holds rope_theta and the scaling */
  json_t *rp = json_object_get(top, "rope_parameters");
  const json_t *rs = json_object_get(top, "rope_scaling");
  if (rp && !json_is_null(rp) && !json_is_object(rp))
    return bad(r, "rope_parameters", rp, "an object");
  if (rs && !json_is_null(rs) && !json_is_object(rs))
    return bad(r, "rope_scaling", rs, "an object or null");
  const char *lt = r->m->layer_type;
  const json_t *local = json_object_get(top, "rope_local_base_freq");
  const char *sn = json_is_object(rp) ? "rope_parameters" : "rope_scaling";
  const json_t *theta = json_object_get(top, "rope_theta");
  const char *theta_src = "rope_theta";
  int layered = 0;
  if (per_layer_type(rp)) {
    char names[256];
    layer_names(rp, names, sizeof names);
    if (!lt)
      return rl_errf(RL_EFORMAT, r->err, r->n,
                     "missing --layer-type for config '%s': it has a RoPE per attention layer "
                     "type in rope_parameters, expected %s",
                     r->path, names);
    json_t *sel = json_object_get(rp, lt);
    if (!sel)
      return rl_errf(RL_EFORMAT, r->err, r->n,
                     "invalid --layer-type '%s' for config '%s': expected %s", lt, r->path,
                     names);
    snprintf(r->sn, sizeof r->sn, "rope_parameters.%s", lt);
    rp = sel, sn = r->sn, layered = 1;
    /* the layer type's own base; a top-level rope_theta is another
     * layer type's or a default (transformers v5 pops it) */
    theta = json_object_get(rp, "rope_theta"), theta_src = NULL;
  } else if (local && !json_is_null(local)) {
    /* Gemma 3 as released: rope_theta and rope_scaling for full
     * attention, rope_local_base_freq (no scaling) for sliding attention
     * (transformers' Gemma3TextConfig; v5's convert_rope_params_to_dict
     * puts rope_scaling under full_attention only) */
    if (!lt)
      return rl_errf(RL_EFORMAT, r->err, r->n,
                     "missing --layer-type for config '%s': it has a RoPE per attention layer "
                     "type, expected full_attention (rope_theta, rope_scaling) or "
                     "sliding_attention (rope_local_base_freq)",
                     r->path);
    if (!strcmp(lt, "sliding_attention")) {
      theta = local, theta_src = "rope_local_base_freq";
      if (json_is_object(rs) &&
          (st = note(r, "rope_scaling applies to the full_attention layers only (transformers' "
                        "Gemma3TextConfig): sliding_attention is plain RoPE")))
        return st;
      rs = NULL;
    } else if (strcmp(lt, "full_attention")) {
      return rl_errf(RL_EFORMAT, r->err, r->n,
                     "invalid --layer-type '%s' for config '%s': expected full_attention or "
                     "sliding_attention",
                     lt, r->path);
    }
    layered = 1;
  } else if (lt) {
    return rl_errf(RL_EFORMAT, r->err, r->n,
                   "invalid --layer-type '%s' for config '%s': expected none (the config has "
                   "one RoPE for every layer)",
                   lt, r->path);
  }
  if (layered) {
    char line[200];
    snprintf(line, sizeof line, "layer type %s (the config has a RoPE per attention layer type)",
             lt);
    if ((st = note(r, "%s", line)))
      return st;
  }
  if (!layered && json_is_object(rp) && !json_object_get(rp, "rope_type") &&
      !json_object_get(rp, "rope_theta"))
    return bad(r, "rope_parameters", rp, "one dictionary with rope_type and rope_theta, or one "
                                          "per attention layer type");
  const json_t *sc = json_is_object(rp) ? rp : json_is_object(rs) ? rs : NULL;
  if (json_is_object(rp) && json_is_object(rs) && !layered)
    if ((st = note(r, "rope_parameters and rope_scaling both present: rope_parameters is read")))
      return st;

  /* the base: rope_theta, rope_parameters.rope_theta, GPT-NeoX's rotary_emb_base */
  const json_t *inner = json_is_object(rp) && !layered ? json_object_get(rp, "rope_theta") : NULL;
  const json_t *neox = json_object_get(top, "rotary_emb_base");
  if (layered && json_is_object(rp)) {
    snprintf(r->theta_src, sizeof r->theta_src, "%s.rope_theta", sn);
    theta_src = r->theta_src;
  }
  if (theta && inner && !json_equal(theta, inner))
    return bad(r, "rope_parameters.rope_theta", inner, "the same base as rope_theta");
  if (inner)
    theta = inner, theta_src = "rope_parameters.rope_theta";
  if (!theta && neox && !layered)
    theta = neox, theta_src = "rotary_emb_base";
  if (theta && !json_is_null(theta)) {
    if ((st = put_num(r, "base", theta, theta_src)))
      return st;
  } else if ((st = note(r, "no rope_theta: the model class's default applies (10000 for Llama, "
                           "Mistral, GPT-NeoX; ropelab's default)")))
    return st;

  /* the head dimension: DeepSeek's MLA rotates qk_rope_head_dim dims */
  json_int_t hd, hidden, heads, qkr;
  if ((st = get_count(r, top, "head_dim", "head_dim", &hd)) ||
      (st = get_count(r, top, "hidden_size", "hidden_size", &hidden)) ||
      (st = get_count(r, top, "num_attention_heads", "num_attention_heads", &heads)) ||
      (st = get_count(r, top, "qk_rope_head_dim", "qk_rope_head_dim", &qkr)))
    return st;
  char num[64];
  const char *dim_src;
  json_int_t dim;
  if (qkr) {
    dim = qkr, dim_src = "qk_rope_head_dim";
    if ((st = note(r, "multi-head latent attention: RoPE turns the qk_rope_head_dim (%" JSON_INTEGER_FORMAT
                      ") dimensions of each head, not head_dim",
                   qkr)))
      return st;
  } else if (hd) {
    dim = hd, dim_src = "head_dim";
    if (hidden && heads && hidden / heads != hd &&
        (st = note(r, "transformers before reading head_dim (commit 0044e3b) took hidden_size / "
                      "num_attention_heads = %" JSON_INTEGER_FORMAT " as the head dimension, not "
                      "head_dim = %" JSON_INTEGER_FORMAT,
                   hidden / heads, hd)))
      return st;
  } else if (hidden && heads) {
    dim = hidden / heads, dim_src = "hidden_size / num_attention_heads";
  } else {
    return bad(r, "head_dim", NULL, "head_dim, or hidden_size and num_attention_heads");
  }
  snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, dim);
  if ((st = put(r, "dim", num, dim_src)))
    return st;

  /* the rotated width: int(head_dim * partial_rotary_factor) */
  const json_t *prf = json_object_get(top, "partial_rotary_factor");
  const char *prf_src = "partial_rotary_factor";
  if (layered && json_is_object(rp) && json_object_get(rp, "partial_rotary_factor")) {
    /* a layer type's own rotated fraction (Gemma 4's full attention) */
    prf = json_object_get(rp, "partial_rotary_factor");
    snprintf(r->prf_src, sizeof r->prf_src, "%s.partial_rotary_factor", sn);
    prf_src = r->prf_src;
  }
  const json_t *pct = json_object_get(top, "rotary_pct");
  if (prf && pct && !json_equal(prf, pct))
    return bad(r, "rotary_pct", pct, "the same fraction as partial_rotary_factor");
  if (!prf && pct)
    prf = pct, prf_src = "rotary_pct";
  size_t rot = (size_t)dim;
  if (prf && !json_is_null(prf)) {
    double f = is_num(prf) ? (json_is_integer(prf) ? (double)json_integer_value(prf) : json_real_value(prf)) : (double)NAN;
    if (!(f > 0 && f <= 1))
      return bad(r, prf_src, prf, "a fraction in (0, 1]");
    rot = (size_t)((double)dim * f); /* Python's int() truncates */
    if (rot < 2 || rot % 2) {
      char val[48];
      show(prf, val, sizeof val);
      return rl_errf(RL_EFORMAT, r->err, r->n,
                     "invalid %s '%s' in config '%s': rotates %zu of %" JSON_INTEGER_FORMAT
                     " dimensions, expected an even number >= 2",
                     prf_src, val, r->path, rot, dim);
    }
    if (rot != (size_t)dim) {
      snprintf(num, sizeof num, "%zu", rot);
      if ((st = put(r, "rot", num, prf_src)))
        return st;
    }
  }

  json_int_t max_pos;
  if ((st = get_count(r, top, "max_position_embeddings", "max_position_embeddings", &max_pos)))
    return st;
  r->m->context_len = (double)max_pos;

  /* how the pairs are formed: transformers' rotate_half pairs i with
   * i + r/2; DeepSeek's V2/V3 code de-interleaves q and k first, which
   * is the interleaved pairing */
  int deepseek = !strncmp(arch, "deepseek_v", 10);
  if ((st = put(r, "layout", deepseek ? "interleaved" : "half",
                deepseek ? "model code (deepseek: q, k de-interleaved before rotate_half)"
                         : "model code (transformers rotate_half)")))
    return st;

  if (sc)
    return read_scaling(r, top, sc, sn, rot);
  return RL_OK;
}

/* a config.json is a few kilobytes; a larger file is not one */
#define RL_MODEL_JSON_MAX ((size_t)64 << 20)

rl_status rl_model_read_json(const char *path, rl_model_rope *m, char *err, size_t n)
{
  json_error_t je;
  /* read through the one opener (rl_file_open_read: a FIFO or a folder
   * refused at once, by name), then parsed from memory */
  char *text;
  size_t len;
  char msg[RL_ERR_MAX];
  rl_status rs = rl_io_slurp(path, RL_MODEL_JSON_MAX, &text, &len, msg, sizeof msg);
  if (rs == RL_ENOMEM)
    return rl_errf(rs, err, n, "out of memory reading config '%s'", path);
  if (rs)
    return rl_errf(rs, err, n, "config: %s", msg);
  json_t *top = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  free(text);
  if (!top) {
    /* jansson quotes the text near the error: kept to one printable line */
    for (char *c = je.text; *c; c++)
      if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
        *c = '?';
    return rl_errf(RL_EFORMAT, err, n,
                   "invalid JSON in config '%s' at line %d column %d: %s; expected a "
                   "config.json (RFC 8259, UTF-8)",
                   path, je.line, je.column, je.text);
  }
  reader r = {.path = path, .m = m, .err = err, .n = n};
  rl_schedule_params_default(&r.scratch);
  rl_status st = RL_OK;
  if (!(m->path = strdup(path))) {
    st = RL_ENOMEM;
  } else {
    m->format = "config.json";
    if (!json_is_object(top))
      st = bad(&r, "top level", top, "a JSON object (a config.json)");
    else
      st = read_top(&r, top);
  }
  json_decref(top);
  if (st == RL_ENOMEM)
    rl_errf(st, err, n, "out of memory reading config '%s'", path);
  if (st) {
    rl_model_rope_free(m);
  }
  return st;
}
