/* rowpipe.c: see rowpipe.h.
 *
 * Why each worker writes its own chunk rather than handing it to a
 * writer thread: the text is still in the cache of the core that
 * formatted it, and the calling thread, as worker 0, makes the count of
 * threads the count of cores asked for.  A separate writer made three
 * threads on two cores, and decay on both cores spent about 20 ms more
 * CPU than on one (context switches, page faults of twice as many slots,
 * text copied from the other core's cache); see experiments/speed/README.md. */
#include <pthread.h>
#include <stdlib.h>
#include "cmd.h"
#include "opt.h"
#include "rowfmt.h"
#include "rowpipe.h"

typedef struct slot {
  double *vals;
  char *text;
  size_t len, rows;
  int rc;
  char msg[RL_ROWPIPE_MSG];
} slot;

typedef struct pipe_state {
  const rl_rowpipe *p;
  rl_out *out;
  pthread_mutex_t mu;
  pthread_cond_t turn; /* written moved on, or stop was set */
  size_t next;         /* next chunk to claim */
  size_t written;      /* chunks written so far: chunk `written` has the turn */
  int stop;            /* no more claims or writes: an error, or a failed write */
  /* touched only by the worker that has the turn */
  size_t done; /* rows written */
  int rc;      /* the run's exit code */
} pipe_state;

typedef struct worker {
  pipe_state *s;
  unsigned id;
  slot *sl;
} worker;

/* Fill and format chunk c into sl. */
static void produce(const rl_rowpipe *p, unsigned w, size_t c, slot *sl)
{
  sl->rows = 0;
  sl->msg[0] = 0;
  sl->rc = p->fill(p->ctx, w, c, sl->vals, &sl->rows, sl->msg);
  char *t = sl->text;
  if (p->take) { /* the values are the output: nothing to format */
    sl->len = 0;
    return;
  }
  for (size_t k = 0; k < sl->rows; k++)
    t += rl_row_text(t, sl->vals + k * p->cols, p->cols);
  sl->len = (size_t)(t - sl->text);
}

/* The failing chunk's message, as the command would have printed it. */
static int report(const rl_rowpipe *p, const slot *sl)
{
  return sl->rc == RL_EXIT_USAGE ? rl_usage(p->cmd, "%s", sl->msg)
                                 : (rl_runtime(p->cmd, "%s", sl->msg), sl->rc);
}

/* Write a chunk's text (the caller has the turn); nonzero when the run
 * must stop. */
static int emit(pipe_state *s, const slot *sl)
{
  const rl_rowpipe *p = s->p;
  rl_out_write(s->out, sl->text, sl->len);
  if (p->take && sl->rows && (s->rc = p->take(p->ctx, s->out, sl->vals, sl->rows)))
    return 1;
  if (sl->rc) {
    s->rc = report(p, sl);
    return 1;
  }
  s->done += sl->rows;
  if (p->prog)
    rl_progress_update(p->prog, s->done);
  return s->out->err != 0;
}

/* Claim the next chunk, make it, wait for its turn, write it; until the
 * chunks run out or the run stops.  Chunks are claimed in increasing
 * order, so the worker whose chunk has the turn is never waiting for a
 * later one: no deadlock whatever the number of workers. */
static void *work(void *arg)
{
  worker *wk = arg;
  pipe_state *s = wk->s;
  for (;;) {
    pthread_mutex_lock(&s->mu);
    if (s->stop || s->next >= s->p->chunks) {
      pthread_mutex_unlock(&s->mu);
      return NULL;
    }
    size_t c = s->next++;
    pthread_mutex_unlock(&s->mu);
    produce(s->p, wk->id, c, wk->sl);
    pthread_mutex_lock(&s->mu);
    while (!s->stop && s->written != c)
      pthread_cond_wait(&s->turn, &s->mu);
    int stopped = s->stop; /* an earlier chunk failed: this one is dropped */
    pthread_mutex_unlock(&s->mu);
    if (stopped)
      return NULL;
    int halt = emit(s, wk->sl);
    pthread_mutex_lock(&s->mu);
    s->written = c + 1;
    if (halt)
      s->stop = 1;
    pthread_cond_broadcast(&s->turn);
    pthread_mutex_unlock(&s->mu);
  }
}

int rl_rowpipe_run(rl_out *out, const rl_rowpipe *p)
{
  size_t workers = p->workers < 1 ? 1 : p->workers;
  if (workers > p->chunks)
    workers = p->chunks;
  if (workers > 64)
    workers = 64;
  if (p->chunks == 0 || out->err) /* a failed header: rl_out_close reports it */
    return 0;
  /* one slot per worker: a worker keeps its chunk until it is written */
  slot *slots = calloc(workers, sizeof *slots);
  int ok = slots != NULL;
  for (size_t i = 0; ok && i < workers; i++) {
    slots[i].vals = malloc(p->rows * p->cols * sizeof(double));
    slots[i].text = malloc(p->take ? 1 : p->rows * RL_ROW_MAX(p->cols));
    ok = slots[i].vals && slots[i].text;
  }
  int rc;
  if (!ok) {
    rc = rl_runtime(p->cmd, "out of memory");
  } else {
    pipe_state s = {.p = p, .out = out};
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.turn, NULL);
    pthread_t tid[64];
    worker wk[64];
    size_t started = 1; /* worker 0 is the calling thread */
    wk[0] = (worker){&s, 0, &slots[0]};
    /* a worker whose thread did not start is simply missing: its id is
     * never used, and the others claim every chunk */
    for (; started < workers; started++) {
      wk[started] = (worker){&s, (unsigned)started, &slots[started]};
      if (pthread_create(&tid[started], NULL, work, &wk[started]))
        break;
    }
    work(&wk[0]);
    for (size_t t = 1; t < started; t++)
      pthread_join(tid[t], NULL);
    pthread_cond_destroy(&s.turn);
    pthread_mutex_destroy(&s.mu);
    rc = s.rc;
  }
  for (size_t i = 0; slots && i < workers; i++) {
    free(slots[i].vals);
    free(slots[i].text);
  }
  free(slots);
  return rc;
}
