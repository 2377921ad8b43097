/* registry.c: the output formats, in the order --output-format's help and
 * messages list them; the first is the default.  A new format is one file
 * in this folder ending in its rl_format_type rl_fmt_NAME, one X(NAME)
 * line here and one line in src/meson.build (tests/cli/newformat shows
 * it). */
#include <stddef.h>
#include "format_impl.h"

#ifdef RL_TEST_FORMAT /* the test build's format (tests/cli/newformat) */
#define TEST_FORMATS(X) X(test_md)
#else
#define TEST_FORMATS(X)
#endif

#define RL_FORMATS(X) \
  X(csv)              \
  X(tsv)              \
  X(jsonl)            \
  X(npy)              \
  TEST_FORMATS(X)     \
  /* new formats: one line above, ending in a backslash */

#define X(n) extern const rl_format_type rl_fmt_##n;
RL_FORMATS(X)
#undef X

#define X(n) &rl_fmt_##n,
static const rl_format_type *const types[] = {RL_FORMATS(X) NULL};
#undef X

const rl_format_type *const *rl_fmt_registry(void)
{
  return types;
}
