/* train_measures.h: the measures of a trained checkpoint as tables
 * (train_measures.c), for `profile --checkpoint F` and `extrapolate
 * --checkpoint F`: the computation is the core's (rl_train_pos_bias,
 * rl_train_pair_norms, rl_train_attention); this reads, calls and
 * writes. */
#ifndef RL_CLI_TRAIN_MEASURES_H
#define RL_CLI_TRAIN_MEASURES_H

#include <stddef.h>
#include "driver.h"
#include "opt.h"

/* t5 and alibi: head,distance,logit for distances 0..max_T-1 (the learned
 * bias; alibi's fixed slopes); rope: layer,head,pair,theta,q_norm,k_norm
 * on `samples` examples of the training length (0: the checkpoint's
 * eval_samples) drawn from train's test seed.  An exit code. */
int rl_profile_checkpoint(const char *cmd, const char *path, const rl_common *co,
                          size_t samples);

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
