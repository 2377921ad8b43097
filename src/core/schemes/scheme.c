/* scheme.c: the one interface of the positional schemes: registry,
 * configuration, allocation and the generic argument checks before the
 * per-scheme ops (scheme_abs.c, scheme_rel.c, scheme_rope.c). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include "ropelab.h"
#include "scheme_impl.h"

static const rl_scheme_ops *const registry[] = {
    &rl_sch_nope, &rl_sch_sinusoidal, &rl_sch_learned, &rl_sch_xl,
    &rl_sch_t5, &rl_sch_tupe, &rl_sch_deberta, &rl_sch_alibi,
    &rl_sch_rope, &rl_sch_rope2d, &rl_sch_integer, &rl_sch_binary,
};
#define NSCHEMES (sizeof registry / sizeof *registry)

const rl_scheme_info *rl_scheme_list(void)
{
  static rl_scheme_info all[NSCHEMES + 1];
  static int built;
  if (!built) {
    for (size_t k = 0; k < NSCHEMES; k++)
      all[k] = registry[k]->info;
    all[NSCHEMES] = (rl_scheme_info){0};
    built = 1;
  }
  return all;
}

static const rl_scheme_ops *find_ops(const char *name)
{
  for (size_t k = 0; name && k < NSCHEMES; k++)
    if (!strcmp(registry[k]->info.name, name))
      return registry[k];
  return NULL;
}

const rl_scheme_info *rl_scheme_find(const char *name)
{
  const rl_scheme_ops *o = find_ops(name);
  return o ? &o->info : NULL;
}

rl_status rl_past_policy_parse(const char *name, rl_past_policy *out)
{
  static const char *const names[] = {"error", "clamp", "wrap"};
  for (int k = 0; name && k < 3; k++)
    if (!strcmp(name, names[k])) {
      *out = (rl_past_policy)k;
      return RL_OK;
    }
  return RL_EINVAL;
}

const char *rl_past_policy_name(rl_past_policy p)
{
  switch (p) {
  case RL_PAST_ERROR: return "error";
  case RL_PAST_CLAMP: return "clamp";
  case RL_PAST_WRAP: return "wrap";
  }
  return "unknown";
}

/* ---- the scheme parameters, declared once (rl_scheme_param_list); the
 * order is the order of the metadata */

#define SC_FIELD(f) offsetof(rl_scheme_cfg, f)
static const char *const past_names[] = {"error", "clamp", "wrap", NULL};
static const char *const direction_names[] = {"causal", "bidirectional", NULL};
static const char *const yesno_names[] = {"no", "yes", NULL};
static const char *const projection_names[] = {"random N(0,1/d)", "identity", NULL};

static int param_file_given(const void *obj)
{
  return ((const rl_scheme_cfg *)obj)->param_file != NULL;
}

static const rl_param s_heads = {
    .key = "heads", .kind = RL_PK_SIZE, .offset = SC_FIELD(heads), .lo = 1,
    .hi = RL_SCHEME_HEADS_MAX,
    .dflt = 8, .metavar = "H", .symbol = "H", .help = "number of heads"};
static const rl_param s_head = {
    .key = "head", .kind = RL_PK_SIZE, .offset = SC_FIELD(head), .lo = 0, .hi = 4095,
    .dflt = 0, .metavar = "h", .help = "the head shown, 0 <= h < H"};
static const rl_param s_width = {
    .key = "width", .kind = RL_PK_SIZE, .offset = SC_FIELD(width), .lo = 1, .hi = 1 << 30,
    .dflt = 32, .metavar = "W", .unit = "tokens",
    .help = "rope2d: position p is row p/W, column p mod W", .only = "rope2d"};
static const rl_param s_max_len = {
    .key = "max-len", .kind = RL_PK_SIZE, .offset = SC_FIELD(max_len), .lo = 1, .hi = 1 << 24,
    .dflt = 512, .metavar = "N", .unit = "tokens", .help = "learned, tupe: table length", .only = "learned tupe"};
static const rl_param s_past = {
    .key = "past", .kind = RL_PK_ENUM, .offset = SC_FIELD(past), .names = past_names,
    .dflt = RL_PAST_ERROR, .metavar = "P", .help = "learned, tupe past --max-len",
    .only = "learned tupe"};
static const rl_param s_buckets = {
    .key = "buckets", .kind = RL_PK_SIZE, .offset = SC_FIELD(num_buckets), .lo = 2,
    .hi = 1 << 20, .dflt = 32 /* T5 relative_attention_num_buckets */, .metavar = "N",
    .help = "t5, tupe: number of buckets", .only = "t5 tupe"};
static const rl_param s_max_distance = {
    .key = "max-distance", .kind = RL_PK_SIZE, .offset = SC_FIELD(max_distance), .lo = 1,
    .hi = 1099511627776.0 /* 2^40 */, .dflt = 128 /* T5 relative_attention_max_distance */,
    .metavar = "N", .unit = "tokens", .help = "t5, tupe: distance of the last bucket",
    .only = "t5 tupe"};
static const rl_param s_causal = {
    .key = "causal", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META,
    .offset = SC_FIELD(bidirectional), .dflt = 1, .set_to = 0,
    .help = "t5: the decoder's one-sided buckets", .only = "t5 tupe"};
static const rl_param s_bidirectional = {
    .key = "bidirectional", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META,
    .offset = SC_FIELD(bidirectional), .dflt = 1, .set_to = 1,
    .help = "t5: the encoder's two-sided buckets (the default)", .only = "t5 tupe"};
static const rl_param s_direction = {
    .key = "t5-direction", .kind = RL_PK_ENUM, .flags = RL_PF_NO_OPTION,
    .offset = SC_FIELD(bidirectional), .names = direction_names, .dflt = 1};
static const rl_param s_position_buckets = {
    .key = "position-buckets", .kind = RL_PK_SIZE, .offset = SC_FIELD(position_buckets),
    .lo = 0, .hi = 1 << 20, .dflt = 256 /* DeBERTa-v3 config */, .metavar = "N",
    .help = "deberta: log buckets, 0 for none", .only = "deberta"};
static const rl_param s_max_rel = {
    .key = "max-relative-positions", .kind = RL_PK_SIZE,
    .offset = SC_FIELD(max_relative_positions), .lo = 1, .hi = 1 << 20,
    .dflt = 512 /* = max_position_embeddings */, .metavar = "N", .unit = "tokens",
    .help = "deberta: span of relative positions", .only = "deberta"};
static const rl_param s_no_tupe_rel = {
    .key = "no-tupe-rel", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META,
    .offset = SC_FIELD(tupe_rel), .dflt = 1, .set_to = 0,
    .help = "tupe without its T5-bucket bias (TUPE-A)", .only = "tupe"};
static const rl_param s_tupe_rel = {
    .key = "tupe-rel", .kind = RL_PK_ENUM, .flags = RL_PF_NO_OPTION,
    .offset = SC_FIELD(tupe_rel), .names = yesno_names, .dflt = 1};
static const rl_param s_seed = {
    .key = "seed", .kind = RL_PK_SIZE, .offset = SC_FIELD(seed), .lo = 1, .hi = 4294967295.0,
    .dflt = 1, .metavar = "S",
    .help = "seed of every drawn parameter (GSL's mt19937 keeps 32 bits)"};
static const rl_param s_identity = {
    .key = "identity", .kind = RL_PK_FLAG, .flags = RL_PF_NO_META, .offset = SC_FIELD(identity),
    .dflt = 0, .set_to = 1, .help = "W_q = W_k = I instead of random N(0, 1/d) projections"};
static const rl_param s_projections = {
    .key = "projections", .kind = RL_PK_ENUM, .flags = RL_PF_NO_OPTION,
    .offset = SC_FIELD(identity), .names = projection_names, .dflt = 0};
static const rl_param s_params = {
    .key = "params", .kind = RL_PK_TEXT, .flags = RL_PF_FILE | RL_PF_NO_SWEEP,
    .offset = SC_FIELD(param_file), .metavar = "FILE",
    .help = "the scheme's table from FILE, one scheme only (format: "
            "experiments/params/README.md; unreadable: exit 3, malformed: exit 2)",
    .meta_if = param_file_given};

static const rl_param *const scheme_params[] = {
    &s_heads,   &s_head,     &s_width,      &s_max_len,    &s_past,
    &s_buckets, &s_max_distance, &s_causal, &s_bidirectional, &s_direction,
    &s_position_buckets, &s_max_rel, &s_no_tupe_rel, &s_tupe_rel, &s_seed,
    &s_identity, &s_projections, &s_params, NULL};

const rl_param *const *rl_scheme_param_list(void)
{
  return scheme_params;
}

void rl_scheme_cfg_default(rl_scheme_cfg *c)
{
  *c = (rl_scheme_cfg){0};
  rl_schedule_params_default(&c->rope);
  c->dim = c->rope.dim; /* one default head dimension for every command */
  for (const rl_param *const *d = scheme_params; *d; d++)
    rl_param_set_default(*d, c);
}

/* ---- helpers shared by the scheme files ---- */

void rl_sch_err(char *err, const char *fmt, ...)
{
  if (!err)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, RL_ERR_MAX, fmt, ap);
  va_end(ap);
}

/* Four partial sums: independent chains the compiler can keep in SIMD
 * registers (the per-pair cost of every matrix); same error bound as a
 * plain loop (d eps |a||b|), and deterministic. */
double rl_sch_dot(const double *a, const double *b, size_t d)
{
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  size_t k = 0;
  for (; k + 4 <= d; k += 4) {
    s0 += a[k] * b[k];
    s1 += a[k + 1] * b[k + 1];
    s2 += a[k + 2] * b[k + 2];
    s3 += a[k + 3] * b[k + 3];
  }
  for (; k < d; k++)
    s0 += a[k] * b[k];
  return (s0 + s1) + (s2 + s3);
}

void rl_sch_matvec(const double *W, const double *x, double *y, size_t d)
{
  if (!W) {
    memcpy(y, x, d * sizeof *y);
    return;
  }
  for (size_t r = 0; r < d; r++)
    y[r] = rl_sch_dot(W + r * d, x, d);
}

void rl_sch_matvec_t(const double *W, const double *x, double *y, size_t d)
{
  if (!W) {
    memcpy(y, x, d * sizeof *y);
    return;
  }
  memset(y, 0, d * sizeof *y);
  for (size_t r = 0; r < d; r++)
    for (size_t c = 0; c < d; c++)
      y[c] += W[r * d + c] * x[r];
}

void rl_sch_gauss(gsl_rng *rng, double *v, size_t n, double sd)
{
  for (size_t k = 0; k < n; k++)
    v[k] = gsl_ran_gaussian(rng, sd);
}

void rl_sch_layernorm(double *t, size_t rows, size_t cols)
{
  for (size_t r = 0; r < rows; r++) {
    double *row = t + r * cols, m = 0, v = 0;
    for (size_t c = 0; c < cols; c++)
      m += row[c];
    m /= (double)cols;
    for (size_t c = 0; c < cols; c++)
      v += (row[c] - m) * (row[c] - m);
    v /= (double)cols;
    double inv = 1.0 / sqrt(v + 1e-7);
    for (size_t c = 0; c < cols; c++)
      row[c] = (row[c] - m) * inv;
  }
}

const double *rl_sch_wq(const rl_scheme *s, size_t head)
{
  return s->hd[head].wq;
}

const double *rl_sch_wk(const rl_scheme *s, size_t head)
{
  return s->hd[head].wk;
}

/* The seed of head h's stream: splitmix64's finaliser (Steele, Lea,
 * Flood 2014, "Fast splittable pseudorandom number generators") of the
 * pair (seed, h), which is injective before the hash; cut to the 32
 * bits mt19937 keeps, 0 avoided (GSL maps it to 4357). */
static unsigned long head_seed(unsigned long seed, size_t h)
{
  uint64_t z = (((uint64_t)seed << 32) | (uint64_t)(h + 1)) + 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  unsigned long v = (unsigned long)(z & 0xffffffffu);
  return v ? v : 1;
}

static void head_clear(rl_sch_head *hd)
{
  free(hd->wq);
  free(hd->wk);
  free(hd->m);
  free(hd->v);
  *hd = (rl_sch_head){0};
}

/* W_q^h, W_k^h (unless identity) then the scheme's own per-head draws,
 * all from head h's stream, so a head is the same numbers whichever
 * heads were built before it. */
static rl_status head_build(const rl_scheme *s, size_t h)
{
  size_t d = s->d;
  rl_sch_head *hd = &s->hd[h];
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng)
    return RL_ENOMEM;
  gsl_rng_set(rng, head_seed(s->cfg.seed, h));
  rl_status st = RL_OK;
  if (!s->cfg.identity) {
    hd->wq = malloc(d * d * sizeof *hd->wq);
    hd->wk = malloc(d * d * sizeof *hd->wk);
    if (!hd->wq || !hd->wk) {
      st = RL_ENOMEM;
    } else {
      double sd = 1.0 / sqrt((double)d);
      rl_sch_gauss(rng, hd->wq, d * d, sd);
      rl_sch_gauss(rng, hd->wk, d * d, sd);
    }
  }
  if (!st && s->ops->head_init)
    st = s->ops->head_init(s, h, hd, rng);
  gsl_rng_free(rng);
  if (st)
    head_clear(hd);
  return st;
}

rl_status rl_sch_head_ready(const rl_scheme *s, size_t h)
{
  if (h >= s->H)
    return RL_EINVAL;
  if (atomic_load_explicit(&s->built[h], memory_order_acquire))
    return RL_OK;
  rl_status st = RL_OK;
  pthread_mutex_lock(s->lock);
  if (!atomic_load_explicit(&s->built[h], memory_order_relaxed)) {
    st = head_build(s, h);
    if (!st)
      atomic_store_explicit(&s->built[h], 1, memory_order_release);
  }
  pthread_mutex_unlock(s->lock);
  return st;
}

int rl_sch_isint(double p)
{
  return p == floor(p);
}

rl_status rl_sch_row(const rl_scheme *s, double pos, size_t len, size_t *row)
{
  if (!rl_sch_isint(pos))
    return RL_EINVAL;
  double n = (double)len;
  if (pos >= 0 && pos < n) {
    *row = (size_t)pos;
    return RL_OK;
  }
  switch (s->cfg.past) {
  case RL_PAST_CLAMP:
    *row = pos < 0 ? 0 : len - 1;
    return RL_OK;
  case RL_PAST_WRAP: {
    double r = fmod(pos, n);
    *row = (size_t)(r < 0 ? r + n : r);
    return RL_OK;
  }
  case RL_PAST_ERROR:
    break;
  }
  return RL_ERANGE;
}

/* ---- allocation ---- */

void rl_scheme_free(rl_scheme *s)
{
  if (!s)
    return;
  for (size_t h = 0; s->hd && h < s->H; h++)
    head_clear(&s->hd[h]);
  free(s->hd);
  free(s->built);
  if (s->lock) {
    pthread_mutex_destroy(s->lock);
    free(s->lock);
  }
  free(s->scratch);
  rl_schedule_free(s->f);
  free(s->tab);
  free(s->m1);
  free(s->v1);
  free(s->v2);
  free(s->v3);
  free(s);
}

rl_status rl_scheme_alloc(const char *name, const rl_scheme_cfg *cfg,
                          rl_scheme **out, char *err)
{
  *out = NULL;
  if (err)
    err[0] = '\0';
  const rl_scheme_ops *ops = find_ops(name);
  if (!ops) {
    rl_sch_err(err, "unknown scheme '%s'", name ? name : "(null)");
    return RL_EINVAL;
  }
  if (cfg->dim < 2 || cfg->dim > RL_SCHEME_DIM_MAX || cfg->heads < 1 ||
      cfg->heads > RL_SCHEME_HEADS_MAX) {
    rl_sch_err(err, "dimension or head count out of range: dim '%zu', heads '%zu'",
               cfg->dim, cfg->heads);
    return RL_EINVAL;
  }
  char cerr[RL_ERR_MAX]; /* memory: refused before anything is drawn */
  if (rl_cost_check_scheme(cfg->dim, cfg->identity, cerr)) {
    rl_sch_err(err, "%s", cerr);
    return RL_EINVAL;
  }
  if (cfg->param_file && strlen(cfg->param_file) >= sizeof ((rl_scheme *)0)->paramfile) {
    rl_sch_err(err, "parameter file name too long: '%.60s...'", cfg->param_file);
    return RL_EINVAL;
  }
  rl_scheme *s = calloc(1, sizeof *s);
  if (!s)
    return RL_ENOMEM;
  s->ops = ops;
  s->cfg = *cfg;
  if (cfg->param_file) {
    strcpy(s->paramfile, cfg->param_file);
    s->cfg.param_file = s->paramfile;
  }
  s->d = cfg->dim;
  s->H = cfg->heads;
  s->scale = 1.0 / sqrt((double)s->d);
  size_t d = s->d, H = s->H;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  s->scratch = malloc(2 * ops->prep_mult * d * sizeof *s->scratch);
  s->hd = calloc(H, sizeof *s->hd);
  s->built = malloc(H * sizeof *s->built);
  pthread_mutex_t *lock = malloc(sizeof *lock);
  if (lock && pthread_mutex_init(lock, NULL) == 0)
    s->lock = lock;
  else
    free(lock);
  if (!rng || !s->scratch || !s->hd || !s->built || !s->lock) {
    gsl_rng_free(rng);
    rl_scheme_free(s);
    return RL_ENOMEM;
  }
  for (size_t h = 0; h < H; h++)
    atomic_init(&s->built[h], 0);
  /* the scheme's shared parameters from cfg.seed's stream; each head's
   * projections come from a stream of its own, on first use */
  gsl_rng_set(rng, cfg->seed);
  rl_status st = ops->init ? ops->init(s, rng, err) : RL_OK;
  gsl_rng_free(rng);
  if (st) {
    if (err && !err[0])
      rl_sch_err(err, "cannot set up scheme '%s': %s", name, rl_strerror(st));
    rl_scheme_free(s);
    return st;
  }
  *out = s;
  return RL_OK;
}

const rl_scheme_info *rl_scheme_get_info(const rl_scheme *s)
{
  return &s->ops->info;
}

const rl_scheme_cfg *rl_scheme_get_cfg(const rl_scheme *s)
{
  return &s->cfg;
}

const char *rl_scheme_drawn(const rl_scheme *s)
{
  return s->cfg.param_file ? s->ops->drawn_with_file : s->ops->drawn;
}

size_t rl_scheme_drawn_note(rl_scheme *const *s, size_t n, char *buf, size_t size)
{
  size_t len = 0, any = 0;
  char part[512];
  if (size)
    buf[0] = 0;
  for (size_t k = 0; k < n; k++) {
    const char *d = rl_scheme_drawn(s[k]);
    if (!d)
      continue;
    if (!any++)
      snprintf(part, sizeof part, "random draws from seed %zu, not trained: ", s[k]->cfg.seed);
    else
      part[0] = 0;
    size_t l = strlen(part);
    snprintf(part + l, sizeof part - l, "%s%s%s: %s", any > 1 ? "; " : "", s[k]->ops->info.name,
             s[k]->cfg.param_file ? " (its table from the parameter file)" : "", d);
    len += strlen(part);
    if (len < size)
      memcpy(buf + len - strlen(part), part, strlen(part) + 1);
  }
  return len;
}

size_t rl_scheme_prep_len(const rl_scheme *s)
{
  return s->ops->prep_mult * s->d;
}

size_t rl_scheme_param_count(const rl_scheme *s, size_t len)
{
  return s->ops->count ? s->ops->count(s, len) : 0;
}

const char *rl_scheme_param_formula(const rl_scheme *s)
{
  return s->ops->count_formula ? s->ops->count_formula : "0";
}

/* ---- evaluation ---- */

static int pos_ok(double p)
{
  return isfinite(p) && fabs(p) <= RL_POS_MAX;
}

/* A 1-D position as the scheme's position pair. */
static rl_status pos1(const rl_scheme *s, double p, double *pp)
{
  if (!pos_ok(p))
    return RL_ERANGE;
  if (s->ops->info.flags & RL_SCHEME_INTEGER && !rl_sch_isint(p))
    return RL_EINVAL;
  if (s->ops->info.flags & RL_SCHEME_2D) {
    /* rope2d: raster order over a grid of width columns */
    if (!rl_sch_isint(p) || p < 0)
      return RL_EINVAL;
    double w = (double)s->cfg.width;
    pp[0] = floor(p / w);
    pp[1] = p - pp[0] * w;
    return RL_OK;
  }
  pp[0] = p;
  pp[1] = 0;
  return RL_OK;
}

rl_status rl_scheme_prepare(const rl_scheme *s, size_t head, int role, double pos,
                            const double *x, double *out)
{
  double p[2];
  if (head >= s->H || (role != RL_ROLE_QUERY && role != RL_ROLE_KEY))
    return RL_EINVAL;
  rl_status st = pos1(s, pos, p);
  if (!st)
    st = rl_sch_head_ready(s, head);
  return st ? st : s->ops->prep(s, head, role, p, x, out);
}

rl_status rl_scheme_pair(const rl_scheme *s, size_t head, double i, double j,
                         const double *pq, const double *pk, rl_logit_terms *t)
{
  double pi[2], pj[2];
  if (head >= s->H)
    return RL_EINVAL;
  rl_status st = pos1(s, i, pi);
  if (!st)
    st = pos1(s, j, pj);
  if (!st)
    st = rl_sch_head_ready(s, head);
  if (st)
    return st;
  *t = (rl_logit_terms){0};
  st = s->ops->pair(s, head, pi, pj, pq, pk, t);
  return st;
}

size_t rl_scheme_key_state_len(const rl_scheme *s)
{
  return s->ops->key_state_len && s->ops->key_state ? s->ops->key_state_len(s) : 0;
}

rl_status rl_scheme_key_state(const rl_scheme *s, size_t head, double pos, double *st)
{
  double p[2];
  if (head >= s->H || !rl_scheme_key_state_len(s))
    return RL_EINVAL;
  rl_status r = pos1(s, pos, p);
  if (!r)
    r = rl_sch_head_ready(s, head);
  return r ? r : s->ops->key_state(s, head, p, st);
}

void rl_scheme_prepare_key_from(const rl_scheme *s, size_t head, const double *x,
                                const double *st, double *out)
{
  s->ops->key_from(s, head, x, st, out);
}

rl_status rl_scheme_key_coef(const rl_scheme *s, size_t head, const double *pq, double *a,
                             double *c)
{
  if (head >= s->H || !s->ops->key_coef)
    return RL_EINVAL;
  rl_status r = rl_sch_head_ready(s, head);
  if (r)
    return r;
  const double *W = rl_sch_wk(s, head);
  size_t d = s->d;
  if (!W) {
    s->ops->key_coef(s, head, pq, a, c);
    return RL_OK;
  }
  /* total = ut.(W x) + ... = (W^T ut).x + ... */
  double *u = malloc(2 * d * sizeof *u);
  if (!u)
    return RL_ENOMEM;
  s->ops->key_coef(s, head, pq, u, u + d);
  rl_sch_matvec_t(W, u, a, d);
  rl_sch_matvec_t(W, u + d, c, d);
  free(u);
  return RL_OK;
}

rl_status rl_scheme_logit(rl_scheme *s, size_t head, double i, double j,
                          const double *xq, const double *xk, rl_logit_terms *t)
{
  double *pq = s->scratch, *pk = s->scratch + rl_scheme_prep_len(s);
  rl_status st = rl_scheme_prepare(s, head, RL_ROLE_QUERY, i, xq, pq);
  if (!st)
    st = rl_scheme_prepare(s, head, RL_ROLE_KEY, j, xk, pk);
  return st ? st : rl_scheme_pair(s, head, i, j, pq, pk, t);
}

rl_status rl_scheme_positional(rl_scheme *s, size_t head, double i, double j,
                               const double *xq, const double *xk, double *value)
{
  rl_logit_terms t;
  rl_status st = rl_scheme_logit(s, head, i, j, xq, xk, &t);
  if (!st)
    *value = t.total - t.cc;
  return st;
}

static rl_status check2d(const rl_scheme *s, size_t head, double r, double c)
{
  if (!(s->ops->info.flags & RL_SCHEME_2D) || head >= s->H)
    return RL_EINVAL;
  return pos_ok(r) && pos_ok(c) ? rl_sch_head_ready(s, head) : RL_ERANGE;
}

rl_status rl_scheme_prepare2d(const rl_scheme *s, size_t head, int role,
                              double row, double col, const double *x, double *out)
{
  rl_status st = check2d(s, head, row, col);
  if (st)
    return st;
  if (role != RL_ROLE_QUERY && role != RL_ROLE_KEY)
    return RL_EINVAL;
  double p[2] = {row, col};
  return s->ops->prep(s, head, role, p, x, out);
}

rl_status rl_scheme_pair2d(const rl_scheme *s, size_t head, double ri, double ci,
                           double rj, double cj, const double *pq, const double *pk,
                           rl_logit_terms *t)
{
  rl_status st = check2d(s, head, ri, ci);
  if (!st)
    st = check2d(s, head, rj, cj);
  if (st)
    return st;
  double pi[2] = {ri, ci}, pj[2] = {rj, cj};
  *t = (rl_logit_terms){0};
  st = s->ops->pair(s, head, pi, pj, pq, pk, t);
  return st;
}

rl_status rl_scheme_logit2d(rl_scheme *s, size_t head, double ri, double ci,
                            double rj, double cj, const double *xq, const double *xk,
                            rl_logit_terms *t)
{
  double *pq = s->scratch, *pk = s->scratch + rl_scheme_prep_len(s);
  rl_status st = rl_scheme_prepare2d(s, head, RL_ROLE_QUERY, ri, ci, xq, pq);
  if (!st)
    st = rl_scheme_prepare2d(s, head, RL_ROLE_KEY, rj, cj, xk, pk);
  return st ? st : rl_scheme_pair2d(s, head, ri, ci, rj, cj, pq, pk, t);
}

rl_status rl_scheme_encoding(const rl_scheme *s, double pos, double *out)
{
  if (!s->ops->encode)
    return RL_EINVAL;
  if (!pos_ok(pos))
    return RL_ERANGE;
  return s->ops->encode(s, pos, out);
}

const rl_schedule *rl_scheme_get_schedule(const rl_scheme *s)
{
  return s->f;
}

rl_status rl_scheme_get_table(const rl_scheme *s, rl_scheme_table *t)
{
  if (!s->tab || !s->tab_format)
    return RL_EINVAL;
  t->format = s->tab_format;
  t->rows = s->tab_rows;
  t->cols = s->tab_cols;
  t->data = s->tab;
  return RL_OK;
}
