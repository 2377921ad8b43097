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

/* Two softmaxes of disjoint streams: the one of smaller max rescaled to
 * the other's, as a new maximum rescales in rl_softmax_acc_add.  Only
 * sums of positive terms: no cancellation (retrieval.c relies on it). */
void rl_softmax_acc_merge(rl_softmax_acc *a, const rl_softmax_acc *b)
{
  if (b->s == 0 && b->max == -HUGE_VAL)
    return;
  if (a->s == 0 && a->max == -HUGE_VAL) {
    *a = *b;
    return;
  }
  if (b->max > a->max) {
    long double d = (long double)a->max - b->max, e = expl(d);
    a->t = e * (a->t + d * a->s) + b->t;
    a->s = e * a->s + b->s;
    a->max = b->max;
  } else {
    long double d = (long double)b->max - a->max, e = expl(d);
    a->t += e * (b->t + d * b->s);
    a->s += e * b->s;
  }
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
