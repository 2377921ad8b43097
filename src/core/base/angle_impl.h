/* angle_impl.h: the exact reduction of angle.c for the other angle
 * files of src/core/base (private to the core). */
#ifndef RL_ANGLE_IMPL_H
#define RL_ANGLE_IMPL_H

/* m (theta + theta_lo) = k pi/2 + (hi + lo), |hi + lo| <= pi/4 (plus the
 * rounding of k); returns k mod 4.  |m| <= 2^31, |theta| <= 1,
 * |theta_lo| <= 2^-52 (the callers check).  hi + lo is within
 * |m| 2^-115 + 2^-110 rad of the exact reduced angle: the one rounded
 * term is the long double product m theta_lo (84 bits into 64: relative
 * 2^-64 of at most |m| 2^-52); the 2 pi pieces stop at 2^-150 relative
 * (times |k| < 2^31), the product k C4/4 and the TwoSum's error sum are
 * rounded below 2^-120 (angle.c). */
int rl_angle_reduce_pio2(double m, double theta, double theta_lo, long double *hi,
                         long double *lo);

/* e^{i m (theta + theta_lo)} as double-doubles out = {cos hi, cos lo,
 * sin hi, sin lo}, for the recurrence of angle_rows.c (angle_seed.c;
 * only with binary128).  _dd: double-double polynomials after the exact
 * reduction, within |m| 2^-115 + 2^-102 per component (proof in
 * angle_seed.c); returns -1 (nothing written) if the reduced angle is
 * out of its table, which the reduction's bound excludes.  _quad: the
 * same from libquadmath's sincosq, within |m| 2^-115 + 2^-106 (ten times
 * slower; kept for checking). */
int rl_angle_seed_dd(double m, double theta, double theta_lo, double out[4]);
int rl_angle_seed_quad(double m, double theta, double theta_lo, double out[4]);

#endif
