/* file.c: frequencies read from a user's CSV (a column theta, one row per
 * pair; an optional pair column must count 0, 1, ...; a line
 * "# attention_factor=X" sets the attention factor): any schedule a user
 * has can be analysed.  The output of `ropelab freqs` is such a file. */
#include <stdio.h>
#include "../base/internal.h"
#include "schedule_impl.h"

enum { FREQS_FILE }; /* its own parameter's slot */

static rl_status init(rl_schedule *s, char *err)
{
  const rl_schedule_params *p = &s->p;
  const char *path = p->own[FREQS_FILE].s;
  static const char *const cols[] = {"theta", "pair"};
  rl_csv_table t;
  char msg[RL_ERR_MAX - 24];
  if (!path) /* rl_schedule_alloc's placeholder type */
    return RL_OK;
  rl_status st = rl_csv_read(path, cols, 2, 2u, "attention_factor", &t, msg, sizeof msg);
  if (st) {
    rl_sched_err(err, "invalid --freqs-file: %s", msg);
    return st;
  }
  if (t.rows != s->n) {
    rl_sched_err(err, "invalid --freqs-file '%s': %zu frequencies, expected rot/2 = %zu (give "
                      "--dim and --rot to match the file)", path, t.rows, s->n);
    rl_csv_free(&t);
    return RL_EFORMAT;
  }
  for (size_t i = 0; i < s->n && !st; i++) {
    double th = t.data[2 * i], pr = t.present[1] ? t.data[2 * i + 1] : (double)i;
    if (pr != (double)i || !(th >= 0 && th <= 1)) {
      rl_sched_err(err, "invalid --freqs-file '%s': row %zu has pair %g, theta %g: expected "
                        "pairs 0.. in order and 0 <= theta <= 1", path, i + 1, pr, th);
      st = RL_EFORMAT;
    }
    s->theta[i] = th;
  }
  if (!st && t.has_meta)
    s->attn = t.meta;
  if (!st && (p->set & RL_SP_ATTN))
    s->attn = p->attention_factor;
  rl_csv_free(&t);
  return st;
}

static const rl_param p_freqs_file = {
    .key = "freqs-file", .kind = RL_PK_TEXT,
    .flags = RL_PF_FILE | RL_PF_NO_SWEEP | RL_PF_REQUIRED | RL_PF_BORROWED,
    .offset = RL_SP_OWN(FREQS_FILE), .metavar = "F",
    .help = "CSV with a theta column (e.g. 'ropelab freqs' output)"};
static const rl_param *const params[] = {&p_freqs_file, NULL};

const rl_schedule_type rl_sched_file = {
    .name = "file", .summary = "frequencies read from a CSV file (column theta)", .paper = "any",
    .code = "the user's own", .uses = RL_SP_TRAIN_LEN | RL_SP_VARIANT | RL_SP_ATTN,
    .flags = RL_ST_NOT_BASE | RL_ST_USER_DATA, .init = init, .params = params};
