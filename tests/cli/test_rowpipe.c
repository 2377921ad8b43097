/* test_rowpipe.c: the ordered worker pipeline of the row-writing
 * commands (src/cli/output/rowpipe.c).
 *
 * Every row's values are a function of its index alone, (i, i/7, -i*1e-3)
 * for the i-th row of the whole run, so the expected file is known
 * without the pipeline: each line read back with strtod must give the
 * next i, in order, with nothing missing or repeated (the formatter's
 * round trip is tested elsewhere, tests/io).  Checked with 1, 2, 3 and 8
 * workers, chunks of uneven size (the last one short), and a fill that
 * fails part-way through a chunk: the rows before the failing one are
 * written, none after, and the failing code is returned.  While the
 * fills run, a worker's calls must never overlap (they share its
 * workspace) and worker ids stay below the number of workers. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "cmd.h"
#include "rowpipe.h"

enum { CHUNKS = 37, ROWS = 50, LAST = 13, MAXW = 8 };

typedef struct ctx {
  unsigned workers;
  size_t fail_chunk, fail_row; /* SIZE_MAX: never */
  pthread_mutex_t mu;
  int busy[MAXW];
  int overlap, bad_id;
} ctx;

static int fill(void *arg, unsigned w, size_t c, double *vals, size_t *rows, char *msg)
{
  ctx *x = arg;
  pthread_mutex_lock(&x->mu);
  if (w >= x->workers)
    x->bad_id = 1;
  else if (x->busy[w]++)
    x->overlap = 1;
  pthread_mutex_unlock(&x->mu);
  size_t n = c + 1 == CHUNKS ? LAST : ROWS, k;
  int rc = 0;
  for (k = 0; k < n; k++) {
    if (c == x->fail_chunk && k == x->fail_row) {
      snprintf(msg, RL_ROWPIPE_MSG, "made to fail at chunk %zu row %zu", c, k);
      rc = RL_EXIT_RUNTIME;
      break;
    }
    double i = (double)(c * ROWS + k);
    vals[3 * k] = i;
    vals[3 * k + 1] = i / 7;
    vals[3 * k + 2] = -i * 1e-3;
  }
  *rows = k;
  pthread_mutex_lock(&x->mu);
  if (w < x->workers)
    x->busy[w]--;
  pthread_mutex_unlock(&x->mu);
  return rc;
}

/* Lines of fp that read back as rows 0, 1, 2, ...; the count, or -1 at
 * the first line out of order or wrong. */
static long rows_in_order(FILE *fp)
{
  char line[256];
  long i = 0;
  rewind(fp);
  while (fgets(line, sizeof line, fp)) {
    char *p = line, *e;
    double v[3];
    for (int j = 0; j < 3; j++) {
      v[j] = strtod(p, &e);
      if (e == p || *e != (j < 2 ? ',' : '\n'))
        return -1;
      p = e + 1;
    }
    double want = (double)i;
    if (v[0] != want || v[1] != want / 7 || v[2] != -want * 1e-3)
      return -1;
    i++;
  }
  return i;
}

static void run(unsigned workers, size_t fail_chunk, size_t fail_row)
{
  ctx x = {.workers = workers, .fail_chunk = fail_chunk, .fail_row = fail_row};
  pthread_mutex_init(&x.mu, NULL);
  rl_out out = {.cmd = "test", .fp = tmpfile()};
  if (!out.fp) {
    tap_ok(0, "tmpfile");
    return;
  }
  rl_rowpipe p = {.cmd = "test", .chunks = CHUNKS, .rows = ROWS, .cols = 3,
                  .workers = workers, .fill = fill, .ctx = &x};
  int rc = rl_rowpipe_run(&out, &p);
  fflush(out.fp);
  long want = fail_chunk == SIZE_MAX ? (long)((CHUNKS - 1) * ROWS + LAST)
                                     : (long)(fail_chunk * ROWS + fail_row);
  long got = rows_in_order(out.fp);
  int want_rc = fail_chunk == SIZE_MAX ? 0 : RL_EXIT_RUNTIME;
  tap_ok(got == want, "%u workers, fail at chunk %ld: %ld rows in order (want %ld)", workers,
         fail_chunk == SIZE_MAX ? -1L : (long)fail_chunk, got, want);
  tap_ok(rc == want_rc, "%u workers: exit code %d (want %d)", workers, rc, want_rc);
  tap_ok(!x.overlap && !x.bad_id, "%u workers: a worker's fills never overlap, ids < %u",
         workers, workers);
  fclose(out.fp);
  pthread_mutex_destroy(&x.mu);
}

/* A stream that fills up after 1000 bytes (fmemopen, unbuffered): the
 * first failed write stops the run, whatever the number of workers, and
 * is left in out.err (returned 0: rl_out_close reports it); no worker
 * is left waiting. */
static void run_full(unsigned workers)
{
  static char mem[1000];
  ctx x = {.workers = workers, .fail_chunk = SIZE_MAX};
  pthread_mutex_init(&x.mu, NULL);
  rl_out out = {.cmd = "test", .fp = fmemopen(mem, sizeof mem, "w")};
  if (!out.fp) {
    tap_skip("fmemopen failed");
    return;
  }
  setvbuf(out.fp, NULL, _IONBF, 0);
  rl_rowpipe p = {.cmd = "test", .chunks = CHUNKS, .rows = ROWS, .cols = 3,
                  .workers = workers, .fill = fill, .ctx = &x};
  int rc = rl_rowpipe_run(&out, &p);
  tap_ok(rc == 0 && out.err != 0, "%u workers, stream full: returns %d, out.err %d", workers,
         rc, out.err);
  /* and with the error already there (a failed header), nothing runs */
  x.fail_chunk = 0, x.fail_row = 0; /* a fill would fail: it must not be called */
  rc = rl_rowpipe_run(&out, &p);
  tap_ok(rc == 0, "%u workers, error before the run: no fill called (%d)", workers, rc);
  fclose(out.fp);
  pthread_mutex_destroy(&x.mu);
}

int main(void)
{
  const unsigned ws[] = {1, 2, 3, 8};
  for (size_t i = 0; i < sizeof ws / sizeof *ws; i++) {
    run(ws[i], SIZE_MAX, 0);
    run(ws[i], 20, 17); /* in the middle of a chunk */
    run(ws[i], 0, 0);   /* nothing written at all */
    run(ws[i], CHUNKS - 1, LAST - 1);
    run_full(ws[i]);
  }
  return tap_done();
}
