/* unseen.c: the fraction of query-key pairs whose positional input never
 * occurred within the training length L (ropelab.h, rl_unseen_eval).
 *
 * The pairs of a causal sequence of n tokens under a window (window.c):
 * with A = min(n, sinks + window) kept keys, the queries 0..A-1 see the
 * causal pairs among positions 0..A-1, and each of the n - A later
 * queries sees keys 0..A-1 from position A - 1 (StreamingLLM's cache
 * positions).  So distance m occurs w(m) = (A - m) + (n - A) times, and
 * there are A (A + 1) / 2 + (n - A) A pairs; without a window A = n.
 * Training saw the same over L tokens (no window).
 *
 * What the positional input is, per scheme (Kazemnejad et al. 2023 and
 * Press et al. 2022 frame length generalisation the same way: absolute
 * positions never trained, relative distances never trained):
 *   absolute  sinusoidal, learned, integer, binary, tupe: the positions
 *             (a pair is unseen when its query, the later one, is >= L);
 *   relative  xl, alibi, deberta without buckets: the distance m >= L;
 *   bucket    t5 (rl_t5_bucket of key - query = -m), deberta (the row
 *             clamp(bucket(m) + k, 0, 2k - 1) it indexes): a bucket no
 *             distance m < L reaches;
 *   angle     rope: per rotary pair, see ropelab.h (Peng et al. 2023,
 *             YaRN sec. 3.2: a pair whose wavelength exceeds L "never
 *             sees" a full turn during training);
 *   offset2d  rope2d: the (row, column) offset never seen among L tokens
 *             in raster order of width columns. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"

#define TWO_PI_L 6.28318530717958647692528676655900577L

int rl_unseen_input(const rl_scheme *s)
{
  const rl_scheme_info *i = rl_scheme_get_info(s);
  /* DeBERTa's rule without log buckets is the distance itself
   * (rl_deberta_bucket with bucket_size 0) */
  if (i->input == RL_INPUT_BUCKET && i->buckets == RL_BUCKETS_DEBERTA &&
      !rl_scheme_get_cfg(s)->position_buckets)
    return RL_INPUT_RELATIVE;
  return i->input;
}

const char *rl_unseen_input_name(int input)
{
  static const char *const n[] = {"none", "absolute", "relative", "bucket", "angle", "offset2d"};
  return input >= 0 && input <= RL_INPUT_OFFSET2D ? n[input] : "unknown";
}

/* Occurrences of distance m among the pairs (see the top). */
static double weight(size_t A, size_t n, size_t m)
{
  return m < A ? (double)(A - m) + (double)(n - A) : 0;
}

static double pairs(size_t A, size_t n)
{
  return (double)A * ((double)A + 1) / 2 + (double)(n - A) * (double)A;
}

static long bucket_of(const rl_scheme *s, size_t m)
{
  const rl_scheme_cfg *c = rl_scheme_get_cfg(s);
  if (rl_scheme_get_info(s)->buckets == RL_BUCKETS_T5)
    return rl_t5_bucket(-(long)m, c->bidirectional, (long)c->num_buckets, (long)c->max_distance);
  long k = (long)c->position_buckets;
  long b = rl_deberta_bucket((long)m, k, (long)c->max_relative_positions) + k;
  return b < 0 ? 0 : b > 2 * k - 1 ? 2 * k - 1 : b;
}

static int cmp_long(const void *a, const void *b)
{
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* Pair p's training arc relpos(L-1) theta_p (>= 2 pi: every angle). */
static double arc_of(const rl_schedule *train, size_t p, size_t L)
{
  return fabs(rl_schedule_relpos(train, (double)(L - 1))) * train->theta[p];
}

/* Whether pair p of f at distance m turns to an angle outside the arc. */
static int angle_unseen(const rl_schedule *f, size_t p, double arc, size_t m)
{
  if ((long double)arc >= TWO_PI_L)
    return 0;
  double rel = fabs(rl_schedule_relpos(f, (double)m));
  long double a = (long double)rel * f->theta[p];
  if (a <= (long double)arc * (1 + 1e-12L))
    return 0;
  long double red = rl_angle_reduce(rel, f->theta[p]); /* in [-pi, pi] */
  if (red < 0)
    red += TWO_PI_L;
  return red > (long double)arc * (1 + 1e-12L);
}

/* rope2d: occurrences of (row offset, column offset) among the causal
 * pairs of A tokens, plus (n - A) copies of query A - 1's row. */
static void offsets(size_t A, size_t n, size_t w, size_t rows, double *cnt)
{
  size_t nc = 2 * w - 1;
  memset(cnt, 0, rows * nc * sizeof *cnt);
  for (size_t dr = 0; dr < rows; dr++)
    for (size_t ci = 0; ci < w; ci++) {
      if (ci > A - 1)
        break;
      long top = (long)((A - 1 - ci) / w); /* largest query row with this column */
      long c = top - (long)dr + 1;
      if (c <= 0)
        continue;
      for (size_t cj = 0; cj < w; cj++)
        if (dr > 0 || cj <= ci)
          cnt[dr * nc + (ci - cj + w - 1)] += (double)c;
    }
  size_t q = A - 1;
  for (size_t j = 0; n > A && j < A; j++)
    cnt[(q / w - j / w) * nc + (q % w - j % w + w - 1)] += (double)(n - A);
}

rl_status rl_unseen_eval(const rl_scheme *s, const rl_schedule *train, size_t L, size_t n,
                         const rl_window *w, double *total, double *per_pair)
{
  int input = rl_unseen_input(s);
  if (input < 0 || L < 1 || n < 1)
    return RL_EINVAL;
  size_t A = rl_window_keys(w, n);
  double all = pairs(A, n), un = 0;
  const rl_schedule *f = rl_scheme_get_schedule(s);
  if (per_pair && f)
    memset(per_pair, 0, f->n * sizeof *per_pair);
  switch (input) {
  case RL_INPUT_NONE:
    break;
  case RL_INPUT_ABSOLUTE: /* rows with the query at q >= L: q + 1 keys each */
    for (size_t q = L; q < A; q++)
      un += (double)(q + 1);
    if (A - 1 >= L)
      un += (double)(n - A) * (double)A;
    break;
  case RL_INPUT_RELATIVE:
    for (size_t m = L; m < A; m++)
      un += weight(A, n, m);
    break;
  case RL_INPUT_BUCKET: {
    if (A <= L)
      break;
    long *seen = malloc(L * sizeof *seen);
    if (!seen)
      return RL_ENOMEM;
    for (size_t m = 0; m < L; m++)
      seen[m] = bucket_of(s, m);
    qsort(seen, L, sizeof *seen, cmp_long);
    for (size_t m = L; m < A; m++) {
      long b = bucket_of(s, m);
      if (!bsearch(&b, seen, L, sizeof *seen, cmp_long))
        un += weight(A, n, m);
    }
    free(seen);
    break;
  }
  case RL_INPUT_ANGLE: {
    if (!f || !train || train->n != f->n)
      return RL_EINVAL;
    double *arc = malloc(f->n * sizeof *arc);
    if (!arc)
      return RL_ENOMEM;
    for (size_t p = 0; p < f->n; p++)
      arc[p] = arc_of(train, p, L);
    for (size_t m = 0; m < A; m++) {
      int any = 0;
      for (size_t p = 0; p < f->n; p++)
        if (angle_unseen(f, p, arc[p], m)) {
          any = 1;
          if (per_pair)
            per_pair[p] += weight(A, n, m);
          else
            break;
        }
      if (any)
        un += weight(A, n, m);
    }
    free(arc);
    if (per_pair)
      for (size_t p = 0; p < f->n; p++)
        per_pair[p] /= all;
    break;
  }
  case RL_INPUT_OFFSET2D: {
    size_t wd = rl_scheme_get_cfg(s)->width, nc = 2 * wd - 1;
    size_t rows = (A - 1) / wd + 1, trows = (L - 1) / wd + 1;
    double *cnt = malloc(rows * nc * sizeof *cnt), *tr = malloc(trows * nc * sizeof *tr);
    if (!cnt || !tr) {
      free(cnt), free(tr);
      return RL_ENOMEM;
    }
    offsets(A, n, wd, rows, cnt);
    offsets(L, L, wd, trows, tr);
    for (size_t r = 0; r < rows; r++)
      for (size_t c = 0; c < nc; c++)
        if (cnt[r * nc + c] > 0 && (r >= trows || tr[r * nc + c] == 0))
          un += cnt[r * nc + c];
    free(cnt), free(tr);
    break;
  }
  }
  *total = un / all;
  return RL_OK;
}

rl_status rl_unseen_train_schedule(const rl_schedule *eval, size_t L, rl_schedule **out)
{
  rl_schedule_params p = eval->p;
  p.dim = eval->dim;
  p.rot = eval->rot;
  p.factor = 1;
  p.seq_len = 0;
  rl_schedule_unset(&p, "factor");
  rl_schedule_unset(&p, "seq-len");
  rl_schedule_unset(&p, "attention-factor");
  rl_schedule_unset(&p, "mscale");
  rl_schedule_unset(&p, "mscale-all-dim");
  if (p.method->uses & RL_SP_TRAIN_LEN)
    rl_schedule_set(&p, "train-len", (double)L);
  /* a position map (rerope) is applied at inference to a model trained
   * with plain RoPE; so are data a user has (files of searched factors or
   * frequencies, sections) */
  if (p.method->relpos || (p.method->flags & RL_ST_USER_DATA) || rl_schedule_new(&p, out, NULL))
    return rl_schedule_rope(eval->dim, eval->rot, eval->p.base, out);
  return RL_OK;
}
