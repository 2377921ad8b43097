/* check_table.h: `ropelab check --table FILE` (check_table.c), the
 * properties of a user's own cos/sin table; cmd_check.c hands over to it. */
#ifndef RL_CLI_CHECK_TABLE_H
#define RL_CLI_CHECK_TABLE_H

#include <stdio.h>

/* The getopt value of rl_check_param_list()'s first option (--seed ...),
 * in both check and check --table: below the schedule options'. */
enum { RL_CHECK_OPT_FIRST = 0x240 };

/* 1 when argv asks for a table check (--table, and no --help). */
int rl_check_table_wanted(int argc, char **argv);
/* The whole of `check --table ...`: an exit code. */
int rl_check_table_run(int argc, char **argv);
/* Its help lines, for `check --help`. */
void rl_check_table_help(FILE *fp);

/* The first option that only --table takes (--expect, --sin, --positions)
 * when argv has no --table, else NULL: for a message that says so. */
const char *rl_check_table_stray(int argc, char **argv);

#endif
