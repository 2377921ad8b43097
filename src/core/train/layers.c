/* layers.c: the trainer's layers in double (rl_tl_*, layers.h), from the
 * one source layers_impl.h; layers_f32.c is the float build. */
#define IMPL_REAL double
#define IMPL_TL(name) rl_tl_##name
#include "layers_impl.h"
