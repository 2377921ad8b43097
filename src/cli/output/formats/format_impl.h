/* format_impl.h: what an output format's file defines, and what it may
 * call.  A format is one file in this folder ending in its
 * rl_format_type, plus one line in registry.c (and one in meson.build);
 * out.c and the commands name none of them.
 *
 * The stream (out_format.c) cuts the CSV a command writes into lines,
 * gives '#' lines to .comment, keeps the header row's names (st->names)
 * and gives every other row to .row as cells: the fields' text and, on
 * asking (rl_fmt_cell_kind), whether each is empty, a number (and its
 * value) or text.  A format parses no CSV.  A format without .row is
 * the CSV itself: the output layer writes it straight through. */
#ifndef RL_CLI_FORMAT_IMPL_H
#define RL_CLI_FORMAT_IMPL_H

#include <stddef.h>
#include <stdio.h>
#include "msg.h"
#include "out_format.h"

/* One field of a row. */
enum { RL_CELL_UNSEEN, RL_CELL_EMPTY, RL_CELL_NUMBER, RL_CELL_TEXT };
typedef struct rl_fmt_cell {
  const char *text; /* as the command wrote it, NUL-terminated */
  size_t len;
  int kind;   /* RL_CELL_*: use rl_fmt_cell_kind, which fills it once */
  double num; /* RL_CELL_NUMBER: its value (inf and nan included) */
} rl_fmt_cell;
/* RL_CELL_EMPTY (a method's n/a), RL_CELL_NUMBER (the whole field reads
 * as a double, inf included), else RL_CELL_TEXT. */
int rl_fmt_cell_kind(rl_fmt_cell *c);

/* Flags of a type. */
enum {
  /* The format holds numbers only: a text cell is refused. */
  RL_FMT_NUMBERS_ONLY = 1,
  /* It writes its start last (a shape into its header), so it needs -o
   * naming a regular file or a new one (the temp file is seekable):
   * refused for standard output, devices and FIFOs before anything is
   * opened, with .what and .seek_why in the message. */
  RL_FMT_SEEKS = 2,
  /* It has no place for the metadata: the '# key=value' lines and the
   * header's names go to FILE.json beside it (as --meta json writes). */
  RL_FMT_META_BESIDE = 4,
};

struct rl_format_type {
  const char *name;       /* --output-format NAME */
  const char *const *ext; /* -o endings that choose it (".tsv"), NULL-terminated; NULL: none */
  const char *note;       /* its help after the name, "(tabs)"; NULL: none */
  unsigned flags;         /* RL_FMT_* */
  const char *what;       /* RL_FMT_SEEKS: the file in messages, "a .npy array" */
  const char *seek_why;   /* RL_FMT_SEEKS: why, "its shape is written when ..." */
  size_t state_size;      /* its own state, zeroed, at st->state */
  /* Each returns 0, or -1 with errno set or a reason given by
   * rl_fmt_refuse (the first refusal fails every later write).  All may
   * be NULL but .row (NULL .row: the CSV as written). */
  int (*begin)(rl_fmt_stream *st);                                  /* before any line */
  int (*comment)(rl_fmt_stream *st, const char *line, size_t len);  /* a '#' line, no '\n' */
  int (*header)(rl_fmt_stream *st, rl_fmt_cell *names, size_t n);   /* kept in st->names too */
  int (*row)(rl_fmt_stream *st, rl_fmt_cell *cells, size_t n);
  int (*end)(rl_fmt_stream *st);                                    /* after the last line */
  void (*release)(void *state);                                     /* free what state holds */
};

/* The stream, as a format sees it. */
struct rl_fmt_stream {
  const rl_format_type *type;
  void *state;          /* type->state_size bytes */
  FILE *raw;            /* the file */
  int have_header;      /* the header row has been read */
  char **names;         /* its names (ncols of them) */
  size_t ncols;
  unsigned long long rows; /* rows given to .row and taken before this one */
  char why[256];        /* a refusal's reason */
  /* the stream's own */
  int expect_header;
  char *line;
  size_t len, cap;
  rl_fmt_cell *cells;
  size_t cellcap;
  char *joined;
};

/* The registry (registry.c), NULL-terminated. */
const rl_format_type *const *rl_fmt_registry(void);

/* n bytes of s to the file: 0 or -1. */
int rl_fmt_put(rl_fmt_stream *st, const void *s, size_t n);
/* A refusal: the reason (one line, no "ropelab CMD: ") kept for the
 * message, errno EINVAL; returns -1. */
int rl_fmt_refuse(rl_fmt_stream *st, const char *fmt, ...) RL_PRINTF(2, 3);
/* Column i's name: the header's, else "column<i+1>" in buf (32 bytes). */
const char *rl_fmt_col_name(const rl_fmt_stream *st, size_t i, char *buf);
/* *buf grown to hold need bytes: 0, or -1 without memory. */
int rl_fmt_grow(char **buf, size_t *cap, size_t need);
/* The names of the registered formats whose flags have none of the bits
 * of without, as "a, b or c", into buf (e.g. the formats that hold
 * text, for a refusal). */
void rl_fmt_list(char *buf, size_t size, unsigned without);

#endif
