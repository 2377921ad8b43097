/* sink.h: where a table-producing command writes, in one piece: the CSV
 * (-o FILE or stdout, see out.h) and, with --plot, the gnuplot image fed
 * a copy of the CSV (plot.h).  Opened after the work that can fail on bad
 * input and before the rows, so an unwritable path fails before the long
 * part; closed in order (the CSV in place, then gnuplot on its copy);
 * aborted on any error path, which removes every temp file. */
#ifndef RL_CLI_SINK_H
#define RL_CLI_SINK_H

#include "opt.h"
#include "out.h"
#include "plot.h"
#include "progress.h"

typedef struct rl_sink {
  rl_out out;
  rl_plot plot;
  int out_open, plot_open; /* what rl_sink_abort still has to remove */
} rl_sink;

/* Zero-initialise (rl_sink s = {0}) so that rl_sink_abort is safe even
 * when the sink was never opened. */

/* Open co->output with co->meta / co->header, then, when co->plot is set
 * and script is not NULL, the plot drawn by plots/<script> with out.tee
 * on its data.  0, or a printed error with nothing left open: a usage
 * error when both name the same file, else a runtime error. */
int rl_sink_open(rl_sink *s, const char *cmd, const rl_common *co, const char *script);
/* End prog (may be NULL) unless a write failed, put the CSV in place,
 * then draw the plot.  0, or a printed runtime error with nothing left
 * open (temp files removed). */
int rl_sink_close(rl_sink *s, rl_progress *prog);
/* Remove whatever is still open; a no-op after rl_sink_close or on a
 * sink never opened. */
void rl_sink_abort(rl_sink *s);

#endif
