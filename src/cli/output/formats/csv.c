/* csv.c: the CSV itself, as every command writes it: the header row,
 * '# key=value' metadata lines, rows (out.h).  No callbacks: the output
 * layer writes its lines straight to the file, so the common case pays
 * for no stream.  First in the registry: the default. */
#include "format_impl.h"

const rl_format_type rl_fmt_csv = {
    .name = "csv",
};
