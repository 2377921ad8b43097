/* pos_rope.c: the trainer's rope (pos_impl.h): q and k of every head
 * turned by a schedule's cos/sin table (rl_train_set_rope), so a model
 * trained with plain RoPE can be scored under PI, NTK, YaRN, ...; it
 * takes every schedule option. */
#include "pos_impl.h"

const rl_tpos rl_tpos_rope = {
    .name = "rope", .rotate = 1, .content_div = 1, .sched = RL_TPS_ALL,
    .recipe = {4, 3000, 5e-3, 0}};
