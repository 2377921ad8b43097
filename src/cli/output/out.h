/* out.h: the CSV writer of every command.
 *
 * A file is a header row, optional '# key=value' metadata lines (ropelab
 * version, the command line, every effective parameter), then rows of
 * numbers in the shortest round-trip form (rl_numfmt, C locale).  The
 * header comes first so that plain readers take their column names from
 * it: numpy's genfromtxt(names=True) names the columns after the first
 * line, '#' or not; pandas (comment='#') and R (comment.char='#') skip the
 * metadata lines wherever they are.  Metadata given before the header is
 * held and written right after it (rl_out_release_meta).
 * -o FILE, when FILE is a regular file or does not exist, is written
 * atomically: rows go to FILE.tmpXXXXXX in the same directory (FILE's
 * name cut to fit the longest name there, rl_tmp_template), which is
 * fsync'ed and renamed over FILE only when complete; on any error, or on
 * SIGINT/SIGTERM/SIGHUP/SIGPIPE, the temp is removed.  A symlink is
 * followed and its target replaced the same way; a device, FIFO, socket
 * or /dev/fd/N is written straight through (see path.h). */
#ifndef RL_CLI_OUT_H
#define RL_CLI_OUT_H

#include <signal.h>
#include "cleanup.h"
#include <stdio.h>
#include <sys/types.h>

typedef struct rl_out {
  const char *cmd;  /* command name, for messages */
  const char *path; /* -o as given (for messages), or NULL for stdout */
  char *file;       /* what tmp is renamed to: path with symlinks followed */
  char *tmp;        /* temp file while writing -o */
  int direct;       /* -o is written straight through (device, FIFO, fd) */
  FILE *fp;
  FILE *tee;        /* optional second copy (plot data): always has meta and header */
  int meta, header; /* 0 after --no-meta / --no-header */
  int err;          /* first errno of a failed write, 0 if none */
  int tee_err;      /* same for tee */
  int swept;        /* fp is a hook of the sweep layer (see below), not a file of ours */
  void *hook;       /* its state */
  size_t unsynced;  /* bytes written to tmp since its write-back was last started */
  int json;         /* --meta json: metadata collected, written to PATH.json at close */
  struct rl_meta *jmeta;
  const char *jextra; /* one more member of the JSON object, or NULL */
  int links;          /* the replaced file has other hard links: rewritten in place */
  FILE *raw;          /* the file under fp when fp is a format stream */
  struct rl_fmt_stream *fst; /* that stream (out_format.h), or NULL for CSV */
  char *jcolumns;     /* .npy: its column names for FILE.json, comma-separated */
  int holding;        /* metadata is held until the header row is written */
  struct rl_meta *held;
} rl_out;

/* Metadata lines, key and value (copies); oom set when a copy failed. */
typedef struct rl_meta {
  char **key, **val;
  size_t n, cap;
  int oom;
} rl_meta;
void rl_meta_add(rl_meta *m, const char *key, const char *val);
void rl_meta_clear(rl_meta *m);

/* The process's argv, quoted into the '# command=' line. */
void rl_out_set_argv(int argc, char **argv);
/* Leave argv[first..first+n) (pointers into the argv given above) out of
 * the command line: the sweep layer's --shard and --jobs, which do not
 * change a number.  At most 8 ranges. */
void rl_out_argv_skip(char **first, int n);
/* The '# command=' value, shell-quoted (malloc'd; NULL without memory). */
char *rl_out_command_line(void);
/* One word shell-quoted as in the '# command=' line. */
void rl_out_quote(FILE *fp, const char *s);

/* ---- hooks of the sweep layer (sweep.h) and of --meta json ---------
 * The mode applies to every rl_out opened after it is set:
 *   normal   as described above;
 *   capture  nothing is opened: metadata lines go to *meta, the first
 *            line written (the header) to *header (malloc'd), and the
 *            next write fails with ECANCELED, so that the command stops
 *            before its rows; rl_out_close then returns 0 in silence;
 *   point    every line written goes to fp with prefix in front (the
 *            swept values), metadata and header are left out (the sweep
 *            wrote them once); errors are reported against path (NULL:
 *            standard output). */
void rl_out_mode_normal(void);
/* 1 in capture mode: a command that has checked a property says nothing
 * of its verdict yet (the point runs again for its row). */
int rl_out_capturing(void);
/* 1 while a sweep runs a point (capture or point mode): its rows go to
 * the sweep's table, not to -o. */
int rl_out_hooked(void);
void rl_out_mode_capture(rl_meta *meta, char **header);
void rl_out_mode_point(FILE *fp, const char *prefix, const char *path);
/* --meta json for the rl_out opened next: the metadata goes into PATH.json
 * (atomic, written before the CSV is renamed into place), no comment
 * lines in the CSV; -o must name a regular file or a new one.  extra,
 * when not NULL, is one more member ("name": value) of the JSON object;
 * it must stay valid until rl_out_close. */
void rl_out_set_json(int on, const char *extra);
/* The metadata begin of a file joined from others (merge): the given
 * version and command line instead of ours. */
void rl_out_meta_begin_as(rl_out *o, const char *version, const char *command);

/* Open stdout (path NULL or "-"), the temp file for path, or path
 * itself when it must not be replaced (path.h); prints
 * "cannot write 'PATH': REASON" and returns RL_EXIT_RUNTIME on failure. */
int rl_out_open(rl_out *o, const char *cmd, const char *path, int meta, int header);
/* Metadata: the '# ropelab=' and '# command=' lines, then parameters. */
void rl_out_meta_begin(rl_out *o);
void rl_out_meta(rl_out *o, const char *key, const char *val);
void rl_out_meta_num(rl_out *o, const char *key, double v);
void rl_out_meta_uint(rl_out *o, const char *key, unsigned long long v);
/* Write the held metadata now (after the header; before the first row
 * when there is no header).  rl_out_header, rl_out_row, rl_out_write and
 * rl_out_close call it at the right point. */
void rl_out_release_meta(rl_out *o);
/* The header row, e.g. "r,bound"; the held metadata follows it. */
void rl_out_header(rl_out *o, const char *cols);
void rl_out_row(rl_out *o, const double *v, size_t n);
/* Flush, fsync and rename into place (or flush and close a file written
 * straight through); returns 0, or prints the error, removes the temp
 * file and returns RL_EXIT_RUNTIME. */
int rl_out_close(rl_out *o);
/* Give up: remove the temp file, close what is open (error paths). */
void rl_out_abort(rl_out *o);

/* Print why the temp file for file (-o or --plot path as given) could
 * not be created (errno e): a folder that refuses it is named, since
 * the file itself may be writable; returns RL_EXIT_RUNTIME. */
int rl_tmp_refused(const char *cmd, const char *path, const char *file, int e);

#endif
