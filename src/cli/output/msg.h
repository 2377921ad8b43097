/* msg.h: the one-line messages of the CLI, "ropelab CMD: problem 'value':
 * expected ...", on stderr (control characters in a quoted value written
 * as C escapes, so a message is always one line).  Below the options and
 * the output layer alike, so neither needs the other for its errors. */
#ifndef RL_CLI_MSG_H
#define RL_CLI_MSG_H

#if defined(__GNUC__)
#define RL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define RL_PRINTF(a, b)
#endif

/* "ropelab CMD: MSG" on stderr; return RL_EXIT_USAGE or RL_EXIT_RUNTIME. */
int rl_usage(const char *cmd, const char *fmt, ...) RL_PRINTF(2, 3);
int rl_runtime(const char *cmd, const char *fmt, ...) RL_PRINTF(2, 3);

#endif
