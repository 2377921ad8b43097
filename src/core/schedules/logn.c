/* logn.c: log-n attention scaling (Chiang and Cholak 2022, "Overcoming
 * a Theoretical Limitation of Self-Attention"; Su 2021, kexue.fm 8823;
 * Qwen's use_logn_attn): RoFormer's frequencies with the query scaled by
 * max(1, ln N / ln L) at current length N, so attention entropy stays
 * level past the training length L. */
#include "schedule_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  if (!(s->p.train_len >= 2)) {
    rl_sched_err(err, "invalid --train-len '%g': method 'log-n' needs L >= 2 (ln L > 0)",
                 s->p.train_len);
    return RL_EINVAL;
  }
  rl_sched_fill_plain(s, (long double)s->p.base);
  return RL_OK;
}

static double qscale(const rl_schedule *s, double len)
{
  double L = s->p.train_len;
  return len > L ? (double)(logl((long double)len) / logl((long double)L)) : 1.0;
}

const rl_schedule_type rl_sched_logn = {
    .name = "log-n", .summary = "RoPE with the query scaled by max(1, ln N / ln L)",
    .paper = "Chiang and Cholak 2022, ACL; Su 2021 (kexue.fm/archives/8823)",
    .code = "QwenLM/Qwen modeling_qwen.py logn_tensor",
    .uses = RL_SP_TRAIN_LEN | RL_SP_SEQ_LEN | RL_SP_VARIANT, .needs = RL_SP_TRAIN_LEN,
    .flags = RL_ST_PLAIN_THETA, .init = init, .qscale = qscale};
