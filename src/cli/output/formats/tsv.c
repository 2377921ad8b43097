/* tsv.c: the CSV with tabs between the fields; the metadata lines as they
 * are. */
#include "format_impl.h"

static int comment(rl_fmt_stream *st, const char *line, size_t len)
{
  return rl_fmt_put(st, line, len) || rl_fmt_put(st, "\n", 1) ? -1 : 0;
}

static int row(rl_fmt_stream *st, rl_fmt_cell *c, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if ((i && rl_fmt_put(st, "\t", 1)) || rl_fmt_put(st, c[i].text, c[i].len))
      return -1;
  return rl_fmt_put(st, "\n", 1);
}

static const char *const ext[] = {".tsv", NULL};

const rl_format_type rl_fmt_tsv = {
    .name = "tsv",
    .ext = ext,
    .note = "(tabs)",
    .comment = comment,
    .header = row,
    .row = row,
};
