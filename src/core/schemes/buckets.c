/* buckets.c: the discrete maps of the relative schemes: T5 and
 * DeBERTa buckets, ALiBi slopes.  Each is written from its paper and
 * checked against the reference code named in the comment (not copied). */
#include <limits.h>
#include <math.h>
#include "ropelab.h"

/* T5 (Raffel et al. 2020, JMLR, sec. 2.1 "Position embeddings"):
 * reference HF transformers modeling_t5.py T5Attention
 * ._relative_position_bucket (and mesh_tensorflow's), where
 * relative_position = memory_position - context_position (key - query).
 * Bidirectional: half the buckets for keys after the query (rel > 0),
 * half for keys before; within a half, distances below max_exact = half/2
 * get a bucket each, larger ones share max_exact + floor(log(n/max_exact)
 * / log(max_distance/max_exact) * (half - max_exact)) capped at half - 1.
 * Causal: only rel <= 0 is distinguished (n = max(-rel, 0)).
 * The reference evaluates the log in float32; in double the bucket edges
 * n = max_exact (max_distance/max_exact)^(k/(half-max_exact)) that are
 * integers (16, 32, 64 for the defaults) land in the same bucket as in
 * float32 (tests/schemes/test_buckets.c lists them). */
long rl_t5_bucket(long rel, int bidirectional, long num_buckets, long max_distance)
{
  long nb = num_buckets, ret = 0, n;
  if (nb < (bidirectional ? 4 : 2))
    return -1;
  if (bidirectional) {
    nb /= 2;
    if (rel > 0)
      ret += nb;
    n = rel < 0 ? (rel == LONG_MIN ? LONG_MAX : -rel) : rel;
  } else {
    n = rel < 0 ? (rel == LONG_MIN ? LONG_MAX : -rel) : 0;
  }
  long max_exact = nb / 2;
  if (max_distance <= max_exact)
    return -1;
  if (n < max_exact)
    return ret + n;
  double v = log((double)n / (double)max_exact) /
             log((double)max_distance / (double)max_exact) * (double)(nb - max_exact);
  /* the reference truncates toward zero (.to(torch.long)); v >= 0 */
  long large = v >= (double)(nb - 1) ? nb - 1 : max_exact + (long)v;
  if (large > nb - 1)
    large = nb - 1;
  return ret + large;
}

/* DeBERTa-v2/v3 (He et al. 2021, ICLR, DeBERTa; v2 adds log buckets):
 * reference HF transformers modeling_deberta_v2.py make_log_bucket_position
 * and build_relative_position (rel = query - key), microsoft/DeBERTa
 * deberta/da_utils.py.  With mid = bucket_size/2: |rel| <= mid keeps rel;
 * beyond, sign(rel) (mid + ceil(log(|rel|/mid) / log((max_position-1)/mid)
 * * (mid - 1))), which reaches mid + mid - 1 at |rel| = max_position - 1
 * and keeps growing past it (the attention span clamps it later). */
long rl_deberta_bucket(long rel, long bucket_size, long max_position)
{
  if (bucket_size <= 0 || max_position <= 0)
    return rel;
  long mid = bucket_size / 2;
  if (mid < 1 || max_position - 1 <= mid)
    return LONG_MIN;
  long sign = rel < 0 ? -1 : 1;
  double a = fabs((double)rel);
  if (a <= (double)mid)
    return rel;
  double lp = ceil(log(a / (double)mid) / log((double)(max_position - 1) / (double)mid) *
                   (double)(mid - 1)) + (double)mid;
  return sign * (long)lp;
}

/* ALiBi (Press, Smith, Lewis 2022, ICLR, sec. 3): head h of H (a power of
 * two) has slope 2^(-8h/H), h = 1..H, the geometric sequence starting and
 * with ratio 2^(-8/H).  Other H: reference get_slopes in
 * ofirpress/attention_with_linear_biases (fairseq/models/transformer.py):
 * the c = 2^floor(log2 H) slopes of c heads, then slopes 0, 2, 4, ... of
 * 2c heads, i.e. 2^(-8(2t+1)/(2c)), t = 0..H-c-1.  exp2 of the exact
 * exponent; the reference's start*ratio**i agrees to a few ulps. */
rl_status rl_scheme_alibi_slopes(size_t heads, double *slopes)
{
  if (heads == 0)
    return RL_EINVAL;
  size_t c = 1;
  while (c * 2 <= heads)
    c *= 2;
  for (size_t h = 0; h < c; h++)
    slopes[h] = exp2(-8.0 * (double)(h + 1) / (double)c);
  for (size_t t = 0; t < heads - c; t++)
    slopes[c + t] = exp2(-8.0 * (double)(2 * t + 1) / (double)(2 * c));
  return RL_OK;
}
