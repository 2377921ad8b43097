/* cmd_merge.c: `ropelab merge SHARD...`: the parts of a sweep written with
 * --shard K/N (sweep.h) joined into exactly the bytes of the run without
 * --shard.  How shards are read, checked against each other and joined
 * is shards.h's; this file is the declaration (cmd.h: the files as its
 * arguments, the output options of RL_TAKES_FORMAT_ONLY) and a compute()
 * that calls it and writes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "shards.h"

/* the shards are required: said in the command's own words */
static int check(rl_cmd_run *r)
{
  if (!r->nargs)
    return rl_usage(r->name, "no shard files given (see 'ropelab help merge')");
  return 0;
}

static int compute(rl_cmd_run *r)
{
  const char *output = r->co.output;
  rl_shards s;
  rl_out o;
  char *command = NULL;
  int rc = rl_shards_load(&s, r->name, r->args, r->nargs);
  /* the merged command line names the merge's -o (none on standard output) */
  if (!rc && !(command = rl_shards_command(&s, output && strcmp(output, "-") ? output : NULL)))
    rc = rl_runtime(r->name, "%s", strerror(ENOMEM));
  if (!rc && !(rc = rl_out_open(&o, r->name, output, 1, 1))) {
    if ((rc = rl_shards_head(&s, r->name, &o, command)) ||
        (rc = rl_shards_copy(&s, r->name, &o)))
      rl_out_abort(&o);
    else
      rc = rl_out_close(&o);
  }
  free(command);
  rl_shards_free(&s);
  return rc;
}

static const rl_cmd_decl decl = {
    .usage = "[-o FILE] [--meta comments|json] SHARD...",
    .about =
        "Join the files of a sweep run with --shard K/N (every K of 1..N once, in any\n"
        "order) into exactly the bytes the sweep writes without --shard: the metadata\n"
        "without its '# shard=' line, the header once, the rows in shard order. The\n"
        "shards must agree on every metadata line (version, command line minus --shard\n"
        "and -o, parameters) and on the header, and each shard's rows must be complete\n"
        "and match the row count, length and cksum its '# shard=' line records. The\n"
        "merged command line has the merge's -o in place of the shards' (none when the\n"
        "merge writes to standard output).\n",
    .takes = RL_TAKES_FORMAT_ONLY,
    /* SHARD... is required: check() says so */
    .min_args = 0,
    .max_args = (size_t)-1,
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_merge = {"merge", NULL,
                                    "join the shards of a sweep (--shard K/N) into one table",
                                    NULL, &decl};
