/* cmd_plot.c: `ropelab plot TABLE --x COL --y COL [--hue COL] [--col COL]`,
 * any ropelab table drawn after the fact, the swept columns as colours and
 * panels (seaborn's relplot(hue=, col=)).  Its options are the drawing's
 * own (rl_facet_param_list, facet.c), not a schedule's: this file is the
 * declaration (cmd.h) and a compute() that draws. */
#include <stdint.h>
#include <stdio.h>
#include "driver.h"
#include "facet.h"
#include "msg.h"
#include "plot.h"

/* what must be given: the table, both axes and the image */
static int check(rl_cmd_run *r)
{
  const rl_facet *fc = r->settings;
  const char *cmd = r->name;
  if (r->co.output && rl_plot_check(cmd, r->co.output))
    return RL_EXIT_USAGE;
  if (!r->nargs)
    return rl_usage(cmd, "missing TABLE: expected 'ropelab plot TABLE --x COL --y COL -o IMAGE'");
  if (!fc->x || !fc->y)
    return rl_usage(cmd, "missing --%s: expected the column to draw on that axis",
                    fc->x ? "y" : "x");
  if (!r->co.output)
    return rl_usage(cmd, "missing -o IMAGE: expected the figure to write (.png, .svg, .pdf)");
  return 0;
}

static int compute(rl_cmd_run *r)
{
  return rl_plot_table(r->name, r->args[0], r->co.output, r->settings);
}

static const rl_cmd_decl decl = {
    .usage = "TABLE --x COL --y COL[,COL...] [OPTIONS] -o IMAGE",
    .about =
        "Draw any ropelab table (or any CSV with a header row; '#' lines are its\n"
        "metadata) after the fact: one curve of --y against --x per value of --hue\n"
        "and --style (a colour per --hue value, a line type per --style value),\n"
        "one panel per value of --col, as seaborn's relplot(hue=, style=, col=)\n"
        "draws a tidy table.  A sweep's swept columns are what they are for:\n"
        "  ropelab decay --method rope,linear,yarn --factor 8 --train-len 4096 -o d.csv\n"
        "  ropelab plot d.csv --x r --y bound --hue method -o d.png\n"
        "Axis labels name the units of a ropelab command's columns (found from\n"
        "the table's '# command=' line).  A sweep's --plot draws every measure\n"
        "the command ran, a row of panels each with its own y axis.\n"
        "Empty cells (a method that does not take an option) show as 'n/a' in the\n"
        "key; a row whose --col cell is empty (rope beside --factor 2,4) is the\n"
        "baseline, drawn in every panel.\n",
    .takes = RL_TAKES_OUTPUT_ONLY,
    .settings_size = sizeof(rl_facet),
    .groups = {{NULL, rl_facet_param_list, 0}},
    /* TABLE is required: check() says so in the command's own words */
    .min_args = 0,
    .max_args = 1,
    .args_extra = ": expected one TABLE",
    .output_arg = "IMAGE",
    .output_help = "the figure: .png, .svg or .pdf (written atomically)",
    .check = check,
    .compute = compute,
};

const struct rl_cmd rl_cmd_plot = {"plot", NULL,
                                   "draw any ropelab table: --x, --y, --hue, --col panels", NULL,
                                   &decl};
