/* out_format.h: the output formats of every table, chosen by name or by
 * -o's extension, and the stream that makes them from the CSV a command
 * writes.
 *
 * A format is a type object (formats/format_impl.h), one file each in
 * formats/ ending in it, listed once in formats/registry.c, as dav1d's
 * tools/output/ lists its muxers by name and extension in output.c.  The
 * first in the registry, csv, is what every command writes, and the
 * default; the others are made from it as the lines pass (a stream
 * between the command and the file), so that a command knows nothing of
 * them, and a new format touches its own file and one registry line.
 * Chosen by --output-format, else by -o's extension, else the first.
 * What each format writes is said in its own file; the help line of
 * --output-format is made from the registry (rl_out_format_help). */
#ifndef RL_CLI_OUT_FORMAT_H
#define RL_CLI_OUT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

typedef struct rl_format_type rl_format_type;

/* The registry, in its order, NULL-terminated; the first is the default. */
const rl_format_type *const *rl_out_formats(void);
/* The format named name, or NULL. */
const rl_format_type *rl_out_format_find(const char *name);
const char *rl_out_format_name(const rl_format_type *f);
/* The names in registry order, and how many there are (for enum parsing
 * and messages). */
const char *const *rl_out_format_names(void);
size_t rl_out_format_count(void);

/* The format for the outputs opened from now on (NULL: by extension);
 * returns the one it replaces. */
const rl_format_type *rl_out_format_set(const rl_format_type *f);
/* The format of an output to path (NULL: stdout): the one set, else the
 * one whose extension path ends with, else the first. */
const rl_format_type *rl_out_format_for(const char *path);
/* The --output-format help text (without the option's name), made from
 * the registry: every name with its note, and the extensions. */
void rl_out_format_help(char *buf, size_t size);

/* A stream that turns the CSV written to it into format f on raw (f not
 * the first, which is written as it is); header 0 when no header row
 * comes (--no-header).  Its close finishes the format (e.g. a shape
 * written into a header at the start, so raw must then be seekable) but
 * leaves raw open.  NULL without memory. */
typedef struct rl_fmt_stream rl_fmt_stream;
FILE *rl_fmt_open(const rl_format_type *f, FILE *raw, int header, rl_fmt_stream **st);
/* After a failed write or close: the reason as one line, or NULL (then
 * errno told it). */
const char *rl_fmt_error(const rl_fmt_stream *st);
/* The header's names, comma-separated ("" without a header). */
const char *rl_fmt_names(rl_fmt_stream *st);
void rl_fmt_free(rl_fmt_stream *st);

/* ---- the names of the enum this replaced ------------------------------
 * Kept for the commands that still name a format (merge's own option,
 * angles' direct .npy writer) until they are declarations: a format is
 * now a pointer into the registry, an index its position there. */
typedef const rl_format_type *rl_out_fmt;
#define RL_FMT_CSV (rl_out_formats()[0])
#define RL_FMT_NPY (rl_out_format_find("npy"))
#define RL_FMT_N (rl_out_format_count())
#define rl_out_fmt_names (rl_out_format_names())
/* By registry index (-1: by extension); returns the index it replaces. */
int rl_out_set_format(int k);

#endif
