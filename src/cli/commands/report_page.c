/* report_page.c: see report_page.h.  The page is written twice as it is
 * built, once as Markdown and once as HTML, from the same calls, so the
 * two say the same thing without a Markdown parser in between. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np (glibc 2.29) */
#include "report_page.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "out.h"

extern char **environ;

/* ---- rp_buf ----------------------------------------------------------- */

void rp_buf_add(rp_buf *b, const char *s, size_t n)
{
  if (b->err)
    return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->n + n + 1)
      cap *= 2;
    char *t = realloc(b->s, cap);
    if (!t) {
      b->err = 1;
      return;
    }
    b->s = t;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}

void rp_buf_puts(rp_buf *b, const char *s) { rp_buf_add(b, s, strlen(s)); }

void rp_buf_printf(rp_buf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->err = 1;
    return;
  }
  rp_buf_add(b, s, (size_t)n);
  free(s);
}

void rp_buf_free(rp_buf *b)
{
  free(b->s);
  memset(b, 0, sizeof *b);
}

/* ---- the page --------------------------------------------------------- */

static void html_escape(rp_buf *b, const char *s, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    switch (s[i]) {
    case '&': rp_buf_puts(b, "&amp;"); break;
    case '<': rp_buf_puts(b, "&lt;"); break;
    case '>': rp_buf_puts(b, "&gt;"); break;
    case '"': rp_buf_puts(b, "&quot;"); break;
    default: rp_buf_add(b, s + i, 1);
    }
  }
}

/* text with `code` spans into HTML */
static void html_text(rp_buf *b, const char *s)
{
  while (*s) {
    const char *q = strchr(s, '`');
    const char *e = q ? strchr(q + 1, '`') : NULL;
    if (!q || !e) {
      html_escape(b, s, strlen(s));
      return;
    }
    html_escape(b, s, (size_t)(q - s));
    rp_buf_puts(b, "<code>");
    html_escape(b, q + 1, (size_t)(e - q - 1));
    rp_buf_puts(b, "</code>");
    s = e + 1;
  }
}

/* a table cell in Markdown: '|' escaped, line breaks as blanks */
static void md_cell(rp_buf *b, const char *s)
{
  for (; *s; s++) {
    if (*s == '|')
      rp_buf_puts(b, "\\|");
    else if (*s == '\n')
      rp_buf_puts(b, " ");
    else
      rp_buf_add(b, s, 1);
  }
}

static void end_list(rp_page *p)
{
  if (p->in_list) {
    rp_buf_puts(&p->md, "\n");
    rp_buf_puts(&p->html, "</ul>\n");
    p->in_list = 0;
  }
}

void rp_page_begin(rp_page *p, const char *dir, const char *title)
{
  memset(p, 0, sizeof *p);
  p->dir = dir;
  rp_buf_puts(&p->html,
              "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
  html_escape(&p->html, title, strlen(title));
  rp_buf_puts(&p->html,
              "</title>\n<style>\n"
              "body { font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; max-width: 1180px;"
              " margin: 1.5em auto; padding: 0 1.5em; color: #1a1a1a; line-height: 1.45; }\n"
              "h1 { font-size: 1.6em; border-bottom: 2px solid #ccc; padding-bottom: .2em; }\n"
              "h2 { font-size: 1.3em; margin-top: 1.8em; border-bottom: 1px solid #ddd; }\n"
              "h3 { font-size: 1.1em; margin-top: 1.4em; }\n"
              "table { border-collapse: collapse; margin: .6em 0; font-size: .92em; }\n"
              "th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left;"
              " vertical-align: top; }\n"
              "th { background: #f2f2f2; }\n"
              "td { font-variant-numeric: tabular-nums; }\n"
              "pre { background: #f6f6f6; border-left: 3px solid #999; padding: .5em .8em;"
              " overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85em; }\n"
              "code { font-family: 'DejaVu Sans Mono', monospace; font-size: .92em; }\n"
              ".figs { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }\n"
              ".figs figure { margin: 0; flex: 1 1 0; min-width: 360px; max-width: 900px; }\n"
              ".figs img { width: 100%; height: auto; border: 1px solid #eee; }\n"
              "figcaption { font-size: .85em; color: #555; }\n"
              "details { margin: .6em 0; } summary { cursor: pointer; color: #0645ad; }\n"
              "</style>\n</head>\n<body>\n");
  rp_heading(p, 1, title);
}

void rp_page_end(rp_page *p)
{
  end_list(p);
  rp_buf_puts(&p->html, "</body>\n</html>\n");
}

void rp_heading(rp_page *p, int level, const char *text)
{
  end_list(p);
  for (int i = 0; i < level; i++)
    rp_buf_puts(&p->md, "#");
  rp_buf_printf(&p->md, " %s\n\n", text);
  rp_buf_printf(&p->html, "<h%d>", level);
  html_text(&p->html, text);
  rp_buf_printf(&p->html, "</h%d>\n", level);
}

void rp_para(rp_page *p, const char *fmt, ...)
{
  end_list(p);
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0) {
    p->md.err = p->html.err = 1;
    return;
  }
  rp_buf_printf(&p->md, "%s\n\n", s);
  rp_buf_puts(&p->html, "<p>");
  html_text(&p->html, s);
  rp_buf_puts(&p->html, "</p>\n");
  free(s);
}

void rp_item(rp_page *p, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0) {
    p->md.err = p->html.err = 1;
    return;
  }
  if (!p->in_list) {
    rp_buf_puts(&p->html, "<ul>\n");
    p->in_list = 1;
  }
  rp_buf_printf(&p->md, "- %s\n", s);
  rp_buf_puts(&p->html, "<li>");
  html_text(&p->html, s);
  rp_buf_puts(&p->html, "</li>\n");
  free(s);
}

void rp_command(rp_page *p, const char *line)
{
  end_list(p);
  rp_buf_printf(&p->md, "```sh\n%s\n```\n\n", line);
  rp_buf_puts(&p->html, "<pre><code>");
  html_escape(&p->html, line, strlen(line));
  rp_buf_puts(&p->html, "</code></pre>\n");
}

static void table_row(rp_page *p, size_t n, const char *const *cells, const char *tag)
{
  rp_buf_puts(&p->md, "|");
  rp_buf_puts(&p->html, "<tr>");
  for (size_t i = 0; i < n; i++) {
    rp_buf_puts(&p->md, " ");
    md_cell(&p->md, cells[i] ? cells[i] : "");
    rp_buf_puts(&p->md, " |");
    rp_buf_printf(&p->html, "<%s>", tag);
    html_text(&p->html, cells[i] ? cells[i] : "");
    rp_buf_printf(&p->html, "</%s>", tag);
  }
  rp_buf_puts(&p->md, "\n");
  rp_buf_puts(&p->html, "</tr>\n");
}

void rp_table_head(rp_page *p, size_t n, const char *const *cells)
{
  end_list(p);
  rp_buf_puts(&p->html, "<table>\n<thead>\n");
  table_row(p, n, cells, "th");
  rp_buf_puts(&p->md, "|");
  for (size_t i = 0; i < n; i++)
    rp_buf_puts(&p->md, " --- |");
  rp_buf_puts(&p->md, "\n");
  rp_buf_puts(&p->html, "</thead>\n<tbody>\n");
}

void rp_table_row(rp_page *p, size_t n, const char *const *cells) { table_row(p, n, cells, "td"); }

void rp_table_end(rp_page *p)
{
  rp_buf_puts(&p->md, "\n");
  rp_buf_puts(&p->html, "</tbody>\n</table>\n");
}

void rp_figures(rp_page *p, size_t n, const char *const *files, const char *const *alts)
{
  end_list(p);
  if (n == 1) {
    rp_buf_printf(&p->md, "![%s](%s)\n\n", alts[0], files[0]);
  } else {
    /* side by side: a one-row table, the form GitHub and pandoc both draw */
    rp_buf_puts(&p->md, "|");
    for (size_t i = 0; i < n; i++)
      rp_buf_puts(&p->md, " |");
    rp_buf_puts(&p->md, "\n|");
    for (size_t i = 0; i < n; i++)
      rp_buf_puts(&p->md, " --- |");
    rp_buf_puts(&p->md, "\n|");
    for (size_t i = 0; i < n; i++)
      rp_buf_printf(&p->md, " ![%s](%s) |", alts[i], files[i]);
    rp_buf_puts(&p->md, "\n\n");
  }
  rp_buf_puts(&p->html, "<div class=\"figs\">\n");
  for (size_t i = 0; i < n; i++) {
    rp_buf_puts(&p->html, "<figure><img alt=\"");
    html_escape(&p->html, alts[i], strlen(alts[i]));
    rp_buf_puts(&p->html, "\" src=\"data:image/png;base64,");
    char *path = NULL;
    if (asprintf(&path, "%s/%s", p->dir, files[i]) < 0 || rp_base64_file(&p->html, path))
      p->html.err = 1;
    free(path);
    rp_buf_puts(&p->html, "\"><figcaption>");
    html_escape(&p->html, files[i], strlen(files[i]));
    rp_buf_puts(&p->html, "</figcaption></figure>\n");
  }
  rp_buf_puts(&p->html, "</div>\n");
}

void rp_details_begin(rp_page *p, const char *summary)
{
  end_list(p);
  /* GitHub's Markdown passes <details> through; a blank line after
   * <summary> lets the table inside be Markdown again */
  rp_buf_puts(&p->md, "<details><summary>");
  md_cell(&p->md, summary);
  rp_buf_puts(&p->md, "</summary>\n\n");
  rp_buf_puts(&p->html, "<details><summary>");
  html_text(&p->html, summary);
  rp_buf_puts(&p->html, "</summary>\n");
}

void rp_details_end(rp_page *p)
{
  end_list(p);
  rp_buf_puts(&p->md, "</details>\n\n");
  rp_buf_puts(&p->html, "</details>\n");
}

/* ---- tables ----------------------------------------------------------- */

/* split one line at commas, RFC 4180 quotes undone; NULL on no memory */
static char **split(const char *s, size_t *n)
{
  size_t cap = 8, k = 0;
  char **v = malloc(cap * sizeof *v);
  rp_buf cell = {0};
  if (!v)
    return NULL;
  for (;;) {
    cell.n = 0;
    rp_buf_add(&cell, "", 0);
    if (*s == '"') {
      for (s++; *s; s++) {
        if (*s == '"' && s[1] == '"')
          rp_buf_add(&cell, s++, 1);
        else if (*s == '"') {
          s++;
          break;
        } else
          rp_buf_add(&cell, s, 1);
      }
    }
    while (*s && *s != ',')
      rp_buf_add(&cell, s++, 1);
    if (k == cap) {
      char **t = realloc(v, (cap *= 2) * sizeof *v);
      if (!t)
        break;
      v = t;
    }
    v[k++] = cell.err ? NULL : strdup(cell.s);
    if (!v[k - 1] || !*s)
      break;
    s++;
  }
  rp_buf_free(&cell);
  *n = k;
  for (size_t i = 0; i < k; i++)
    if (!v[i]) {
      for (size_t j = 0; j < k; j++)
        free(v[j]);
      free(v);
      return NULL;
    }
  return v;
}

static void free_cells(char **v, size_t n)
{
  if (!v)
    return;
  for (size_t i = 0; i < n; i++)
    free(v[i]);
  free(v);
}

void rp_table_free(rp_table *t)
{
  free_cells(t->col, t->ncol);
  for (size_t i = 0; i < t->nmeta; i++) {
    free(t->mkey[i]);
    free(t->mval[i]);
  }
  free(t->mkey);
  free(t->mval);
  for (size_t i = 0; i < t->nrow; i++)
    free_cells(t->row[i], t->ncol);
  free(t->row);
  memset(t, 0, sizeof *t);
}

int rp_table_read(const char *path, rp_table *t)
{
  memset(t, 0, sizeof *t);
  FILE *fp = fopen(path, "r");
  if (!fp)
    return -1;
  char *line = NULL;
  size_t lcap = 0, mcap = 0, rcap = 0;
  ssize_t len;
  int rc = 0;
  while (!rc && (len = getline(&line, &lcap, fp)) >= 0) {
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
      line[--len] = '\0';
    if (line[0] == '#') {
      const char *kv = line + 1 + (line[1] == ' ');
      const char *eq = strchr(kv, '=');
      if (!eq)
        continue;
      if (t->nmeta == mcap) {
        mcap = mcap ? 2 * mcap : 32;
        char **a = realloc(t->mkey, mcap * sizeof *a), **b;
        if (a)
          t->mkey = a;
        b = a ? realloc(t->mval, mcap * sizeof *b) : NULL;
        if (!b) {
          rc = -1;
          break;
        }
        t->mval = b;
      }
      t->mkey[t->nmeta] = strndup(kv, (size_t)(eq - kv));
      t->mval[t->nmeta] = strdup(eq + 1);
      if (!t->mkey[t->nmeta] || !t->mval[t->nmeta]) {
        free(t->mkey[t->nmeta]);
        free(t->mval[t->nmeta]);
        rc = -1;
        break;
      }
      t->nmeta++;
      continue;
    }
    size_t n;
    char **cells = split(line, &n);
    if (!cells) {
      rc = -1;
      break;
    }
    if (!t->col) {
      t->col = cells;
      t->ncol = n;
      continue;
    }
    /* every row ncol cells, so that a cell is never out of bounds */
    char **r = calloc(t->ncol ? t->ncol : 1, sizeof *r);
    for (size_t j = 0; r && j < t->ncol; j++)
      if (!(r[j] = strdup(j < n ? cells[j] : ""))) {
        free_cells(r, j);
        r = NULL;
      }
    free_cells(cells, n);
    if (!r) {
      rc = -1;
      break;
    }
    if (t->nrow == rcap) {
      rcap = rcap ? 2 * rcap : 64;
      char ***a = realloc(t->row, rcap * sizeof *a);
      if (!a) {
        free_cells(r, t->ncol);
        rc = -1;
        break;
      }
      t->row = a;
    }
    t->row[t->nrow++] = r;
  }
  free(line);
  if (ferror(fp) || !t->col)
    rc = -1;
  fclose(fp);
  if (rc)
    rp_table_free(t);
  return rc;
}

int rp_table_colidx(const rp_table *t, const char *name)
{
  for (size_t j = 0; j < t->ncol; j++)
    if (!strcmp(t->col[j], name))
      return (int)j;
  return -1;
}

const char *rp_table_meta(const rp_table *t, const char *key)
{
  for (size_t i = 0; i < t->nmeta; i++)
    if (!strcmp(t->mkey[i], key))
      return t->mval[i];
  return NULL;
}

const char *rp_cell(const rp_table *t, size_t i, const char *name)
{
  int j = rp_table_colidx(t, name);
  return j < 0 || i >= t->nrow ? "" : t->row[i][j];
}

/* ---- subcommands ------------------------------------------------------ */

int rp_spawn(const char *dir, char *const *argv, const char *errfile)
{
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa))
    return -1;
  int bad = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0) ||
            posix_spawn_file_actions_addopen(&fa, 2, errfile, O_WRONLY | O_CREAT | O_TRUNC, 0666) ||
            posix_spawn_file_actions_addchdir_np(&fa, dir);
  /* the child takes the default action for the signals whose handler
   * removes our temp files (it must not remove them), and is ended by
   * that handler if we are killed first */
  posix_spawnattr_t at;
  sigset_t def, old;
  sigemptyset(&def);
  sigaddset(&def, SIGINT);
  sigaddset(&def, SIGTERM);
  sigaddset(&def, SIGHUP);
  sigaddset(&def, SIGPIPE);
  bad = bad || posix_spawnattr_init(&at);
  if (!bad) {
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
  }
  pid_t pid = -1;
  int rc = -1;
  if (!bad) {
    rl_signals_block(&old);
    if (posix_spawn(&pid, "/proc/self/exe", &fa, &at, argv, environ) == 0)
      rl_child_set(pid);
    else
      pid = -1;
    rl_signals_restore(&old);
    posix_spawnattr_destroy(&at);
  }
  posix_spawn_file_actions_destroy(&fa);
  if (pid < 0)
    return -1;
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      rl_child_set(0);
      return -1;
    }
  rl_child_set(0);
  if (WIFEXITED(st))
    rc = WEXITSTATUS(st);
  else if (WIFSIGNALED(st))
    rc = 128 + WTERMSIG(st);
  return rc;
}

char *rp_command_line(char *const *argv)
{
  rp_buf b = {0};
  for (size_t i = 0; argv[i]; i++) {
    const char *a = argv[i];
    if (i)
      rp_buf_puts(&b, " ");
    int plain = *a != '\0';
    for (const char *c = a; *c; c++)
      if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *c))
        plain = 0;
    if (plain) {
      rp_buf_puts(&b, a);
      continue;
    }
    rp_buf_puts(&b, "'");
    for (const char *c = a; *c; c++)
      if (*c == '\'')
        rp_buf_puts(&b, "'\\''");
      else
        rp_buf_add(&b, c, 1);
    rp_buf_puts(&b, "'");
  }
  if (b.err || !b.s) {
    rp_buf_free(&b);
    return NULL;
  }
  return b.s;
}

int rp_base64_file(rp_buf *b, const char *path)
{
  static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return -1;
  unsigned char in[3 * 1024];
  char out[4 * 1024];
  size_t n, have = 0;
  /* whole groups of three bytes per block; the tail padded at the end */
  while ((n = fread(in + have, 1, sizeof in - have, fp)) > 0 || have) {
    n += have;
    int last = feof(fp) || ferror(fp);
    size_t whole = last ? n : n - n % 3, k = 0;
    for (size_t i = 0; i < whole; i += 3) {
      unsigned v = (unsigned)in[i] << 16;
      if (i + 1 < whole)
        v |= (unsigned)in[i + 1] << 8;
      if (i + 2 < whole)
        v |= in[i + 2];
      out[k++] = tab[v >> 18 & 63];
      out[k++] = tab[v >> 12 & 63];
      out[k++] = i + 1 < whole ? tab[v >> 6 & 63] : '=';
      out[k++] = i + 2 < whole ? tab[v & 63] : '=';
    }
    rp_buf_add(b, out, k);
    have = n - whole;
    memmove(in, in + whole, have);
    if (last)
      break;
  }
  int err = ferror(fp);
  fclose(fp);
  return err || b->err ? -1 : 0;
}
