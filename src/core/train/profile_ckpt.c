/* profile_ckpt.c: the plan of `ropelab profile --checkpoint F`
 * (train_run.h; issue 34: the core owns it, the command parses, calls and
 * writes): which measure a trained scheme gets (--measure, else its
 * own), how many examples of which length, and the words the metadata
 * says of it. */
#include <stdio.h>
#include "ropelab.h"
#include "../base/internal.h"

static const char pair_norms_what[] =
    "mean norm of each query and key rotation pair before the rotation, over the positions of "
    "the examples (Barbero et al. 2024)";
static const char logit_what[] =
    "the attention logit before the softmax, as the model's forward computes it (content, "
    "rotation, bias and scale included), for query i and key j = i - r: mean over the queries "
    "i >= r of an example, then over the examples (logit_se: standard error)";
static const char logit_rope_what[] =
    "the attention logit before the softmax, q_i . R(j - i) k_j / sqrt(d_head) as the model's "
    "forward computes it, for query i and key j = i - r: mean over the queries i >= r of an "
    "example, then over the examples (_se: standard error); logit_norot the same with the "
    "rotation removed (R = I), so logit - logit_norot is the rotation's part";

rl_status rl_profile_checkpoint_plan(const rl_profile_settings *s, const rl_ckpt *ck,
                                     const char *path, rl_profile_ckpt_plan *p, char *err,
                                     size_t n)
{
  int pos = ck->cfg.pos, rope = rl_train_scheme_rope(pos);
  const char *bias = rl_train_scheme_bias_measure(pos), *name = rl_train_pos_names()[pos];
  const char *const *names = rl_profile_measure_names();
  if (s->set & RL_PROFILE_SET_MEASURE)
    p->measure = s->measure;
  else
    p->measure = bias ? RL_PROFILE_CK_BIAS : rope ? RL_PROFILE_CK_PAIR_NORMS : RL_PROFILE_CK_LOGIT;
  if ((p->measure == RL_PROFILE_CK_BIAS && !bias) ||
      (p->measure == RL_PROFILE_CK_PAIR_NORMS && !rope))
    return rl_errf(RL_EINVAL, err, n,
                   "invalid --measure '%s' for checkpoint '%s' (scheme %s): expected %s (bias: "
                   "t5 and alibi; pair-norms: rope; logit: every scheme)", names[p->measure], path,
                   name, bias ? "bias or logit" : rope ? "pair-norms or logit" : "logit");
  p->samples = (s->set & RL_PROFILE_SET_SAMPLES) ? s->samples : (size_t)ck->run.eval_samples;
  p->n = (size_t)ck->run.train_len;
  p->norot = p->measure == RL_PROFILE_CK_LOGIT && rope;
  p->what = p->measure == RL_PROFILE_CK_BIAS         ? bias
            : p->measure == RL_PROFILE_CK_PAIR_NORMS ? pair_norms_what
            : rope                                   ? logit_rope_what
                                                     : logit_what;
  return RL_OK;
}
