/* checkpoint.c: the trainer's checkpoint file (ropelab/train_run.h):
 * serialised in memory, written atomically, read back with every length
 * checked against the file's. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ropelab.h"

static const unsigned char magic[8] = {0x89, 'R', 'L', 'C', 'K', 'P', 'T', '\n'};
#define ENDIAN_MARK 0x0A0B0C0Du
#define HEAD 24u  /* magic, version, marker, length */
#define SEC_HEAD 16u
/* Larger than any model rl_train_new takes would still fit, smaller than
 * what a corrupt length could ask for. */
#define MAX_FILE ((uint64_t)1 << 40)

static const char *const conf_keys[RL_CKPT_CONF_FIELDS] = {
  "vocab", "d_model", "heads", "layers", "batch", "max_T", "num_buckets", "max_distance",
  "f64 base", "seed", "symbols", "f64 beta1", "f64 beta2", "f64 eps", "f64 weight_decay",
  "f64 clip", "steps", "warmup", "train_len", "eval_len", "eval_samples", "log_every",
  "checkpoint_every", "threads", "f64 lr", "f64 min_lr", "chunks"};
const char *const *rl_ckpt_conf_keys(void) { return conf_keys; }

static rl_status fail(char *err, rl_status st, const char *fmt, ...)
{
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, RL_ERR_MAX, fmt, ap);
    va_end(ap);
  }
  return st;
}

/* CRC-32 of zlib and PNG (ISO 3309 / ITU-T V.42: polynomial 0x04C11DB7,
 * reflected, initial and final complement), so that python's
 * zlib.crc32 checks a file independently. */
static const uint32_t *crc_table(void)
{
  static uint32_t tab[256];
  if (!tab[1])
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;
      for (int k = 0; k < 8; k++)
        c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      tab[i] = c;
    }
  return tab;
}

static uint32_t crc32_iso(const unsigned char *p, size_t n)
{
  const uint32_t *tab = crc_table();
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++)
    c = tab[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

/* ---- little-endian encoding ----------------------------------------- */

static void put_u32(unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}
static void put_u64(unsigned char *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}
static void put_f64(unsigned char *p, double x)
{
  uint64_t v;
  memcpy(&v, &x, 8);
  put_u64(p, v);
}
static uint32_t get_u32(const unsigned char *p)
{
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}
static uint64_t get_u64(const unsigned char *p)
{
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}
static double get_f64(const unsigned char *p)
{
  uint64_t v = get_u64(p);
  double x;
  memcpy(&x, &v, 8);
  return x;
}

/* ---- the CONF section ------------------------------------------------ */

static void conf_values(const rl_train_cfg *c, const rl_train_run *r, uint64_t *u, double *f)
{
  uint64_t uu[RL_CKPT_CONF_FIELDS] = {
    c->vocab, c->d_model, c->heads, c->layers, c->batch, c->max_T, c->num_buckets,
    c->max_distance, 0, c->seed, r->task.symbols, 0, 0, 0, 0, 0, r->steps, r->warmup,
    r->train_len, r->eval_len, r->eval_samples, r->log_every, r->checkpoint_every, r->threads, 0, 0,
    c->chunks};
  double ff[RL_CKPT_CONF_FIELDS] = {
    [8] = c->base, [11] = r->opt.beta1, [12] = r->opt.beta2, [13] = r->opt.eps,
    [14] = r->opt.weight_decay, [15] = r->opt.clip, [24] = r->lr, [25] = r->min_lr};
  memcpy(u, uu, sizeof uu);
  memcpy(f, ff, sizeof ff);
}

static int is_f64(int k) { return !strncmp(conf_keys[k], "f64 ", 4); }

static void conf_store(rl_train_cfg *c, rl_train_run *r, const uint64_t *u, const double *f)
{
  c->vocab = u[0], c->d_model = u[1], c->heads = u[2], c->layers = u[3], c->batch = u[4];
  c->max_T = u[5], c->num_buckets = u[6], c->max_distance = u[7], c->base = f[8];
  c->seed = u[9], r->task.symbols = u[10], r->opt.beta1 = f[11], r->opt.beta2 = f[12];
  r->opt.eps = f[13], r->opt.weight_decay = f[14], r->opt.clip = f[15], r->steps = u[16];
  r->warmup = u[17], r->train_len = u[18], r->eval_len = u[19], r->eval_samples = u[20];
  r->log_every = u[21], r->checkpoint_every = u[22], r->threads = u[23], r->lr = f[24];
  r->min_lr = f[25];
  /* the model's threads and micro-batches: they fix the order of the
   * gradient sums, so a resumed run repeats them to stay bit for bit */
  c->threads = u[23], c->chunks = u[26];
}

/* ---- writing ---------------------------------------------------------- */

typedef struct wbuf {
  unsigned char *p;
  size_t n;
} wbuf;

static unsigned char *section(wbuf *w, const char tag[4], uint64_t len)
{
  unsigned char *s = w->p + w->n;
  memcpy(s, tag, 4);
  put_u32(s + 4, 0);
  put_u64(s + 8, len);
  w->n += SEC_HEAD + len;
  return s + SEC_HEAD;
}

static void text_section(wbuf *w, const char tag[4], const char *text)
{
  size_t n = strlen(text);
  memcpy(section(w, tag, n), text, n);
}

static void doubles_section(wbuf *w, const char tag[4], const double *x, size_t n)
{
  unsigned char *s = section(w, tag, 8 * (uint64_t)n);
  for (size_t i = 0; i < n; i++)
    put_f64(s + 8 * i, x[i]);
}

/* Every byte of buf to fd, or -1; with kill_after, SIGKILL once that many
 * are written (the test of an interrupted write). */
static int write_all(int fd, const unsigned char *buf, size_t n, uint64_t kill_after)
{
  size_t done = 0;
  while (done < n) {
    size_t chunk = n - done;
    if (kill_after && done < kill_after && kill_after - done < chunk)
      chunk = (size_t)(kill_after - done);
    ssize_t k = write(fd, buf + done, chunk);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    done += (size_t)k;
    if (kill_after && done >= kill_after) {
      fsync(fd);
      raise(SIGKILL);
    }
  }
  return 0;
}

rl_status rl_ckpt_write(const char *path, const rl_ckpt *ck, rl_train_model *m,
                        char *err)
{
  const rl_train_cfg *c = rl_train_get_cfg(m);
  size_t np = rl_train_nparams(m);
  char name[256];
  snprintf(name, sizeof name, "scheme=%s\ntask=%s\ndtype=%s\n", rl_train_pos_names()[c->pos],
           rl_task_names()[ck->run.task.kind], rl_train_dtype_names()[c->dtype]);
  const char *texts[4] = {name, ck->rope, ck->eval, ck->prov};
  size_t total = HEAD + 4;
  for (int i = 0; i < 4; i++)
    total += SEC_HEAD + strnlen(texts[i], RL_CKPT_TEXT_MAX - 1);
  total += SEC_HEAD + 8 * RL_CKPT_CONF_FIELDS + SEC_HEAD + 24 + 3 * (SEC_HEAD + 8 * np);
  wbuf w = {malloc(total), 0};
  if (!w.p)
    return RL_ENOMEM;
  memcpy(w.p, magic, 8);
  put_u32(w.p + 8, RL_CKPT_VERSION);
  put_u32(w.p + 12, ENDIAN_MARK);
  put_u64(w.p + 16, total);
  w.n = HEAD;
  text_section(&w, "NAME", name);
  uint64_t u[RL_CKPT_CONF_FIELDS];
  double f[RL_CKPT_CONF_FIELDS];
  conf_values(c, &ck->run, u, f);
  unsigned char *s = section(&w, "CONF", 8 * RL_CKPT_CONF_FIELDS);
  for (int k = 0; k < RL_CKPT_CONF_FIELDS; k++) {
    if (is_f64(k))
      put_f64(s + 8 * k, f[k]);
    else
      put_u64(s + 8 * k, u[k]);
  }
  for (int i = 1; i < 4; i++) {
    static const char tags[4][5] = {"NAME", "ROPE", "EVAL", "PROV"};
    char t[RL_CKPT_TEXT_MAX];
    snprintf(t, sizeof t, "%s", texts[i]);
    text_section(&w, tags[i], t);
  }
  s = section(&w, "STAT", 24);
  put_u64(s, rl_train_get_step(m));
  put_u64(s + 8, ck->data_rng);
  put_u64(s + 16, np);
  doubles_section(&w, "PARM", rl_train_params(m), np);
  doubles_section(&w, "MOM1", rl_train_moment(m, 1), np);
  doubles_section(&w, "MOM2", rl_train_moment(m, 2), np);
  put_u32(w.p + w.n, crc32_iso(w.p, w.n));
  w.n += 4;

  /* the temporary file beside path, so that rename is atomic */
  size_t pl = strlen(path);
  char *tmp = malloc(pl + 16);
  if (!tmp) {
    free(w.p);
    return RL_ENOMEM;
  }
  snprintf(tmp, pl + 16, "%s.tmp-XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(w.p), free(tmp);
    return fail(err, RL_EIO, "cannot write checkpoint '%s': %s", path, strerror(e));
  }
  /* mkstemp's 0600 widened to what open(2) would have given */
  mode_t um = umask(0);
  umask(um);
  int bad = fchmod(fd, 0666 & ~um) != 0 || write_all(fd, w.p, w.n, ck->test_kill_after) ||
            fsync(fd) != 0;
  int e = errno;
  bad |= close(fd) != 0;
  if (!bad && rename(tmp, path) != 0)
    bad = 1, e = errno;
  if (bad) {
    unlink(tmp);
    free(w.p), free(tmp);
    return fail(err, RL_EIO, "cannot write checkpoint '%s': %s", path, strerror(e));
  }
  /* the rename itself made durable */
  char *dir = strdup(path);
  if (dir) {
    char *sl = strrchr(dir, '/');
    const char *d = sl ? (sl == dir ? "/" : (*sl = 0, dir)) : ".";
    int dfd = open(d, O_RDONLY);
    if (dfd >= 0)
      fsync(dfd), close(dfd);
    free(dir);
  }
  free(w.p), free(tmp);
  return RL_OK;
}

/* ---- reading ----------------------------------------------------------
 * In the order that bounds each step by the last: the header (24 bytes:
 * magic, version, marker, a length that must be the file's size), the
 * small sections (NAME, CONF checked field by field, texts, STAT), from
 * which the model's parameter count and so the file's exact length
 * follow, the model's memory against the machine's, and only then the
 * parameters and moments, read in blocks into the model; the CRC-32 is
 * computed as the bytes pass and checked at the end, before any value
 * of the tensors is judged (so that a damaged file says "checksum"). */

typedef struct rbuf {
  int fd;
  uint64_t size, at; /* the file's size and the bytes read */
  uint32_t crc;      /* of the bytes read so far, before the final XOR */
  const char *path;
  char *err;
} rbuf;

/* n bytes of the file into buf, into the running CRC: 0, or -1 with err
 * (the length was checked against the file's size: a short read is the
 * file changing under us, or the device failing) */
static int take(rbuf *r, void *buf, size_t n, int crc)
{
  unsigned char *b = buf;
  size_t got = 0;
  while (got < n) {
    ssize_t k = read(r->fd, b + got, n - got);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0) {
      fail(r->err, RL_EIO, "cannot read checkpoint '%s': %s", r->path,
           k < 0 ? strerror(errno) : "the file ended early (changed while read?)");
      return -1;
    }
    got += (size_t)k;
  }
  r->at += n;
  if (crc) {
    const uint32_t *tab = crc_table();
    uint32_t c = r->crc;
    for (size_t i = 0; i < n; i++)
      c = tab[(c ^ b[i]) & 0xFF] ^ (c >> 8);
    r->crc = c;
  }
  return 0;
}

/* The next section's header, which must be tag; its payload length
 * (checked against what is left before the trailer), or -1 with err. */
static int next(rbuf *r, const char tag[4], uint64_t *len, rl_status *st)
{
  unsigned char h[SEC_HEAD];
  *st = RL_EFORMAT;
  if (r->size - 4 - r->at < SEC_HEAD) {
    fail(r->err, RL_EFORMAT, "invalid checkpoint '%s': section %.4s missing (file ends)",
         r->path, tag);
    return -1;
  }
  uint64_t at = r->at;
  if (take(r, h, SEC_HEAD, 1)) {
    *st = RL_EIO;
    return -1;
  }
  if (memcmp(h, tag, 4) || get_u32(h + 4) != 0) {
    fail(r->err, RL_EFORMAT, "invalid checkpoint '%s': expected section %.4s at byte %llu",
         r->path, tag, (unsigned long long)at);
    return -1;
  }
  uint64_t l = get_u64(h + 8);
  if (l > r->size - 4 - r->at) {
    fail(r->err, RL_EFORMAT, "invalid checkpoint '%s': section %.4s of %llu bytes passes the end",
         r->path, tag, (unsigned long long)l);
    return -1;
  }
  *len = l;
  return 0;
}

static rl_status text(rbuf *r, const char tag[4], char *out)
{
  uint64_t l;
  rl_status st;
  if (next(r, tag, &l, &st))
    return st;
  if (l >= RL_CKPT_TEXT_MAX)
    return fail(r->err, RL_EFORMAT, "invalid checkpoint '%s': section %.4s is not a text of at most %d bytes",
                r->path, tag, RL_CKPT_TEXT_MAX - 1);
  if (take(r, out, (size_t)l, 1))
    return RL_EIO;
  out[l] = 0;
  if (memchr(out, 0, (size_t)l))
    return fail(r->err, RL_EFORMAT, "invalid checkpoint '%s': section %.4s is not a text of at most %d bytes",
                r->path, tag, RL_CKPT_TEXT_MAX - 1);
  return RL_OK;
}

int rl_ckpt_text_get(const char *text, const char *key, char *val, size_t n)
{
  size_t kl = strlen(key);
  for (const char *l = text; *l;) {
    const char *e = strchr(l, '\n');
    size_t ll = e ? (size_t)(e - l) : strlen(l);
    if (ll > kl && !strncmp(l, key, kl) && l[kl] == '=') {
      size_t vl = ll - kl - 1;
      if (vl >= n)
        return 0;
      memcpy(val, l + kl + 1, vl);
      val[vl] = 0;
      return 1;
    }
    l += ll + (e ? 1 : 0);
  }
  return 0;
}

static int name_index(const char *const *names, size_t n, const char *s)
{
  for (size_t i = 0; i < n; i++)
    if (!strcmp(names[i], s))
      return (int)i;
  return -1;
}

/* The CONF fields that are options of `ropelab train` (the declarations
 * of rl_train_param_list: their bounds are the CLI's), and base, which
 * is the schedule options' --base.  The others are derived or fixed, and
 * must be what the trainer derives (conf_check). */
static const char *const conf_option[RL_CKPT_CONF_FIELDS] = {
  [1] = "d-model", [2] = "heads", [3] = "layers", [4] = "batch", [9] = "seed",
  [10] = "symbols", [16] = "steps", [17] = "warmup", [18] = "train-len", [19] = "eval-len",
  [20] = "eval-samples", [21] = "log-every", [22] = "checkpoint-every", [23] = "threads",
  [24] = "lr", [25] = "min-lr", [26] = "chunks"};

static const rl_param *train_decl(const char *key)
{
  for (const rl_param *const *d = rl_train_param_list(); *d; d++)
    if (!strcmp((*d)->key, key))
      return *d;
  return NULL;
}

static void conf_value_text(int k, const uint64_t *u, const double *f, char *buf, size_t n)
{
  if (is_f64(k))
    snprintf(buf, n, "%.17g", f[k]);
  else
    snprintf(buf, n, "%llu", (unsigned long long)u[k]);
}

static const char *conf_name(int k) { return conf_keys[k] + (is_f64(k) ? 4 : 0); }

/* Every CONF field as `ropelab train` would have written it: each
 * option's value within its declaration's bounds, then the checks
 * between settings (rl_train_settings_resolve's), then the derived
 * fields (vocabulary, positions, t5's buckets) and the fixed ones
 * (AdamW's) equal to what the trainer derives from the rest. */
static rl_status conf_check(const char *path, int pos, int kind, const uint64_t *u,
                            const double *f, rl_train_settings *s, char *err)
{
  char val[64], exp[160];
  for (int k = 0; k < RL_CKPT_CONF_FIELDS; k++) {
    const rl_param *d = k == 8 ? rl_schedule_param_find("base")
                               : conf_option[k] ? train_decl(conf_option[k]) : NULL;
    if (!d)
      continue;
    double x = is_f64(k) ? f[k] : (double)u[k];
    if (!is_f64(k) && u[k] > (uint64_t)1 << 53)
      x = INFINITY; /* beyond every bound, and not rounded into one */
    if (!rl_param_in_bounds(d, x)) {
      conf_value_text(k, u, f, val, sizeof val);
      rl_param_expect(d, exp, sizeof exp);
      return fail(err, RL_EFORMAT, "invalid checkpoint '%s': %s %s, expected %s (as --%s)", path,
                  conf_name(k), val, exp, d->key);
    }
  }
  rl_train_settings_default(s);
  s->scheme = pos, s->task = kind, s->symbols = (size_t)u[10], s->train_len = (size_t)u[18];
  s->eval_len = (size_t)u[19], s->steps = (size_t)u[16], s->batch = (size_t)u[4];
  s->warmup = (size_t)u[17], s->seed = (size_t)u[9], s->d_model = (size_t)u[1];
  s->heads = (size_t)u[2], s->layers = (size_t)u[3], s->threads = (size_t)u[23];
  s->chunks = (size_t)u[26], s->eval_samples = (size_t)u[20], s->log_every = (size_t)u[21];
  s->checkpoint_every = (size_t)u[22], s->lr = f[24], s->min_lr = f[25];
  s->checkpoint = path;
  s->set = RL_TS_EVAL_LEN | RL_TS_MIN_LR | RL_TS_WARMUP | RL_TS_LOG_EVERY | RL_TS_CHECKPOINT_EVERY |
           RL_TS_LAYERS | RL_TS_STEPS | RL_TS_LR;
  char msg[RL_ERR_MAX];
  if (rl_train_settings_resolve(s, msg, sizeof msg))
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': its settings: %s", path, msg);
  rl_train_cfg want;
  rl_train_settings_cfg(s, &want);
  rl_adamw opt;
  rl_adamw_default(&opt);
  const struct {
    int k;
    double want;
    const char *why;
  } derived[] = {
    {0, (double)want.vocab, "the task's vocabulary"},
    {5, (double)want.max_T, "the positions of the longest of train_len and eval_len"},
    {6, (double)want.num_buckets, "the trainer's t5 buckets"},
    {7, (double)want.max_distance, "the trainer's t5 maximum distance"},
    {11, opt.beta1, "the trainer's AdamW"}, {12, opt.beta2, "the trainer's AdamW"},
    {13, opt.eps, "the trainer's AdamW"}, {14, opt.weight_decay, "the trainer's AdamW"},
    {15, opt.clip, "the trainer's AdamW"}};
  for (size_t i = 0; i < sizeof derived / sizeof *derived; i++) {
    int k = derived[i].k;
    double have = is_f64(k) ? f[k] : (double)u[k];
    if (have != derived[i].want || (!is_f64(k) && u[k] != (uint64_t)derived[i].want)) {
      conf_value_text(k, u, f, val, sizeof val);
      return fail(err, RL_EFORMAT, "invalid checkpoint '%s': %s %s, expected %.17g (%s)", path,
                  conf_name(k), val, derived[i].want, derived[i].why);
    }
  }
  return RL_OK;
}

/* A value of tensor `tag` judged (tags PARM, MOM1, MOM2): 0, or 1 with
 * what is wrong in why.  Bounds: train_run.h, RL_CKPT_PARAM_MAX. */
static int bad_value(int tag, double v, double clip, char *why, size_t n)
{
  if (tag == 0) {
    if (isfinite(v) && fabs(v) <= RL_CKPT_PARAM_MAX)
      return 0;
    snprintf(why, n, "a finite number within +-%g", RL_CKPT_PARAM_MAX);
  } else if (tag == 1) {
    if (isfinite(v) && fabs(v) <= clip * RL_CKPT_MOMENT_SLACK)
      return 0;
    snprintf(why, n, "a finite number within +-%g (the gradient clip)", clip);
  } else {
    if (v >= 0 && v <= clip * clip * RL_CKPT_MOMENT_SLACK)
      return 0;
    snprintf(why, n, "a number from 0 to %g (the gradient clip squared)", clip * clip);
  }
  return 1;
}

static rl_status parse(rbuf *r, size_t max_T, size_t threads, double max_bytes, rl_ckpt *ck,
                       rl_train_model **out)
{
  const char *path = r->path;
  char *err = r->err;
  unsigned char h[HEAD];
  if (r->size < HEAD + 4)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': not a ropelab checkpoint (magic)", path);
  if (take(r, h, HEAD, 1))
    return RL_EIO;
  if (memcmp(h, magic, 8))
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': not a ropelab checkpoint (magic)", path);
  uint32_t ver = get_u32(h + 8);
  /* version 2: the layout of 3 without the dtype (float64) */
  if (ver != RL_CKPT_VERSION && ver != 2)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': format version %u, expected 2 or %u",
                path, (unsigned)ver, RL_CKPT_VERSION);
  if (get_u32(h + 12) != ENDIAN_MARK)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': endianness marker 0x%08x, expected 0x%08x",
                path, (unsigned)get_u32(h + 12), ENDIAN_MARK);
  uint64_t len = get_u64(h + 16);
  if (len != r->size)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': %llu bytes, its header says %llu (truncated?)",
                path, (unsigned long long)r->size, (unsigned long long)len);
  memset(ck, 0, sizeof *ck);
  char name[RL_CKPT_TEXT_MAX], sv[64], tv[64];
  rl_status st;
  if ((st = text(r, "NAME", name)))
    return st;
  int pos = rl_ckpt_text_get(name, "scheme", sv, sizeof sv)
                ? rl_train_pos_find(sv) : -1;
  int kind = rl_ckpt_text_get(name, "task", tv, sizeof tv)
                 ? name_index(rl_task_names(), RL_TASK_COUNT, tv) : -1;
  if (pos < 0 || kind < 0)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': unknown %s in its NAME section", path,
                pos < 0 ? "scheme" : "task");
  int dtype = RL_TDTYPE_FLOAT64;
  if (ver >= 3 && (!rl_ckpt_text_get(name, "dtype", tv, sizeof tv) ||
                   (dtype = name_index(rl_train_dtype_names(), RL_TDTYPE_COUNT, tv)) < 0))
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': unknown dtype in its NAME section, "
                "expected float64 or float32", path);
  uint64_t l;
  if (next(r, "CONF", &l, &st))
    return st;
  if (l != 8 * RL_CKPT_CONF_FIELDS)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': CONF of %llu bytes, expected %d", path,
                (unsigned long long)l, 8 * RL_CKPT_CONF_FIELDS);
  unsigned char cb[8 * RL_CKPT_CONF_FIELDS];
  if (take(r, cb, sizeof cb, 1))
    return RL_EIO;
  uint64_t u[RL_CKPT_CONF_FIELDS] = {0};
  double f[RL_CKPT_CONF_FIELDS] = {0};
  for (int k = 0; k < RL_CKPT_CONF_FIELDS; k++) {
    if (is_f64(k))
      f[k] = get_f64(cb + 8 * k);
    else
      u[k] = get_u64(cb + 8 * k);
  }
  rl_train_settings s;
  if ((st = conf_check(path, pos, kind, u, f, &s, err)))
    return st;
  rl_train_cfg_default(&ck->cfg);
  conf_store(&ck->cfg, &ck->run, u, f);
  ck->cfg.pos = (rl_train_pos)pos;
  ck->cfg.dtype = dtype;
  ck->run.task.kind = (rl_task_kind)kind;
  if ((st = text(r, "ROPE", ck->rope)) || (st = text(r, "EVAL", ck->eval)) ||
      (st = text(r, "PROV", ck->prov)))
    return st;
  int rope = rl_train_scheme_rope(pos);
  if (rope != (ck->rope[0] != 0))
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': a rope schedule %s", path,
                rope ? "missing" : "for another scheme");
  if (next(r, "STAT", &l, &st))
    return st;
  if (l != 24)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': STAT of %llu bytes, expected 24", path,
                (unsigned long long)l);
  unsigned char sb[24];
  if (take(r, sb, 24, 1))
    return RL_EIO;
  ck->step = get_u64(sb), ck->data_rng = get_u64(sb + 8);
  uint64_t np = get_u64(sb + 16);
  if (ck->step > ck->run.steps)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': step %llu, expected at most its %llu steps",
                path, (unsigned long long)ck->step, (unsigned long long)ck->run.steps);
  size_t want_np = rl_train_cfg_nparams(&ck->cfg);
  if (np != want_np)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': parameter count %llu, expected %zu "
                "(the model its CONF describes)", path, (unsigned long long)np, want_np);
  /* the file's length follows: three tensors and the trailer */
  uint64_t total = r->at + 3 * (SEC_HEAD + 8 * (uint64_t)np) + 4;
  if (total != r->size)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': %llu bytes, its sections and "
                "parameter count give %llu", path, (unsigned long long)r->size,
                (unsigned long long)total);
  rl_train_cfg cfg = ck->cfg;
  if (max_T) {
    int fixed = rl_train_scheme_fixed_rows(pos); /* a learned table's rows */
    if (max_T > 4096 || (fixed && max_T > cfg.max_T))
      return fail(err, RL_EINVAL, "invalid length '%zu': the checkpoint's model reads at most %zu positions",
                  max_T, fixed ? cfg.max_T : (size_t)4096);
    if (max_T > cfg.max_T)
      cfg.max_T = max_T;
  }
  if (threads)
    cfg.threads = threads;
  double need = rl_train_cfg_bytes(&cfg);
  if (need > max_bytes)
    return fail(err, RL_ENOMEM, "out of memory for checkpoint '%s': its model needs %.3g GB, "
                "more than the %.3g GB available", path, need / 1e9, max_bytes / 1e9);
  char merr[RL_ERR_MAX] = "";
  rl_train_model *m = NULL;
  st = rl_train_new(&cfg, &m, merr);
  if (st == RL_ENOMEM)
    return fail(err, st, "out of memory for checkpoint '%s' (its model: %.3g GB)", path, need / 1e9);
  if (st)
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': %s", path, merr);
  static const char tags[3][5] = {"PARM", "MOM1", "MOM2"};
  double *dst[3] = {rl_train_params(m), rl_train_moment(m, 1), rl_train_moment(m, 2)};
  /* the first value out of bounds, reported once the checksum holds */
  int bad_tag = -1;
  size_t bad_at = 0;
  double bad_v = 0;
  char why[96] = "";
  unsigned char blk[8 * 1024];
  for (int i = 0; i < 3; i++) {
    if (next(r, tags[i], &l, &st)) {
      rl_train_free(m);
      return st;
    }
    if (l != 8 * np) {
      rl_train_free(m);
      return fail(err, RL_EFORMAT, "invalid checkpoint '%s': %.4s of %llu bytes, expected %llu",
                  path, tags[i], (unsigned long long)l, (unsigned long long)(8 * np));
    }
    for (size_t j = 0; j < np;) {
      size_t k = np - j < sizeof blk / 8 ? np - j : sizeof blk / 8;
      if (take(r, blk, 8 * k, 1)) {
        rl_train_free(m);
        return RL_EIO;
      }
      for (size_t q = 0; q < k; q++, j++) {
        double v = dst[i][j] = get_f64(blk + 8 * q);
        if (bad_tag < 0 && bad_value(i, v, ck->run.opt.clip, why, sizeof why))
          bad_tag = i, bad_at = j, bad_v = v;
      }
    }
  }
  unsigned char tr[4];
  uint32_t have = r->crc ^ 0xFFFFFFFFu;
  if (take(r, tr, 4, 0)) {
    rl_train_free(m);
    return RL_EIO;
  }
  if (get_u32(tr) != have) {
    rl_train_free(m);
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': checksum 0x%08x, the file's bytes give 0x%08x",
                path, (unsigned)get_u32(tr), (unsigned)have);
  }
  if (bad_tag >= 0) {
    char where[96] = "";
    rl_train_param_name(m, bad_at, where, sizeof where);
    rl_train_free(m);
    return fail(err, RL_EFORMAT, "invalid checkpoint '%s': %.4s[%zu] (%s) %g, expected %s", path,
                tags[bad_tag], bad_at, where, bad_v, why);
  }
  rl_train_set_step(m, ck->step);
  *out = m;
  return RL_OK;
}

/* The memory a checkpoint's model may take: the machine's physical
 * memory (a larger model could only fail or swap). */
static double phys_bytes(void)
{
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? (double)pages * (double)size : 1e18;
}

rl_status rl_ckpt_read(const char *path, size_t max_T, rl_ckpt *ck, rl_train_model **m,
                       char *err)
{
  rl_ckpt_read_opts o = {max_T, 0, 0};
  return rl_ckpt_read_with(path, &o, ck, m, err);
}

rl_status rl_ckpt_read_with(const char *path, const rl_ckpt_read_opts *o, rl_ckpt *ck,
                            rl_train_model **m, char *err)
{
  *m = NULL;
  double max_bytes = o->max_bytes > 0 ? (double)o->max_bytes : phys_bytes();
  size_t threads = o->threads, max_T = o->max_T;
  int fd;
  uint64_t fsize;
  char msg[RL_ERR_MAX];
  rl_status ost = rl_file_open_read(path, "checkpoint", MAX_FILE, &fd, &fsize, msg, sizeof msg);
  if (ost) /* a file that is not a checkpoint is bad input (exit 2), as before */
    return fail(err, ost == RL_ENOMEM ? RL_ENOMEM : RL_EFORMAT, "%s", msg);
  rbuf r = {fd, fsize, 0, 0xFFFFFFFFu, path, err};
  rl_status st = parse(&r, max_T, threads, max_bytes, ck, m);
  close(fd);
  return st;
}

/* ---- schedules as text ------------------------------------------------ */

rl_status rl_ckpt_sched_text(const rl_schedule_params *p, char *buf, size_t n)
{
  size_t at = 0;
  buf[0] = 0;
  const rl_param *md = rl_schedule_param_find("method");
  const rl_param *const *list = rl_schedule_param_list();
  for (int pass = 0; pass < 2; pass++)
    for (const rl_param *const *d = list; *d; d++) {
      if ((pass == 0) != (*d == md))
        continue;
      /* what a schedule is built from: the method, the shape every method
       * takes, and what was given */
      const char *k0 = (*d)->key;
      int shape = !strcmp(k0, "dim") || !strcmp(k0, "rot") || !strcmp(k0, "base") ||
                  !strcmp(k0, "layout");
      if (!(*d == md || shape || rl_schedule_param_given(p, *d)))
        continue;
      if ((*d)->flags & RL_PF_NO_OPTION)
        continue;
      char v[512];
      int k = rl_param_format(*d, p, v, sizeof v);
      if (k < 0 || (size_t)k >= sizeof v || strchr(v, '\n'))
        return RL_EINVAL;
      int w = snprintf(buf + at, n - at, "%s=%s\n", (*d)->key, v);
      if (w < 0 || (size_t)w >= n - at)
        return RL_EINVAL;
      at += (size_t)w;
    }
  return RL_OK;
}

rl_status rl_ckpt_sched_parse(char *text, rl_schedule_params *p, char *err)
{
  rl_schedule_params_default(p);
  for (char *l = text; *l;) {
    char *e = strchr(l, '\n');
    if (e)
      *e = 0;
    char *eq = strchr(l, '=');
    if (!eq)
      return fail(err, RL_EINVAL, "invalid schedule line '%s': expected key=value", l);
    *eq = 0;
    const rl_param *d = rl_schedule_param_find(l);
    if (!d)
      return fail(err, RL_EINVAL, "invalid schedule key '%s'", l);
    char perr[RL_ERR_MAX] = "";
    if (rl_param_parse(d, p, eq + 1, perr, sizeof perr) != RL_OK)
      return fail(err, RL_EINVAL, "%s", perr);
    rl_schedule_param_mark(p, d);
    if (!e)
      break;
    l = e + 1;
  }
  return RL_OK;
}
