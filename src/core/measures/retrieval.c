/* retrieval.c: the attention probability on one planted key, a passkey
 * test that needs no training (Mohtashami and Jaggi 2023, "Landmark
 * Attention", the passkey task; here with random content and one key
 * equal to the query, so the planted logit is |q|^2 / sqrt(d) plus the
 * scheme's positional part).  The planted key replaces the random key
 * at its slot: with the accumulated softmax a (entropy.c) of every
 * random key, p = e^planted / (s e^M - e^replaced + e^planted), written
 * as 1 / (1 + rest e^{M - planted}), rest = s - e^{replaced - M}, so that
 * no exponential overflows.  rest loses bits when the replaced key
 * dominated the sum: with sums in long double the absolute error of p
 * stays below 2^-63 s / (rest + e^{planted - M}). */
#include <math.h>
#include "ropelab.h"

double rl_retrieval_prob(const rl_softmax_acc *a, double replaced, double planted)
{
  long double rest = a->s - expl((long double)replaced - a->max);
  if (rest < 0)
    rest = 0;
  long double z = rest * expl((long double)a->max - planted);
  return (double)(1 / (1 + z));
}
