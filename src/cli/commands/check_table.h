/* check_table.h: `ropelab check --table FILE` (check_table.c), the
 * properties of a user's own cos/sin table: the second form of check
 * (cmd_check.c chooses it, rl_cmd_decl.form). */
#ifndef RL_CLI_CHECK_TABLE_H
#define RL_CLI_CHECK_TABLE_H

#include "cmd.h"

/* The form `check --table ...`: its own declaration, check's name. */
extern const struct rl_cmd rl_check_table_cmd;

/* 1 when argv asks for a table check (--table, and no --help). */
int rl_check_table_wanted(int argc, char **argv);
/* The first option that only --table takes (--expect, --sin, --positions)
 * when argv has no --table, else NULL: for a message that says so. */
const char *rl_check_table_stray(int argc, char **argv);

/* Its help, after check's options (check's footer). */
#define RL_CHECK_TABLE_HELP \
  "Your own table (check --table FILE): the properties of the cos/sin table\n" \
  "in FILE, read as 'ropelab audit' reads it (CSV or .npy; --sin FILE2,\n" \
  "--positions LIST as there), each error against a tolerance in the\n" \
  "table's own format epsilon eps (2^-23 for float32, ...):\n" \
  "  table_relative  max over seeded q, k and distances r between its rows of\n" \
  "                  the spread over m of <R_m q,R_{m+r} k>, / (a^2|q||k|);\n" \
  "                  tolerance 8 eps + 2 eps_angle max|m| (angles formed in\n" \
  "                  float32, or float64 for a float64 table)\n" \
  "  table_norm      max |cos^2+sin^2 - a^2|/a^2, tolerance 4 eps (a: the\n" \
  "                  table's median amplitude, or with --expect the schedule's\n" \
  "                  attention factor)\n" \
  "  table_layout    with --expect: the two dims of each pair equal in the\n" \
  "                  --layout given (interleaved 2i,2i+1; half i,i+r/2), or\n" \
  "                  else the one the table shows, /a; tolerance 2 eps\n" \
  "  table_values    with --expect: every |entry - expected| for the schedule\n" \
  "                  options and --precision given within its own tolerance\n" \
  "                  a(K eps|m theta_i| + ulp(|m| theta_i)) + 2 eps a, K =\n" \
  "                  2 ln(base) + 4 (as audit --expect; the\n" \
  "                  angle's ulps in float64 for a float64 table, else\n" \
  "                  float32); shown at the entry worst against it\n" \
  "      --table FILE   check FILE instead of ropelab's own implementation\n" \
  "      --sin FILE2    the sin table of a cos table FILE\n" \
  "      --positions LIST  the position of each row, when not 0, 1, 2, ...\n" \
  "      --expect       verify layout and values against the schedule options\n" \
  "                     (without it, schedule options are an error)\n"

#endif
