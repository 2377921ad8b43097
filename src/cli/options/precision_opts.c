/* precision_opts.c: the list of pipelines the help texts print (from the
 * core's registry: nothing restated; --precision itself is a schedule
 * parameter declared in the core). */
#include "precision_opts.h"
#include "opt.h"

/* Wrapped to the help's width (rl_help_wrap): the citations are long. */
void rl_precision_list(FILE *fp)
{
  char head[64];
  for (const rl_precision *const *p = rl_precisions(); *p; p++) {
    snprintf(head, sizeof head, "  %-10s ", (*p)->name);
    rl_help_wrap(fp, head, 13, (*p)->summary);
    if (!(*p)->exact)
      fprintf(fp, "%13sfrequencies %s, cos/sin table %s,\n%13sq/k and rotation %s%s\n", "",
              rl_dtype_name((*p)->freq_dtype), rl_dtype_name((*p)->table_dtype), "",
              rl_dtype_name((*p)->act_dtype), (*p)->fused ? " (one rounding)" : "");
    rl_help_wrap(fp, "             follows: ", 22, (*p)->code);
  }
}
