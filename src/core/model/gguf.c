/* gguf.c: rl_model_read_gguf, the GGUF reader (ropelab/model.h): the header,
 * the metadata and the tensor infos of a GGUF file (ggml docs/gguf.md,
 * versions 2 and 3, little-endian), memory-mapped; of the tensor data only
 * the small per-pair RoPE factor tensors are read, never the weights.
 *
 * Every length and count is checked against the bytes left in the file
 * before it is used, so no allocation or offset is sized by an unchecked
 * number: a count n of items of at least k bytes each must satisfy
 * n <= left / k, which also keeps n * k from overflowing.
 *
 * Keys follow llama.cpp (src/llama-arch.cpp LLM_KV_NAMES, and
 * llama_model::load_hparams for the defaults: freq_base 10000, the factor
 * from rope.scaling.factor or the older rope.scale_linear,
 * original_context_length defaulting to context_length, the head
 * dimension n_embd / n_head unless key_length).  The scaling types, the
 * type a file without one has ("linear"), each method's own keys and
 * tensors are the methods' declarations (rl_schedule_type.gguf in
 * src/core/schedules/<method>.c), so this file names no method. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ropelab.h"
#include "model_impl.h"

/* docs/gguf.md gguf_metadata_value_type */
enum {
  T_U8, T_I8, T_U16, T_I16, T_U32, T_I32, T_F32, T_BOOL, T_STR, T_ARR, T_U64, T_I64, T_F64,
  T_COUNT
};
static const char *const type_names[T_COUNT] = {
    "uint8", "int8", "uint16", "int16", "uint32", "int32", "float32",
    "bool", "string", "array", "uint64", "int64", "float64"};
static const size_t type_size[T_COUNT] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

#define MAX_DEPTH 8        /* nested arrays deeper than this are refused */
#define MAX_KEY 65535      /* docs/gguf.md: a key is at most 2^16-1 bytes */
#define MAX_TENSOR_NAME 64 /* docs/gguf.md: a tensor name is at most 64 bytes */
#define MAX_DIMS 4         /* docs/gguf.md: n_dimensions at most 4 (GGML_MAX_DIMS) */
#define TYPE_F32 0         /* ggml_type GGML_TYPE_F32 */

typedef struct kv {
  const char *key;
  size_t klen;
  uint32_t type;
  size_t at;  /* offset of the value */
  size_t kat; /* offset of the key (for messages) */
} kv;

typedef struct tinfo {
  const char *name;
  size_t nlen;
  uint32_t ndims, type;
  uint64_t ne[MAX_DIMS];
  uint64_t offset; /* relative to the data section */
  size_t at;       /* offset of the info (for messages) */
} tinfo;

typedef struct rd {
  const unsigned char *p;
  size_t size, off;
  const char *path;
  char *err;
  size_t en;
} rd;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static rl_status bad(rd *r, size_t at, const char *fmt, ...)
{
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return rl_errf(RL_EFORMAT, r->err, r->en, "'%s' at offset %zu: %s", r->path, at, what);
}

static int need(rd *r, size_t k)
{
  return k <= r->size - r->off;
}

/* little-endian, whatever the host */
static uint64_t le(const unsigned char *q, int k)
{
  uint64_t v = 0;
  for (int i = k - 1; i >= 0; i--)
    v = v << 8 | q[i];
  return v;
}

static rl_status get_u32(rd *r, uint32_t *v, const char *what)
{
  if (!need(r, 4))
    return bad(r, r->off, "file ends inside %s: expected 4 more bytes", what);
  *v = (uint32_t)le(r->p + r->off, 4);
  r->off += 4;
  return RL_OK;
}

static rl_status get_u64(rd *r, uint64_t *v, const char *what)
{
  if (!need(r, 8))
    return bad(r, r->off, "file ends inside %s: expected 8 more bytes", what);
  *v = le(r->p + r->off, 8);
  r->off += 8;
  return RL_OK;
}

/* A GGUF string: its bytes stay in the map. */
static rl_status get_str(rd *r, const char **s, size_t *len, const char *what)
{
  uint64_t n = 0;
  size_t at = r->off;
  rl_status st = get_u64(r, &n, what);
  if (st)
    return st;
  if (n > r->size - r->off) {
    char num[24];
    snprintf(num, sizeof num, "%llu", (unsigned long long)n);
    return bad(r, at, "%s has length %s: expected at most the bytes left in the file", what, num);
  }
  *s = (const char *)r->p + r->off;
  *len = (size_t)n;
  r->off += (size_t)n;
  return RL_OK;
}

/* Keys and names are quoted in messages: printable ASCII only (the spec
 * asks ASCII keys; this also refuses non-UTF-8 bytes and control bytes). */
static int printable(const char *s, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
      return 0;
  return n > 0;
}

static void quote(char *buf, size_t bn, const char *s, size_t n)
{
  snprintf(buf, bn, "%.*s", (int)(n < bn - 1 ? n : bn - 1), s);
}

static rl_status skip_value(rd *r, uint32_t type, int depth, const char *key);

static rl_status skip_array(rd *r, int depth, const char *key)
{
  size_t at = r->off;
  uint32_t et = 0;
  uint64_t n = 0;
  rl_status st = get_u32(r, &et, "an array's element type");
  if (!st)
    st = get_u64(r, &n, "an array's length");
  if (st)
    return st;
  if (et >= T_COUNT) {
    char t[16];
    snprintf(t, sizeof t, "%u", et);
    return bad(r, at, "array of key '%s' has element type %s: expected a GGUF value type 0..12",
               key, t);
  }
  if (et == T_ARR && depth + 1 >= MAX_DEPTH)
    return bad(r, at, "key '%s' nests arrays deeper than %s levels: expected at most that",
               key, "8");
  /* the least bytes one element takes: its fixed size, a string's length,
   * an array's type and length */
  size_t least = type_size[et] ? type_size[et] : et == T_STR ? 8 : 12;
  if (n > (r->size - r->off) / least) {
    char num[64];
    snprintf(num, sizeof num, "%llu elements of %s", (unsigned long long)n, type_names[et]);
    return bad(r, at, "array of key '%s' has %s: expected no more than the bytes left in the file hold",
               key, num);
  }
  if (type_size[et] && et != T_BOOL) {
    r->off += (size_t)n * least;
    return RL_OK;
  }
  for (uint64_t i = 0; i < n && !st; i++)
    st = skip_value(r, et, depth + 1, key);
  return st;
}

static rl_status skip_value(rd *r, uint32_t type, int depth, const char *key)
{
  if (type >= T_COUNT) {
    char t[16];
    snprintf(t, sizeof t, "%u", type);
    return bad(r, r->off, "key '%s' has value type %s: expected a GGUF value type 0..12", key, t);
  }
  if (type == T_STR) {
    const char *s;
    size_t n;
    return get_str(r, &s, &n, "a string value");
  }
  if (type == T_ARR)
    return skip_array(r, depth, key);
  if (!need(r, type_size[type]))
    return bad(r, r->off, "file ends inside the value of key '%s': expected %s", key,
               type_names[type]);
  if (type == T_BOOL && r->p[r->off] > 1)
    return bad(r, r->off, "key '%s' has a bool byte other than 0 or 1: expected %s", key,
               "0 or 1");
  r->off += type_size[type];
  return RL_OK;
}

typedef struct gguf {
  rd r;
  kv *kvs;
  size_t nkv;
  tinfo *ts;
  size_t nt;
  uint64_t align;
  size_t data; /* start of the data section */
  char arch[80];
} gguf;

static const kv *find(const gguf *g, const char *key)
{
  size_t n = strlen(key);
  for (size_t i = 0; i < g->nkv; i++)
    if (g->kvs[i].klen == n && !memcmp(g->kvs[i].key, key, n))
      return &g->kvs[i];
  return NULL;
}

/* A number: any integer or float type (writers differ: the spec says
 * uint64 for counts where llama.cpp's converter writes uint32). */
static rl_status num(gguf *g, const kv *e, double *v)
{
  const unsigned char *q = g->r.p + e->at;
  uint64_t u;
  switch (e->type) {
  case T_U8: case T_U16: case T_U32: case T_U64:
    *v = (double)le(q, (int)type_size[e->type]);
    return RL_OK;
  case T_I8: case T_I16: case T_I32: case T_I64: {
    int k = (int)type_size[e->type];
    u = le(q, k);
    int64_t s = k == 8 ? (int64_t)u : (int64_t)(u ^ (1ull << (8 * k - 1))) - (int64_t)(1ull << (8 * k - 1));
    *v = (double)s;
    return RL_OK;
  }
  case T_F32: {
    uint32_t b = (uint32_t)le(q, 4);
    float f;
    memcpy(&f, &b, 4);
    *v = f;
    break;
  }
  case T_F64:
    u = le(q, 8);
    memcpy(v, &u, 8);
    break;
  default: {
    char k[200];
    quote(k, sizeof k, e->key, e->klen);
    return bad(&g->r, e->kat, "key '%s' has type %s: expected a number", k, type_names[e->type]);
  }
  }
  if (!isfinite(*v)) {
    char k[200];
    quote(k, sizeof k, e->key, e->klen);
    return bad(&g->r, e->kat, "key '%s' is not finite: expected a finite %s", k,
               type_names[e->type]);
  }
  return RL_OK;
}

static rl_status str(gguf *g, const kv *e, const char **s, size_t *n)
{
  if (e->type != T_STR) {
    char k[200];
    quote(k, sizeof k, e->key, e->klen);
    return bad(&g->r, e->kat, "key '%s' has type %s: expected a string", k, type_names[e->type]);
  }
  *n = (size_t)le(g->r.p + e->at, 8);
  *s = (const char *)g->r.p + e->at + 8;
  return RL_OK;
}

static int kv_cmp(const void *a, const void *b)
{
  const kv *x = a, *y = b;
  size_t n = x->klen < y->klen ? x->klen : y->klen;
  int c = memcmp(x->key, y->key, n);
  return c ? c : (x->klen > y->klen) - (x->klen < y->klen);
}

static int t_cmp(const void *a, const void *b)
{
  const tinfo *x = a, *y = b;
  size_t n = x->nlen < y->nlen ? x->nlen : y->nlen;
  int c = memcmp(x->name, y->name, n);
  return c ? c : (x->nlen > y->nlen) - (x->nlen < y->nlen);
}

/* A key or tensor name given twice is ambiguous (llama.cpp's gguf.cpp
 * refuses it too): sorted, so that this costs n log n, not n^2; the
 * lookups below do not depend on the order. */
static rl_status no_duplicates(gguf *g)
{
  char k[200];
  if (g->nkv > 1)
    qsort(g->kvs, g->nkv, sizeof *g->kvs, kv_cmp);
  for (size_t i = 1; i < g->nkv; i++)
    if (!kv_cmp(&g->kvs[i - 1], &g->kvs[i])) {
      const kv *e = g->kvs[i].kat > g->kvs[i - 1].kat ? &g->kvs[i] : &g->kvs[i - 1];
      quote(k, sizeof k, e->key, e->klen);
      return bad(&g->r, e->kat, "key '%s' is given twice: expected each key once", k);
    }
  if (g->nt > 1)
    qsort(g->ts, g->nt, sizeof *g->ts, t_cmp);
  for (size_t i = 1; i < g->nt; i++)
    if (!t_cmp(&g->ts[i - 1], &g->ts[i])) {
      const tinfo *t = g->ts[i].at > g->ts[i - 1].at ? &g->ts[i] : &g->ts[i - 1];
      quote(k, sizeof k, t->name, t->nlen);
      return bad(&g->r, t->at, "tensor '%s' is given twice: expected each name once", k);
    }
  return RL_OK;
}

/* The header, the metadata index and the tensor infos. */
static rl_status parse(gguf *g)
{
  rd *r = &g->r;
  rl_status st;
  uint32_t version = 0;
  if (r->size < 4 || memcmp(r->p, "GGUF", 4))
    return bad(r, 0, "no GGUF magic: expected the bytes 'GGUF'");
  r->off = 4;
  if ((st = get_u32(r, &version, "the version")))
    return st;
  /* version 1 had 32-bit counts and lengths where 2 and 3 have 64-bit
   * ones (docs/gguf.md, Version History); 3 added big-endian files, which
   * nothing marks (a byte-swapped version is the only hint) */
  if (version == 1)
    return bad(r, 4, "GGUF version 1 (32-bit counts and lengths, superseded in 2023): "
                     "expected version 2 or 3; convert the file again");
  if (version != 2 && version != 3) {
    char v[64];
    snprintf(v, sizeof v, "%u%s", version,
             version && (version & 0xffff) == 0 ? " (a big-endian file?)" : "");
    return bad(r, 4, "GGUF version %s: expected version 2 or 3 (little-endian)", v);
  }
  uint64_t nt = 0, nkv = 0;
  if ((st = get_u64(r, &nt, "the tensor count")) || (st = get_u64(r, &nkv, "the key/value count")))
    return st;
  /* a key/value takes at least 8 + 1 (key) + 4 (type) + 1 (value) bytes */
  if (nkv > (r->size - r->off) / 14) {
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)nkv);
    return bad(r, 16, "key/value count %s: expected no more than the bytes left in the file hold",
               v);
  }
  g->kvs = nkv ? calloc((size_t)nkv, sizeof *g->kvs) : NULL;
  if (nkv && !g->kvs)
    return RL_ENOMEM;
  for (size_t i = 0; i < (size_t)nkv; i++) {
    kv *e = &g->kvs[i];
    e->kat = r->off;
    if ((st = get_str(r, &e->key, &e->klen, "a key")))
      return st;
    char k[200];
    quote(k, sizeof k, e->key, e->klen);
    if (e->klen > MAX_KEY || !printable(e->key, e->klen))
      return bad(r, e->kat, "key of pair %zu is empty, longer than 65535 bytes or not printable "
                            "ASCII: expected an ASCII key like 'general.architecture'", i);
    if ((st = get_u32(r, &e->type, "a value type")))
      return st;
    e->at = r->off;
    if ((st = skip_value(r, e->type, 0, k)))
      return st;
    g->nkv++;
  }
  /* a tensor info takes at least 8 + 1 (name) + 4 + 4 + 8 bytes */
  if (nt > (r->size - r->off) / 25) {
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)nt);
    return bad(r, 8, "tensor count %s: expected no more than the bytes left in the file hold", v);
  }
  g->align = 32; /* docs/gguf.md: when general.alignment is absent */
  const kv *al = find(g, "general.alignment");
  if (al) {
    /* llama.cpp's gguf.cpp asks uint32 and a power of two */
    if (al->type != T_U32)
      return bad(r, al->kat, "key 'general.alignment' has type %s: expected %s",
                 type_names[al->type], "uint32");
    g->align = le(r->p + al->at, 4);
    if (!g->align || (g->align & (g->align - 1))) {
      char v[24];
      snprintf(v, sizeof v, "%llu", (unsigned long long)g->align);
      return bad(r, al->kat, "general.alignment is %s: expected a power of two", v);
    }
  }
  g->ts = nt ? calloc((size_t)nt, sizeof *g->ts) : NULL;
  if (nt && !g->ts)
    return RL_ENOMEM;
  for (size_t i = 0; i < (size_t)nt; i++) {
    tinfo *t = &g->ts[i];
    t->at = r->off;
    if ((st = get_str(r, &t->name, &t->nlen, "a tensor name")))
      return st;
    if (t->nlen > MAX_TENSOR_NAME || !printable(t->name, t->nlen))
      return bad(r, t->at, "tensor name is empty, longer than 64 bytes or not printable ASCII: "
                           "expected a name like 'rope_freqs.weight'");
    char nm[80];
    quote(nm, sizeof nm, t->name, t->nlen);
    if ((st = get_u32(r, &t->ndims, "a tensor's dimension count")))
      return st;
    if (t->ndims > MAX_DIMS) {
      char v[16];
      snprintf(v, sizeof v, "%u", t->ndims);
      return bad(r, t->at, "tensor '%s' has %s dimensions: expected at most 4", nm, v);
    }
    for (uint32_t j = 0; j < t->ndims; j++) {
      if ((st = get_u64(r, &t->ne[j], "a tensor's dimension")))
        return st;
      if (t->ne[j] > INT64_MAX)
        return bad(r, t->at, "tensor '%s' has a dimension above 2^63-1: expected %s", nm,
                   "a signed 64-bit size");
    }
    if ((st = get_u32(r, &t->type, "a tensor's type")) ||
        (st = get_u64(r, &t->offset, "a tensor's offset")))
      return st;
    if (t->offset % g->align) {
      char v[64];
      snprintf(v, sizeof v, "%llu, not a multiple of %llu", (unsigned long long)t->offset,
               (unsigned long long)g->align);
      return bad(r, t->at, "tensor '%s' has data offset %s: expected aligned data", nm, v);
    }
    g->nt++;
  }
  if ((st = no_duplicates(g)))
    return st;
  /* the data section starts at the next multiple of the alignment; r->off
   * <= size < 2^63, so the sum does not overflow */
  g->data = r->off + (size_t)((g->align - r->off % g->align) % g->align);
  for (size_t i = 0; i < g->nt; i++) {
    tinfo *t = &g->ts[i];
    if (g->data > r->size || t->offset > r->size - g->data) {
      char nm[80], v[24];
      quote(nm, sizeof nm, t->name, t->nlen);
      snprintf(v, sizeof v, "%llu", (unsigned long long)t->offset);
      return bad(r, t->at, "tensor '%s' starts past the end of the file (data offset %s): "
                           "expected a complete file", nm, v);
    }
  }
  return RL_OK;
}

static const tinfo *tensor_named(const gguf *g, const char *name, size_t n)
{
  for (size_t i = 0; i < g->nt; i++)
    if (g->ts[i].nlen == n && !memcmp(g->ts[i].name, name, n))
      return &g->ts[i];
  return NULL;
}

/* The tensor called name or name.weight (llama.cpp's converters write
 * both spellings), NULL when neither; both at once are ambiguous. */
static rl_status tensor(gguf *g, const char *name, const tinfo **out)
{
  char w[64];
  snprintf(w, sizeof w, "%s.weight", name);
  const tinfo *a = tensor_named(g, name, strlen(name)), *b = tensor_named(g, w, strlen(w));
  if (a && b)
    return bad(&g->r, b->at, "tensors '%s' and '%s' both: expected one of them", name, w);
  *out = a ? a : b;
  return RL_OK;
}

/* A per-pair factor tensor: F32, one dimension (others 1), want values
 * when want > 0, each within the bounds of the declaration d; into a new
 * array. */
static rl_status factors(gguf *g, const tinfo *t, const rl_param *d, size_t want, double **out,
                         size_t *n)
{
  rd *r = &g->r;
  char nm[80];
  quote(nm, sizeof nm, t->name, t->nlen);
  if (t->type != TYPE_F32) {
    char v[16];
    snprintf(v, sizeof v, "%u", t->type);
    return bad(r, t->at, "tensor '%s' has ggml type %s: expected F32 (0)", nm, v);
  }
  uint64_t len = t->ndims ? t->ne[0] : 1;
  for (uint32_t j = 1; j < t->ndims; j++)
    if (t->ne[j] != 1)
      return bad(r, t->at, "tensor '%s' is not one-dimensional: expected one factor per %s", nm,
                 "rotary pair");
  if (want && len != want) {
    char v[64];
    snprintf(v, sizeof v, "%llu factors, not %zu", (unsigned long long)len, want);
    return bad(r, t->at, "tensor '%s' has %s: expected one per rotary pair (rope.dimension_count / 2)",
               nm, v);
  }
  if (!len || len > (r->size - g->data - t->offset) / 4)
    return bad(r, t->at, "tensor '%s' has no data or ends past the end of the file: "
                         "expected %s complete",
               nm, "its float32 values");
  double *v = malloc((size_t)len * sizeof *v);
  if (!v)
    return RL_ENOMEM;
  const unsigned char *q = r->p + g->data + t->offset;
  for (size_t i = 0; i < (size_t)len; i++) {
    uint32_t b = (uint32_t)le(q + 4 * i, 4);
    float f;
    memcpy(&f, &b, 4);
    if (!rl_param_in_bounds(d, f)) {
      free(v);
      char at[24], num[RL_NUMFMT_MAX], want_text[128];
      snprintf(at, sizeof at, "%zu", i);
      rl_numfmt(f, num);
      rl_param_expect(d, want_text, sizeof want_text);
      return bad(r, t->at, "tensor '%s' value %s is %s: expected %s", nm, at, num, want_text);
    }
    v[i] = f;
  }
  *out = v;
  *n = (size_t)len;
  return RL_OK;
}

/* key "<arch>.suffix" */
static const kv *akey(const gguf *g, const char *suffix, char *full, size_t fn)
{
  snprintf(full, fn, "%s.%s", g->arch, suffix);
  return find(g, full);
}

static rl_status set_num(rl_model_rope *m, const char *key, double v, const char *source)
{
  char buf[RL_NUMFMT_MAX];
  rl_numfmt(v, buf);
  return rl_model_rope_set(m, key, buf, source);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static rl_status note(rl_model_rope *m, const char *fmt, ...)
{
  char buf[640];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return rl_model_rope_note(m, buf);
}

static const char *numtext(double x, char *buf)
{
  rl_numfmt(x, buf);
  return buf;
}

/* ---- the file as a method's declaration sees it (rl_model_src): keys
 * after "<arch>." (RL_MS_SCALING) or whole (RL_MS_TOP) */

static gguf *g_of(rl_model_src *s)
{
  return s->reader;
}

static void src_name(rl_model_src *s, const char *key, int where)
{
  if (where == RL_MS_TOP)
    snprintf(s->name, sizeof s->name, "%s", key);
  else
    snprintf(s->name, sizeof s->name, "%s.%s", g_of(s)->arch, key);
}

static const kv *src_kv(rl_model_src *s, const char *key, int where)
{
  src_name(s, key, where);
  return find(g_of(s), s->name);
}

static rl_status src_number(rl_model_src *s, const char *key, int where, double *v, int *found)
{
  const kv *e = src_kv(s, key, where);
  *found = 0;
  if (!e)
    return RL_OK;
  rl_status st = num(g_of(s), e, v);
  *found = !st;
  return st;
}

static rl_status src_count(rl_model_src *s, const char *key, int where, double *v)
{
  int found;
  char nb[RL_NUMFMT_MAX];
  rl_status st = src_number(s, key, where, v, &found);
  if (st || !found) {
    *v = 0;
    return st;
  }
  if (!(*v >= 1 && *v <= 0x1p53 && *v == floor(*v)))
    return bad(&g_of(s)->r, src_kv(s, key, where)->kat, "%s is %s: expected a positive integer",
               s->name, numtext(*v, nb));
  return RL_OK;
}

static rl_status src_put(rl_model_src *s, const char *param, const char *text,
                         const char *source)
{
  return rl_model_rope_set(s->m, param, text, source);
}

static rl_status src_put_num(rl_model_src *s, const char *param, double v, const char *source)
{
  return set_num(s->m, param, v, source);
}

static rl_status src_put_key(rl_model_src *s, const char *param, const char *key, int where,
                             int required)
{
  double v;
  int found;
  rl_status st = src_number(s, key, where, &v, &found);
  if (st)
    return st;
  if (!found)
    return required ? bad(&g_of(s)->r, 0, "no key '%s': expected a number", s->name) : RL_OK;
  char name[sizeof s->name];
  snprintf(name, sizeof name, "%s", s->name);
  return set_num(s->m, param, v, name);
}

static rl_status src_missing(rl_model_src *s, const char *key, int where, const char *expect)
{
  src_name(s, key, where);
  return bad(&g_of(s)->r, 0, "no key '%s': expected %s", s->name, expect);
}

static rl_status src_bad(rl_model_src *s, const char *key, int where, const char *tail)
{
  const kv *e = src_kv(s, key, where);
  return bad(&g_of(s)->r, e ? e->kat : 0, "%s", tail);
}

static rl_status src_tensor(rl_model_src *s, const char *name, int *found)
{
  const tinfo *t;
  rl_status st = tensor(g_of(s), name, &t);
  *found = t != NULL;
  return st;
}

static rl_status src_tensor_read(rl_model_src *s, const char *name, const rl_param *d,
                                 size_t want, double **v, size_t *n)
{
  const tinfo *t;
  rl_status st = tensor(g_of(s), name, &t);
  if (st)
    return st;
  if (!t)
    return bad(&g_of(s)->r, 0, "no tensor '%s': expected one", name);
  return factors(g_of(s), t, d, want, v, n);
}

static rl_status src_tensor_bad(rl_model_src *s, const char *name, const char *tail)
{
  const tinfo *t;
  rl_status st = tensor(g_of(s), name, &t);
  if (st)
    return st;
  return bad(&g_of(s)->r, t ? t->at : 0, "%s", tail);
}

static const rl_model_src_ops gguf_ops = {
    .number = src_number, .count = src_count, .put = src_put, .put_num = src_put_num,
    .put_key = src_put_key, .name = src_name, .missing = src_missing, .bad = src_bad,
    .tensor = src_tensor, .tensor_read = src_tensor_read, .tensor_bad = src_tensor_bad};

/* The RoPE settings from the parsed file into m: the shape and the base
 * here, the method as the methods declare their GGUF names
 * (rl_schedule_type.gguf), its keys and what its hooks read. */
static rl_status map(gguf *g, rl_model_rope *m)
{
  rd *r = &g->r;
  rl_status st;
  char k[160], k2[160], ko[160], nb[RL_NUMFMT_MAX];
  const kv *e;
  const char *s = NULL;
  size_t n = 0;
  double v = 0;

  if (!(e = find(g, "general.architecture")))
    return bad(r, 0, "no key 'general.architecture': expected the model's architecture "
                     "(llama, qwen2, phi3, ...)");
  if ((st = str(g, e, &s, &n)))
    return st;
  if (!n || n >= sizeof g->arch - 1 || !printable(s, n))
    return bad(r, e->kat, "general.architecture is empty, long or not printable ASCII: "
                          "expected a name like 'llama'");
  memcpy(g->arch, s, n);
  g->arch[n] = 0;
  if (!(m->arch = malloc(n + 1)))
    return RL_ENOMEM;
  memcpy(m->arch, g->arch, n + 1);

  /* the model's name (general.name), where printable: report's folder */
  if ((e = find(g, "general.name")) && e->type == T_STR && !str(g, e, &s, &n) &&
      rl_model_name_ok(s, n)) {
    if (!(m->name = malloc(n + 1)))
      return RL_ENOMEM;
    memcpy(m->name, s, n);
    m->name[n] = 0;
  }

  /* context lengths */
  double ctx = 0, orig = 0;
  if ((e = akey(g, "context_length", k, sizeof k))) {
    if ((st = num(g, e, &ctx)))
      return st;
    if (!(ctx >= 1 && ctx <= RL_POS_MAX))
      return bad(r, e->kat, "%s is %s: expected a length from 1 to 2^31 tokens", k,
                 numtext(ctx, nb));
    m->context_len = ctx;
  }
  const kv *eo = akey(g, "rope.scaling.original_context_length", ko, sizeof ko);
  if (eo && (st = num(g, eo, &orig)))
    return st;
  if (eo && !(orig >= 1 && orig <= RL_POS_MAX))
    return bad(r, eo->kat, "%s is %s: expected a length from 1 to 2^31 tokens", ko,
               numtext(orig, nb));

  /* head dimension: key_length_mla (DeepSeek's per-head width; its
   * key_length is the compressed MLA width), key_length, else n_embd / n_head */
  double dim = 0;
  char dsrc[400] = "";
  if ((e = akey(g, "attention.key_length_mla", k, sizeof k)) ||
      (e = akey(g, "attention.key_length", k, sizeof k))) {
    if ((st = num(g, e, &dim)))
      return st;
    snprintf(dsrc, sizeof dsrc, "%s", k);
  } else {
    const kv *ee = akey(g, "embedding_length", k, sizeof k);
    const kv *eh = akey(g, "attention.head_count", k2, sizeof k2);
    if (ee && eh && eh->type == T_ARR) {
      if ((st = rl_model_rope_note(m, "the head count is given per layer: the head dimension "
                                      "is not read from the file")))
        return st;
    } else if (ee && eh) {
      double emb, heads;
      if ((st = num(g, ee, &emb)) || (st = num(g, eh, &heads)))
        return st;
      if (heads > 0 && fmod(emb, heads) == 0)
        dim = emb / heads;
      snprintf(dsrc, sizeof dsrc, "%s / %s", k, k2);
    }
  }
  if (dim > 0 && (st = set_num(m, "dim", dim, dsrc)))
    return st;

  double rot = 0;
  if ((e = akey(g, "rope.dimension_count", k, sizeof k))) {
    if ((st = num(g, e, &rot)))
      return st;
    if (rot < 2 || rot > RL_DIM_MAX || fmod(rot, 2) != 0)
      return bad(r, e->kat, "%s is %s: expected the rotated dimensions, even, 2 to 2^20", k,
                 numtext(rot, nb));
    if ((st = set_num(m, "rot", rot, k)))
      return st;
  } else if (dim >= 2 && dim <= RL_DIM_MAX && fmod(dim, 2) == 0) {
    rot = dim; /* llama.cpp: n_rot defaults to the head dimension */
  }

  if ((e = akey(g, "rope.freq_base", k, sizeof k))) {
    if ((st = num(g, e, &v)))
      return st;
    if (!(v > 1))
      return bad(r, e->kat, "%s is %s: expected a base > 1", k, numtext(v, nb));
    if ((st = set_num(m, "base", v, k)))
      return st;
  }

  /* the scaling type, one of the names the methods declare */
  rl_model_src src = {.ops = &gguf_ops, .reader = g, .m = m, .rot = (size_t)rot};
  char type[64] = "";
  char tsrc[160] = "";
  if ((e = akey(g, "rope.scaling.type", k, sizeof k))) {
    if ((st = str(g, e, &s, &n)))
      return st;
    src.named = rl_model_method_named(1, s, n);
    if (!src.named || n >= sizeof type) {
      char q[64], names[400];
      quote(q, sizeof q, s, printable(s, n) ? n : 0);
      rl_model_method_names(1, names, sizeof names);
      return bad(r, e->kat, "%s is '%s': expected %s", k, q, names);
    }
    memcpy(type, s, n);
    type[n] = 0;
    src.kind = type;
    snprintf(tsrc, sizeof tsrc, "%s", k);
  }
  double factor = 0;
  char fsrc[160] = "";
  if ((e = akey(g, "rope.scaling.factor", k, sizeof k)) ||
      (e = akey(g, "rope.scale_linear", k, sizeof k))) {
    if ((st = num(g, e, &factor)))
      return st;
    if (factor != 0 && !(factor >= 1)) /* llama.cpp reads 0 as "no scaling" */
      return bad(r, e->kat, "%s is below 1: expected a context scale factor >= 1", k);
    snprintf(fsrc, sizeof fsrc, "%s", k);
  }

  /* a method whose data the file holds (LongRoPE's factor tensors) is the
   * file's whatever its type; else the type's, the default type's with a
   * factor above 1 (llama.cpp reads no type as linear), or plain RoPE */
  const rl_schedule_type *t = NULL, *plain = rl_model_method_flagged(1, RL_MN_UNSCALED);
  const char *msrc = "";
  for (const rl_schedule_type *const *u = rl_schedule_types(); *u && !t; u++) {
    int mine = 0;
    if ((*u)->gguf && (*u)->gguf->claims && (st = (*u)->gguf->claims(&src, &mine)))
      return st;
    if (mine)
      t = *u, msrc = src.method_source ? src.method_source : tsrc;
  }
  if (!t && src.named && !((src.named->gguf->flags & RL_MN_SCALED) && !(factor > 1))) {
    t = src.named, msrc = tsrc;
  } else if (!t && !src.named && factor > 1 &&
             (t = rl_model_method_flagged(1, RL_MN_DEFAULT))) {
    msrc = fsrc;
    if ((st = note(m, "no rope.scaling.type: llama.cpp reads the factor %s as %s",
                   numtext(factor, nb), t->gguf->note ? t->gguf->note : t->gguf->names[0])))
      return st;
  } else if (!t) {
    t = plain, msrc = type[0] ? tsrc : "no rope.scaling.type and no factor";
  }
  if ((st = rl_model_rope_set(m, "method", t->name, msrc)))
    return st;

  /* attention factor: for LongRoPE / unscaled files llama.cpp's
   * attn_factor is the whole factor on cos and sin (a method whose
   * declaration reads the key itself notes it instead: yarn) */
  double attn = 0;
  const kv *ea = akey(g, "rope.scaling.attn_factor", k2, sizeof k2);
  if (ea) {
    if ((st = num(g, ea, &attn)))
      return st;
    if (!(attn > 0))
      return bad(r, ea->kat, "%s is %s: expected an attention factor > 0", k2, numtext(attn, nb));
  }
  const rl_model_decl *d = t->gguf;
  if (d && d->read && (st = d->read(&src)))
    return st;

  /* the factor, for a method that takes one (the method's own hook sets
   * LongRoPE's, which llama.cpp's converter writes no key for) */
  if (!(d && (d->flags & RL_MN_OWN_FACTOR)) && factor >= 1 && (t->uses & RL_SP_FACTOR) &&
      (st = set_num(m, "factor", factor, fsrc)))
    return st;
  if (orig > 0) {
    if ((st = set_num(m, "train-len", orig, ko)))
      return st;
  } else if (ctx > 0) {
    char csrc[160];
    snprintf(csrc, sizeof csrc, "%s.context_length", g->arch);
    if ((st = set_num(m, "train-len", ctx, csrc)))
      return st;
  }
  int own_attn = 0;
  for (const rl_model_key *key = d ? d->keys : NULL; key && key->key; key++)
    own_attn |= !strcmp(key->key, "rope.scaling.attn_factor");
  if (ea && !own_attn && (st = set_num(m, "attention-factor", attn, k2)))
    return st;
  /* the keys the method declares */
  for (const rl_model_key *key = d ? d->keys : NULL; key && key->key; key++) {
    if (!key->param)
      continue;
    if ((e = akey(g, key->key, k, sizeof k))) {
      if ((st = num(g, e, &v)))
        return st;
      if ((st = set_num(m, key->param, v, k)))
        return st;
    } else if (key->flags & RL_MK_REQUIRED) {
      return bad(r, 0, "no key '%s': expected a number", k);
    }
  }
  /* DeepSeek's YaRN scale of the logits, in whatever file has it */
  if ((e = akey(g, "rope.scaling.yarn_log_multiplier", k, sizeof k))) {
    if ((st = num(g, e, &v)))
      return st;
    if ((st = note(m, "%s is %s: llama.cpp scales the attention logits by (1 + it * ln s)^2 "
                      "(DeepSeek-V2's converter writes 0.1 * mscale_all_dim) and cancels ggml's "
                      "own YaRN factor on cos and sin; transformers puts "
                      "mscale/mscale_all_dim on cos and sin", k, numtext(v, nb))))
      return st;
  }
  return RL_OK;
}

rl_status rl_model_read_gguf(const char *path, rl_model_rope *m, char *err, size_t n)
{
  if (m->layer_type) /* llama.cpp's <arch>.rope.* keys: one RoPE, the full attention's */
    return rl_errf(RL_EFORMAT, err, n,
                   "invalid --layer-type '%s' for '%s': expected none (a GGUF header gives "
                   "one RoPE)",
                   m->layer_type, path);
  rl_model_rope_init(m);
  int fd;
  uint64_t fsize;
  rl_status ost = rl_file_open_read(path, NULL, 0, &fd, &fsize, err, n);
  if (ost)
    return ost;
  if (fsize < 24 || fsize > (uint64_t)INT64_MAX / 2 || fsize > SIZE_MAX / 2) {
    close(fd);
    if (fsize < 24)
      return rl_errf(RL_EFORMAT, err, n,
                     "'%s': %llu bytes, shorter than a GGUF header: expected at least 24",
                     path, (unsigned long long)fsize);
    return rl_errf(RL_EFORMAT, err, n, "'%s': too large to map", path);
  }
  void *p = mmap(NULL, (size_t)fsize, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED)
    return rl_errf(RL_EIO, err, n, "cannot map '%s': %s", path, strerror(errno));
  gguf g = {.r = {.p = p, .size = (size_t)fsize, .path = path, .err = err, .en = n}};
  rl_status st = parse(&g);
  if (!st)
    st = map(&g, m);
  if (!st) {
    m->format = "gguf";
    if (!(m->path = malloc(strlen(path) + 1)))
      st = RL_ENOMEM;
    else
      memcpy(m->path, path, strlen(path) + 1);
  }
  if (st == RL_ENOMEM)
    rl_errf(st, err, n, "'%s': out of memory", path);
  free(g.kvs);
  free(g.ts);
  munmap(p, (size_t)fsize);
  if (st)
    rl_model_rope_free(m);
  return st;
}
