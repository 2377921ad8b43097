/* precision_opts.c: parsing --precision into the core's pipeline, and the
 * list the help texts print (from the core's registry: nothing restated). */
#include "precision_opts.h"
#include "opt.h"

int rl_precision_opt(const char *cmd, const char *arg, const rl_precision **out)
{
  const char *names[32];
  size_t n = 0;
  for (const rl_precision *const *p = rl_precisions(); *p && n < 32; p++)
    names[n++] = (*p)->name;
  int k;
  int r = rl_opt_enum(cmd, "--precision", arg, names, n, &k);
  if (!r)
    *out = rl_precisions()[k];
  return r;
}

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
