/* angle.h: accurate angles m * theta_i and their cos/sin.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_ANGLE_H
#define ROPELAB_ANGLE_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Positions |m| <= RL_POS_MAX are accurate: see rl_angle_sincos. */
#define RL_POS_MAX 2147483648.0 /* 2^31 */

/* m*theta reduced to [-pi, pi], computed from the exact product of the two
 * doubles m and theta (four exact partial products in long double) and a
 * four-part 2*pi (Cody-Waite).  Absolute error below 2^-55 for
 * |m| <= RL_POS_MAX and |theta| <= 1. */
long double rl_angle_reduce(double m, double theta);

/* cos and sin of m*theta, reduced by pi/2 with the same exact products and
 * an error-free (TwoSum) accumulation; each within 0.55 ulp of the exact
 * value (measured against libquadmath by tests/base/test_angle.c).  Returns RL_ERANGE (and leaves c, s alone) when
 * |m| > RL_POS_MAX, |theta| > 1, or either is not finite. */
rl_status rl_angle_sincos(double m, double theta, double *c, double *s);

#ifdef __cplusplus
}
#endif
#endif
