/* report_page.h: the pieces `ropelab report` is made of: a page written
 * as Markdown and HTML at once (the HTML with its figures embedded as
 * data: URIs), a reader of the tables the subcommands wrote, and the run
 * of one subcommand of this same binary. */
#ifndef RL_CLI_REPORT_PAGE_H
#define RL_CLI_REPORT_PAGE_H

#include <stddef.h>

#if defined(__GNUC__)
#define RP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define RP_PRINTF(a, b)
#endif

/* ---- a growing string ---------------------------------------------- */
typedef struct rp_buf {
  char *s;
  size_t n, cap;
  int err; /* out of memory: later appends do nothing */
} rp_buf;

void rp_buf_add(rp_buf *b, const char *s, size_t n);
void rp_buf_puts(rp_buf *b, const char *s);
void rp_buf_printf(rp_buf *b, const char *fmt, ...) RP_PRINTF(2, 3);
void rp_buf_free(rp_buf *b);

/* ---- the page ------------------------------------------------------- */
/* Text given to the page is Markdown-light: `code` spans only; the HTML
 * side escapes it and turns the spans into <code>.  Figures are read from
 * dir (the folder the page is written in) when the HTML embeds them. */
typedef struct rp_page {
  rp_buf md, html;
  const char *dir;
  int in_list;
} rp_page;

void rp_page_begin(rp_page *p, const char *dir, const char *title);
void rp_page_end(rp_page *p);
void rp_heading(rp_page *p, int level, const char *text);
void rp_para(rp_page *p, const char *fmt, ...) RP_PRINTF(2, 3);
void rp_item(rp_page *p, const char *fmt, ...) RP_PRINTF(2, 3); /* a bullet */
void rp_command(rp_page *p, const char *line);                  /* a shell line */
void rp_table_head(rp_page *p, size_t n, const char *const *cells);
void rp_table_row(rp_page *p, size_t n, const char *const *cells);
void rp_table_end(rp_page *p);
/* Figures side by side (n = 1: one figure): file names relative to dir. */
void rp_figures(rp_page *p, size_t n, const char *const *files, const char *const *alts);
void rp_details_begin(rp_page *p, const char *summary);
void rp_details_end(rp_page *p);

/* ---- a table written by a subcommand -------------------------------- */
typedef struct rp_table {
  char **col;   /* header names */
  size_t ncol;
  char **mkey, **mval; /* '# key=value' lines, in order (keys repeat: config.note) */
  size_t nmeta;
  char ***row;  /* row[i][j]: ncol cells each (missing cells "") */
  size_t nrow;
} rp_table;

/* 0, or -1 (unreadable file, no header, out of memory). */
int rp_table_read(const char *path, rp_table *t);
void rp_table_free(rp_table *t);
int rp_table_colidx(const rp_table *t, const char *name); /* -1 if absent */
const char *rp_table_meta(const rp_table *t, const char *key); /* first, or NULL */
/* The cell of row i, column name ("" when absent). */
const char *rp_cell(const rp_table *t, size_t i, const char *name);

/* ---- one subcommand of this binary ---------------------------------- */
/* Run /proc/self/exe with argv (argv[0] "ropelab") in directory dir,
 * standard output to /dev/null, standard error to errfile; the exit
 * status (128 + signal when killed), or -1 if it could not start. */
int rp_spawn(const char *dir, char *const *argv, const char *errfile);

/* The shell form of argv (arguments quoted where a shell needs it). */
char *rp_command_line(char *const *argv);

/* Base64 of the file at path into b (RFC 4648, no line breaks); 0 or -1. */
int rp_base64_file(rp_buf *b, const char *path);

#endif
