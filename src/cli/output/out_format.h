/* out_format.h: the output formats of every table, one place: CSV (what
 * every command writes), and TSV, JSON Lines and .npy made from it as
 * the lines pass (a stream between the command and the file), so that a
 * command knows nothing of them and a new format is one more case here.
 *
 *   csv    as written: header row, '# key=value' metadata, rows
 *   tsv    the same with tabs between fields (metadata lines unchanged)
 *   jsonl  one JSON object per row, keyed by the header's names: numbers
 *          as numbers, text as strings, an empty (n/a) cell as null, inf
 *          as the string "inf" (JSON has no infinity); the metadata first,
 *          as one object {"ropelab_meta": {key: value, ...}}
 *   npy    one float64 array (rows, columns), C order, format 1.0; the
 *          metadata and the column names in FILE.json beside it (as
 *          --meta json writes them); numeric tables only (an empty cell
 *          is NaN), -o naming a regular file
 * Chosen by --output-format, else by -o's extension (.tsv, .jsonl,
 * .ndjson, .npy), else csv. */
#ifndef RL_CLI_OUT_FORMAT_H
#define RL_CLI_OUT_FORMAT_H

#include <stdio.h>

typedef enum { RL_FMT_CSV, RL_FMT_TSV, RL_FMT_JSONL, RL_FMT_NPY, RL_FMT_N } rl_out_fmt;

extern const char *const rl_out_fmt_names[RL_FMT_N];

/* --output-format for the outputs opened from now on (-1: by extension);
 * returns the one it replaces. */
int rl_out_set_format(int fmt);
/* The format of an output to path (NULL: stdout): --output-format, else
 * path's extension, else csv. */
rl_out_fmt rl_out_format_for(const char *path);

/* A stream that turns the CSV written to it into fmt on raw (fmt not
 * csv); header 0 when no header row comes (--no-header).  Its close
 * finishes the format (npy: the shape into the header, so raw must be
 * seekable) but leaves raw open.  NULL without memory. */
typedef struct rl_fmt_stream rl_fmt_stream;
FILE *rl_fmt_open(rl_out_fmt fmt, FILE *raw, int header, rl_fmt_stream **st);
/* After a failed write or close: the reason as one line, or NULL (then
 * errno told it). */
const char *rl_fmt_error(const rl_fmt_stream *st);
/* npy: the header's names, comma-separated ("" without a header). */
const char *rl_fmt_names(rl_fmt_stream *st);
void rl_fmt_free(rl_fmt_stream *st);

#endif
