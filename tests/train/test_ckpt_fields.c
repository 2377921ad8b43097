/* test_ckpt_fields.c: the checkpoint reader trusts no field (issue 33
 * item 2).  A checkpoint of a tiny model of every scheme, written as
 * `ropelab train` writes it, then every CONF field at its declared
 * bounds, one past them, 0, -1, 2^31, 2^40, NaN and infinity, and
 * entries of the three tensors at +-1e300, inf, NaN and the bound
 * (ckpt_mutate.h): a refusal is RL_EFORMAT (or RL_ENOMEM for a model
 * over the memory given) with one line naming the file, and an accepted
 * file keeps every promise (ckm_oracle: fields within train's option
 * bounds, values within train_run.h's, a finite forward pass).  Then the
 * cases the issue found, with their messages; and a 2 GB file (sparse:
 * no disk) refused after reading its header only. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ckpt_mutate.h"
#include "ropelab.h"
#include "tap.h"

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

/* Read path (models over 256 MB refused); 0 refused as promised, 1
 * accepted and the oracle holds, -1 a broken promise (why). */
static int judge(const char *path, char *err, char *why, size_t wn)
{
  rl_ckpt *ck = calloc(1, sizeof *ck);
  rl_ckpt_read_opts o = {0, 0, 256u << 20};
  rl_train_model *m = NULL;
  rl_status st = rl_ckpt_read_with(path, &o, ck, &m, err);
  int r;
  char prefix[300];
  snprintf(prefix, sizeof prefix, "invalid checkpoint '%s': ", path);
  if (st == RL_OK) {
    r = ckm_oracle(ck, m, why, wn) ? -1 : 1;
  } else if (m) {
    snprintf(why, wn, "a model returned with an error");
    r = -1;
  } else if (st == RL_EFORMAT && !strncmp(err, prefix, strlen(prefix)) && !strchr(err, '\n')) {
    r = 0;
  } else if (st == RL_ENOMEM && strstr(err, path) && !strchr(err, '\n')) {
    r = 0;
  } else {
    snprintf(why, wn, "status %d, message '%s'", (int)st, err);
    r = -1;
  }
  rl_train_free(m);
  free(ck);
  return r;
}

/* b (n bytes, layout l) with CONF field k set to bits, written to path */
static void conf_set(const unsigned char *b, size_t n, const ckm_layout *l, int k, uint64_t bits,
                     unsigned char *w, const char *path)
{
  memcpy(w, b, n);
  ckm_put(w + l->conf + 8 * (size_t)k, bits, 8);
  ckm_fix_crc(w, n);
  spit(path, w, n);
}

static int field_index(const char *key)
{
  for (int k = 0; k < RL_CKPT_CONF_FIELDS; k++) {
    int real;
    if (!strcmp(ckm_key(k, &real), key))
      return k;
  }
  return -1;
}

int main(void)
{
  char dir[64], path[128], err[RL_ERR_MAX], why[256];
  snprintf(dir, sizeof dir, "%s/rl-ckfields.XXXXXX",
           access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  if (!mkdtemp(dir))
    return 1;
  snprintf(path, sizeof path, "%s/m.ck", dir);

  for (int scheme = 0; scheme < (int)rl_train_pos_count(); scheme++) {
    const char *name = rl_train_pos_names()[scheme];
    if (ckm_write_tiny(scheme, path)) {
      tap_ok(0, "%s: a checkpoint to mutate", name);
      continue;
    }
    size_t n;
    unsigned char *b = slurp(path, &n), *w = malloc(n);
    ckm_layout l = {0, {0, 0, 0}, 0};
    int walked = !ckm_walk(b, n, &l);
    tap_ok(walked, "%s: sections found (P = %zu)", name, l.np);
    err[0] = why[0] = 0;
    tap_ok(judge(path, err, why, sizeof why) == 1, "%s: the file as written is accepted%s%s", name,
           err[0] ? ": " : "", err);
    int broken = 0, accepted = 0, refused = 0, named = 0, outside = 0;
    for (int k = 0; k < RL_CKPT_CONF_FIELDS; k++) {
      int real;
      const char *key = ckm_key(k, &real);
      const rl_param *d = ckm_decl(k);
      for (int v = 0; v < CKM_NV; v++) {
        uint64_t bits = ckm_value(k, v);
        conf_set(b, n, &l, k, bits, w, path);
        err[0] = 0;
        int j = judge(path, err, why, sizeof why);
        if (j < 0) {
          if (broken++ < 5)
            printf("# %s: %s value %d: %s\n", name, key, v, why);
          continue;
        }
        j ? accepted++ : refused++;
        /* a value outside the option's bounds is refused naming the field */
        double x;
        if (real)
          memcpy(&x, &bits, 8);
        else
          x = bits > (uint64_t)1 << 53 ? (double)INFINITY : (double)bits;
        if (d && !rl_param_in_bounds(d, x)) {
          outside++;
          char want[96];
          snprintf(want, sizeof want, "': %s ", key);
          if (j == 0 && strstr(err, want) && strstr(err, ", expected "))
            named++;
          else if (broken++ < 5)
            printf("# %s: %s value %d out of bounds: %s\n", name, key, v, j ? "accepted" : err);
        }
      }
    }
    /* tensors: the first and last entry of each */
    for (int t = 0; t < 3; t++)
      for (int e = 0; e < 2; e++)
        for (int v = 0; v < CKM_NT; v++) {
          int ok;
          double x = ckm_tensor_value(t, v, &ok);
          uint64_t bits;
          memcpy(&bits, &x, 8);
          memcpy(w, b, n);
          ckm_put(w + l.tensor[t] + 8 * (e ? l.np - 1 : 0), bits, 8);
          ckm_fix_crc(w, n);
          spit(path, w, n);
          int j = judge(path, err, why, sizeof why);
          if (j < 0 || j != ok) {
            if (broken++ < 5)
              printf("# %s: tensor %d entry %d = %g: %s\n", name, t, e, x,
                     j < 0 ? why : j ? "accepted" : err);
            continue;
          }
          j ? accepted++ : refused++;
        }
    tap_ok(!broken && named == outside,
           "%s: %d mutations (27 CONF fields x %d values, 3 tensors x 2 entries x %d values): "
           "%d refused, %d accepted and sound; all %d out of their option's bounds named",
           name, accepted + refused, CKM_NV, CKM_NT, refused, accepted, outside);
    free(b), free(w);
  }

  /* the cases on a t5 model, with their messages */
  ckm_write_tiny(rl_train_pos_find("t5"), path);
  size_t n;
  unsigned char *b = slurp(path, &n), *w = malloc(n);
  ckm_layout l;
  ckm_walk(b, n, &l);
  struct {
    const char *key;
    uint64_t bits;
    const char *msg;
  } cases[] = {
    {"eval_samples", (uint64_t)1 << 40,
     "eval_samples 1099511627776, expected an integer between 1 and 100000000 (as --eval-samples)"},
    {"eval_len", (uint64_t)1 << 40,
     "eval_len 1099511627776, expected an integer between 1 and 1024 (as --eval-len)"},
    /* copy at eval_len 3 reads 2 * 3 + 1 = 7 positions */
    {"max_T", 1, "max_T 1, expected 7 (the positions of the longest of train_len and eval_len)"},
    {"max_T", 3, "max_T 3, expected 7 (the positions of the longest of train_len and eval_len)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    conf_set(b, n, &l, field_index(cases[i].key), cases[i].bits, w, path);
    rl_ckpt *ck = calloc(1, sizeof *ck);
    rl_train_model *m = NULL;
    rl_status st = rl_ckpt_read(path, 0, ck, &m, err);
    char want[400];
    snprintf(want, sizeof want, "invalid checkpoint '%s': %s", path, cases[i].msg);
    tap_ok(st == RL_EFORMAT && !m && !strcmp(err, want), "%s %llu: %s", cases[i].key,
           (unsigned long long)cases[i].bits, err);
    rl_train_free(m);
    free(ck);
  }
  /* weights at 1e300: every entry, refused naming the first */
  memcpy(w, b, n);
  double big = 1e300;
  uint64_t bb;
  memcpy(&bb, &big, 8);
  for (size_t i = 0; i < l.np; i++)
    ckm_put(w + l.tensor[0] + 8 * i, bb, 8);
  ckm_fix_crc(w, n);
  spit(path, w, n);
  {
    rl_ckpt *ck = calloc(1, sizeof *ck);
    rl_train_model *m = NULL;
    rl_status st = rl_ckpt_read(path, 0, ck, &m, err);
    char want[400];
    snprintf(want, sizeof want, "invalid checkpoint '%s': PARM[0] (token embedding) 1e+300, "
             "expected a finite number within +-1e+06", path);
    tap_ok(st == RL_EFORMAT && !m && !strcmp(err, want), "every weight 1e300: %s", err);
    free(ck);
  }
  /* a damaged byte among the weights is a checksum error, not a value's */
  memcpy(w, b, n);
  w[l.tensor[0] + 7] ^= 0x7f; /* the first weight's sign and exponent */
  spit(path, w, n);
  {
    rl_ckpt *ck = calloc(1, sizeof *ck);
    rl_train_model *m = NULL;
    rl_status st = rl_ckpt_read(path, 0, ck, &m, err);
    tap_ok(st == RL_EFORMAT && strstr(err, ": checksum 0x"), "damaged weight, CRC not fixed: %s",
           err);
    free(ck);
  }

  /* a 2 GB file: the header alone is read (bytes counted by the
   * kernel's rchar, /proc/self/io), whether its magic is wrong or its
   * header is a checkpoint's whose sections cannot make that length */
  FILE *io = fopen("/proc/self/io", "r");
  if (!io) {
    tap_skip("no /proc/self/io: the bytes read are not counted");
  } else {
    fclose(io);
    for (int k = 0; k < 2; k++) {
      int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
      uint64_t size = (uint64_t)2 << 30;
      if (k)
        memcpy(w, b, n), ckm_put(w + 16, size, 8);
      if (fd < 0 || ftruncate(fd, (off_t)size) || (k && pwrite(fd, w, n - 4, 0) != (ssize_t)(n - 4))) {
        tap_skip("cannot make a sparse 2 GB file here");
        if (fd >= 0)
          close(fd);
        continue;
      }
      close(fd);
      unsigned long long r0 = 0, r1 = 0;
      char line[128];
      io = fopen("/proc/self/io", "r");
      while (io && fgets(line, sizeof line, io))
        sscanf(line, "rchar: %llu", &r0);
      if (io)
        fclose(io);
      rl_ckpt *ck = calloc(1, sizeof *ck);
      rl_train_model *m = NULL;
      rl_status st = rl_ckpt_read(path, 0, ck, &m, err);
      io = fopen("/proc/self/io", "r");
      while (io && fgets(line, sizeof line, io))
        sscanf(line, "rchar: %llu", &r1);
      if (io)
        fclose(io);
      /* rchar also counts the reads of /proc/self/io itself: a few KB */
      tap_ok(st == RL_EFORMAT && r1 - r0 < 65536,
             "2 GB %s: refused after reading %llu bytes: %s",
             k ? "with a checkpoint's header and sections" : "of zeros", r1 - r0, err);
      rl_train_free(m);
      free(ck);
      unlink(path);
    }
  }
  free(b), free(w);
  unlink(path);
  rmdir(dir);
  return tap_done();
}
