/* shards.h: the files a sweep writes with --shard K/N (sweep.h), read
 * back, checked and joined into exactly the bytes of the run without
 * --shard (`ropelab merge`, whose command file only calls these).
 *
 * A shard file is the header, the whole sweep's metadata (the command
 * line without --shard), a last line '# shard=K/N rows=R bytes=B
 * cksum=C', then the rows of its contiguous part of the points; so the
 * join is the header once, the metadata without that line, and the rows
 * in shard order.  The shards must agree on every metadata line and the
 * header (their -o may differ, and the binary's path: in the joined
 * command line the merge's own -o takes the shards' place), every K of
 * 1..N must be given once, and each shard's rows must be complete and
 * match the count, length and POSIX cksum (cksum.h) its '# shard=' line
 * records.  Every function prints its own one-line message and returns
 * an exit code (0, RL_EXIT_USAGE or RL_EXIT_RUNTIME). */
#ifndef RL_CLI_SHARDS_H
#define RL_CLI_SHARDS_H

#include <stddef.h>
#include <sys/types.h>
#include "out.h"

/* One shard file as read: its metadata, header, where its rows start,
 * and what its '# shard=' line records. */
typedef struct rl_shard_file {
  char **lines; /* metadata lines without "# " and newline */
  size_t n, cap;
  char *header;
  off_t data; /* offset of the first row */
  unsigned long long rows, bytes, cksum; /* recorded in its '# shard=' line */
} rl_shard_file;

/* The shards of one sweep, in shard order. */
typedef struct rl_shards {
  rl_shard_file first;     /* the first file given: the join's metadata and header */
  const char *first_path;  /* its name */
  const char **by_k;       /* by_k[K - 1]: the file given as shard K */
  rl_shard_file *sums;     /* sums[K - 1]: its data offset and recorded sums */
  unsigned long long n;    /* N of K/N */
} rl_shards;

/* Read the n files and check them (each a shard, of one sweep, every K
 * once, rows as recorded), in the order given; s is freed with
 * rl_shards_free whatever this returns. */
int rl_shards_load(rl_shards *s, const char *cmd, char *const *files, size_t n);
/* The joined '# command=' value: the shards' with output in place of
 * their -o, or without -o when output is NULL (malloc'd; NULL without
 * memory). */
char *rl_shards_command(const rl_shards *s, const char *output);
/* The join's metadata (the shards' version, command the joined command
 * line, their parameters without '# shard=') and its header, to o. */
int rl_shards_head(rl_shards *s, const char *cmd, rl_out *o, const char *command);
/* The rows of every shard in shard order, to o, checked again as they
 * are copied (a shard changed since rl_shards_load is not joined); a
 * write error is left in o->err for rl_out_close to report. */
int rl_shards_copy(const rl_shards *s, const char *cmd, rl_out *o);
void rl_shards_free(rl_shards *s);

#endif
