/* plot.h: --plot FILE through gnuplot (an external program, run with
 * plots/<script>.gp).  The image is written atomically like -o: gnuplot
 * draws into FILE.tmpXXXXXX, renamed over FILE on success. */
#ifndef RL_CLI_PLOT_H
#define RL_CLI_PLOT_H

#include <stdio.h>

typedef struct rl_plot {
  const char *cmd, *script, *path, *term;
  char *img_tmp;  /* FILE.tmpXXXXXX, created up front so bad paths fail fast */
  char *data_tmp; /* the CSV gnuplot reads, in $TMPDIR */
  FILE *data;     /* open on data_tmp: give it to rl_out as tee */
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
