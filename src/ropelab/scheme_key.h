/* scheme_key.h: a prepared key in two steps, so that a caller
 * streaming many contents through the same positions (extrapolate's
 * samples) computes what depends on the position once.
 *
 * For the schemes that have it (the additive family, xl, tupe; rope2d
 * under an exact pipeline without xPos), rl_scheme_key_state writes the
 * position's state (rl_scheme_key_state_len doubles) and
 * rl_scheme_prepare_key_from builds from it and a content x exactly the
 * bytes rl_scheme_prepare(s, head, RL_ROLE_KEY, pos, x, out) writes
 * (tests/schemes/test_scheme_key.c).  A state length of 0: no split. */
#ifndef ROPELAB_SCHEME_KEY_H
#define ROPELAB_SCHEME_KEY_H

#include <stddef.h>
#include "status.h"
#include "scheme.h"

#ifdef __cplusplus
extern "C" {
#endif

size_t rl_scheme_key_state_len(const rl_scheme *s);
/* The state of a key at pos for head: the errors of rl_scheme_prepare at
 * that position (RL_ERANGE, RL_EINVAL), RL_EINVAL when there is no split. */
rl_status rl_scheme_key_state(const rl_scheme *s, size_t head, double pos, double *st);
/* out (rl_scheme_prep_len doubles) = the key of content x with state st
 * (from rl_scheme_key_state with the same head). */
void rl_scheme_prepare_key_from(const rl_scheme *s, size_t head, const double *x,
                                const double *st, double *out);

/* For the schemes whose logit is affine in the key's content x with
 * coefficients the query sets alone (nope, t5, alibi, tupe, xl and the
 * additive family; not rope, rope2d, deberta, where the key's position
 * turns or weighs its content): a, c (d each) such that for a query
 * prepared as pq (rl_scheme_prepare, RL_ROLE_QUERY) and a key of content
 * x at any position,
 *   total = a.x + (total of the key with content 0),  cc = c.x,
 * up to rounding.  RL_EINVAL for the other schemes. */
rl_status rl_scheme_key_coef(const rl_scheme *s, size_t head, const double *pq, double *a,
                             double *c);

#ifdef __cplusplus
}
#endif
#endif
