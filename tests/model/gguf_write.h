/* gguf_write.h: a small GGUF writer for the tests (header-only), written
 * from ggml's docs/gguf.md independently of src/core/model/gguf.c: the
 * header, typed key/value pairs (arrays included), tensor infos with
 * offsets aligned to general.alignment, padding, then the tensor data.
 * Little-endian on any host. */
#ifndef RL_TESTS_GGUF_WRITE_H
#define RL_TESTS_GGUF_WRITE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  GW_U8, GW_I8, GW_U16, GW_I16, GW_U32, GW_I32, GW_F32, GW_BOOL, GW_STR, GW_ARR, GW_U64,
  GW_I64, GW_F64
};

typedef struct gw {
  unsigned char *b;
  size_t n, cap;
  size_t nkv_at; /* where the key/value count is, patched by gw_finish */
  uint64_t nkv;
} gw;

static void gw_bytes(gw *w, const void *p, size_t k)
{
  if (w->n + k > w->cap) {
    w->cap = (w->n + k) * 2 + 64;
    w->b = realloc(w->b, w->cap);
    if (!w->b)
      abort();
  }
  memcpy(w->b + w->n, p, k);
  w->n += k;
}

static void gw_le(gw *w, uint64_t v, int k)
{
  unsigned char q[8];
  for (int i = 0; i < k; i++)
    q[i] = (unsigned char)(v >> (8 * i));
  gw_bytes(w, q, (size_t)k);
}
static void gw_u32(gw *w, uint32_t v) { gw_le(w, v, 4); }
static void gw_u64(gw *w, uint64_t v) { gw_le(w, v, 8); }
static void gw_f32(gw *w, float f)
{
  uint32_t b;
  memcpy(&b, &f, 4);
  gw_u32(w, b);
}
static void gw_f64(gw *w, double f)
{
  uint64_t b;
  memcpy(&b, &f, 8);
  gw_u64(w, b);
}
static void gw_str(gw *w, const char *s)
{
  gw_u64(w, strlen(s));
  gw_bytes(w, s, strlen(s));
}

/* magic, version, tensor count; the key/value count is patched later */
static void gw_begin(gw *w, uint32_t version, uint64_t ntensors)
{
  memset(w, 0, sizeof *w);
  gw_bytes(w, "GGUF", 4);
  gw_u32(w, version);
  gw_u64(w, ntensors);
  w->nkv_at = w->n;
  gw_u64(w, 0);
}

static void gw_key(gw *w, const char *key, uint32_t type)
{
  gw_str(w, key);
  gw_u32(w, type);
  w->nkv++;
}
static void gw_kv_u32(gw *w, const char *k, uint32_t v) { gw_key(w, k, GW_U32); gw_u32(w, v); }
static void gw_kv_u64(gw *w, const char *k, uint64_t v) { gw_key(w, k, GW_U64); gw_u64(w, v); }
static void gw_kv_f32(gw *w, const char *k, float v) { gw_key(w, k, GW_F32); gw_f32(w, v); }
static void gw_kv_f64(gw *w, const char *k, double v) { gw_key(w, k, GW_F64); gw_f64(w, v); }
static void gw_kv_str(gw *w, const char *k, const char *v) { gw_key(w, k, GW_STR); gw_str(w, v); }
static void gw_kv_bool(gw *w, const char *k, int v)
{
  gw_key(w, k, GW_BOOL);
  unsigned char c = (unsigned char)v;
  gw_bytes(w, &c, 1);
}
/* an array of strings */
static void gw_kv_strs(gw *w, const char *k, const char *const *v, size_t n)
{
  gw_key(w, k, GW_ARR);
  gw_u32(w, GW_STR);
  gw_u64(w, n);
  for (size_t i = 0; i < n; i++)
    gw_str(w, v[i]);
}
/* an array of float32 */
static void gw_kv_f32s(gw *w, const char *k, const float *v, size_t n)
{
  gw_key(w, k, GW_ARR);
  gw_u32(w, GW_F32);
  gw_u64(w, n);
  for (size_t i = 0; i < n; i++)
    gw_f32(w, v[i]);
}

typedef struct gw_tensor {
  const char *name;
  uint32_t ndims;
  uint64_t ne[4];
  uint32_t type; /* ggml_type: 0 F32, 1 F16, 2 Q4_0 ... */
  const void *data;
  size_t bytes;
} gw_tensor;

/* Tensor infos (offsets aligned to align), padding, data; patches the
 * key/value count.  The caller frees w->b. */
static void gw_finish(gw *w, const gw_tensor *t, size_t nt, uint64_t align)
{
  uint64_t off = 0;
  for (size_t i = 0; i < nt; i++) {
    gw_str(w, t[i].name);
    gw_u32(w, t[i].ndims);
    for (uint32_t j = 0; j < t[i].ndims; j++)
      gw_u64(w, t[i].ne[j]);
    gw_u32(w, t[i].type);
    gw_u64(w, off);
    off += (t[i].bytes + align - 1) / align * align;
  }
  static const unsigned char zero[256];
  if (nt)
    gw_bytes(w, zero, (size_t)((align - w->n % align) % align));
  for (size_t i = 0; i < nt; i++) {
    gw_bytes(w, t[i].data, t[i].bytes);
    gw_bytes(w, zero, (size_t)((align - t[i].bytes % align) % align));
  }
  for (int i = 0; i < 8; i++)
    w->b[w->nkv_at + (size_t)i] = (unsigned char)(w->nkv >> (8 * i));
}

static void gw_save(const gw *w, const char *path)
{
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(w->b, 1, w->n, f) != w->n || fclose(f)) {
    perror(path);
    exit(1);
  }
}
#endif
