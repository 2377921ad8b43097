/* registry.c: every ropelab command, once (kmod's command table).  A new
 * command is its own cmd_<name>.c plus one X(name) line here and one line
 * in src/meson.build (tests/cli/newcommand shows it). */
#include <string.h>
#include "cmd.h"

#ifdef RL_TEST_COMMAND /* the test build's command (tests/cli/newcommand) */
#define TEST_COMMANDS(X) X(phase)
#else
#define TEST_COMMANDS(X)
#endif

#define RL_COMMANDS(X) \
  X(freqs)             \
  X(angles)            \
  X(decay)             \
  X(check)             \
  X(profile)           \
  X(params)            \
  X(matrix)            \
  X(compare)           \
  X(audit)             \
  X(merge)             \
  X(bound)             \
  X(precision)         \
  X(extrapolate)       \
  X(plot)              \
  X(train)             \
  X(evaluate)          \
  X(report)            \
  TEST_COMMANDS(X)     \
  /* new commands: one line above, ending in a backslash */

#define X(n) extern const struct rl_cmd rl_cmd_##n;
RL_COMMANDS(X)
#undef X

#define X(n) &rl_cmd_##n,
const struct rl_cmd *const rl_commands[] = {RL_COMMANDS(X) NULL};
#undef X

const struct rl_cmd *rl_cmd_find(const char *name)
{
  for (const struct rl_cmd *const *c = rl_commands; *c; c++)
    if (!strcmp((*c)->name, name))
      return *c;
  return NULL;
}
