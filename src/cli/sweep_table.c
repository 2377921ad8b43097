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
 * its lists take lists or ranges of their own meaning (audit --positions). */
#include <stddef.h>
#include "sweep.h"

#define SCHED_NUMBERS                                                                      \
  "dim base rot factor train-len seq-len beta-fast beta-slow mscale mscale-all-dim "      \
  "attention-factor low-freq-factor high-freq-factor fraction scale-base window leak"
#define SCHED_NAMES "layout method variant truncate ramp"
#define SCHED_LISTS "factors sections freqs-file"
#define SCHEME_NUMBERS                                                                     \
  SCHED_NUMBERS " heads head width max-len buckets max-distance position-buckets "         \
                "max-relative-positions seed"
#define SCHEME_NAMES SCHED_NAMES " past"
#define SCHEME_LISTS SCHED_LISTS " params"

const rl_sweep_spec rl_sweep_table[] = {
    {"freqs", SCHED_NUMBERS, SCHED_NAMES, SCHED_LISTS, NULL},
    {"angles", SCHED_NUMBERS " from to step", SCHED_NAMES, SCHED_LISTS, NULL},
    {"decay", SCHED_NUMBERS " from to step points samples seed sigma", SCHED_NAMES,
     SCHED_LISTS " measure", NULL},
    {"profile", SCHEME_NUMBERS " from to step query-pos samples", SCHEME_NAMES,
     SCHEME_LISTS " scheme", NULL},
    {"params", SCHEME_NUMBERS " from to", SCHEME_NAMES " scheme", SCHEME_LISTS, NULL},
    {"matrix", SCHEME_NUMBERS " len offset", SCHEME_NAMES " scheme term content", SCHEME_LISTS,
     "format=grid"},
    {"compare", SCHEME_NUMBERS " len tol", SCHEME_NAMES, SCHEME_LISTS " scheme",
     "format=markdown"},
    /* commands that do not sweep but take lists of their own (numbers NULL) */
    {"audit", NULL, NULL, "positions", NULL},
    {"check", NULL, NULL, "positions only", NULL},
    {"bound", NULL, NULL, "len", NULL},
    {"extrapolate", NULL, NULL, "scheme measure method lengths distances scale", NULL},
    {NULL, NULL, NULL, NULL, NULL}};
