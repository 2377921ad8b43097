/* test_checkpoint.c: the checkpoint file (ropelab/train_run.h) and the
 * non-finite scan: a round trip restores every bit; the header's bytes
 * as the format says (worked by hand), the trailer a CRC-32 recomputed
 * by a second algorithm (bitwise, checked on the standard check value);
 * every truncation and single-byte change refused; a write killed half
 * way leaves the previous file; a NaN planted in one tensor is named
 * with its layer. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ropelab.h"
#include "tap.h"

/* T = 9: reverse at eval_len 4 reads 2 * 4 + 1 positions, the max_T
 * train writes for fill()'s run (the reader checks it) */
enum { V = 6, D = 8, H = 2, L = 2, B = 2, T = 9 };

static rl_train_model *tiny(rl_train_pos pos)
{
  rl_train_cfg cfg;
  rl_train_cfg_default(&cfg);
  cfg.vocab = V, cfg.d_model = D, cfg.heads = H, cfg.layers = L, cfg.batch = B, cfg.max_T = T;
  cfg.pos = pos, cfg.seed = 3;
  cfg.dtype = RL_TDTYPE_FLOAT64; /* the gradient checks' dtype (train's default is float32) */
  rl_train_model *m;
  char err[RL_ERR_MAX] = "";
  if (rl_train_new(&cfg, &m, err)) {
    printf("# cannot build the model: %s\n", err);
    exit(1);
  }
  return m;
}

static void batch(int *inp, int *tgt)
{
  for (int i = 0; i < B * T; i++)
    inp[i] = (i * 7 + 3) % V, tgt[i] = i % 3 ? (i * 5 + 1) % V : -1;
}

/* CRC-32 bit by bit, most significant bit first with the polynomial
 * 0x04C11DB7 on reflected bytes: the textbook form (Williams, "A
 * painless guide to CRC error detection algorithms", 1993), not the
 * reflected table of checkpoint.c. */
static uint32_t crc_bitwise(const unsigned char *p, size_t n)
{
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    unsigned b = 0;
    for (int k = 0; k < 8; k++)
      b |= ((p[i] >> k) & 1u) << (7 - k);
    c ^= (uint32_t)b << 24;
    for (int k = 0; k < 8; k++)
      c = c & 0x80000000u ? (c << 1) ^ 0x04C11DB7u : c << 1;
  }
  uint32_t r = 0;
  for (int k = 0; k < 32; k++)
    r |= ((c >> k) & 1u) << (31 - k);
  return r ^ 0xFFFFFFFFu;
}

static unsigned char *slurp(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)sz + 1);
  *n = fread(b, 1, (size_t)sz, f);
  fclose(f);
  return b;
}

static void spit(const char *path, const unsigned char *b, size_t n)
{
  FILE *f = fopen(path, "wb");
  fwrite(b, 1, n, f);
  fclose(f);
}

static uint64_t le(const unsigned char *p, int k)
{
  uint64_t v = 0;
  for (int i = k - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static void fill(rl_ckpt *ck)
{
  memset(ck, 0, sizeof *ck);
  ck->run.task.kind = RL_TASK_REVERSE, ck->run.task.symbols = V - 2;
  rl_adamw_default(&ck->run.opt);
  ck->run.steps = 10, ck->run.warmup = 1, ck->run.train_len = 3, ck->run.eval_len = 4;
  ck->run.eval_samples = 7, ck->run.log_every = 2, ck->run.checkpoint_every = 5, ck->run.threads = 1;
  ck->run.lr = 3e-3, ck->run.min_lr = 1.5e-4;
  ck->data_rng = 0x0123456789abcdefu;
  snprintf(ck->prov, sizeof ck->prov, "version=test\ndate=2026-01-01T00:00:00Z\n");
}

int main(void)
{
  /* many small files: in memory where the system has a tmpfs */
  char dir[32];
  snprintf(dir, sizeof dir, "%s/rl-ckpt-test.XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  if (!mkdtemp(dir))
    return 1;
  char path[64], other[64];
  snprintf(path, sizeof path, "%s/a.ck", dir);
  snprintf(other, sizeof other, "%s/b.ck", dir);
  char err[RL_ERR_MAX] = "";

  tap_ok(crc_bitwise((const unsigned char *)"123456789", 9) == 0xCBF43926u,
         "bitwise CRC-32 gives the standard check value 0xCBF43926 on '123456789'");

  /* a model three AdamW steps in, so that the moments are not zero */
  rl_train_model *m = tiny(rl_train_pos_find("t5"));
  int inp[B * T], tgt[B * T];
  batch(inp, tgt);
  rl_adamw opt;
  rl_adamw_default(&opt);
  for (int s = 0; s < 3; s++) {
    rl_train_zero_grad(m);
    rl_train_forward(m, inp, tgt, B, T);
    rl_train_backward(m);
    rl_train_update(m, &opt, 1e-2);
  }
  rl_ckpt *ck = malloc(sizeof *ck), *back = malloc(sizeof *back);
  fill(ck);
  tap_ok(rl_ckpt_write(path, ck, m, err) == RL_OK, "write");
  rl_train_model *m2 = NULL;
  rl_status st = rl_ckpt_read(path, 0, back, &m2, err);
  tap_ok(st == RL_OK, "read back (%s)", err);
  size_t np = rl_train_nparams(m);
  int same = m2 && rl_train_nparams(m2) == np &&
             !memcmp(rl_train_params(m), rl_train_params(m2), np * sizeof(double)) &&
             !memcmp(rl_train_moment(m, 1), rl_train_moment(m2, 1), np * sizeof(double)) &&
             !memcmp(rl_train_moment(m, 2), rl_train_moment(m2, 2), np * sizeof(double));
  tap_ok(same, "parameters and both moments restored bit for bit (%zu each)", np);
  tap_ok(m2 && rl_train_get_step(m2) == 3 && back->step == 3, "step 3 restored");
  const rl_train_cfg *c0 = rl_train_get_cfg(m);
  tap_ok(back->cfg.pos == rl_train_pos_find("t5") && back->cfg.vocab == V && back->cfg.d_model == D &&
             back->cfg.heads == H && back->cfg.layers == L && back->cfg.batch == B &&
             back->cfg.max_T == T && back->cfg.num_buckets == c0->num_buckets &&
             back->cfg.max_distance == c0->max_distance && back->cfg.seed == 3 &&
             back->cfg.base == c0->base,
         "model configuration restored");
  tap_ok(back->run.task.kind == RL_TASK_REVERSE && back->run.task.symbols == V - 2 &&
             back->run.steps == 10 && back->run.warmup == 1 && back->run.train_len == 3 &&
             back->run.eval_len == 4 && back->run.eval_samples == 7 && back->run.log_every == 2 &&
             back->run.checkpoint_every == 5 && back->run.threads == 1 && back->run.lr == 3e-3 &&
             back->run.min_lr == 1.5e-4 && back->run.opt.beta2 == opt.beta2 &&
             back->run.opt.eps == opt.eps && back->run.opt.weight_decay == opt.weight_decay &&
             back->run.opt.clip == opt.clip && back->data_rng == 0x0123456789abcdefu &&
             !strcmp(back->prov, ck->prov),
         "task, optimiser, run settings, RNG state and provenance restored");
  /* the restored model computes the same loss */
  double l1 = rl_train_forward(m, inp, tgt, B, T), l2 = m2 ? rl_train_forward(m2, inp, tgt, B, T) : 0;
  tap_ok(l1 == l2, "the restored model's loss equals the original's (%.17g)", l2);
  rl_train_free(m2);

  /* the bytes, by the format's description */
  size_t n;
  unsigned char *b = slurp(path, &n);
  static const unsigned char magic[8] = {0x89, 'R', 'L', 'C', 'K', 'P', 'T', '\n'};
  tap_ok(!memcmp(b, magic, 8), "magic 89 52 4C 43 4B 50 54 0A");
  tap_ok(b[8] == 3 && b[9] == 0 && b[10] == 0 && b[11] == 0, "version 3, little-endian");
  tap_ok(b[12] == 0x0D && b[13] == 0x0C && b[14] == 0x0B && b[15] == 0x0A,
         "endianness marker bytes 0D 0C 0B 0A");
  tap_ok(le(b + 16, 8) == n, "length field = file size %zu", n);
  tap_ok(le(b + n - 4, 4) == crc_bitwise(b, n - 4), "trailer = CRC-32 of the bytes before it");
  /* the sections' walk: NAME first, then CONF of 27 x 8 bytes whose
   * first field is the vocabulary and whose 25th (f64) is lr */
  size_t at = 24;
  uint64_t nl = le(b + at + 8, 8);
  tap_ok(!memcmp(b + at, "NAME", 4) && nl == strlen("scheme=t5\ntask=reverse\ndtype=float64\n") &&
             !memcmp(b + at + 16, "scheme=t5\ntask=reverse\ndtype=float64\n", nl),
         "NAME section: scheme=t5, task=reverse, dtype=float64");
  at += 16 + nl;
  double lr;
  uint64_t bits = le(b + at + 16 + 8 * 24, 8);
  memcpy(&lr, &bits, 8);
  tap_ok(!memcmp(b + at, "CONF", 4) && le(b + at + 8, 8) == 216 && le(b + at + 16, 8) == V &&
             lr == 3e-3,
         "CONF section: 216 bytes, vocab %d first, lr 3e-3 25th", V);
  /* the parameters are the last three sections: P doubles each */
  uint64_t pbits;
  size_t mom2 = n - 4 - 8 * np;
  pbits = le(b + mom2 - 8, 8);
  tap_ok(!memcmp(b + mom2 - 16, "MOM2", 4) && pbits == 8 * np, "MOM2 last: 8 P bytes");
  double x;
  pbits = le(b + mom2 - 2 * (16 + 8 * np), 8);
  memcpy(&x, &pbits, 8);
  tap_ok(x == rl_train_params(m)[0], "PARM's first value is the first parameter");

  /* truncations (the first and last 300 lengths, every 31st between)
   * and a changed bit in every 61st byte are refused */
  int bad_trunc = 0, bad_flip = 0;
  rl_ckpt *tmp = malloc(sizeof *tmp);
  for (size_t k = 0; k < n; k = k < 300 || k + 300 >= n ? k + 1 : k + 31) {
    spit(other, b, k);
    rl_train_model *mm = NULL;
    if (rl_ckpt_read(other, 0, tmp, &mm, err) != RL_EFORMAT || mm)
      bad_trunc++;
    rl_train_free(mm);
  }
  tap_ok(!bad_trunc, "truncations to 0..%zu bytes refused as RL_EFORMAT", n - 1);
  for (size_t k = 0; k < n; k += 61) {
    b[k] ^= 0x20;
    spit(other, b, n);
    b[k] ^= 0x20;
    rl_train_model *mm = NULL;
    if (rl_ckpt_read(other, 0, tmp, &mm, err) != RL_EFORMAT || mm)
      bad_flip++;
    rl_train_free(mm);
  }
  tap_ok(!bad_flip, "a flipped bit in every 61st byte refused");
  b[8] = 1;
  spit(other, b, n);
  rl_train_model *mm = NULL;
  st = rl_ckpt_read(other, 0, tmp, &mm, err);
  tap_ok(st == RL_EFORMAT && strstr(err, "format version 1, expected 2 or 3"), "version 1: %s", err);
  b[8] = 3;

  /* past the checksum (the CRC made right again): a NaN parameter, a
   * negative second moment (the reader frees the model before its
   * message: the fuzzer found a use after free here) */
  size_t parm = mom2 - 2 * (16 + 8 * np), m2at = mom2 + 8 * 5;
  unsigned char save[8];
  const size_t at2[2] = {parm + 8 * 2, m2at};
  const char *want[2] = {"PARM[2] (token embedding) nan, expected a finite number within +-1e+06",
                         "MOM2[5] (token embedding) -1, expected a number from 0 to 1 (the "
                         "gradient clip squared)"};
  for (int k = 0; k < 2; k++) {
    memcpy(save, b + at2[k], 8);
    double v = k ? -1.0 : (double)NAN;
    memcpy(b + at2[k], &v, 8); /* little-endian hosts only, as the test's le() */
    uint32_t cc = crc_bitwise(b, n - 4);
    for (int i = 0; i < 4; i++)
      b[n - 4 + (size_t)i] = (unsigned char)(cc >> (8 * i));
    spit(other, b, n);
    mm = NULL;
    st = rl_ckpt_read(other, 0, tmp, &mm, err);
    tap_ok(st == RL_EFORMAT && !mm && strstr(err, want[k]), "%s: %s", want[k], err);
    memcpy(b + at2[k], save, 8);
  }
  uint32_t cc0 = crc_bitwise(b, n - 4);
  for (int i = 0; i < 4; i++)
    b[n - 4 + (size_t)i] = (unsigned char)(cc0 >> (8 * i));

  /* a write killed after 100 bytes leaves the previous file */
  pid_t pid = fork();
  if (pid == 0) {
    ck->test_kill_after = 100;
    ck->data_rng = 1;
    rl_ckpt_write(path, ck, m, err);
    _exit(0);
  }
  int ws = 0;
  waitpid(pid, &ws, 0);
  size_t n2;
  unsigned char *b2 = slurp(path, &n2);
  tap_ok(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL, "the writer died of SIGKILL");
  tap_ok(b2 && n2 == n && !memcmp(b, b2, n), "the previous checkpoint is intact");
  tap_ok(rl_ckpt_read(path, 0, tmp, &mm, err) == RL_OK && tmp->data_rng == 0x0123456789abcdefu,
         "and reads back");
  rl_train_free(mm);
  free(b2);

  /* the non-finite scan: offsets of the parameter array by hand (wte
   * V D, then per layer ln1 w, b (L D each), qkv w (L 3 D D), qkv b
   * (L 3 D), proj w (L D D), proj b, ln2 w, ln2 b (L D each), ...) */
  rl_train_model *r = tiny(rl_train_pos_find("nope"));
  double *p = rl_train_params(r);
  char where[128] = "";
  rl_train_forward(r, inp, tgt, B, T);
  tap_ok(!rl_train_find_nonfinite(r, where, sizeof where) &&
             !rl_train_find_nonfinite_params(r, 0, where, sizeof where),
         "all finite: nothing found");
  size_t qkv1 = V * D + 2 * L * D + 3 * D * D; /* layer 1's qkv weight */
  double keep = p[qkv1];
  p[qkv1] = NAN;
  rl_train_forward(r, inp, tgt, B, T);
  tap_ok(rl_train_find_nonfinite(r, where, sizeof where) && !strcmp(where, "layer 1 qkv"),
         "NaN in layer 1's qkv weight: first non-finite activation '%s'", where);
  tap_ok(rl_train_find_nonfinite_params(r, 0, where, sizeof where) &&
             !strcmp(where, "layer 1 qkv weight"),
         "and the parameter scan names '%s'", where);
  p[qkv1] = keep;
  size_t ln2w0 = V * D + 2 * L * D + 3 * L * D * D + 3 * L * D + L * D * D + L * D;
  p[ln2w0 + 3] = INFINITY;
  rl_train_forward(r, inp, tgt, B, T);
  tap_ok(rl_train_find_nonfinite(r, where, sizeof where) && !strcmp(where, "layer 0 ln2"),
         "inf in layer 0's ln2 weight: '%s'", where);
  p[ln2w0 + 3] = 1.0;
  p[5] = NAN; /* the token embedding */
  rl_train_forward(r, inp, tgt, B, T);
  tap_ok(rl_train_find_nonfinite(r, where, sizeof where) &&
             !strcmp(where, "embedding (token + position)"),
         "NaN in the token embedding of a token the batch uses: '%s'", where);
  rl_train_free(r);

  /* schedule text round trip: yarn with options, rebuilt to the same theta */
  rl_schedule_params sp;
  rl_schedule_params_default(&sp);
  sp.dim = 16, sp.base = 500, sp.method = rl_schedule_type_find("yarn");
  rl_schedule_param_mark(&sp, rl_schedule_param_find("method"));
  rl_schedule_set(&sp, "factor", 4);
  rl_schedule_set(&sp, "train-len", 64);
  rl_schedule_set(&sp, "beta-fast", 16);
  char text[RL_CKPT_TEXT_MAX];
  rl_schedule_params q;
  rl_schedule *f1 = NULL, *f2 = NULL;
  int ok = rl_ckpt_sched_text(&sp, text, sizeof text) == RL_OK;
  ok = ok && rl_ckpt_sched_parse(text, &q, err) == RL_OK && rl_schedule_new(&sp, &f1, err) == RL_OK &&
       rl_schedule_new(&q, &f2, err) == RL_OK && f1->n == f2->n && f1->attn == f2->attn;
  for (size_t i = 0; ok && i < f1->n; i++)
    ok = f1->theta[i] == f2->theta[i];
  tap_ok(ok, "yarn's parameters as text rebuild the same frequencies and attention factor");
  rl_schedule_free(f1), rl_schedule_free(f2);

  rl_train_free(m);
  free(b), free(ck), free(back), free(tmp);
  unlink(path), unlink(other);
  char cmdline[128];
  snprintf(cmdline, sizeof cmdline, "rm -rf '%s'", dir);
  if (system(cmdline) != 0)
    printf("# could not remove %s\n", dir);
  return tap_done();
}
