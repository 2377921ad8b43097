/* test_names_list.c: the comma-separated list of names (rl_names_list,
 * src/core/base/names_list.c), the one reader of decay's --measure,
 * check's --only and the CLI's lists.  Expected indexes and messages are
 * written out by hand from the function's contract (param.h). */
#include <string.h>
#include "ropelab.h"
#include "tap.h"

static const char *const names[] = {"bound", "similarity", "mc", "mcmc"};
#define N 4

/* arg read to exactly want[0..n) */
static void reads(const char *arg, size_t max, const int *want, size_t n)
{
  int idx[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
  size_t count = 99;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_names_list("--measure", arg, names, N, idx, max, &count, err, sizeof err);
  int same = !st && count == n;
  for (size_t k = 0; same && k < n; k++)
    same = idx[k] == want[k];
  tap_ok(same, "'%s' -> %zu names in order (status %d, count %zu) %s", arg, n, (int)st,
         count, err);
}

/* arg refused with exactly the message msg */
static void refused(const char *arg, size_t max, const char *msg)
{
  int idx[8];
  size_t count = 0;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_names_list("--measure", arg, names, N, idx, max, &count, err, sizeof err);
  tap_ok(st == RL_EINVAL && !strcmp(err, msg), "'%s' refused: \"%s\"", arg, err);
}

int main(void)
{
  reads("mc", 4, (int[]){2}, 1);
  reads("mc,bound", 4, (int[]){2, 0}, 2);          /* the order given, not the list's */
  reads("mcmc,mc,similarity,bound", 4, (int[]){3, 2, 1, 0}, 4); /* a prefix is not a match */
  refused("bound,mc,bound", 4, "invalid --measure 'bound,mc,bound': 'bound' given twice");
  refused("bound,mc", 1, "invalid --measure 'bound,mc': more than 1 items");
  /* unknown words: rl_names_error's forms (a close name suggested within
   * a list names the word; far from all, the whole list) */
  refused("bound,simlarity", 4,
          "invalid --measure 'bound,simlarity': unknown 'simlarity'; did you mean 'similarity'?");
  refused("bound,", 4,
          "invalid --measure 'bound,': empty name; expected bound, similarity, mc or mcmc");
  refused("zzzzzzzz", 4, "invalid --measure 'zzzzzzzz': expected bound, similarity, mc or mcmc");
  /* a word past the 127 bytes read is cut, and still none of the names */
  char longer[300];
  memset(longer, 'b', sizeof longer - 1);
  longer[sizeof longer - 1] = 0;
  int idx[8];
  size_t count = 0;
  char err[RL_ERR_MAX] = "";
  rl_status st = rl_names_list("--measure", longer, names, N, idx, 4, &count, err, sizeof err);
  tap_ok(st == RL_EINVAL && count == 0, "a 299-byte word refused (%s)", err);
  return tap_done();
}
