/* entropy.c: the entropy of an attention distribution, H = -sum p ln p
 * with p = softmax(l), from a softmax accumulated one logit at a time.
 * With M the running maximum, s = sum e^{l - M}, t = sum e^{l - M}
 * (l - M): p_j = e^{l_j - M} / s, so H = -sum p_j (l_j - M - ln s) =
 * ln s - t / s.  A new maximum M' rescales the sums: s' = e^{M - M'} s,
 * t' = e^{M - M'} (t + (M - M') s) (the rescaling of Milakov and
 * Gimelshein 2018, "Online normalizer calculation for softmax", that
 * FlashAttention uses).  Sums in long double: n terms of relative error
 * eps each leave H within about n 2^-64 ln n. */
#include <math.h>
#include "ropelab.h"

void rl_softmax_acc_init(rl_softmax_acc *a)
{
  a->max = -HUGE_VAL;
  a->s = 0;
  a->t = 0;
}

void rl_softmax_acc_add(rl_softmax_acc *a, double l)
{
  if (l > a->max) {
    if (a->s > 0) {
      long double d = (long double)a->max - l, e = expl(d);
      a->t = e * (a->t + d * a->s);
      a->s = e * a->s;
    }
    a->max = l;
  }
  long double d = (long double)l - a->max, e = exp((double)d);
  a->s += e;
  a->t += e * d;
}

double rl_entropy_acc(const rl_softmax_acc *a)
{
  if (!(a->s > 0))
    return 0;
  double h = (double)(logl(a->s) - a->t / a->s);
  return h > 0 ? h : 0; /* H >= 0; rounding may leave -1e-19 */
}

double rl_entropy_logits(const double *l, size_t n)
{
  rl_softmax_acc a;
  rl_softmax_acc_init(&a);
  for (size_t j = 0; j < n; j++)
    rl_softmax_acc_add(&a, l[j]);
  return rl_entropy_acc(&a);
}
