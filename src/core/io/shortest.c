/* shortest.c: the shortest decimal that reads back as a double, by the
 * Schubfach method: R. Giulietti, "The Schubfach way to render doubles"
 * (2020, revised 2022), written here from the paper's description.
 *
 * x = c 2^q (c an integer below 2^53).  Every real in the rounding
 * interval R of x reads back as x: R runs from half-way to the previous
 * double to half-way to the next, both ends included when c is even
 * (strtod rounds ties to even).  In units of 2^(q-2):
 *   x = 4c,  upper end 4c + 2,  lower end 4c - 2, or 4c - 1 when c = 2^52
 *   and x is not the smallest normal (the gap below is then half the gap
 *   above: the "irregular" case).
 * Scaling by 10^-k with k = floor(log10 of the gap) (of 3/4 of it when
 * irregular) makes R's width w in [1, 10): so R holds at most one
 * multiple of 10 and at least one integer.  Then (paper, sec. 9):
 *   - a multiple of 10 in R is the unique decimal of one digit fewer, so
 *     it is the shortest;
 *   - otherwise the shortest decimals are the integers in R, of which
 *     s = floor(x 10^-k) and s + 1 are the two closest to x: whichever of
 *     them lies in R, the closer when both do (ties: the even one).
 * The products x 10^-k etc. need not be exact: what matters is how they
 * compare with even integers (the tests above are all of that form), and
 * that is kept by rounding to odd: keep the integer part, set its lowest
 * bit when the fraction is not 0.  The paper shows that an over-estimate
 * g of 10^-k to 126 bits keeps every such comparison exact for binary64:
 * the fraction of a product that is not an integer is never within the
 * approximation error of 0 or 1.  Here g has 128 bits (pow10.h, made by
 * gen_pow10.py) and the product is exact, so the error is smaller still
 * (below 2^-69 of a unit, while the fraction test looks at 2^-64).
 *
 * tests/io/test_shortest.c checks every result against glibc's printf and
 * strtod; experiments/check_formatter.sh does so for 10^8 values and more. */
#include <string.h>
#include "shortest.h"
#include "pow10.h"

/* floor(a / 2^s) for a negative a too (>> of a negative int is
 * implementation-defined in C) */
static inline int floor_shift(int a, int s)
{
  return a >= 0 ? a >> s : -((-a + (1 << s) - 1) >> s);
}

/* The formulas below are checked exactly by gen_pow10.py over the
 * exponent ranges used (q in [-1074, 971], e in [-292, 324]). */
static inline int floor_log10_pow2(int q) /* floor(q log10 2) */
{
  return floor_shift(q * 315653, 20);
}

static inline int floor_log10_3q_pow2(int q) /* floor(log10(3/4 2^q)) */
{
  return floor_shift(q * 315653 - 131237, 20);
}

static inline int floor_log2_pow10(int e) /* floor(e log2 10) */
{
  return floor_shift(e * 1741647, 19);
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128; /* GCC, Clang: not ISO C */
#endif

/* The high 64 bits of a * b and the low 64 bits. */
static inline uint64_t mul64(uint64_t a, uint64_t b, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
  u128 p = (u128)a * b;
  *lo = (uint64_t)p;
  return (uint64_t)(p >> 64);
#else
  uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  *lo = (mid << 32) | (p00 & 0xffffffffu);
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* cp g / 2^128 rounded to odd: the integer part, with its lowest bit set
 * when the fraction's top 64 bits are not all 0.  cp < 2^60, g < 2^128:
 * the integer part fits 60 bits. */
static inline uint64_t round_odd(uint64_t ghi, uint64_t glo, uint64_t cp)
{
  uint64_t l0, h0 = mul64(cp, glo, &l0); /* cp glo = h0 2^64 + l0 */
  uint64_t l1, h1 = mul64(cp, ghi, &l1); /* cp ghi = h1 2^64 + l1 */
  (void)l0;                              /* the fraction's low word */
  uint64_t frac = l1 + h0;               /* the fraction's high word */
  uint64_t ipart = h1 + (frac < h0);     /* with the carry */
  return ipart | (frac != 0);
}

void rl_shortest(double x, uint64_t *d, int *e)
{
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  uint64_t t = bits & ((UINT64_C(1) << 52) - 1);
  int be = (int)((bits >> 52) & 0x7ff);
  uint64_t c;
  int q, irregular = 0;
  if (be) { /* normal */
    c = t | (UINT64_C(1) << 52);
    q = be - 1075;
    irregular = t == 0 && be > 1;
  } else { /* subnormal: the spacing is that of the smallest normals */
    c = t;
    q = -1074;
  }
  uint64_t out = c & 1; /* 1: R's ends are excluded */
  uint64_t cb = c << 2, cbr = cb + 2, cbl = irregular ? cb - 1 : cb - 2;
  int k = irregular ? floor_log10_3q_pow2(q) : floor_log10_pow2(q);
  /* 10^-k = g 2^(floor(log2 10^-k) - 127), so X 2^q 10^-k = (X << h) g / 2^128 */
  int h = q + floor_log2_pow10(-k) + 1; /* in [1, 4] */
  const uint64_t *g = rl_pow10_g[-k - RL_POW10_EMIN];
  uint64_t vb = round_odd(g[0], g[1], cb << h);
  uint64_t vbl = round_odd(g[0], g[1], cbl << h);
  uint64_t vbr = round_odd(g[0], g[1], cbr << h);
  /* vb, vbl, vbr: 4 x 10^-k and R's ends, in quarters, rounded to odd */
  uint64_t s = vb >> 2;
  uint64_t s10 = s / 10, sp10 = s10 * 10, tp10 = sp10 + 10;
  int lo10 = vbl + out <= sp10 << 2, hi10 = (tp10 << 2) + out <= vbr;
  /* The integers s, s + 1: whichever lies in R, the closer to x when
   * both do (compared with the midpoint 4s + 2; ties: the even one).
   * Which case applies is close to random from one value to the next,
   * so every case is computed and the choice made by arithmetic: a
   * mispredicted branch costs more. */
  uint64_t s1 = s + 1, mid = (s << 2) + 2;
  int lo_s = vbl + out <= s << 2, hi_s1 = (s1 << 2) + out <= vbr;
  int closer_s = (vb < mid) | ((vb == mid) & (int)!(s & 1));
  uint64_t m = s1 - (uint64_t)(lo_s & ((!hi_s1) | closer_s));
  /* A multiple of ten in R (at most one: R is narrower than 10) is the
   * unique decimal of one digit fewer, so it is the shortest: its digits
   * are those of s10 or s10 + 1 (an integer in R otherwise, m, is not a
   * multiple of ten, or it would be that one). */
  int use10 = lo10 != hi10;
  uint64_t m10 = s10 + (uint64_t)!lo10;
  m = use10 ? m10 : m;
  k += use10;
  /* further trailing zeros off (at most 15), largest steps first; rare,
   * so one test for a last zero guards them all (a branch that is
   * nearly never taken costs less than the four other remainders) */
  if (m % 10 == 0) {
    if (m % 100000000 == 0)
      m /= 100000000, k += 8;
    if (m % 10000 == 0)
      m /= 10000, k += 4;
    if (m % 100 == 0)
      m /= 100, k += 2;
    if (m % 100 == 0)
      m /= 100, k += 2;
    if (m % 10 == 0)
      m /= 10, k += 1;
  }
  *d = m;
  *e = k;
}
