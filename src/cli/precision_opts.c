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

void rl_precision_list(FILE *fp)
{
  for (const rl_precision *const *p = rl_precisions(); *p; p++) {
    fprintf(fp, "  %-10s %s\n", (*p)->name, (*p)->summary);
    if (!(*p)->exact)
      fprintf(fp, "  %-10s frequencies %s, cos/sin table %s, q/k and rotation %s%s\n", "",
              rl_dtype_name((*p)->freq_dtype), rl_dtype_name((*p)->table_dtype),
              rl_dtype_name((*p)->act_dtype), (*p)->fused ? " (one rounding)" : "");
    fprintf(fp, "  %-10s follows: %s\n", "", (*p)->code);
  }
}
