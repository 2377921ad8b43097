/* table.c: the cos/sin table of a schedule in the shapes frameworks
 * store it (`ropelab angles`): the formats, declared once (param.h),
 * their columns, and one position's values in a format's order. */
#include <stddef.h>
#include "ropelab.h"

static const char *const format_names[] = {"long", "pairs", "dims", "hf", NULL};

static const rl_param p_format = {
    .key = "format", .kind = RL_PK_ENUM, .offset = offsetof(rl_angles_settings, format),
    .names = format_names, .dflt = RL_TABLE_LONG, .metavar = "F",
    .help = "long, pairs, dims or hf"};
static const rl_param *const list[] = {&p_format, NULL};

const rl_param *const *rl_angles_param_list(void) { return list; }

const char *rl_table_format_name(int format)
{
  return format >= 0 && format <= RL_TABLE_HF ? format_names[format] : "";
}

/* Hugging Face's caches are cat(freqs, freqs): the half layout */
rl_layout rl_table_layout(int format, rl_layout layout)
{
  return format == RL_TABLE_HF ? RL_LAYOUT_HALF : layout;
}

size_t rl_table_rows_per_pos(int format, const rl_schedule *f)
{
  return format == RL_TABLE_LONG ? f->n : 1;
}

size_t rl_table_columns(int format, const rl_schedule *f)
{
  return format == RL_TABLE_LONG ? 4 : 1 + 2 * (format == RL_TABLE_PAIRS ? f->n : f->rot);
}

double *rl_table_put(int format, rl_layout layout, const rl_schedule *f, double m,
                     const double *c, const double *s, double *v)
{
  size_t n = f->n, rdim = f->rot;
  if (format == RL_TABLE_LONG) {
    for (size_t i = 0; i < n; i++)
      *v++ = m, *v++ = (double)i, *v++ = c[i], *v++ = s[i];
    return v;
  }
  *v++ = m;
  if (format == RL_TABLE_PAIRS) {
    for (size_t i = 0; i < n; i++)
      *v++ = c[i];
    for (size_t i = 0; i < n; i++)
      *v++ = s[i];
    return v;
  }
  /* dimension k belongs to pair k/2 (interleaved) or k mod n (half), as
   * rl_layout_pair places them */
  int half = layout == RL_LAYOUT_HALF;
  for (int t = 0; t < 2; t++) {
    const double *u = t ? s : c;
    for (size_t k = 0; k < rdim; k++)
      *v++ = u[half ? (k < n ? k : k - n) : k / 2];
  }
  return v;
}
