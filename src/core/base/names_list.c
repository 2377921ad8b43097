/* names_list.c: a comma-separated list of names read as indexes
 * (param.h, rl_names_list): the one reader of decay's --measure, check's
 * --only and the CLI's lists of names (extrapolate's --measure and
 * --scale, plot's --log), so that each says the same about a word it
 * does not know, a name given twice and a list too long. */
#include <stdio.h>
#include <string.h>
#include "ropelab.h"
#include "internal.h"

rl_status rl_names_list(const char *opt, const char *arg, const char *const *names, size_t n,
                        int *idx, size_t max, size_t *count, char *err, size_t nerr)
{
  *count = 0;
  for (const char *p = arg;;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char word[128]; /* a longer word is cut: it names nothing anyway */
    if (len >= sizeof word)
      len = sizeof word - 1;
    memcpy(word, p, len);
    word[len] = 0;
    size_t i = 0;
    while (i < n && strcmp(word, names[i]))
      i++;
    if (i == n)
      return rl_names_error(opt, arg, word, names, n, err, nerr);
    for (size_t k = 0; k < *count; k++)
      if (idx[k] == (int)i)
        return rl_errf(RL_EINVAL, err, nerr, "invalid %s '%s': '%s' given twice", opt, arg, word);
    if (*count >= max)
      return rl_errf(RL_EINVAL, err, nerr, "invalid %s '%s': more than %zu items", opt, arg, max);
    idx[(*count)++] = (int)i;
    if (!e)
      return RL_OK;
    p = e + 1;
  }
}
