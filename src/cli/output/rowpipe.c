/* rowpipe.c: see rowpipe.h. */
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
  int rc, ready;
  char msg[RL_ROWPIPE_MSG];
} slot;

typedef struct pipe_state {
  const rl_rowpipe *p;
  slot *slots;
  size_t nslots;
  pthread_mutex_t mu;
  pthread_cond_t filled, freed;
  size_t next;    /* next chunk to claim */
  size_t written; /* chunks written so far */
  int stop;       /* no more claims: an error, or the writer gave up */
} pipe_state;

typedef struct worker {
  pipe_state *s;
  unsigned id;
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

static void *work(void *arg)
{
  worker *wk = arg;
  pipe_state *s = wk->s;
  for (;;) {
    pthread_mutex_lock(&s->mu);
    /* chunk c goes to slot c % nslots, free once chunk c - nslots is written */
    while (!s->stop && s->next < s->p->chunks && s->next - s->written >= s->nslots)
      pthread_cond_wait(&s->freed, &s->mu);
    if (s->stop || s->next >= s->p->chunks) {
      pthread_mutex_unlock(&s->mu);
      return NULL;
    }
    size_t c = s->next++;
    pthread_mutex_unlock(&s->mu);
    slot *sl = &s->slots[c % s->nslots];
    produce(s->p, wk->id, c, sl);
    pthread_mutex_lock(&s->mu);
    sl->ready = 1;
    if (sl->rc) /* chunks before c are claimed already: they complete */
      s->stop = 1;
    pthread_cond_broadcast(&s->filled);
    pthread_mutex_unlock(&s->mu);
  }
}

/* The failing chunk's message, as the command would have printed it. */
static int report(const rl_rowpipe *p, const slot *sl)
{
  return sl->rc == RL_EXIT_USAGE ? rl_usage(p->cmd, "%s", sl->msg)
                                 : (rl_runtime(p->cmd, "%s", sl->msg), sl->rc);
}

/* Write chunk c's text; nonzero when the run must stop. */
static int emit(rl_out *out, const rl_rowpipe *p, size_t *done, const slot *sl, int *rc)
{
  rl_out_write(out, sl->text, sl->len);
  if (p->take && sl->rows && (*rc = p->take(p->ctx, out, sl->vals, sl->rows)))
    return 1;
  if (sl->rc) {
    *rc = report(p, sl);
    return 1;
  }
  *done += sl->rows;
  if (p->prog)
    rl_progress_update(p->prog, *done);
  return out->err != 0;
}

/* Every chunk on the calling thread, one slot. */
static int run_inline(rl_out *out, const rl_rowpipe *p, slot *sl)
{
  size_t done = 0;
  int rc = 0;
  for (size_t c = 0; c < p->chunks; c++) {
    produce(p, 0, c, sl);
    if (emit(out, p, &done, sl, &rc))
      break;
  }
  return rc;
}

static int alloc_slots(const rl_rowpipe *p, slot *slots, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    slots[i].vals = malloc(p->rows * p->cols * sizeof(double));
    slots[i].text = malloc(p->take ? 1 : p->rows * RL_ROW_MAX(p->cols));
    if (!slots[i].vals || !slots[i].text)
      return 0;
  }
  return 1;
}

int rl_rowpipe_run(rl_out *out, const rl_rowpipe *p)
{
  size_t workers = p->workers < 1 ? 1 : p->workers;
  if (workers > p->chunks)
    workers = p->chunks;
  if (workers > 64)
    workers = 64;
  int rc = 0;
  size_t done = 0;
  if (p->chunks == 0 || out->err) /* a failed header: rl_out_close reports it */
    return 0;
  size_t nslots = workers < 2 ? 1 : 2 * workers;
  slot *slots = calloc(nslots, sizeof *slots);
  if (!slots || !alloc_slots(p, slots, nslots)) {
    rc = rl_runtime(p->cmd, "out of memory");
    goto done;
  }
  if (workers < 2) {
    rc = run_inline(out, p, &slots[0]);
    goto done;
  }

  pipe_state s = {.p = p, .slots = slots, .nslots = nslots};
  pthread_mutex_init(&s.mu, NULL);
  pthread_cond_init(&s.filled, NULL);
  pthread_cond_init(&s.freed, NULL);
  pthread_t tid[64];
  worker wk[64];
  size_t started = 0;
  for (; started < workers; started++) {
    wk[started] = (worker){&s, (unsigned)started};
    if (pthread_create(&tid[started], NULL, work, &wk[started]))
      break;
  }
  if (started == 0) { /* no thread at all: the work is done here */
    rc = run_inline(out, p, &slots[0]);
  } else {
    /* a worker whose thread did not start is simply missing: its id is
     * never used, and the others claim every chunk */
    for (size_t c = 0; c < p->chunks; c++) {
      slot *sl = &slots[c % nslots];
      pthread_mutex_lock(&s.mu);
      while (!sl->ready)
        pthread_cond_wait(&s.filled, &s.mu);
      pthread_mutex_unlock(&s.mu);
      int halt = emit(out, p, &done, sl, &rc);
      pthread_mutex_lock(&s.mu);
      sl->ready = 0;
      s.written = c + 1;
      if (halt)
        s.stop = 1;
      pthread_cond_broadcast(&s.freed);
      pthread_mutex_unlock(&s.mu);
      if (halt)
        break;
    }
  }
  pthread_mutex_lock(&s.mu);
  s.stop = 1;
  pthread_cond_broadcast(&s.freed);
  pthread_mutex_unlock(&s.mu);
  for (size_t t = 0; t < started; t++)
    pthread_join(tid[t], NULL);
  pthread_cond_destroy(&s.freed);
  pthread_cond_destroy(&s.filled);
  pthread_mutex_destroy(&s.mu);
done:
  for (size_t i = 0; slots && i < nslots; i++) {
    free(slots[i].vals);
    free(slots[i].text);
  }
  free(slots);
  return rc;
}
