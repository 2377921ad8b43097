/* layers_f32.c: the trainer's layers in float (rl_tlf_*, layers.h), from
 * the one source layers_impl.h; layers.c is the double build. */
#define IMPL_REAL float
#define IMPL_FLOAT 1
#define IMPL_TL(name) rl_tlf_##name
#include "layers_impl.h"
