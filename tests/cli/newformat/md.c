/* md.c: an output format that exists only in the test build, to show what
 * adding a format touches: this file (ending in its rl_format_type), one
 * line in src/cli/output/formats/registry.c (under RL_TEST_FORMAT) and its
 * tests; nothing else of src/cli, and no command.  A GitHub-flavoured
 * Markdown table: the header row (column<i> names without one), its
 * '|---|' delimiter row, then a row per row, '|' in a cell escaped as
 * '\|'; the metadata lines as HTML comments before the table (written as
 * they come, so the table starts at the first row). */
#include <string.h>
#include "formats/format_impl.h"

typedef struct {
  int head_done;
} md;

static int comment(rl_fmt_stream *st, const char *line, size_t len)
{
  size_t skip = len > 1 && line[1] == ' ' ? 2 : 1;
  return rl_fmt_put(st, "<!-- ", 5) || rl_fmt_put(st, line + skip, len - skip) ||
                 rl_fmt_put(st, " -->\n", 5)
             ? -1
             : 0;
}

static int cell(rl_fmt_stream *st, const char *s)
{
  for (size_t n; *s; s += n) {
    n = strcspn(s, "|");
    if (rl_fmt_put(st, s, n) || (s[n] && rl_fmt_put(st, "\\|", 2)))
      return -1;
    n += s[n] != 0;
  }
  return 0;
}

static int head(rl_fmt_stream *st, size_t n)
{
  md *m = st->state;
  if (m->head_done)
    return 0;
  m->head_done = 1;
  char alt[32];
  for (size_t i = 0; i < n; i++)
    if (rl_fmt_put(st, "| ", 2) || cell(st, rl_fmt_col_name(st, i, alt)) || rl_fmt_put(st, " ", 1))
      return -1;
  if (rl_fmt_put(st, "|\n", 2))
    return -1;
  for (size_t i = 0; i < n; i++)
    if (rl_fmt_put(st, "|---", 4))
      return -1;
  return rl_fmt_put(st, "|\n", 2);
}

static int row(rl_fmt_stream *st, rl_fmt_cell *c, size_t n)
{
  if (head(st, st->have_header ? st->ncols : n))
    return -1;
  for (size_t i = 0; i < n; i++)
    if (rl_fmt_put(st, "| ", 2) || cell(st, c[i].text) || rl_fmt_put(st, " ", 1))
      return -1;
  return rl_fmt_put(st, "|\n", 2);
}

static int end(rl_fmt_stream *st)
{
  return st->have_header ? head(st, st->ncols) : 0; /* a table without rows */
}

static const char *const ext[] = {".md", NULL};

const rl_format_type rl_fmt_test_md = {
    .name = "md",
    .ext = ext,
    .note = "(a Markdown table; test build)",
    .state_size = sizeof(md),
    .comment = comment,
    .row = row,
    .end = end,
};
