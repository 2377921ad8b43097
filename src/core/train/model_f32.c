/* model_f32.c: the trainer's compute in float (model_impl.h's view f),
 * from the one source model_chunk.h; model_f64.c is the double build. */
#define IMPL_REAL float
#define IMPL_FLOAT 1
#define IMPL_TL(name) rl_tlf_##name
#define IMPL_FN(name) rl_tm_##name##_f
#define IMPL_VIEW f
#define IMPL_SCR struct rl_tm_scratch_f
#include "model_chunk.h"
