/* train_steps.c: `ropelab train`'s optimiser steps (train_steps.h): the
 * batches, the curve (-o), progress, checkpoints with their provenance,
 * the stop on divergence, and SIGINT/SIGTERM ending the run after the
 * step under way. */
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

/* The training batches' stream, apart from the initial weights' (--seed). */
#define DATA_STREAM 0x9e3779b97f4a7c15u

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

/* The stopping message of a diverged step (1-based, as the curve counts):
 * the first non-finite activation, else the first non-finite gradient. */
static int diverged(const char *cmd, const rl_train_settings *a, rl_train_model *m, size_t step,
                    double loss, double gn, int after_update)
{
  char where[128];
  if (!after_update) {
    if (rl_train_find_nonfinite(m, where, sizeof where))
      return rl_runtime(cmd, "training diverged at step %zu: loss %g, first non-finite value in %s",
                        step, loss, where);
    return rl_runtime(cmd, "training diverged at step %zu: loss %g above --max-loss %g (every activation finite)",
                      step, loss, a->max_loss);
  }
  if (rl_train_find_nonfinite_params(m, 1, where, sizeof where))
    return rl_runtime(cmd, "training diverged at step %zu: loss %g, gradient norm %g, first non-finite gradient in %s",
                      step, loss, gn, where);
  return rl_runtime(cmd, "training diverged at step %zu: loss %g, gradient norm %g", step, loss, gn);
}

/* ---- the steps --------------------------------------------------------- */

/* what the loop carries besides the job */
typedef struct loop {
  rl_out curve;
  int curve_open;
  int *inp, *tgt;
  rl_train_rng data;
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

/* the steps themselves: 0, or the exit code of a failure (printed) */
static int steps(rl_train_job *j, loop *l, double w0)
{
  const rl_train_settings *a = j->a;
  const char *cmd = j->r->name;
  size_t B = (size_t)a->batch, N = B * j->train_T, since = 0, T = j->train_T;
  size_t stop_at = a->stop_after ? j->start + a->stop_after : SIZE_MAX;
  double last = 0, sum = 0;
  int saved = 1; /* the checkpoint on disk holds the state of `step` */
  rl_adamw opt = j->ck->run.opt;
  /* test hook: parameter ROPELAB_TEST_NAN_PARAM of the one array (the
   * last by default) made NaN before step K (1-based) */
  const char *poison = getenv("ROPELAB_TEST_NAN_AT_STEP"), *pidx = getenv("ROPELAB_TEST_NAN_PARAM");
  size_t poison_at = poison ? (size_t)strtoull(poison, NULL, 10) : 0;
  size_t poison_i = pidx ? (size_t)strtoull(pidx, NULL, 10) : rl_train_nparams(j->m) - 1;
  for (; j->step < a->steps && !got_signal && j->step < stop_at; j->step++) {
    size_t step = j->step;
    if (step + 1 == poison_at && poison_i < rl_train_nparams(j->m))
      rl_train_params(j->m)[poison_i] = NAN;
    for (size_t b = 0; b < B; b++)
      rl_task_example(&j->task, &l->data, 1 + rl_train_rng_below(&l->data, a->train_len), T,
                      l->inp + b * T, l->tgt + b * T);
    double lr = rl_train_lr(step, a->steps, a->warmup, a->lr, a->min_lr);
    rl_train_zero_grad(j->m);
    double loss = j->loss = rl_train_forward(j->m, l->inp, l->tgt, B, T), gn = 0;
    int bad = !isfinite(loss) || loss > a->max_loss, after = 0;
    if (!bad) {
      rl_train_backward(j->m);
      gn = rl_train_update(j->m, &opt, lr);
      bad = after = !isfinite(gn);
    }
    if (bad) {
      if (j->show)
        fputc('\n', stderr);
      return diverged(cmd, a, j->m, step + 1, loss, gn, after);
    }
    saved = 0;
    j->tokens += N, sum += loss, since++;
    if (l->curve_open && (since == a->log_every || step + 1 == a->steps)) {
      double row[6] = {(double)(step + 1), lr, sum / (double)since, gn, (double)j->tokens,
                       now(CLOCK_MONOTONIC) - w0};
      rl_out_row(&l->curve, row, 6);
      sum = 0, since = 0;
    }
    if (!l->curve_open && since == a->log_every)
      sum = 0, since = 0;
    progress(j->show, step + 1, a->steps, j->start, loss, w0, &last);
    if (a->checkpoint && ((step + 1) % a->checkpoint_every == 0 || step + 1 == a->steps)) {
      int rc = save(cmd, a->checkpoint, j->ck, j->m, &l->data);
      if (rc)
        return rc;
      saved = 1;
    }
  }
  return a->checkpoint && !saved ? save(cmd, a->checkpoint, j->ck, j->m, &l->data) : 0;
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
  size_t N = (size_t)a->batch * j->train_T;
  l.inp = malloc(N * sizeof *l.inp), l.tgt = malloc(N * sizeof *l.tgt);
  if (!l.inp || !l.tgt) {
    free(l.inp), free(l.tgt);
    if (l.curve_open)
      rl_out_abort(&l.curve);
    return rl_runtime(j->r->name, "out of memory for the batches");
  }
  rl_train_rng_seed(&l.data, a->seed ^ DATA_STREAM);
  if (j->old)
    l.data.s = j->old->data_rng;
  double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
  struct sigaction old_sa[2];
  got_signal = 0;
  catch_stop(old_sa);
  rc = steps(j, &l, w0);
  free(l.inp), free(l.tgt);
  release_stop(old_sa);
  if (rc) {
    if (l.curve_open)
      rl_out_abort(&l.curve);
    return rc;
  }
  j->wall = now(CLOCK_MONOTONIC) - w0, j->cpu = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
  j->flops = rl_train_flops(j->m);
  if (l.curve_open && (rc = rl_out_close(&l.curve)))
    return rc;
  return j->step < a->steps ? stopped(j) : 0;
}
