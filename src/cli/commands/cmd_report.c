/* cmd_report.c: `ropelab report CONFIG [--compare CONFIG2]`, one page
 * (Markdown and HTML, figures beside it and embedded) on one model's RoPE,
 * or two side by side: a declared command (cmd.h).
 *
 * The report computes nothing itself.  The core plans the lengths every
 * section is computed at (ropelab/report.h); the report runs ropelab's
 * own commands at those lengths (report_steps.c), then lays their tables
 * out (report_sections.c), printing above each section the command line
 * that made its numbers.
 *
 * Everything is written into a temporary folder inside the target's
 * file system (in the target when it exists, beside it otherwise) and
 * moved into place when complete, so no page is ever half-written and
 * no rename crosses devices; on failure or a signal the temporary
 * folder goes.  A folder holding another model's report is not replaced
 * unless asked (--replace). */
#define _GNU_SOURCE /* asprintf, mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "driver.h"
#include "msg.h"
#include "out.h"
#include "report_run.h"
#include "rl_config.h"

#define CMD "report"

static int load(rp_model *m, const rl_report_plan *pl, size_t k, size_t n, const char *arg,
                const char *layer)
{
  memset(m, 0, sizeof *m);
  m->pm = &pl->m[k];
  m->arg = arg;
  m->layer = layer;
  m->pfx = n == 1 ? "" : k ? "b-" : "a-";
  rl_model_rope_init(&m->info);
  m->info.layer_type = layer;
  char err[RL_ERR_MAX];
  rl_status st = rl_model_read(arg, &m->info, err, sizeof err);
  /* the same exit status as every other command's --config */
  if (st)
    return st == RL_EIO || st == RL_ENOMEM ? rl_runtime(CMD, "%s", err) : rl_usage(CMD, "%s", err);
  if (!(m->abs = realpath(arg, NULL)))
    return rl_runtime(CMD, "cannot resolve the path '%s': %s", arg, strerror(errno));
  return 0;
}

/* the models a folder's summary.csv says it holds ("# model=" lines),
 * newline-separated into buf; 0 when it names none (no report of ours) */
static int models_in(const char *dir, char *buf, size_t n)
{
  char *path = NULL;
  FILE *fp = NULL;
  buf[0] = 0;
  if (asprintf(&path, "%s/summary.csv", dir) < 0)
    return 0;
  char err[RL_ERR_MAX];
  rl_status st = rl_file_fopen_read(path, NULL, 1 << 20, &fp, NULL, err, sizeof err);
  free(path);
  if (st)
    return 0;
  char line[1024];
  size_t len = 0;
  while (fgets(line, sizeof line, fp))
    if (!strncmp(line, "# model=", 8) && len < n)
      len += (size_t)snprintf(buf + len, n - len, "%s", line + 8);
  fclose(fp);
  return len > 0;
}

/* the folder's report is of other models than the plan's */
static int other_models(const char *dir, const rl_report_plan *pl, char *held, size_t n)
{
  if (!models_in(dir, held, n))
    return 0;
  char ours[2 * RL_REPORT_NAME_MAX + 4] = "";
  for (size_t k = 0; k < pl->n; k++)
    snprintf(ours + strlen(ours), sizeof ours - strlen(ours), "%s\n", pl->m[k].name);
  if (!strcmp(ours, held))
    return 0;
  held[strcspn(held, "\n")] = 0; /* the first, for the message */
  return 1;
}

/* mkdtemp(tmpl), registered for removal if we are killed (SIGINT,
 * SIGTERM: the folder and what the commands wrote into it go), with
 * those signals blocked in between */
static char *tmp_folder(char *tmpl)
{
  sigset_t old;
  rl_signals_block(&old);
  char *d = mkdtemp(tmpl);
  if (d)
    rl_tmpdir_register(d);
  rl_signals_restore(&old);
  if (d) {
    /* mkdtemp's 0700 is for the work; the page gets a folder's usual mode */
    mode_t um = umask(0);
    umask(um);
    if (chmod(d, 0777 & ~um))
      return NULL;
  }
  return d;
}

/* the finished page into place: the folder at once when out does not
 * exist, else each file (each rename atomic) */
static int publish(const char *tmp, const char *out)
{
  struct stat st;
  if (stat(out, &st) != 0 && errno == ENOENT)
    return rename(tmp, out) == 0 ? 0 : -1;
  DIR *d = opendir(tmp);
  if (!d)
    return -1;
  struct dirent *e;
  int bad = 0;
  while (!bad && (e = readdir(d)))
    if (e->d_name[0] != '.') {
      char *a = NULL, *b = NULL;
      bad = asprintf(&a, "%s/%s", tmp, e->d_name) < 0 || asprintf(&b, "%s/%s", out, e->d_name) < 0 ||
            rename(a, b) != 0;
      free(a), free(b);
    }
  closedir(d);
  if (!bad) /* the temporary folder, now empty but for .err files */
    rl_tmpdir_remove();
  return bad ? -1 : 0;
}

static int write_file(const char *dir, const char *name, const rp_buf *b)
{
  char *path = NULL;
  if (b->err || asprintf(&path, "%s/%s", dir, name) < 0)
    return -1;
  FILE *fp = fopen(path, "w");
  int bad = !fp || fwrite(b->s, 1, b->n, fp) != b->n;
  if (fp)
    bad |= fflush(fp) != 0 || fsync(fileno(fp)) != 0, bad |= fclose(fp) != 0;
  free(path);
  return bad ? -1 : 0;
}

/* the page from the tables, then report.md, report.html, summary.csv */
static int page(rp_ctx *c, rp_model *const *ms, size_t n)
{
  rp_page p;
  char *title = NULL;
  if ((n == 2 ? asprintf(&title, "RoPE report: %s and %s", ms[0]->pm->name, ms[1]->pm->name)
              : asprintf(&title, "RoPE report: %s", ms[0]->pm->name)) < 0)
    title = NULL;
  rp_page_begin(&p, c->tmp, title ? title : "RoPE report");
  free(title);
  rp_para(&p, "Made by `ropelab report` %s. Every number below comes from the ropelab command "
          "printed above its section, run in this folder, for exactly the range the page names "
          "(its CSV, with the command line and every parameter in its metadata, is beside this "
          "page; numbers are shown to 6 significant digits, the CSVs and `summary.csv` hold "
          "every digit). Settings: %zu content samples for extrapolate, %zu bins per octave for "
          "the decay figure.", RL_VERSION, c->set->samples, c->set->bins);
  if (n == 2)
    rp_page_compare(&p, c, ms[0], ms[1]);
  for (size_t k = 0; k < n; k++)
    rp_page_model(&p, c, ms[k], n == 2);
  rp_page_end(&p);
  rp_buf sum = {0};
  int r = 0;
  if (p.md.err || p.html.err || rp_summary(&sum, c, ms, n))
    r = rl_runtime(CMD, "out of memory, or a figure could not be read");
  else if (write_file(c->tmp, "report.md", &p.md) || write_file(c->tmp, "report.html", &p.html) ||
           write_file(c->tmp, "summary.csv", &sum))
    r = rl_runtime(CMD, "cannot write into '%s': %s", c->tmp, strerror(errno));
  rp_buf_free(&p.md), rp_buf_free(&p.html), rp_buf_free(&sum);
  return r;
}

/* the target folder, checked, and a temporary folder in its file system */
static int target(const rl_cmd_run *run, const rl_report_plan *pl, const char *outdir,
                  char **tmp)
{
  const rl_report_settings *s = run->settings;
  struct stat st;
  int exists = stat(outdir, &st) == 0;
  char held[1024];
  *tmp = NULL;
  if (exists && !S_ISDIR(st.st_mode))
    return rl_usage(CMD, "invalid --output '%s': expected a folder (it is a file)", outdir);
  if (exists && !s->replace && other_models(outdir, pl, held, sizeof held))
    return rl_usage(CMD, "'%s' holds the report of '%s': expected a folder of its own (give -o "
                    "another one, or --replace to replace that report)", outdir, held);
  if ((exists ? asprintf(tmp, "%s/.report-XXXXXX", outdir)
              : asprintf(tmp, "%s.tmp-XXXXXX", outdir)) < 0) {
    *tmp = NULL;
    return rl_runtime(CMD, "out of memory");
  }
  if (!tmp_folder(*tmp)) {
    int e = errno;
    rl_tmpdir_remove();
    return rl_runtime(CMD, "cannot create a folder %s '%s': %s", exists ? "in" : "beside", outdir,
                      strerror(e));
  }
  return 0;
}

static int compute(rl_cmd_run *run)
{
  const rl_report_settings *s = run->settings;
  const char *arg[2] = {run->args[0], s->compare};
  const char *layer[2] = {s->layer_type, s->compare_layer_type};
  size_t n = s->compare ? 2 : 1;
  rl_report_plan pl;
  rp_model ma, mb, *ms[2] = {&ma, &mb};
  char *tmp = NULL, err[RL_ERR_MAX];
  memset(&ma, 0, sizeof ma), memset(&mb, 0, sizeof mb);
  int r = 0;
  for (size_t k = 0; k < n && !r; k++)
    r = load(ms[k], &pl, k, n, arg[k], layer[k]);
  const rl_model_rope *info[2] = {&ma.info, &mb.info};
  if (!r && rl_report_plan_make(info, arg, layer, n, &pl, err, sizeof err))
    r = rl_usage(CMD, "%s", err);
  const char *outdir = run->co.output ? run->co.output : pl.folder;
  if (!r)
    r = target(run, &pl, outdir, &tmp);
  rp_ctx c = {.tmp = tmp, .set = s, .plan = &pl};
  if (!r) {
    size_t total = 0;
    for (size_t k = 0; k < n; k++)
      total += rp_steps_total(ms[k]);
    rl_progress_init(&c.prog, CMD, run->co.progress, total, 1);
    clock_gettime(CLOCK_MONOTONIC, &c.start);
  }
  for (size_t k = 0; k < n && !r; k++)
    r = rp_run_model(&c, ms[k]);
  if (!r)
    r = page(&c, ms, n);
  if (!r && publish(tmp, outdir))
    r = rl_runtime(CMD, "cannot move the page into '%s': %s", outdir, strerror(errno));
  if (r)
    rl_tmpdir_remove();
  else
    rl_tmpdir_unregister();
  if (!r && c.prog.shown)
    rl_progress_end(&c.prog);
  if (!r && isatty(1))
    printf("%s/report.html\n", outdir);
  free(tmp);
  for (size_t k = 0; k < 2; k++)
    rp_model_free(ms[k]);
  return r;
}

static const rl_cmd_decl decl = {
    .usage = "CONFIG [--compare CONFIG2] [-o DIR] [OPTIONS]",
    .about =
        "One page on a model's RoPE from its config.json or GGUF header: the\n"
        "schedule per pair (bands, wavelengths in tokens, turns within the\n"
        "training length L and the configured context C), the attention factor,\n"
        "Men et al.'s smallest base for C against the model's base, the unseen\n"
        "rotary angles at C, 2C and 4C, the decay bound and similarity B_r over\n"
        "every distance to C, the hf-bf16 and hf-fp32 precision over every position\n"
        "to L and to C, retrieval and entropy past L, and how vLLM and llama.cpp\n"
        "would compute it otherwise than transformers.  The report runs ropelab's\n"
        "own commands for exactly the ranges it names (the page prints each\n"
        "command line; its CSV and figure are beside the page) and lays their\n"
        "numbers out: report.md with PNG figures, report.html with the figures\n"
        "embedded, summary.csv with the headline numbers.  A second model is\n"
        "compared at its own L and C and at common lengths.\n",
    .takes = 0,
    .settings_size = sizeof(rl_report_settings),
    .groups = {{NULL, rl_report_param_list, 0}},
    .min_args = 1,
    .max_args = 1,
    .args_name = "CONFIG",
    .args_expect = "a model's config.json or GGUF file",
    .output_arg = "DIR",
    .output_help = "the page's folder (default report-NAME, NAME the model's name from the "
                   "config: _name_or_path, general.name, else the folder of a config.json or "
                   "the file's name; report-NAME-vs-NAME2 with --compare); its files are "
                   "replaced when complete, but not another model's report",
    .compute = compute,
};

const struct rl_cmd rl_cmd_report = {
    "report", NULL, "one page (Markdown and HTML) on a model's RoPE, from its config", NULL,
    &decl};
