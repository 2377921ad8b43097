/* plot.h: --plot FILE through gnuplot (an external program, run with
 * plots/<script>.gp).  The image is written atomically like -o: gnuplot
 * draws into a FIFO named FILE.tmpXXXXXX, which we read; when gnuplot
 * has exited 0 we write the bytes to a regular FILE.tmpXXXXXX ourselves,
 * every write checked (gnuplot ignores its own write errors), and rename
 * it over FILE (FILE must be a regular file or a new name; a symlink's
 * target is replaced).  gnuplot
 * reads the data as /dev/fd/N of a file without a name in $TMPDIR, so no
 * data file outlives us, however we die. */
#ifndef RL_CLI_PLOT_H
#define RL_CLI_PLOT_H

#include <stdio.h>

typedef struct rl_plot {
  const char *cmd, *script, *path, *term;
  char *img_file;       /* FILE with symlinks followed: what img_tmp replaces */
  char *img_tmp;        /* FILE.tmpXXXXXX, the FIFO, created up front so bad paths fail fast */
  const char *data_dir; /* $TMPDIR or /tmp, for messages */
  FILE *data;           /* the CSV gnuplot reads (unlinked): rl_out's tee */
  const char *args[2];  /* the script's ARG4, ARG5 (NULL: none); set after rl_plot_open */
} rl_plot;

/* gnuplot terminal for path's extension (.png .svg .pdf), or NULL. */
const char *rl_plot_terminal(const char *path);
/* Usage check, before any output: 0 or a printed usage error. */
int rl_plot_check(const char *cmd, const char *path);
/* Create the temp files; 0 or a printed runtime error (RL_EXIT_RUNTIME). */
int rl_plot_open(rl_plot *p, const char *cmd, const char *script, const char *path);
/* Run gnuplot on the data and rename the image into place; data_err is
 * the errno of a failed write to p->data (0 if none).  Returns 0 or a
 * printed runtime error.  Removes the temp files either way. */
int rl_plot_finish(rl_plot *p, int data_err);
void rl_plot_abort(rl_plot *p);

#endif
