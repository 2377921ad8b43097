/* train_steps.c: `ropelab train`'s optimiser steps (train_steps.h): the
 * procedure is the core's (rl_train_run_steps: the batches, the lr, the
 * divergence rule, the cadences); here what it writes and shows: the
 * curve (-o), progress, checkpoints with their provenance, and
 * SIGINT/SIGTERM ending the run after the step under way. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "msg.h"
#include "rl_config.h"
#include "train_steps.h"

static double now(clockid_t id)
{
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* start: the step this process began at (a resumed run's ETA counts the
 * steps it ran itself) */
static void progress(int on, size_t step, size_t steps, size_t start, double loss, double t0,
                     double *last)
{
  double t = now(CLOCK_MONOTONIC);
  if (!on || (step < steps && t - *last < 0.25))
    return;
  *last = t;
  size_t done = step - start;
  double el = t - t0, eta = done ? el * (double)(steps - step) / (double)done : 0;
  fprintf(stderr, "\rropelab train: step %zu/%zu (%3d%%) loss %.4f, %.0f s, ETA %.0f s   ", step,
          steps, (int)(100.0 * (double)step / (double)steps), loss, el, eta);
  if (step == steps)
    fputc('\n', stderr);
  fflush(stderr);
}

/* ---- interruption ------------------------------------------------------ */

/* While the steps run, SIGINT and SIGTERM only note the signal; the loop
 * ends after the step under way (a step is never half applied). */
static volatile sig_atomic_t got_signal;
static void on_stop(int sig) { got_signal = sig; }
static const int stop_sigs[2] = {SIGINT, SIGTERM};

static void catch_stop(struct sigaction old[2])
{
  for (int i = 0; i < 2; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(stop_sigs[i], NULL, &old[i]);
    /* a signal ignored by the parent (nohup, a background job) stays so */
    if (old[i].sa_handler != SIG_IGN)
      sigaction(stop_sigs[i], &sa, NULL);
  }
}

static void release_stop(const struct sigaction old[2])
{
  for (int i = 0; i < 2; i++)
    sigaction(stop_sigs[i], &old[i], NULL);
}

/* ---- checkpoints ------------------------------------------------------- */

static int save(const char *cmd, const char *path, rl_ckpt *ck, rl_train_model *m,
                const rl_train_rng *data)
{
  char err[RL_ERR_MAX] = "";
  ck->data_rng = data->s;
  const char *kill_after = getenv("ROPELAB_TEST_CKPT_KILL_AFTER");
  ck->test_kill_after = kill_after ? strtoull(kill_after, NULL, 10) : 0;
  rl_status st = rl_ckpt_write(path, ck, m, err);
  if (st == RL_ENOMEM)
    return rl_runtime(cmd, "out of memory for the checkpoint");
  return st ? rl_runtime(cmd, "%s", err) : 0;
}

static void provenance(rl_ckpt *ck, const rl_train_settings *a, const char *started,
                       uint64_t resumed_at)
{
  char date[32], *line = rl_out_command_line();
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  int k = snprintf(ck->prov, sizeof ck->prov,
                   "version=%s\ndate=%s\nstarted=%s\nseed=%llu\nthreads=%llu\nblas=%s\n"
                   "blas_core=%s\n",
                   RL_VERSION, date, started ? started : date, (unsigned long long)a->seed,
                   (unsigned long long)ck->run.threads, rl_train_blas_name(), rl_train_blas_core());
  if (resumed_at && k > 0 && (size_t)k < sizeof ck->prov)
    k += snprintf(ck->prov + k, sizeof ck->prov - (size_t)k, "resumed_at_step=%llu\n",
                  (unsigned long long)resumed_at);
  /* the command line last: cut to fit, one line */
  if (k > 0 && (size_t)k < sizeof ck->prov && line) {
    for (char *c = line; *c; c++)
      if (*c == '\n')
        *c = ' ';
    snprintf(ck->prov + k, sizeof ck->prov - (size_t)k, "command=%.*s\n",
             (int)(sizeof ck->prov - (size_t)k - 10), line);
  }
  free(line);
}

/* ---- the steps --------------------------------------------------------- */

/* what the loop carries besides the job */
typedef struct loop {
  rl_train_job *j;
  rl_out curve;
  int curve_open;
  double w0, last; /* the steps' start; the last progress shown */
} loop;

/* -o: the training curve (not under a sweep, whose -o is its table) */
static int curve_open(rl_train_job *j, loop *l)
{
  const rl_common *co = &j->r->co;
  if (!co->output || rl_out_hooked())
    return 0;
  int rc = rl_out_open(&l->curve, j->r->name, co->output, co->meta, co->header);
  if (rc)
    return rc;
  l->curve_open = 1;
  rl_train_job_meta(&l->curve, j);
  if (j->start)
    rl_out_meta_uint(&l->curve, "resumed_at_step", j->start);
  rl_out_header(&l->curve, "step,lr,loss,grad_norm,tokens,wall_s");
  return 0;
}

/* the core's callbacks (rl_train_run_steps): the curve's row, the
 * progress, the checkpoint, the signal */
static void on_row(void *ctx, const rl_train_step_row *w)
{
  loop *l = ctx;
  double row[6] = {(double)w->step, w->lr, w->loss, w->grad_norm, (double)w->tokens,
                   now(CLOCK_MONOTONIC) - l->w0};
  rl_out_row(&l->curve, row, 6);
}

static void on_progress(void *ctx, size_t step, double loss)
{
  loop *l = ctx;
  progress(l->j->show, step, l->j->a->steps, l->j->start, loss, l->w0, &l->last);
}

static int on_save(void *ctx, const rl_train_rng *data)
{
  loop *l = ctx;
  return save(l->j->r->name, l->j->a->checkpoint, l->j->ck, l->j->m, data);
}

static int on_stop_asked(void *ctx)
{
  (void)ctx;
  return got_signal != 0;
}

/* the steps themselves, by the core: 0, or the exit code of a failure
 * (printed) */
static int steps(rl_train_job *j, loop *l)
{
  const rl_train_settings *a = j->a;
  rl_train_steps s = {0};
  s.m = j->m, s.task = &j->task, s.train_len = a->train_len, s.train_T = j->train_T;
  s.batch = (size_t)a->batch, s.steps = a->steps, s.warmup = a->warmup;
  s.log_every = a->log_every, s.checkpoint_every = a->checkpoint_every;
  s.stop_after = a->stop_after, s.lr = a->lr, s.min_lr = a->min_lr, s.max_loss = a->max_loss;
  s.opt = j->ck->run.opt, s.start = j->start, s.step = j->step, s.tokens = j->tokens;
  rl_train_steps_data(&s.data, a->seed);
  if (j->old)
    s.data.s = j->old->data_rng;
  /* test hook: parameter ROPELAB_TEST_NAN_PARAM of the one array (the
   * last by default) made NaN before step K (1-based) */
  const char *poison = getenv("ROPELAB_TEST_NAN_AT_STEP"), *pidx = getenv("ROPELAB_TEST_NAN_PARAM");
  s.poison_at = poison ? (size_t)strtoull(poison, NULL, 10) : 0;
  s.poison_i = pidx ? (size_t)strtoull(pidx, NULL, 10) : rl_train_nparams(j->m) - 1;
  s.ctx = l, s.row = l->curve_open ? on_row : NULL, s.progress = on_progress;
  s.save = a->checkpoint ? on_save : NULL, s.stop = on_stop_asked;
  char err[RL_ERR_MAX] = "";
  int cb = 0;
  rl_status st = rl_train_run_steps(&s, &cb, err);
  j->step = s.step, j->tokens = s.tokens, j->loss = s.loss;
  if (st == RL_ENOMEM)
    return rl_runtime(j->r->name, "out of memory for the batches");
  if (st) {
    if (j->show)
      fputc('\n', stderr);
    return rl_runtime(j->r->name, "%s", err);
  }
  return cb;
}

/* interrupted, or --stop-after: the checkpoint holds `step` steps */
static int stopped(const rl_train_job *j)
{
  const rl_train_settings *a = j->a;
  if (j->show)
    fputc('\n', stderr);
  if (got_signal) {
    fprintf(stderr, "ropelab train: interrupted by %s after step %zu%s%s%s\n",
            got_signal == SIGINT ? "SIGINT" : "SIGTERM", j->step,
            a->checkpoint ? "; checkpoint '" : "", a->checkpoint ? a->checkpoint : "",
            a->checkpoint ? "' holds it (resume with --resume)" : "");
    return 128 + (int)got_signal;
  }
  if (j->r->co.progress != RL_PROGRESS_QUIET)
    fprintf(stderr, "ropelab train: stopped after step %zu (--stop-after); checkpoint '%s' holds it\n",
            j->step, a->checkpoint);
  return 0;
}

int rl_train_steps_run(rl_train_job *j)
{
  const rl_train_settings *a = j->a;
  const rl_common *co = &j->r->co;
  char started[64] = "";
  if (j->old) {
    j->start = j->step = (size_t)j->old->step;
    rl_ckpt_text_get(j->old->prov, "started", started, sizeof started);
  }
  provenance(j->ck, a, started[0] ? started : NULL, j->start);
  j->show = co->progress == RL_PROGRESS_FORCE || (co->progress == RL_PROGRESS_AUTO && isatty(2));
  loop l = {0};
  int rc = curve_open(j, &l);
  if (rc)
    return rc;
  l.j = j;
  l.w0 = now(CLOCK_MONOTONIC);
  double c0 = now(CLOCK_PROCESS_CPUTIME_ID);
  struct sigaction old_sa[2];
  got_signal = 0;
  catch_stop(old_sa);
  rc = steps(j, &l);
  release_stop(old_sa);
  if (rc) {
    if (l.curve_open)
      rl_out_abort(&l.curve);
    return rc;
  }
  j->wall = now(CLOCK_MONOTONIC) - l.w0, j->cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
  j->flops = rl_train_flops(j->m);
  if (l.curve_open && (rc = rl_out_close(&l.curve)))
    return rc;
  return j->step < a->steps ? stopped(j) : 0;
}
