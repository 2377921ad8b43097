/* test_decl_help.c: a declared option's help row (rl_decl_help_at,
 * src/cli/options/decl_opts.c) whatever the length of its help.
 *
 * The help is 400 words "w0000" .. "w0399" (2399 bytes, past the 640-byte
 * buffer the rows were once built in, which made `profile --help` write
 * past it when a help grew): every word must come out once, in order,
 * with the row's range and default after the last one, "(0..60; default
 * 0.3)", and no wrapped line wider than the help's 80 columns.  Expected
 * by construction: the words are numbered. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "decl_opts.h"

typedef struct { double x; } obj;

int main(void)
{
  enum { WORDS = 400 };
  char *help = malloc(WORDS * 6);
  for (int i = 0; i < WORDS; i++)
    sprintf(help + 6 * i, "w%04d%s", i, i + 1 < WORDS ? " " : "");
  const rl_param p = {.key = "long", .kind = RL_PK_REAL, .lo = 0, .hi = 60, .dflt = 0.3,
                      .metavar = "S", .help = help};
  const rl_param *list[] = {&p, NULL};
  char *out = NULL;
  size_t n = 0;
  FILE *fp = open_memstream(&out, &n);
  rl_decl_help_at(fp, list, 21);
  fclose(fp);
  int next = 0, wide = 0;
  size_t col = 0;
  for (const char *s = out; *s; s++) {
    col = *s == '\n' ? 0 : col + 1;
    wide |= col > 80;
    int k;
    if (*s == 'w' && sscanf(s + 1, "%4d", &k) == 1 && k == next)
      next++;
  }
  tap_ok(next == WORDS, "every word of a 2399-byte help, in order (%d of %d)", next, WORDS);
  /* after the last word, wrapped or not, the range and default */
  const char *last = strstr(out, "w0399");
  const char *tail = last ? last + 5 + strspn(last + 5, " \n") : "";
  tap_ok(strcmp(tail, "(0..60; default 0.3)\n") == 0, "the range and default after the last word");
  tap_ok(!wide, "no line wider than 80 columns");
  free(out);
  free(help);
  return tap_done();
}
