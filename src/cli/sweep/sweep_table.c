/* sweep_table.c: which options of each table-producing command take a
 * list or a range (sweep.h).  A NEW COMMAND that writes a table adds its
 * row here; nothing else is needed for `--opt a,b`, --shard, --jobs and
 * --meta to work on it.  A command without a row does not sweep (a list
 * there is refused with a message saying so).
 *
 * What sweeps, and why not the rest:
 *   - numbers: every numeric setting of the computation.  Not --threads
 *     (it changes no number) and not the values that already are lists:
 *     --factors (LongRoPE's per-pair factors), --sections (M-RoPE).
 *   - names: one-of settings (method, variant, layout, ...).  Not
 *     --measure or --scheme where they put several side by side
 *     (decay, profile, compare: their commas keep that meaning), nor
 *     --format, which changes the columns (a sweep is one table).
 *   - files (--params, --freqs-file) are never swept: commas may be part
 *     of a file name.
 * A row with numbers NULL: the command does not sweep, and the options in
 * its lists take lists or ranges of their own meaning (audit --positions).
 * The schedule, scheme and grid options are not listed: rl_sweep_find
 * adds them from their declarations in the core (numbers, names, or never
 * for files and lists such as --factors, --sections and --params); a
 * row's grid gives the command's --from, --to, --step and --points. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "ropelab.h"
#include "cmd.h"
#include "grid_opts.h"
#include "opt.h"
#include "sweep.h"

#define S RL_SWEEP_SCHED
#define SC (RL_SWEEP_SCHED | RL_SWEEP_SCHEME)

const rl_sweep_spec rl_sweep_table[] = {
    {NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL}};

/* "*_same=U" matches every column ending "_same" */
void rl_sweep_unit(const char *units, const char *col, char *out, size_t size)
{
  size_t cl = strlen(col);
  out[0] = 0;
  for (const char *p = units; p && *p;) {
    size_t l = strcspn(p, ";"), k = strcspn(p, "=");
    if (k < l) {
      int hit = p[0] == '*' ? cl >= k - 1 && !strncmp(col + cl - (k - 1), p + 1, k - 1)
                            : k == cl && !strncmp(p, col, k);
      if (hit) {
        snprintf(out, size, "%.*s", (int)(l - k - 1), p + k + 1);
        return;
      }
    }
    p += l + (p[l] == ';');
  }
}

/* own + the declared options of kind `kind` (RL_PARAM_SWEEP_*; NONE: the
 * lists, which are never swept), but for those in skip and those already
 * in buf (a command's own --train-len before the schedule's) */
static size_t add(char *buf, size_t n, size_t len, const rl_param *const *list, int kind,
                  const char *own_lists, const char *skip)
{
  for (const rl_param *const *d = list; *d && len < n; d++) {
    size_t kl = strlen((*d)->key);
    if (!((*d)->flags & RL_PF_NO_OPTION) && (*d)->kind != RL_PK_FLAG &&
        rl_param_sweeps(*d) == kind && !rl_opt_in_list(own_lists, (*d)->key, kl) &&
        !rl_opt_in_list(skip, (*d)->key, kl) && !rl_opt_in_list(buf, (*d)->key, kl))
      len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " " : "", (*d)->key);
  }
  return len;
}

static void compose(char *buf, size_t n, const char *own, const rl_sweep_spec *sp, int kind,
                    const char *own_lists)
{
  unsigned groups = sp->groups;
  size_t len = 0;
  buf[0] = 0;
  /* the grid's options first, then the command's own (help order) */
  if (sp->grid)
    len = add(buf, n, len, sp->grid->params, kind, own_lists, NULL);
  if (own && *own && len < n)
    len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " " : "", own);
  if (sp->own)
    len = add(buf, n, len, sp->own(), kind, own_lists, NULL);
  len = add(buf, n, len, rl_schedule_param_list(), kind, own_lists, sp->except);
  if (groups & RL_SWEEP_SCHEME)
    add(buf, n, len, rl_scheme_param_list(), kind, own_lists, NULL);
}

/* A declared command's row, from its declaration (cmd.h): the groups it
 * takes, its own lists, and its own declarations' sweeps */
static const rl_param *const *no_params(void)
{
  static const rl_param *const none[] = {NULL};
  return none;
}

const rl_param *const *rl_cmd_sweeps_none(void) { return no_params(); }

static const rl_param *const *(*decl_own)(void); /* the declared command's own groups */
static const rl_param *const *own_of_decl(void)
{
  return decl_own ? decl_own() : no_params();
}

static int decl_row(const struct rl_cmd *c, rl_sweep_spec *row)
{
  const rl_cmd_decl *d = c->decl;
  *row = (rl_sweep_spec){c->name,
                         ((d->takes & (RL_TAKES_SCHEDULE | RL_TAKES_SCHEME)) ? RL_SWEEP_SCHED : 0u) |
                             ((d->takes & RL_TAKES_SCHEME) ? RL_SWEEP_SCHEME : 0u) |
                             ((d->takes & RL_TAKES_LONG_POINTS) ? RL_SWEEP_LONG_POINTS : 0u),
                         d->sweep_numbers, d->sweep_names ? d->sweep_names : "",
                         d->sweep_lists ? d->sweep_lists : "", d->sweep_refuse,
                         d->plot_x, d->plot_y, d->plot_log, NULL, d->except,
                         (d->takes & RL_TAKES_GRID) ? ((const rl_grid_kind *)d->grid)->dflt : NULL,
                         d->plot_units, d->plot_series};
  /* one group of own declarations reaches the sweep axes (the first, or
   * decl->sweep_own); a command with several lists the others in its
   * numbers or names */
  decl_own = d->sweep_own ? d->sweep_own : d->groups[0].list;
  row->own = decl_own ? own_of_decl : NULL;
  return 1;
}

const rl_sweep_spec *rl_sweep_find(const char *cmd)
{
  static rl_sweep_spec row;
  static char numbers[1024], names[512], lists[512];
  const rl_sweep_spec *sp = rl_sweep_table;
  const struct rl_cmd *c = rl_cmd_find(cmd);
  if (c && c->decl) {
    decl_row(c, &row);
    sp = &row;
  } else {
    while (sp->cmd && strcmp(sp->cmd, cmd))
      sp++;
  }
  row = *sp;
  if (sp->cmd && (sp->groups & RL_SWEEP_SCHED) && sp->numbers) {
    compose(numbers, sizeof numbers, sp->numbers, sp, RL_PARAM_SWEEP_NUMBERS, sp->lists);
    compose(names, sizeof names, sp->names, sp, RL_PARAM_SWEEP_NAMES, sp->lists);
    compose(lists, sizeof lists, sp->lists, sp, RL_PARAM_SWEEP_NONE, NULL);
    row.numbers = numbers, row.names = names, row.lists = lists;
  }
  return &row;
}
