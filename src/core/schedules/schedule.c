/* schedule.c: the schedule object every method builds (ropelab.h,
 * "frequency schedules"): defaults, argument checks common to all
 * methods, and the accessors measures use. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedule_impl.h"
#include "../base/internal.h" /* the schedule frees its pipeline */

/* ---- the parameters every method shares (the methods' own are in
 * their files); the order here is the order of the metadata and help */

#define SP_FIELD(f) offsetof(rl_schedule_params, f)
#define LENGTH_EXPECT "a length from 1 to 2147483648"

static rl_status rot_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  rl_schedule_params *p = obj;
  if (!strcmp(arg, "dim")) {
    p->rot = 0;
    return RL_OK;
  }
  /* the same text and checks as --dim's */
  rl_param even = *rl_sched_param_dim();
  even.key = d->key;
  even.offset = SP_FIELD(rot);
  return rl_param_parse(&even, obj, arg, err, n);
}

static int rot_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  (void)d;
  const rl_schedule_params *p = obj;
  return snprintf(buf, n, "%zu", p->rot ? p->rot : p->dim);
}

static void rot_reset(const rl_param *d, void *obj)
{
  (void)d;
  ((rl_schedule_params *)obj)->rot = 0;
}

static const char *const *method_names(void);

static rl_status method_parse(const rl_param *d, void *obj, const char *arg, char *err,
                              size_t n)
{
  int k;
  rl_status st = rl_param_enum_index(d, arg, &k, err, n);
  if (!st)
    ((rl_schedule_params *)obj)->method = rl_schedule_types()[k];
  return st;
}

static int method_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  (void)d;
  return snprintf(buf, n, "%s", ((const rl_schedule_params *)obj)->method->name);
}

static void method_reset(const rl_param *d, void *obj)
{
  (void)d;
  ((rl_schedule_params *)obj)->method = &rl_sched_rope;
}

static const char *const *precision_names(void);

static rl_status precision_parse(const rl_param *d, void *obj, const char *arg, char *err,
                                 size_t n)
{
  int k;
  rl_status st = rl_param_enum_index(d, arg, &k, err, n);
  if (!st)
    ((rl_schedule_params *)obj)->precision = rl_precisions()[k];
  return st;
}

static int precision_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  (void)d;
  const rl_precision *pr = ((const rl_schedule_params *)obj)->precision;
  return snprintf(buf, n, "%s", pr ? pr->name : "exact");
}

static void precision_reset(const rl_param *d, void *obj)
{
  (void)d;
  ((rl_schedule_params *)obj)->precision = NULL;
}

/* given: the default (exact) is not written, as before 0.2 */
static int precision_given(const void *obj)
{
  return ((const rl_schedule_params *)obj)->precision != NULL;
}

static const char *const layout_names[] = {"interleaved", "half", NULL};
static const char *const variant_names[] = {"hf", "ggml", "vllm", NULL};

static const rl_param p_dim = {
    .key = "dim", .kind = RL_PK_EVEN, .flags = RL_PF_META_ALWAYS, .offset = SP_FIELD(dim),
    .lo = 2, .hi = RL_DIM_MAX, .dflt = 128 /* RoFormer Fig. 2, Llama */, .metavar = "D",
    .symbol = "d", .help = "head dimension"};
static const rl_param p_rot = {
    .key = "rot", .kind = RL_PK_CUSTOM, .flags = RL_PF_META_ALWAYS | RL_PF_NUMBERS,
    .offset = SP_FIELD(rot), .metavar = "R", .symbol = "r",
    .help = "rotated dimensions, even, <= D; 'dim' for all",
    .expect = "an even integer >= 2", .dflt_text = "dim", .parse = rot_parse,
    .format = rot_format, .reset = rot_reset};
static const rl_param p_base = {
    .key = "base", .kind = RL_PK_REAL, .flags = RL_PF_META_ALWAYS | RL_PF_LO_OPEN,
    .offset = SP_FIELD(base), .lo = 1, .hi = INFINITY, .dflt = 10000 /* RoFormer eq. 15 */,
    .metavar = "B", .symbol = "b", .help = "base of the frequencies, > 1"};
static const rl_param p_layout = {
    .key = "layout", .kind = RL_PK_ENUM, .flags = RL_PF_META_ALWAYS, .offset = SP_FIELD(layout),
    .names = layout_names, .metavar = "L",
    .help = "pairing of dimensions: interleaved (RoFormer, Meta) or half (NeoX, HF)"};
static const rl_param p_method = {
    .key = "method", .kind = RL_PK_CUSTOM, .flags = RL_PF_META_ALWAYS | RL_PF_NAMES,
    .offset = SP_FIELD(method), .metavar = "M", .help = "the frequency schedule",
    .dflt_text = "rope", .names_fn = method_names, .parse = method_parse,
    .format = method_format, .reset = method_reset};
static const rl_param p_variant = {
    .key = "variant", .kind = RL_PK_ENUM, .flags = RL_PF_META_ALWAYS | RL_PF_META_BUILT,
    .bit = RL_SP_VARIANT, .offset = SP_FIELD(variant), .names = variant_names, .metavar = "V",
    .help = "whose formula where hf, ggml and vllm differ"};
static const rl_param p_precision = {
    .key = "precision", .kind = RL_PK_CUSTOM, .flags = RL_PF_META_ALWAYS | RL_PF_NAMES,
    .offset = SP_FIELD(precision), .metavar = "P",
    .help = "the arithmetic ('ropelab help precision')",
    .dflt_text = "exact", .names_fn = precision_names, .parse = precision_parse,
    .format = precision_format, .reset = precision_reset, .meta_if = precision_given};
static const rl_param p_factor = {
    .key = "factor", .kind = RL_PK_REAL, .bit = RL_SP_FACTOR, .offset = SP_FIELD(factor),
    .lo = 1, .hi = INFINITY, .dflt = 1, .metavar = "S", .symbol = "s",
    .help = "scale s >= 1 of the context"};
static const rl_param p_train_len = {
    .key = "train-len", .kind = RL_PK_REAL, .flags = RL_PF_META_NONZERO,
    .bit = RL_SP_TRAIN_LEN, .offset = SP_FIELD(train_len), .lo = 1, .hi = RL_POS_MAX,
    .metavar = "L", .symbol = "L", .unit = "tokens", .help = "original (training) context L",
    .expect = LENGTH_EXPECT, .dflt_text = "none"};
static const rl_param p_seq_len = {
    .key = "seq-len", .kind = RL_PK_REAL, .flags = RL_PF_META_BUILT, .bit = RL_SP_SEQ_LEN,
    .offset = SP_FIELD(seq_len), .lo = 1, .hi = RL_POS_MAX, .metavar = "N", .symbol = "N",
    .unit = "tokens", .help = "current length", .expect = LENGTH_EXPECT, .dflt_text = "L"};
/* 2^-64 .. 2^64: see attn_ok below */
static const rl_param p_attn = {
    .key = "attention-factor", .kind = RL_PK_REAL, .flags = RL_PF_NO_META,
    .bit = RL_SP_ATTN, .offset = SP_FIELD(attention_factor), .lo = 0x1p-64, .hi = 0x1p64,
    .metavar = "A", .help = "the config's attention factor (on cos and sin)",
    .expect = "a number from 2^-64 (5.421010862427522e-20) to 2^64 (1.8446744073709552e+19)",
    .dflt_text = "the method's"};

const rl_param *rl_sched_param_dim(void)
{
  return &p_dim;
}

static const rl_param *const shared[] = {&p_dim, &p_rot, &p_base, &p_layout, &p_method,
                                         &p_variant, &p_precision, &p_factor, &p_train_len,
                                         &p_seq_len, &p_attn};

/* Names and the whole list are built once from the registries (the
 * registries are constant, so a race only builds the same table twice
 * into the same values); nothing is restated here. */
#define MAX_SCHED_PARAMS 96
static const rl_param *all_params[MAX_SCHED_PARAMS + 1];

static void build_list(void)
{
  size_t n = 0;
  for (size_t k = 0; k < sizeof shared / sizeof *shared; k++)
    all_params[n++] = shared[k];
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t; t++)
    for (const rl_param *const *d = (*t)->params; d && *d; d++) {
      size_t j = 0;
      while (j < n && all_params[j] != *d)
        j++;
      if (j == n && n < MAX_SCHED_PARAMS)
        all_params[n++] = *d;
    }
  all_params[n] = NULL;
}

const rl_param *const *rl_schedule_param_list(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, build_list);
  return all_params;
}

const rl_param *rl_schedule_param_find(const char *key)
{
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
    if (!strcmp((*d)->key, key))
      return *d;
  return NULL;
}

static const char *method_name_table[64];
static void build_method_names(void)
{
  size_t n = 0;
  for (const rl_schedule_type *const *t = rl_schedule_types(); *t && n < 63; t++)
    method_name_table[n++] = (*t)->name;
  method_name_table[n] = NULL;
}

static const char *const *method_names(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, build_method_names);
  return method_name_table;
}

static const char *precision_name_table[64];
static void build_precision_names(void)
{
  size_t n = 0;
  for (const rl_precision *const *p = rl_precisions(); *p && n < 63; p++)
    precision_name_table[n++] = (*p)->name;
  precision_name_table[n] = NULL;
}

static const char *const *precision_names(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, build_precision_names);
  return precision_name_table;
}

static int owned_by(const rl_param *d, const rl_schedule_type *t)
{
  for (const rl_param *const *q = t->params; q && *q; q++)
    if (*q == d)
      return 1;
  return 0;
}

int rl_schedule_param_applies(const rl_param *d, const rl_schedule_type *t)
{
  if (d->bit)
    return (t->uses & d->bit) != 0;
  if (owned_by(d, t))
    return 1;
  for (const rl_schedule_type *const *u = rl_schedule_types(); *u; u++)
    if (owned_by(d, *u))
      return 0; /* another method's own */
  return 1;
}

int rl_schedule_param_is_own(const rl_param *d)
{
  return d->offset >= RL_SP_OWN(0) && d->offset < RL_SP_OWN(RL_SP_OWN_MAX);
}

static int param_index(const rl_param *d)
{
  const rl_param *const *list = rl_schedule_param_list();
  for (int k = 0; list[k] && k < RL_SP_PARAMS_MAX; k++)
    if (list[k] == d)
      return k;
  return -1;
}

/* A shared parameter's given-ness is its bit of p->set (one parameter a
 * bit), so that a caller clearing the bit forgets it; a method's own, its
 * place in p->given. */
void rl_schedule_param_mark(rl_schedule_params *p, const rl_param *d)
{
  int k = d->bit ? -1 : param_index(d);
  p->set |= d->bit;
  if (k >= 0)
    p->given[k / 8] |= (unsigned char)(1u << (k % 8));
}

int rl_schedule_param_given(const rl_schedule_params *p, const rl_param *d)
{
  if (d->bit)
    return (p->set & d->bit) != 0;
  int k = param_index(d);
  return k >= 0 && (p->given[k / 8] >> (k % 8) & 1);
}

/* ---- the setters and getters (schedule.h): every write records the
 * parameter as given, so that a method that does not take it refuses it */

static rl_status set_num(rl_schedule_params *p, const rl_param *d, double x)
{
  void *f = (char *)p + d->offset;
  switch (d->kind) {
  case RL_PK_REAL: *(double *)f = x; break;
  case RL_PK_SIZE:
  case RL_PK_EVEN:
    if (!(x >= 0 && x <= 0x1p53 && x == floor(x)))
      return RL_EINVAL;
    *(size_t *)f = (size_t)x;
    break;
  case RL_PK_ENUM:
    if (!(x >= 0 && x < (double)rl_param_count_names(d) && x == floor(x)))
      return RL_EINVAL;
    *(int *)f = (int)x;
    break;
  case RL_PK_FLAG: *(int *)f = x != 0 ? d->set_to : 0; break;
  default: return RL_EINVAL;
  }
  rl_schedule_param_mark(p, d);
  return RL_OK;
}

rl_status rl_schedule_set(rl_schedule_params *p, const char *key, double x)
{
  const rl_param *d = rl_schedule_param_find(key);
  return d ? set_num(p, d, x) : RL_EINVAL;
}

rl_status rl_schedule_set_text(rl_schedule_params *p, const char *key, const char *text,
                               char *err, size_t n)
{
  const rl_param *d = rl_schedule_param_find(key);
  if (!d) {
    if (err && n)
      snprintf(err, n, "unknown schedule parameter '%s'", key);
    return RL_EINVAL;
  }
  rl_status st = rl_param_parse(d, p, text, err, n);
  if (!st)
    rl_schedule_param_mark(p, d);
  return st;
}

/* A list in memory: a method's own slot of RL_PF_BORROWED and custom kind. */
static int is_list(const rl_param *d)
{
  return d->kind == RL_PK_CUSTOM && (d->flags & RL_PF_BORROWED) && rl_schedule_param_is_own(d);
}

rl_status rl_schedule_set_list(rl_schedule_params *p, const char *key, const double *v)
{
  const rl_param *d = rl_schedule_param_find(key);
  if (!d || !is_list(d))
    return RL_EINVAL;
  ((rl_sp_slot *)(void *)((char *)p + d->offset))->v = v;
  rl_schedule_param_mark(p, d);
  return RL_OK;
}

void rl_schedule_unset(rl_schedule_params *p, const char *key)
{
  const rl_param *d = rl_schedule_param_find(key);
  int k = d && !d->bit ? param_index(d) : -1;
  if (!d)
    return;
  p->set &= ~d->bit;
  if (k >= 0)
    p->given[k / 8] &= (unsigned char)~(1u << (k % 8));
}

double rl_schedule_get(const rl_schedule_params *p, const char *key)
{
  const rl_param *d = rl_schedule_param_find(key);
  if (!d)
    return NAN;
  rl_schedule_params dflt;
  if (rl_schedule_param_is_own(d) && !rl_schedule_param_given(p, d)) {
    dflt = *p;
    rl_param_set_default(d, &dflt);
    p = &dflt;
  }
  const void *f = (const char *)p + d->offset;
  switch (d->kind) {
  case RL_PK_REAL: return *(const double *)f;
  case RL_PK_SIZE:
  case RL_PK_EVEN: return (double)*(const size_t *)f;
  case RL_PK_ENUM:
  case RL_PK_FLAG: return (double)*(const int *)f;
  default: return NAN;
  }
}

const double *rl_schedule_get_list(const rl_schedule_params *p, const char *key)
{
  const rl_param *d = rl_schedule_param_find(key);
  if (!d || !is_list(d) || !rl_schedule_param_given(p, d))
    return NULL;
  return ((const rl_sp_slot *)(const void *)((const char *)p + d->offset))->v;
}

void rl_schedule_params_default(rl_schedule_params *p)
{
  memset(p, 0, sizeof *p);
  /* a method's own slots are shared between methods: their defaults are
   * the chosen method's, filled in by rl_schedule_new */
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
    if (!rl_schedule_param_is_own(*d))
      rl_param_set_default(*d, p);
}

const char *rl_variant_name(rl_variant v)
{
  switch (v) {
  case RL_VARIANT_HF: return "hf";
  case RL_VARIANT_GGML: return "ggml";
  case RL_VARIANT_VLLM: return "vllm";
  }
  return "unknown";
}

const char *rl_band_name(int band)
{
  switch (band) {
  case RL_BAND_EXTRAPOLATED: return "extrapolated";
  case RL_BAND_INTERPOLATED: return "interpolated";
  case RL_BAND_BETWEEN: return "between";
  case RL_BAND_UNROTATED: return "unrotated";
  }
  return "unknown";
}

void rl_sched_err(char *err, const char *fmt, ...)
{
  if (!err)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, RL_ERR_MAX, fmt, ap);
  va_end(ap);
}

void rl_sched_fill_plain(rl_schedule *s, long double base)
{
  rl_xr lb = rl_xlog2((rl_xr)base);
  for (size_t i = 0; i < s->n; i++)
    rl_sched_set(s, i, rl_sched_plain_lb(s, lb, i));
}

static void *zalloc(size_t n, size_t size)
{
  return calloc(n ? n : 1, size);
}

rl_status rl_sched_want_band(rl_schedule *s)
{
  if (!s->band)
    s->band = zalloc(s->n, 1);
  return s->band ? RL_OK : RL_ENOMEM;
}

rl_status rl_sched_want_amp(rl_schedule *s)
{
  if (!s->amp_rate)
    s->amp_rate = zalloc(s->n, sizeof *s->amp_rate);
  return s->amp_rate ? RL_OK : RL_ENOMEM;
}

rl_status rl_sched_want_axis(rl_schedule *s)
{
  if (!s->axis)
    s->axis = zalloc(s->n, 1);
  return s->axis ? RL_OK : RL_ENOMEM;
}

double rl_sched_yarn_mscale(double s, double mscale)
{
  /* YaRN sec. 3.4: sqrt(1/t) = 0.1 ln(s) + 1; HF get_mscale */
  return s <= 1 ? 1.0 : (double)(0.1L * (long double)mscale * logl((long double)s) + 1.0L);
}

rl_status rl_schedule_alloc(size_t dim, size_t rot, rl_schedule **out)
{
  *out = NULL;
  if (dim < 2 || dim % 2 || rot < 2 || rot % 2 || rot > dim)
    return RL_EINVAL;
  rl_schedule *s = calloc(1, sizeof *s);
  if (!s)
    return RL_ENOMEM;
  s->theta = calloc(rot / 2, sizeof *s->theta);
  s->theta_lo = calloc(rot / 2, sizeof *s->theta_lo);
  if (!s->theta || !s->theta_lo) {
    free(s->theta);
    free(s->theta_lo);
    free(s);
    return RL_ENOMEM;
  }
  s->prec = rl_precision_exact();
  s->dim = dim;
  s->rot = rot;
  s->n = rot / 2;
  s->attn = s->logit_mult = 1.0;
  s->type = &rl_sched_file;
  rl_schedule_params_default(&s->p);
  s->p.method = s->type;
  s->p.dim = dim;
  s->p.rot = rot;
  *out = s;
  return RL_OK;
}

void rl_schedule_free(rl_schedule *s)
{
  if (!s)
    return;
  free(s->theta);
  free(s->theta_lo);
  rl_pipe_free(s->pipe);
  free(s->amp_rate);
  free(s->band);
  free(s->axis);
  free(s);
}

/* "--beta-fast/--beta-slow": the options that set the bits of mask. */
static void bit_names(unsigned mask, char *buf, size_t n)
{
  size_t len = 0;
  buf[0] = 0;
  for (const rl_param *const *d = rl_schedule_param_list(); *d && len < n; d++)
    if ((*d)->bit & mask)
      len += (size_t)snprintf(buf + len, n - len, "%s--%s", len ? "/" : "", (*d)->key);
}


/* The attention factor A scales cos and sin, and the logits by A^2; the
 * commands then sum logits over up to 2^31 positions and multiply by
 * sigma^2 <= 1e200 (decay's Monte Carlo).  2^-64 <= A <= 2^64 keeps
 * A^2 sigma^2 2^31 below DBL_MAX (2^128 1e200 2^31 ~ 7e247) and A^2
 * sigma^2 above DBL_MIN (2^-128 1e-200 ~ 3e-239); 1e200 gave
 * logit_multiplier = inf. */
static int attn_ok(double a)
{
  return rl_param_in_bounds(&p_attn, a); /* the declaration's 2^-64 .. 2^64 */
}

static rl_status common_checks(const rl_schedule_params *p, char *err)
{
  const rl_schedule_type *t = p->method;
  size_t rot = p->rot ? p->rot : p->dim;
  if (p->dim < 2 || p->dim % 2) {
    rl_sched_err(err, "invalid dimension '%zu': expected an even integer >= 2", p->dim);
    return RL_EINVAL;
  }
  if (rot < 2 || rot % 2 || rot > p->dim) {
    rl_sched_err(err, "invalid rotated width '%zu': expected an even integer from 2 to the "
                      "dimension %zu", rot, p->dim);
    return RL_EINVAL;
  }
  if (!isfinite(p->base) || !(p->base > 1)) {
    rl_sched_err(err, "invalid base '%g': expected a finite number > 1", p->base);
    return RL_EINVAL;
  }
  char names[160];
  for (unsigned b = 0; b < 32; b++) {
    unsigned bit = 1u << b;
    if ((p->set & bit) && !(t->uses & bit)) {
      bit_names(bit, names, sizeof names);
      rl_sched_err(err, "%s does not apply to method '%s'", names, t->name);
      return RL_EINVAL;
    }
    if ((t->needs & bit) && !(p->set & bit)) {
      bit_names(bit, names, sizeof names);
      rl_sched_err(err, "method '%s' needs %s", t->name, names);
      return RL_EINVAL;
    }
  }
  if (t->variants && !(t->variants & (1u << p->variant))) {
    rl_sched_err(err, "method '%s' has no '%s' variant (%s implements none)", t->name,
                 rl_variant_name(p->variant),
                 p->variant == RL_VARIANT_GGML ? "llama.cpp"
                 : p->variant == RL_VARIANT_VLLM ? "vLLM" : "Hugging Face transformers");
    return RL_EINVAL;
  }
  /* a method's own parameter it requires */
  for (const rl_param *const *d = t->params; d && *d; d++)
    if (((*d)->flags & RL_PF_REQUIRED) && !rl_schedule_param_given(p, *d)) {
      rl_sched_err(err, "method '%s' needs --%s", t->name, (*d)->key);
      return RL_EINVAL;
    }
  /* a method's own parameter given to another method (those with a bit
   * were refused above) */
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++)
    if (!(*d)->bit && rl_schedule_param_given(p, *d) && !rl_schedule_param_applies(*d, t)) {
      rl_sched_err(err, "--%s does not apply to method '%s'", (*d)->key, t->name);
      return RL_EINVAL;
    }
  /* a parameter whose declaration applies it only with another's value
   * (yarn's --truncate with --ramp code) */
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++) {
    const rl_param *k;
    char val[64];
    if (rl_schedule_param_given(p, *d) && rl_schedule_param_applies(*d, t) &&
        !rl_param_when_holds(*d, rl_schedule_param_list(), p, &k, val, sizeof val)) {
      rl_sched_err(err, "--%s does not apply to method '%s' with --%s %s", (*d)->key, t->name,
                   k->key, val);
      return RL_EINVAL;
    }
  }
  /* every number within its declared bounds: those given, and those
   * a library caller changed from the default (0 means "none" for the
   * lengths and the attention factor, so an untouched 0 passes) */
  for (const rl_param *const *d = rl_schedule_param_list(); *d; d++) {
    if ((*d)->kind != RL_PK_REAL ||
        (rl_schedule_param_is_own(*d) && !rl_schedule_param_applies(*d, t)))
      continue; /* a slot another method's parameter holds */
    double v = *(const double *)(const void *)((const char *)p + (*d)->offset);
    int given = rl_schedule_param_given(p, *d);
    if ((given || v != (*d)->dflt) && !rl_param_in_bounds(*d, v)) {
      char num[RL_NUMFMT_MAX], want[128];
      rl_numfmt(v, num);
      rl_param_expect(*d, want, sizeof want);
      rl_sched_err(err, "invalid --%s '%s': expected %s", (*d)->key, num, want);
      return RL_EINVAL;
    }
  }
  return RL_OK;
}

rl_status rl_schedule_new(const rl_schedule_params *p, rl_schedule **out, char *err)
{
  *out = NULL;
  if (err)
    err[0] = 0;
  if (!p || !p->method) {
    rl_sched_err(err, "no schedule method given");
    return RL_EINVAL;
  }
  /* a framework pipeline computes its framework's formulas */
  const rl_precision *prec = p->precision ? p->precision : rl_precision_exact();
  rl_schedule_params q = *p;
  if (prec->variant >= 0) {
    if ((p->set & RL_SP_VARIANT) && (int)p->variant != prec->variant) {
      rl_sched_err(err, "--variant %s does not apply with --precision %s: it computes the %s "
                        "variant", rl_variant_name(p->variant), prec->name,
                   rl_variant_name((rl_variant)prec->variant));
      return RL_EINVAL;
    }
    q.variant = (rl_variant)prec->variant;
  }
  /* the chosen method's own parameters not given take its defaults */
  for (const rl_param *const *d = p->method->params; d && *d; d++)
    if (rl_schedule_param_is_own(*d) && !rl_schedule_param_given(p, *d))
      rl_param_set_default(*d, &q);
  p = &q;
  rl_status st = common_checks(p, err);
  if (st)
    return st;
  rl_schedule *s;
  size_t rot = p->rot ? p->rot : p->dim;
  if ((st = rl_schedule_alloc(p->dim, rot, &s)))
    return st;
  s->p = *p;
  s->p.precision = prec;
  s->p.rot = rot;
  if (!(p->set & RL_SP_SEQ_LEN))
    s->p.seq_len = p->train_len;
  s->type = p->method;
  s->base = p->base;
  st = s->type->init(s, err); /* a method that takes --attention-factor applies it */
  /* file names and lists are the caller's: read by init, not kept */
  for (const rl_param *const *d = s->type->params; d && *d; d++)
    if (((*d)->flags & RL_PF_BORROWED) && rl_schedule_param_is_own(*d))
      memset((char *)&s->p + (*d)->offset, 0, sizeof(rl_sp_slot));
  s->logit_mult = s->attn * s->attn;
  for (size_t i = 0; !st && i < s->n; i++)
    if (!isfinite(s->theta[i]) || s->theta[i] < 0 || s->theta[i] > 1) {
      rl_sched_err(err, "method '%s' gives pair %zu the frequency %g, outside [0, 1] rad per "
                        "position", s->type->name, i, s->theta[i]);
      st = RL_EINVAL;
    }
  if (!st && !attn_ok(s->attn)) {
    rl_sched_err(err, "method '%s' gives the attention factor %g: expected 2^-64 to 2^64",
                 s->type->name, s->attn);
    st = RL_EINVAL;
  }
  /* the pipeline's frequencies replace the exact ones */
  s->prec = prec;
  if (!st && prec->init)
    st = prec->init(s, err);
  if (st) {
    if (err && !err[0])
      rl_sched_err(err, "cannot build schedule '%s': %s", s->type->name, rl_strerror(st));
    rl_schedule_free(s);
    return st;
  }
  *out = s;
  return RL_OK;
}

rl_status rl_schedule_rope(size_t dim, size_t rot, double base, rl_schedule **out)
{
  rl_schedule_params p;
  rl_schedule_params_default(&p);
  p.dim = dim;
  p.rot = rot;
  p.base = base;
  *out = NULL;
  if (dim < 2 || dim % 2 || rot < 2 || rot % 2 || rot > dim || !isfinite(base) || !(base > 1))
    return RL_EINVAL;
  return rl_schedule_new(&p, out, NULL);
}

double rl_schedule_wavelength(const rl_schedule *s, size_t i)
{
  if (s->theta[i] == 0)
    return HUGE_VAL; /* an unrotated pair never turns */
  return (double)(2.0L * RL_PI_L / (long double)s->theta[i]);
}

double rl_schedule_ratio(const rl_schedule *s, size_t i)
{
  /* both as doubles: a kept frequency gives exactly 1, a power-of-two
   * factor exactly 1/s */
  return s->theta[i] / (double)rl_sched_plain(s, (long double)s->p.base, i);
}

rl_status rl_schedule_ratios(const rl_schedule *s, double *ratio)
{
  /* rl_sched_plain_theta gives the doubles of rl_sched_plain's values */
  rl_sched_plain_theta(s->p.base, s->rot, ratio);
  for (size_t i = 0; i < s->n; i++)
    ratio[i] = s->theta[i] / ratio[i];
  return RL_OK;
}

double rl_schedule_relpos(const rl_schedule *s, double r)
{
  return s->type->relpos ? s->type->relpos(s, r) : r;
}

double rl_schedule_qscale(const rl_schedule *s, double len)
{
  return s->type->qscale ? s->type->qscale(s, len) : 1.0;
}

double rl_schedule_amplitude(const rl_schedule *s, size_t i, double r)
{
  return s->amp_rate ? exp(r * s->amp_rate[i]) : 1.0;
}

int rl_schedule_is_plain(const rl_schedule *s)
{
  return !s->type->relpos && !s->type->qscale && !s->amp_rate;
}

void rl_schedule_describe(const rl_schedule *s, char *buf, size_t size)
{
  snprintf(buf, size, "%s: %s%s%s", s->type->name, s->type->summary, s->note[0] ? "; " : "",
           s->note);
}

/* RoPE's theta (the doubles rl_sched_fill_plain stores, same bits) for
 * the many bases of a search (src/core/bounds/men.c), where exp2q per
 * pair was a third of the time.  With binary128, rho^i (one product per
 * pair) stands in for exp2q(x_i), x_i = -(2i/rot) log2(b) as computed by
 * rl_sched_plain_lb, and is rounded to double only when every value
 * within its error bound of it rounds to the same double (then so does
 * exp2q(x_i)); otherwise exp2q(x_i) is called.  The bound, with
 * u = 2^-113, relative: exp2q within e = 2^-108 (glibc's ldbl-128 exp2l
 * is expl(ln2 * frac) scaled, expl within 1 ulp = 2u, the product ln2 *
 * frac within u; 2^5 u covers both with room); x_i itself is two
 * roundings away from -(2i/rot) lb, i.e. 2^x_i within |x_i| ln2 2u of the
 * value at the unrounded exponent; rho = exp2q(x_1) thus within
 * e + |lb| 2u, and rho^i after i - 1 products within
 * i (e + |lb| 2u) + (i - 1) u of it; so |rho^i / exp2q(x_i) - 1| <=
 * (i + 1) (e + |lb| 2u) + i u + O(2^-200) < E_i = (i + 2) (2^-108 +
 * |lb| 2^-111).  The interval is widened by 2 E_i to absorb the two
 * products forming its ends. */
void rl_sched_plain_theta(double base, size_t rot, double *theta)
{
  size_t n = rot / 2;
#ifdef RL_HAVE_FLOAT128
  rl_xr lb = rl_xlog2((rl_xr)(long double)base), p = 1, rho = 0;
  rl_xr sl = (lb < 0 ? -lb : lb) * (rl_xr)0x1p-111;
  for (size_t i = 0; i < n; i++) {
    if (i == 1)
      p = rho = rl_sched_plain_lb_rot(rot, lb, 1);
    else if (i > 1)
      p *= rho;
    rl_xr e = 2 * ((rl_xr)(i + 2) * ((rl_xr)0x1p-108 + sl));
    double lo = (double)(p * (1 - e)), hi = (double)(p * (1 + e));
    theta[i] = lo == hi ? lo : (double)rl_sched_plain_lb_rot(rot, lb, i);
  }
#else
  rl_xr lb = rl_xlog2((rl_xr)(long double)base);
  for (size_t i = 0; i < n; i++)
    theta[i] = (double)rl_sched_plain_lb_rot(rot, lb, i);
#endif
}
