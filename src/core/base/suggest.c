/* suggest.c: the closest name to a mistyped one (git's help.c habit) and
 * the "a, b or c" list of alternatives, for every message that refuses a
 * name: the CLI's commands and options, and the enumerated parameters
 * of the core's declarations (param.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ropelab.h"
#include "internal.h"

/* Optimal string alignment distance (Damerau-Levenshtein with adjacent
 * transpositions, unit costs). */
static size_t osa(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64)
    return (size_t)-1;
  size_t d[65][65];
  for (size_t i = 0; i <= la; i++)
    d[i][0] = i;
  for (size_t j = 0; j <= lb; j++)
    d[0][j] = j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      size_t cost = a[i - 1] != b[j - 1];
      size_t v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v)
        v = d[i][j - 1] + 1;
      if (d[i - 1][j - 1] + cost < v)
        v = d[i - 1][j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  return d[la][lb];
}

size_t rl_suggest(const char *word, const char *const *cands, size_t n)
{
  size_t best = n, bestd = (size_t)-1, wl = strlen(word);
  if (!wl)
    return n;
  for (size_t i = 0; i < n; i++) {
    size_t d = strncmp(cands[i], word, wl) == 0 ? 0 : osa(word, cands[i]);
    if (d < bestd) {
      bestd = d;
      best = i;
    }
  }
  /* Close enough: at most 2 edits, and fewer than half the word's letters
   * (so 'xy' does not suggest 'check'). */
  if (best < n && bestd <= 2 && 2 * bestd < wl + 1)
    return best;
  return n;
}

void rl_names_alternatives(const char *const *names, size_t n, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  for (size_t i = 0; i < n && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
                            names[i]);
}

rl_status rl_names_error(const char *opt, const char *arg, const char *word,
                         const char *const *names, size_t n, char *err, size_t len)
{
  /* sized to the names: a fixed buffer cut check --only's 34 names */
  size_t size = 1;
  for (size_t i = 0; i < n; i++)
    size += strlen(names[i]) + 4;
  char *all = malloc(size);
  if (!all)
    return rl_errf(RL_ENOMEM, err, len, "%s", rl_strerror(RL_ENOMEM));
  rl_names_alternatives(names, n, all, size);
  size_t s = rl_suggest(word, names, n);
  int list = strcmp(arg, word) != 0;
  rl_status st;
  if (!*word)
    st = rl_errf(RL_EINVAL, err, len, "invalid %s '%s': empty name; expected %s", opt, arg, all);
  else if (s < n && list)
    st = rl_errf(RL_EINVAL, err, len, "invalid %s '%s': unknown '%s'; did you mean '%s'?", opt,
                 arg, word, names[s]);
  else if (s < n)
    st = rl_errf(RL_EINVAL, err, len, "invalid %s '%s': did you mean '%s'?", opt, arg, names[s]);
  else if (list)
    st = rl_errf(RL_EINVAL, err, len, "invalid %s '%s': unknown '%s'; expected %s", opt, arg,
                 word, all);
  else
    st = rl_errf(RL_EINVAL, err, len, "invalid %s '%s': expected %s", opt, arg, all);
  free(all);
  return st;
}
