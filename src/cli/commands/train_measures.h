/* train_measures.h: the measures of a trained checkpoint as tables
 * (train_measures.c), for `profile --checkpoint F` and `extrapolate
 * --checkpoint F`: the computation is the core's (rl_train_pos_bias,
 * rl_train_pair_norms, rl_train_logit_dist, rl_train_attention); this
 * reads, calls and
 * writes. */
#ifndef RL_CLI_TRAIN_MEASURES_H
#define RL_CLI_TRAIN_MEASURES_H

#include <stddef.h>
#include "driver.h"
#include "opt.h"

/* profile --checkpoint F (s's checkpoint, its options checked), the
 * measure of the core's plan (rl_profile_checkpoint_plan): bias (t5, alibi),
 * head,distance,logit for distances 0..max_T-1; pair-norms (rope),
 * layer,head,pair,theta,q_norm,k_norm; logit (every scheme),
 * layer,head,distance,logit,logit_se (rope: and logit_norot,
 * logit_norot_se) by rl_train_logit_dist; both on the plan's examples of
 * the training length drawn from train's test seed.  An exit code. */
int rl_profile_checkpoint(const char *cmd, const rl_profile_settings *s, const rl_common *co);

/* extrapolate --checkpoint F (r's settings an rl_extrap_settings, its
 * options checked): L the checkpoint's train_len, N its eval_len unless
 * --eval-len (at most 1024), the lengths of the core's plan
 * (rl_extrap_plan) unless --lengths; per length, layer and head the
 * attention entropy and the attention weight per distance
 * (rl_train_attention) on --samples examples (default the checkpoint's
 * eval_samples) from train's test seed:
 * scheme,layer,head,measure,stat,len,tokens,r,value,se.  An exit code. */
int rl_extrapolate_checkpoint(rl_cmd_run *r);

#endif
