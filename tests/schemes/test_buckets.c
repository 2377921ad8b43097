/* test_buckets.c: T5 and DeBERTa buckets and ALiBi slopes against values
 * worked by hand from the papers' formulas (each derivation in a comment)
 * and the published ALiBi slopes. */
#include <limits.h>
#include <string.h>
#include "ropelab.h"
#include "tap.h"

typedef struct { long rel, want; const char *why; } kase;

int main(void)
{
  /* T5, bidirectional, 32 buckets, max_distance 128: the halves have 16
   * buckets, max_exact = 8; rel = key - query; keys after the query
   * (rel > 0) add 16.  Large n: 8 + floor(ln(n/8) / ln(16) * 8). */
  const kase t5b[] = {
      {0, 0, "n=0, lower half"},
      {1, 17, "16 + 1"},
      {-1, 1, "exact"},
      {7, 23, "16 + 7, last exact"},
      {8, 24, "16 + 8 + floor(ln 1 ...) = 24"},
      {-8, 8, "8 + 0"},
      {15, 25, "16 + 8 + floor(ln(15/8)/ln 16 * 8 = 1.81)"},
      {16, 26, "16 + 8 + floor(ln 2/ln 16 * 8 = 2): an exact edge"},
      {-16, 10, "8 + 2"},
      {-32, 12, "8 + floor(ln 4/ln 16 * 8 = 4)"},
      {64, 30, "16 + 8 + 6"},
      {127, 31, "16 + 8 + floor(7.977)"},
      {-128, 15, "8 + 8 = 16, capped at 15"},
      {1000, 31, "capped"},
      {-1000000, 15, "capped"},
  };
  for (size_t k = 0; k < sizeof t5b / sizeof *t5b; k++)
    tap_ok(rl_t5_bucket(t5b[k].rel, 1, 32, 128) == t5b[k].want,
           "t5 bidirectional rel %ld -> %ld (%s), got %ld", t5b[k].rel, t5b[k].want,
           t5b[k].why, rl_t5_bucket(t5b[k].rel, 1, 32, 128));
  /* causal: n = max(-rel, 0), 32 buckets, max_exact 16,
   * 16 + floor(ln(n/16) / ln 8 * 16) */
  const kase t5c[] = {
      {5, 0, "future keys share bucket 0"},
      {-1, 1, "exact"},
      {-15, 15, "last exact"},
      {-16, 16, "16 + 0"},
      {-32, 21, "16 + floor(ln 2/ln 8 * 16 = 5.33)"},
      {-64, 26, "16 + floor(10.67)"},
      {-127, 31, "16 + floor(ln(127/16)/ln 8 * 16 = 15.94)"},
      {-128, 31, "16 + 16 capped at 31"},
  };
  for (size_t k = 0; k < sizeof t5c / sizeof *t5c; k++)
    tap_ok(rl_t5_bucket(t5c[k].rel, 0, 32, 128) == t5c[k].want,
           "t5 causal rel %ld -> %ld (%s), got %ld", t5c[k].rel, t5c[k].want, t5c[k].why,
           rl_t5_bucket(t5c[k].rel, 0, 32, 128));
  tap_ok(rl_t5_bucket(3, 1, 3, 128) == -1, "t5 rejects 3 bidirectional buckets");
  tap_ok(rl_t5_bucket(3, 1, 32, 8) == -1, "t5 rejects max_distance <= max_exact");

  /* DeBERTa-v3, bucket_size 256, max_position 512, rel = query - key;
   * mid = 128; beyond: sign * (128 + ceil(ln(|r|/128) / ln(511/128) * 127)) */
  const kase db[] = {
      {0, 0, "identity"},
      {5, 5, "identity"},
      {-128, -128, "|rel| = mid keeps rel"},
      {129, 129, "ceil(0.714) = 1"},
      {200, 169, "ceil(ln 1.5625/ln 3.992 * 127 = 40.9) = 41"},
      {-511, -255, "log ratio 1: 128 + 127"},
      {512, 256, "ceil(127.03) = 128: past the span (clamped later)"},
      {1000, 317, "ceil(188.6) = 189"},
      {-1000, -317, "odd"},
  };
  for (size_t k = 0; k < sizeof db / sizeof *db; k++)
    tap_ok(rl_deberta_bucket(db[k].rel, 256, 512) == db[k].want,
           "deberta rel %ld -> %ld (%s), got %ld", db[k].rel, db[k].want, db[k].why,
           rl_deberta_bucket(db[k].rel, 256, 512));
  /* small: bucket_size 8, max_position 32: mid 4, ln(|r|/4)/ln(7.75)*3 */
  tap_ok(rl_deberta_bucket(10, 8, 32) == 6, "deberta(8, 32) rel 10 -> 4 + ceil(1.34) = 6");
  tap_ok(rl_deberta_bucket(-6, 8, 32) == -5, "deberta(8, 32) rel -6 -> -(4 + ceil(0.59))");
  tap_ok(rl_deberta_bucket(40, 8, 32) == 8, "deberta(8, 32) rel 40 -> 4 + ceil(3.34) = 8");
  tap_ok(rl_deberta_bucket(1234, 0, 512) == 1234, "deberta without buckets keeps rel");
  tap_ok(rl_deberta_bucket(3, 256, 100) == LONG_MIN, "deberta rejects max_position <= mid");

  /* ALiBi: published slopes for 8 heads 1/2 .. 1/256 (Press et al. 2022,
   * sec. 3); other counts by the get_slopes rule, hand-listed. */
  double s[16];
  rl_scheme_alibi_slopes(8, s);
  for (int h = 0; h < 8; h++)
    tap_ulp_close(s[h], 1.0 / (double)(2 << h), 0, "alibi 8 heads: head %d = 1/%d", h,
                  2 << h);
  const double r2 = 0.70710678118654752440; /* 2^-1/2 */
  const double w12[12] = {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125,
                          0.00390625, r2, r2 / 2, r2 / 4, r2 / 8};
  rl_scheme_alibi_slopes(12, s);
  for (int h = 0; h < 12; h++) /* exp2 of a half integer: within 1 ulp */
    tap_ulp_close(s[h], w12[h], 1, "alibi 12 heads: head %d", h);
  const double w6[6] = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
  rl_scheme_alibi_slopes(6, s);
  for (int h = 0; h < 6; h++)
    tap_ulp_close(s[h], w6[h], 0, "alibi 6 heads (4 of 4, then 8's 1st, 3rd): head %d", h);
  rl_scheme_alibi_slopes(1, s);
  tap_ulp_close(s[0], 1.0 / 256, 0, "alibi 1 head: 2^-8");
  tap_ok(rl_scheme_alibi_slopes(0, s) == RL_EINVAL, "alibi 0 heads: RL_EINVAL");

  tap_ok(strstr(RL_T5_RELPOS, "key - query") != NULL, "t5 sign convention is key - query");
  tap_ok(!strcmp(RL_DEBERTA_RELPOS, "query - key"), "deberta sign convention is query - key");
  return tap_done();
}
