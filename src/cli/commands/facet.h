/* facet.h: a table drawn as seaborn's relplot draws a tidy frame: --y
 * against --x, a colour per value of --hue, a line type per value of
 * --style, a panel per value of --col
 * (cmd_plot.c, plots/facet.gp); `ropelab plot` and a sweep's --plot. */
#ifndef RL_CLI_FACET_H
#define RL_CLI_FACET_H

#include "ropelab.h"

typedef struct rl_facet {
  const char *x, *y;    /* column names; y may list several, comma-separated */
  const char *hue;      /* columns whose values get a colour each, or NULL */
  const char *col;      /* the column whose values get a panel each, or NULL */
  const char *style;    /* the column whose values get a line type each, or NULL */
  const char *log;      /* "x", "y", "x,y" or NULL */
  const char *title;    /* or NULL: "Y against X" */
  int auto_log;         /* log an axis whose positive values span 2 decades */
  int y_rows;           /* several y columns: a row of panels each, its own
                           y axis (a sweep's measures); 0: curves of one panel */
  const char *units;    /* "COL=UNIT;..." for the axis labels (rl_sweep_unit),
                           or NULL: from the table's command */
} rl_facet;

/* Draw the CSV at table_path into image (atomically, as --plot): 0 or a
 * printed error (usage for a missing column, runtime for files). */
int rl_plot_table(const char *cmd, const char *table_path, const char *image,
                  const rl_facet *fc);
/* The options of `ropelab plot` (--x, --y, --hue, --style, --col, --log,
 * --title), declared over rl_facet (param.h). */
const rl_param *const *rl_facet_param_list(void);

#endif
