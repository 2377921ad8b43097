/* train_measures.h: the measures of a trained checkpoint as tables
 * (train_measures.c), for `profile --checkpoint F`: the computation is the
 * core's (rl_train_pos_bias, rl_train_pair_norms); this reads, calls and
 * writes. */
#ifndef RL_CLI_TRAIN_MEASURES_H
#define RL_CLI_TRAIN_MEASURES_H

#include <stddef.h>
#include "opt.h"

/* t5 and alibi: head,distance,logit for distances 0..max_T-1 (the learned
 * bias; alibi's fixed slopes); rope: layer,head,pair,theta,q_norm,k_norm
 * on `samples` examples of the training length (0: the checkpoint's
 * eval_samples) drawn from train's test seed.  An exit code. */
int rl_profile_checkpoint(const char *cmd, const char *path, const rl_common *co,
                          size_t samples);

#endif
