/* retrieval.c: the attention probability on one planted key, a passkey
 * test that needs no training (Mohtashami and Jaggi 2023, "Landmark
 * Attention", the passkey task; here with random content and one key
 * equal to the query, so the planted logit is |q|^2 / sqrt(d) plus the
 * scheme's positional part).  The planted key replaces the random key
 * at its slot: p = e^planted / (rest + e^planted), rest the sum of
 * e^l over every other random key.
 *
 * Why rest is never formed by subtraction.  An earlier version took the
 * softmax of all the random keys (max M, s = sum e^{l - M}) and removed
 * the replaced key's term: rest = s - e^{replaced - M}.  The terms of s
 * carry rounding errors of relative size u (2^-64 for the long double
 * rescalings, 2^-53 for a term exp'd in double below the running max),
 * so rest came out with a relative error of about u s / rest, which is
 * u (1 + e^{replaced - LSE(others)}): once the replaced key dominated
 * the others by ~40 nats (e^40 = 2.4e17, u = 2^-64 = 5.4e-20) rest had
 * lost every digit, p was wrong but finite (1 where the truth was, say,
 * 0.83), and only past a spread of ~1.1e4 (expl overflow) did it become
 * 0 * inf = NaN.  Now the stream is split at the replaced keys (cuts):
 * the caller accumulates each stretch of keys between two cuts on its
 * own (segments, rl_softmax_acc), keeps the cut keys' logits, and the
 * rest of cut c is the merge of every segment and every other cut key
 * (prefix and suffix merges, O(cuts)).  Every operation adds positive
 * terms, so rest keeps the relative error of its terms (about 2^-53,
 * the double exp of entropy.c) whatever the spread, and p = 1 / (1 + z),
 * z = rest e^{M' - planted}, is within a few units of 2^-53 (relative).
 * extrap.c forms each cut's rest without rl_retrieval_rests, as its
 * prefix (the running softmax before it) merged with its suffix (the keys
 * after it in its block, then each later block merged in order): also
 * positive terms only, and the same operations whatever the other cuts,
 * so a distance's value does not depend on the other distances asked
 * (the segments between cuts made its last digits follow the list). */
#include <math.h>
#include "ropelab.h"

void rl_retrieval_rests(const rl_softmax_acc *seg, const double *cut, size_t ncut,
                        rl_softmax_acc *rest)
{
  /* forward: rest[c] = seg 0, cut 0, ..., cut c-1, seg c */
  rl_softmax_acc a = seg[0];
  for (size_t c = 0; c < ncut; c++) {
    if (c > 0) {
      rl_softmax_acc_add(&a, cut[c - 1]);
      rl_softmax_acc_merge(&a, &seg[c]);
    }
    rest[c] = a;
  }
  /* backward: b = seg c+1, cut c+1, ..., seg ncut */
  rl_softmax_acc b = seg[ncut];
  for (size_t c = ncut; c-- > 0;) {
    rl_softmax_acc_merge(&rest[c], &b);
    if (c > 0) {
      rl_softmax_acc_add(&b, cut[c]);
      rl_softmax_acc_merge(&b, &seg[c]);
    }
  }
}

double rl_retrieval_prob(const rl_softmax_acc *rest, double planted)
{
  if (!isfinite(planted))
    return NAN; /* an overflowed logit: an error for the caller */
  if (rest->s == 0 && rest->max == -HUGE_VAL)
    return 1; /* the planted key alone */
  if (!isfinite(rest->max) || !isfinite((double)rest->s))
    return NAN;
  /* s >= 1 (its largest term is 1): z overflows to inf only when
   * p < e^-11356, where 1 / (1 + inf) = 0 is p rounded to double */
  long double z = rest->s * expl((long double)rest->max - planted);
  return (double)(1 / (1 + z));
}
