/* facet.c: a table drawn as seaborn's relplot draws a tidy frame
 * (facet.h): the drawing behind `ropelab plot` (cmd_plot.c) and a sweep's
 * --plot, and the declarations of its options.  The rows are grouped
 * here, one gnuplot data block per (panel, colour) in the order values
 * first occur, and plots/facet.gp draws the blocks; the table's own
 * metadata lines go along so that the figure's footer names the command
 * that made it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "decl_opts.h"
#include "facet.h"
#include "opt.h"
#include "plot.h"
#include "ropelab.h"
#include "sweep.h"

#define MAX_COLS 256
#define MAX_GROUPS 64
#define MAX_Y 16 /* --y columns; profile has twelve schemes */

typedef struct table {
  char **meta;   /* "# key=value" lines, as read */
  size_t nmeta;
  char *cols[MAX_COLS];
  size_t ncols;
  char ***rows;  /* rows[i][j]: field j of row i */
  size_t nrows, cap;
  char *buf;     /* the file's bytes, fields point into it */
} table;

static void table_free(table *t)
{
  for (size_t i = 0; i < t->nrows; i++)
    free(t->rows[i]);
  free(t->rows);
  free(t->meta);
  free(t->buf);
}

/* split line at commas in place into f (at most max fields) */
static size_t split(char *line, char **f, size_t max)
{
  size_t n = 0;
  for (char *p = line;;) {
    if (n < max)
      f[n] = p;
    n++;
    char *c = strchr(p, ',');
    if (!c)
      break;
    *c = 0;
    p = c + 1;
  }
  return n;
}

static int table_read(table *t, const char *cmd, const char *path)
{
  memset(t, 0, sizeof *t);
  /* the core's reader of a whole file: a FIFO or device is refused, not
   * waited on; a NUL byte is named */
  char err[RL_ERR_MAX];
  size_t len;
  rl_status st = rl_io_slurp(path, (size_t)1 << 30, &t->buf, &len, err, sizeof err);
  if (st == RL_ENOMEM)
    return rl_runtime(cmd, "out of memory");
  if (st)
    return st == RL_EIO ? rl_runtime(cmd, "%s", err) : rl_usage(cmd, "%s", err);
  size_t lineno = 0;
  for (char *p = t->buf, *e; *p; p = e) {
    e = strchr(p, '\n');
    e = e ? (*e = 0, e + 1) : p + strlen(p);
    lineno++;
    size_t l = strlen(p);
    if (l && p[l - 1] == '\r')
      p[l - 1] = 0;
    if (!*p)
      continue;
    if (*p == '#') {
      char **m = realloc(t->meta, (t->nmeta + 1) * sizeof *m);
      if (!m)
        return rl_runtime(cmd, "out of memory");
      t->meta = m;
      t->meta[t->nmeta++] = p;
      continue;
    }
    if (!t->ncols) {
      t->ncols = split(p, t->cols, MAX_COLS);
      if (t->ncols > MAX_COLS)
        return rl_usage(cmd, "%s:%zu: %zu columns: expected at most %d", path, lineno, t->ncols,
                        MAX_COLS);
      continue;
    }
    if (t->nrows == t->cap) {
      size_t c = t->cap ? 2 * t->cap : 256;
      char ***r = realloc(t->rows, c * sizeof *r);
      if (!r)
        return rl_runtime(cmd, "out of memory");
      t->rows = r, t->cap = c;
    }
    char **f = malloc(t->ncols * sizeof *f);
    if (!f)
      return rl_runtime(cmd, "out of memory");
    size_t n = split(p, f, t->ncols);
    if (n != t->ncols) {
      free(f);
      return rl_usage(cmd, "%s:%zu: %zu fields under a header of %zu: expected a ropelab table",
                      path, lineno, n, t->ncols);
    }
    t->rows[t->nrows++] = f;
  }
  if (!t->ncols || !t->nrows)
    return rl_usage(cmd, "'%s' has no %s: expected a CSV table with a header row", path,
                    t->ncols ? "rows" : "header");
  return 0;
}

/* the index of column name, or a usage error naming the columns */
static int column(const table *t, const char *cmd, const char *opt, const char *name, int *idx)
{
  for (size_t j = 0; j < t->ncols; j++)
    if (!strcmp(t->cols[j], name)) {
      *idx = (int)j;
      return 0;
    }
  char all[1024];
  rl_names_alternatives((const char *const *)t->cols, t->ncols, all, sizeof all);
  size_t s = rl_suggest(name, (const char *const *)t->cols, t->ncols);
  if (s < t->ncols)
    return rl_usage(cmd, "invalid %s '%s': no such column; did you mean '%s'?", opt, name,
                    t->cols[s]);
  return rl_usage(cmd, "invalid %s '%s': no such column; expected %s", opt, name, all);
}

/* the label of row i under the columns idx[0..n) ("rope", "8, yarn") */
static void label(const table *t, size_t i, const int *idx, size_t n, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  for (size_t k = 0; k < n && len < size; k++) {
    const char *v = t->rows[i][idx[k]];
    len += (size_t)snprintf(buf + len, size - len, "%s%s", k ? ", " : "", *v ? v : "n/a");
  }
}

/* index of s in list (adding it), or -1 when list is full */
static int intern(char list[][128], size_t *n, const char *s)
{
  for (size_t k = 0; k < *n; k++)
    if (!strcmp(list[k], s))
      return (int)k;
  if (*n == MAX_GROUPS)
    return -1;
  snprintf(list[*n], 128, "%.127s", s); /* cut to the slot (gcc -O3 -Wformat-truncation) */
  return (int)(*n)++;
}

static int num(const char *s, double *x)
{
  char *e;
  if (!*s)
    return 0;
  *x = strtod(s, &e);
  return !*e && isfinite(*x);
}

/* A metadata value with newlines or '=' is fine: facet.gp reads
 * '# facet_KEY=' lines with sed up to the end of the line. */
static void meta_line(FILE *fp, const char *key, const char *val)
{
  fprintf(fp, "# facet_%s=", key);
  for (const char *c = val; *c; c++)
    fputc(*c == '\n' ? ' ' : *c, fp);
  fputc('\n', fp);
}

/* the declared parameter whose metadata key is key, or NULL */
static const rl_param *declared(const char *key)
{
  char opt[64];
  snprintf(opt, sizeof opt, "%s", key);
  for (char *c = opt; *c; c++)
    if (*c == '_')
      *c = '-';
  const rl_param *d = rl_schedule_param_find(opt);
  for (const rl_param *const *q = rl_scheme_param_list(); !d && *q; q++)
    if (!strcmp((*q)->key, opt))
      d = *q;
  return d;
}

/* The title's second line: what every curve shares, from the metadata
 * (the declared parameters given one value for the whole table, dim and
 * base always, the rest where they differ from their default). */
static void fixed_params(const table *t, const rl_facet *fc, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  for (size_t m = 0; m < t->nmeta && len < size; m++) {
    const char *l = t->meta[m] + 1;
    l += strspn(l, " ");
    const char *eq = strchr(l, '=');
    if (!eq || memchr(l, '[', (size_t)(eq - l)) || eq - l >= 64)
      continue; /* per point: the curves show it */
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(eq - l), l);
    const rl_param *d = declared(key);
    int shown = 0;
    for (size_t j = 0; j < t->ncols; j++)
      shown |= !strcmp(t->cols[j], key); /* a column: swept or drawn */
    if (!d || shown || (fc->hue && strstr(fc->hue, key)))
      continue;
    char dflt[128];
    rl_param_default_text(d, dflt, sizeof dflt);
    if (strcmp(key, "dim") && strcmp(key, "base") && !strcmp(dflt, eq + 1))
      continue;
    if (!strcmp(key, "rot") || !strcmp(key, "variant"))
      continue; /* rot = dim and the variant of the default are noise here */
    len += (size_t)snprintf(buf + len, size - len, "%s%s %s", len ? ", " : "", key, eq + 1);
  }
}

#define ALL_PANELS (-2) /* a row drawn in every panel */

/* The units of the table's columns: fc->units, else those of the command
 * that made it (its '# command=' line's second word, sweep_table.c) */
static const char *table_units(const table *t, const rl_facet *fc)
{
  if (fc->units)
    return fc->units;
  for (size_t m = 0; m < t->nmeta; m++) {
    const char *l = t->meta[m] + 1;
    l += strspn(l, " ");
    if (strncmp(l, "command=", 8))
      continue;
    l += 8;
    l += strcspn(l, " "); /* the binary */
    l += strspn(l, " ");
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(l, " "), l);
    const rl_sweep_spec *sp = rl_sweep_find(name);
    return sp->cmd ? sp->plot_units : NULL;
  }
  return NULL;
}

/* "COL (UNIT)", or COL when the unit is unknown */
static void axis_label(const char *units, const char *col, char *out, size_t size)
{
  char u[64];
  rl_sweep_unit(units, col, u, sizeof u);
  snprintf(out, size, u[0] ? "%s (%s)" : "%s", col, u);
}

int rl_plot_table(const char *cmd, const char *table_path, const char *image,
                  const rl_facet *fc)
{
  table t;
  int rc = table_read(&t, cmd, table_path);
  if (rc) {
    table_free(&t);
    return rc;
  }
  int xi, yi[MAX_Y], hi[8], ci = -1, si = -1;
  size_t ny = 0, nh = 0;
  char ybuf[1024], hbuf[512];
  snprintf(ybuf, sizeof ybuf, "%s", fc->y);
  snprintf(hbuf, sizeof hbuf, "%s", fc->hue ? fc->hue : "");
  char *ys[MAX_Y], *hs[8];
  ny = split(ybuf, ys, MAX_Y);
  nh = fc->hue && *fc->hue ? split(hbuf, hs, 8) : 0;
  if (ny > MAX_Y || nh > 8) {
    table_free(&t);
    return rl_usage(cmd, "invalid %s: more than %d columns", ny > MAX_Y ? "--y" : "--hue",
                    ny > MAX_Y ? MAX_Y : 8);
  }
  /* several measures of a sweep: a row of panels each (yrows), the
   * values of --col across */
  int yrows = fc->y_rows && ny > 1;
  if ((rc = column(&t, cmd, "--x", fc->x, &xi)))
    goto done;
  for (size_t k = 0; k < ny; k++)
    if ((rc = column(&t, cmd, "--y", ys[k], &yi[k])))
      goto done;
  for (size_t k = 0; k < nh; k++)
    if ((rc = column(&t, cmd, "--hue", hs[k], &hi[k])))
      goto done;
  if (fc->col && *fc->col && (rc = column(&t, cmd, "--col", fc->col, &ci)))
    goto done;
  if (fc->style && *fc->style && (rc = column(&t, cmd, "--style", fc->style, &si)))
    goto done;
  /* groups: panels by --col (and by y with yrows), curves by --hue (and
   * by y when several without yrows) and --style; a curve's colour is its
   * hue's, its line type its style's */
  static char panels[MAX_GROUPS][128], hues[MAX_GROUPS][128], colours[MAX_GROUPS][128],
      styles[MAX_GROUPS][128];
  static int curve_colour[MAX_GROUPS], curve_style[MAX_GROUPS];
  size_t np = 0, nhue = 0, ncol = 0, nsty = 0;
  int *gp = malloc(t.nrows * ny * sizeof *gp), *gh = malloc(t.nrows * ny * sizeof *gh);
  if (!gp || !gh) {
    free(gp), free(gh);
    rc = rl_runtime(cmd, "out of memory");
    goto done;
  }
  size_t points = 0;
  for (size_t i = 0; i < t.nrows; i++)
    for (size_t k = 0; k < ny; k++) {
      char pl[128] = "", hl[256] = "", both[300], sl[128] = "", curve[440];
      if (ci >= 0)
        snprintf(pl, sizeof pl, "%s = %s", fc->col, *t.rows[i][ci] ? t.rows[i][ci] : "n/a");
      if (si >= 0)
        snprintf(sl, sizeof sl, "%s", *t.rows[i][si] ? t.rows[i][si] : "n/a");
      label(&t, i, hi, nh, hl, sizeof hl);
      if (ny > 1 && !yrows)
        snprintf(both, sizeof both, "%s%s%s", ys[k], nh ? ": " : "", hl);
      else /* with yrows the panel names the measure */
        snprintf(both, sizeof both, "%s", nh ? hl : si >= 0 || yrows ? "" : ys[0]);
      snprintf(curve, sizeof curve, "%s%s%s", both, both[0] && sl[0] ? ", " : "", sl);
      /* a row without a value of the panel column (a method that does
       * not take it: the baseline) is drawn in every panel */
      int p = ci >= 0 && !*t.rows[i][ci] ? ALL_PANELS : intern(panels, &np, pl);
      int h = intern(hues, &nhue, curve);
      int hc = intern(colours, &ncol, both), hst = intern(styles, &nsty, sl);
      if (h >= 0 && hc >= 0 && hst >= 0)
        curve_colour[h] = hc, curve_style[h] = hst;
      if (p == -1 || h < 0 || hc < 0 || hst < 0) {
        free(gp), free(gh);
        rc = rl_usage(cmd, "more than %d %s: expected a column with fewer values", MAX_GROUPS,
                      p < 0 ? "panels (--col)" : "curves (--hue)");
        goto done;
      }
      gp[i * ny + k] = p, gh[i * ny + k] = h;
      double x, y;
      points += num(t.rows[i][xi], &x) && num(t.rows[i][yi[k]], &y);
    }
  if (!np) /* every row's panel cell empty: one panel */
    intern(panels, &np, "");
  /* yrows: panel (measure k, --col value c) is k * np + c */
  size_t ncv = np;
  if (yrows) {
    if (ny * ncv > MAX_GROUPS) {
      free(gp), free(gh);
      rc = rl_usage(cmd, "more than %d panels (%zu measures x %zu --col values): expected fewer",
                    MAX_GROUPS, ny, ncv);
      goto done;
    }
    for (size_t i = 0; i < t.nrows; i++)
      for (size_t k = 0; k < ny; k++)
        if (gp[i * ny + k] != ALL_PANELS)
          gp[i * ny + k] += (int)(k * ncv);
    for (size_t k = ny; k-- > 0;)
      for (size_t c = 0; c < ncv; c++) {
        char pl[128];
        snprintf(pl, sizeof pl, "%s%s%.*s", ys[k], panels[c][0] ? ", " : "", 100, panels[c]);
        snprintf(panels[k * ncv + c], sizeof panels[0], "%s", pl);
      }
    np = ny * ncv;
  }
  if (!points) {
    free(gp), free(gh);
    rc = rl_usage(cmd, "no row has numbers in both --x '%s' and --y '%s': nothing to draw",
                  fc->x, fc->y);
    goto done;
  }
  /* --plot of a sweep: an axis whose positive values span two decades
   * or more is drawn logarithmic (bases over lengths) */
  char autolog[8] = "";
  if (fc->auto_log && !fc->log) {
    /* (several measures in rows: x only; a measure that can be negative,
     * such as B_r, reads wrongly on a log axis that drops those values) */
    double vlo[2] = {INFINITY, INFINITY}, vhi[2] = {0, 0};
    int pos[2] = {1, 1};
    for (size_t i = 0; i < t.nrows; i++)
      for (size_t k = 0; k < ny; k++) {
        double v[2];
        if (!num(t.rows[i][xi], &v[0]) || !num(t.rows[i][yi[k]], &v[1]))
          continue;
        for (int a = 0; a < 2; a++) {
          pos[a] &= v[a] > 0;
          vlo[a] = fmin(vlo[a], v[a]), vhi[a] = fmax(vhi[a], v[a]);
        }
      }
    for (int a = 0; a < (yrows ? 1 : 2); a++)
      if (pos[a] && vhi[a] >= 100 * vlo[a])
        snprintf(autolog + strlen(autolog), sizeof autolog - strlen(autolog), "%s%s",
                 autolog[0] ? "," : "", a ? "y" : "x");
  }
  rl_plot p;
  if ((rc = rl_plot_open(&p, cmd, "facet.gp", image))) {
    free(gp), free(gh);
    goto done;
  }
  FILE *fp = p.data;
  for (size_t m = 0; m < t.nmeta; m++)
    if (strncmp(t.meta[m], "# facet_", 8))
      fprintf(fp, "%s\n", t.meta[m]);
  char v[160];
  snprintf(v, sizeof v, "%zu", np);
  meta_line(fp, "np", v);
  snprintf(v, sizeof v, "%zu", nhue);
  meta_line(fp, "nh", v);
  const char *units = table_units(&t, fc);
  char lab[200];
  axis_label(units, fc->x, lab, sizeof lab);
  meta_line(fp, "x", lab);
  if (ny > 1 && !yrows) {
    meta_line(fp, "y", "value");
  } else if (yrows) { /* the title's: each row has its label */
    char all[600] = "";
    for (size_t k = 0; k < ny; k++)
      snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s",
               k ? (k + 1 < ny ? ", " : " and ") : "", ys[k]);
    meta_line(fp, "y", all);
  } else {
    axis_label(units, ys[0], lab, sizeof lab);
    meta_line(fp, "y", lab);
  }
  if (yrows) {
    /* a row of panels per measure: its label and its own y range, over
     * every drawn value of that measure (log y: the positive ones) */
    snprintf(v, sizeof v, "%zu", ny);
    meta_line(fp, "rows", v);
    int logy = strchr(fc->log ? fc->log : autolog, 'y') != NULL;
    for (size_t k = 0; k < ny; k++) {
      double ylo = INFINITY, yhi = -INFINITY;
      for (size_t i = 0; i < t.nrows; i++) {
        double x, y;
        if (num(t.rows[i][xi], &x) && num(t.rows[i][yi[k]], &y) && (!logy || y > 0))
          ylo = fmin(ylo, y), yhi = fmax(yhi, y);
      }
      axis_label(units, ys[k], lab, sizeof lab);
      snprintf(v, sizeof v, "ylabel_%zu", k + 1);
      meta_line(fp, v, lab);
      char n[64];
      snprintf(v, sizeof v, "ymin_%zu", k + 1);
      snprintf(n, sizeof n, "%.17g", isfinite(ylo) ? ylo : 0.0);
      meta_line(fp, v, n);
      snprintf(v, sizeof v, "ymax_%zu", k + 1);
      snprintf(n, sizeof n, "%.17g", isfinite(yhi) ? yhi : 1.0);
      meta_line(fp, v, n);
    }
  }
  char key[300], hues_said[300] = "";
  for (size_t k = 0; k < nh; k++) /* "precision, dim" */
    snprintf(hues_said + strlen(hues_said), sizeof hues_said - strlen(hues_said), "%s%s",
             k ? ", " : "", hs[k]);
  snprintf(key, sizeof key, "%s%s%s", nh ? hues_said : ny > 1 && !yrows ? "column" : "",
           si >= 0 && (nh || (ny > 1 && !yrows)) ? ", " : "", si >= 0 ? fc->style : "");
  meta_line(fp, "hue", key);
  meta_line(fp, "log", fc->log ? fc->log : autolog);
  meta_line(fp, "title", fc->title ? fc->title : "");
  /* few points a curve (bound's lengths): marked, so each row shows */
  meta_line(fp, "points", points <= 30 * nhue * np ? "yes" : "");
  char fixed[400];
  fixed_params(&t, fc, fixed, sizeof fixed);
  meta_line(fp, "fixed", fixed);
  for (size_t k = 0; k < np; k++) {
    snprintf(v, sizeof v, "panel_%zu", k + 1);
    meta_line(fp, v, panels[k]);
  }
  for (size_t k = 0; k < nhue; k++) {
    snprintf(v, sizeof v, "hue_%zu", k + 1);
    meta_line(fp, v, hues[k]);
    char n[32];
    snprintf(v, sizeof v, "colour_%zu", k + 1);
    snprintf(n, sizeof n, "%d", curve_colour[k] + 1);
    meta_line(fp, v, n);
    snprintf(v, sizeof v, "dash_%zu", k + 1);
    snprintf(n, sizeof n, "%d", curve_style[k] + 1);
    meta_line(fp, v, n);
  }
  /* block (p, h) is index p * nhue + h; an empty block holds one point
   * already drawn elsewhere, which a line of one point does not show,
   * so the numbering holds without gnuplot's warning on a block with no
   * valid point */
  for (size_t pi = 0; pi < np; pi++)
    for (size_t h = 0; h < nhue; h++) {
      /* the placeholder: the first point of the panel's measure (with
       * yrows; else of any), inside the panel's y range */
      double x0 = NAN, y0 = NAN;
      for (size_t i = 0; i < t.nrows && isnan(x0); i++)
        for (size_t k = yrows ? pi / ncv : 0; k < (yrows ? pi / ncv + 1 : ny) && isnan(x0); k++)
          if (!num(t.rows[i][xi], &x0) || !num(t.rows[i][yi[k]], &y0))
            x0 = y0 = NAN;
      size_t n = 0;
      for (size_t i = 0; i < t.nrows; i++)
        for (size_t k = 0; k < ny; k++) {
          /* a baseline row goes to every panel (of its measure) */
          int here = gp[i * ny + k] == (int)pi ||
                     (gp[i * ny + k] == ALL_PANELS && (!yrows || pi / ncv == k));
          if (!here || gh[i * ny + k] != (int)h)
            continue;
          double x, y;
          if (num(t.rows[i][xi], &x) && num(t.rows[i][yi[k]], &y)) {
            fprintf(fp, "%.17g %.17g\n", x, y);
            n++;
          } else if (n) {
            fputc('\n', fp); /* a gap in the curve */
          }
        }
      if (!n)
        fprintf(fp, "%.17g %.17g\n", x0, y0);
      fputs("\n\n", fp);
    }
  free(gp), free(gh);
  rc = rl_plot_finish(&p, ferror(fp) ? EIO : 0);
done:
  table_free(&t);
  return rc;
}

/* ---- the options of a drawing, declared (param.h) over rl_facet ---- */

/* a column name or list as given: any text (a wrong one is named when
 * the table is read, with the columns it has) */
static rl_status text_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  (void)err, (void)n;
  *(const char **)((char *)obj + d->offset) = arg;
  return RL_OK;
}
static int text_format(const rl_param *d, const void *obj, char *buf, size_t n)
{
  const char *v = *(const char *const *)((const char *)obj + d->offset);
  return snprintf(buf, n, "%s", v ? v : "");
}

/* --log: x, y or both, each once */
static const char *const axes[] = {"x", "y", NULL};
static rl_status log_parse(const rl_param *d, void *obj, const char *arg, char *err, size_t n)
{
  int seen[2] = {0, 0};
  for (const char *p = arg;;) {
    size_t len = strcspn(p, ",");
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), p);
    size_t i = 0;
    while (i < 2 && strcmp(word, axes[i]))
      i++;
    if (i == 2)
      return rl_names_error("--log", arg, word, axes, 2, err, n);
    if (seen[i]++) {
      snprintf(err, n, "invalid --log '%s': '%s' given twice", arg, word);
      return RL_EINVAL;
    }
    if (!p[len])
      break;
    p += len + 1;
  }
  return text_parse(d, obj, arg, err, n);
}

#define FACET_TEXT(k, field, mv, text)                                                         \
  {.key = k, .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP | RL_PF_NO_META,                   \
   .offset = offsetof(rl_facet, field), .metavar = mv, .parse = text_parse,                    \
   .format = text_format, .help = text}
static const rl_param p_x = FACET_TEXT("x", x, "COL", "the horizontal axis (numbers)");
static const rl_param p_y = FACET_TEXT("y", y, "COL,...",
                                       "the vertical axis; several columns are several curves");
static const rl_param p_hue = FACET_TEXT(
    "hue", hue, "COL,...", "one colour per value (several columns: per combination)");
static const rl_param p_style = FACET_TEXT("style", style, "COL",
                                           "one line type per value (solid, dashed, dotted, ...)");
static const rl_param p_col = FACET_TEXT(
    "col", col, "COL", "one panel per value, side by side with one y axis range");
static const rl_param p_log = {
    .key = "log", .kind = RL_PK_CUSTOM, .flags = RL_PF_NO_SWEEP | RL_PF_NO_META,
    .offset = offsetof(rl_facet, log), .metavar = "AXES", .names = axes, .parse = log_parse,
    .format = text_format, .help = "x, y or x,y: logarithmic axes"};
/* the second line as the help lays it out (decl_opts.h: a help of
 * several lines) */
static const rl_param p_title = FACET_TEXT(
    "title", title, "TEXT",
    "the title (default: Y against X, and the command that\n"
    "                     made the table at the bottom)");
static const rl_param *const facet_params[] = {&p_x,   &p_y,   &p_hue,   &p_style,
                                               &p_col, &p_log, &p_title, NULL};

const rl_param *const *rl_facet_param_list(void) { return facet_params; }
