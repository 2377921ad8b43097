/* check_shortest.c: the checks of test_shortest.c (shortest_check.h) on
 * as many values as asked, for experiments/check_formatter.sh; not a unit
 * test (it runs for minutes).
 *
 * usage: check_shortest COUNT [SEED [THREADS]]
 * Checks the hard cases of shortest_check.h, then COUNT values: three in
 * four random bit patterns (every binade, subnormals, both signs), one in
 * four a random decimal of 1 to 17 digits read by strtod; THREADS streams
 * (splitmix64 seeded from SEED and the thread number).  Prints one line of
 * counts per kind and "failures N"; exit 1 when N > 0. */
#include <pthread.h>
#include <time.h>
#include "shortest_check.h"

typedef struct job {
  uint64_t seed, count;
  sc_stats bits, dec;
} job;

static void *run(void *arg)
{
  job *j = arg;
  uint64_t state = j->seed;
  for (uint64_t i = 0; i < j->count; i++) {
    if (i % 4 == 3) {
      double x = sc_short_decimal(&state);
      if (x != 0.0 && isfinite(x))
        sc_check(i % 8 == 3 ? -x : x, &j->dec);
    } else {
      double x = sc_from_bits(sc_next(&state));
      if (x != 0.0 && isfinite(x))
        sc_check(x, &j->bits);
    }
  }
  return NULL;
}

static void hard(double x, void *arg, int cls)
{
  (void)cls;
  if (x != 0.0 && isfinite(x)) {
    sc_check(x, arg);
    sc_check(-x, arg);
  }
}

static uint64_t failures(const sc_stats *s)
{
  return s->bad_roundtrip + s->bad_short + s->bad_closest + s->bad_layout + s->bad_len +
         s->legacy_diff_bad;
}

static void line(const char *what, const sc_stats *s)
{
  printf("%-22s %12llu values, failures %llu (roundtrip %llu shortest %llu closest %llu "
         "layout %llu length %llu), differ from the %%.15g..17g search %llu (far neighbour "
         "%llu)\n",
         what, (unsigned long long)s->n, (unsigned long long)failures(s),
         (unsigned long long)s->bad_roundtrip, (unsigned long long)s->bad_short,
         (unsigned long long)s->bad_closest, (unsigned long long)s->bad_layout,
         (unsigned long long)s->bad_len, (unsigned long long)s->legacy_diff,
         (unsigned long long)s->other_side);
  if (s->any_bad)
    printf("  first failure: %a\n", s->first_bad);
}

static void add(sc_stats *a, const sc_stats *b)
{
  a->n += b->n;
  a->bad_roundtrip += b->bad_roundtrip;
  a->bad_short += b->bad_short;
  a->bad_closest += b->bad_closest;
  a->bad_layout += b->bad_layout;
  a->bad_len += b->bad_len;
  a->legacy_diff += b->legacy_diff;
  a->legacy_diff_bad += b->legacy_diff_bad;
  a->other_side += b->other_side;
  for (int d = 0; d < 18; d++)
    a->digits[d] += b->digits[d];
  if (b->any_bad && !a->any_bad)
    a->any_bad = 1, a->first_bad = b->first_bad;
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: check_shortest COUNT [SEED [THREADS]]\n");
    return 2;
  }
  uint64_t count = strtoull(argv[1], NULL, 10);
  uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  int nt = argc > 3 ? atoi(argv[3]) : 2;
  if (nt < 1 || nt > 64)
    nt = 1;
  sc_stats hs = {0};
  sc_hard_cases(seed, hard, &hs);
  line("hard cases", &hs);
  fflush(stdout);
  job jobs[64];
  pthread_t tid[64];
  for (int t = 0; t < nt; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t].seed = seed * UINT64_C(0x100000001B3) + (uint64_t)t * UINT64_C(0x9E3779B97F4A7C15);
    jobs[t].count = count / (uint64_t)nt + ((uint64_t)t < count % (uint64_t)nt);
    if (t && pthread_create(&tid[t], NULL, run, &jobs[t]))
      return 3;
  }
  run(&jobs[0]);
  for (int t = 1; t < nt; t++)
    pthread_join(tid[t], NULL);
  sc_stats bits = {0}, dec = {0};
  for (int t = 0; t < nt; t++) {
    add(&bits, &jobs[t].bits);
    add(&dec, &jobs[t].dec);
  }
  line("random bit patterns", &bits);
  line("random short decimals", &dec);
  uint64_t f = failures(&hs) + failures(&bits) + failures(&dec);
  printf("values %llu\nfailures %llu\n", (unsigned long long)(hs.n + bits.n + dec.n),
         (unsigned long long)f);
  return f ? 1 : 0;
}
