/* model_f64.c: the trainer's compute in double (model_impl.h's view d),
 * from the one source model_chunk.h; model_f32.c is the float build. */
#define IMPL_REAL double
#define IMPL_TL(name) rl_tl_##name
#define IMPL_FN(name) rl_tm_##name##_d
#define IMPL_VIEW d
#define IMPL_SCR struct rl_tm_scratch_d
#include "model_chunk.h"
