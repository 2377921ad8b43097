/* pipe.h: what the precision module offers the rest of the core, not
 * the public API: a schedule owns its pipeline's private state (s->pipe,
 * struct rl_pipe in precision_impl.h, which only the pipeline files read)
 * and frees it with the schedule. */
#ifndef RL_PRECISION_PIPE_H
#define RL_PRECISION_PIPE_H

struct rl_pipe;
/* p's memory; NULL is a no-op. */
void rl_pipe_free(struct rl_pipe *p);

#endif
