/* layers.h (internal to src/core/train and its tests): one forward and
 * one backward function per layer of the trainer's decoder, in double
 * (rl_tl_*) and in float (rl_tlf_*, the same code: layers_impl.h),
 * the structure of llm.c's train_gpt2.c (Karpathy; github.com/karpathy/
 * llm.c): each forward writes preallocated activations, each backward
 * ACCUMULATES (+=) into preallocated gradients, so a layer's input
 * gradient can be summed over the paths that read it (residuals, tied
 * embeddings).  No autograd: the model (model.c) calls them in order.
 *
 * Shapes: B sequences of T positions, C channels; rows are contiguous
 * ([B][T][C]).  tests/train/test_layers.c checks every backward against
 * central finite differences of its forward. */
#ifndef RL_TRAIN_LAYERS_H
#define RL_TRAIN_LAYERS_H

#include <stddef.h>

#define RL_REAL double
#define RL_TL(name) rl_tl_##name
#include "layers_decl.h"
#undef RL_REAL
#undef RL_TL
#define RL_REAL float
#define RL_TL(name) rl_tlf_##name
#include "layers_decl.h"
#undef RL_REAL
#undef RL_TL

/* y[i] = expf(y[i]) for i < n, the C library's expf bits, eight lanes at
 * a time where they are proved the same (expf_vec.c); rl_tl_expf_lanes:
 * 1 when the lanes run, 0 for the loop of expf calls. */
void rl_tl_expf_inplace(float *y, size_t n);
int rl_tl_expf_lanes(void);

#endif
