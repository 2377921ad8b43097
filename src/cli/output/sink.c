/* sink.c: see sink.h. */
#include <string.h>
#include "cmd.h"
#include "path.h"
#include "sink.h"

void rl_sink_abort(rl_sink *s)
{
  if (s->out_open)
    rl_out_abort(&s->out);
  if (s->plot_open)
    rl_plot_abort(&s->plot);
  s->out_open = s->plot_open = 0;
}

int rl_sink_open(rl_sink *s, const char *cmd, const rl_common *co, const char *script)
{
  s->out_open = s->plot_open = 0;
  /* one file cannot be both: the image would be renamed over the CSV */
  if (co->plot && co->output && strcmp(co->output, "-") && rl_path_same(co->plot, co->output))
    return rl_usage(cmd, "--plot '%s' is the same file as --output '%s'", co->plot, co->output);
  int rc = rl_out_open(&s->out, cmd, co->output, co->meta, co->header);
  if (rc)
    return rc;
  s->out_open = 1;
  if (co->plot && script) {
    if ((rc = rl_plot_open(&s->plot, cmd, script, co->plot))) {
      rl_sink_abort(s);
      return rc;
    }
    s->plot_open = 1;
    s->out.tee = s->plot.data; /* gnuplot reads the same rows, always with a header */
  }
  return 0;
}

int rl_sink_close(rl_sink *s, rl_progress *prog)
{
  /* no "100%" after a failed write: the error message comes next */
  if (prog && !s->out.err)
    rl_progress_end(prog);
  int tee_err = s->out.tee_err;
  s->out_open = 0; /* rl_out_close removes its temp file itself on failure */
  int rc = rl_out_close(&s->out);
  if (rc || !s->plot_open) {
    rl_sink_abort(s);
    return rc;
  }
  s->plot_open = 0; /* rl_plot_finish removes its temp files either way */
  return rl_plot_finish(&s->plot, tee_err);
}
