/* report_run.h: what `ropelab report` holds while it makes a page: for
 * each model its config, its plan (ropelab/report.h) and the tables of
 * the commands it ran (report_steps.c); the page laid out from those
 * tables alone (report_sections.c); the page's folder (report_files.c). */
#ifndef RL_CLI_REPORT_RUN_H
#define RL_CLI_REPORT_RUN_H

#include <time.h>
#include "progress.h"
#include "report_page.h"
#include "ropelab.h"

/* The commands of one model, in the order they run. */
enum {
  S_FREQS,       /* the schedule: settings, theta, bands, figure */
  S_TURNS,       /* turns within L and C (--turns-within) */
  S_CTX,         /* a schedule depending on the current length, at n = C */
  S_MEN_SEARCH,  /* Men et al.'s smallest base for C */
  S_MEN,         /* the model's base at L, C, 2C, 4C */
  S_DECAY,       /* the bound and B_r over every r to C, binned: the figure */
  S_DECAY_AT,    /* the bound and B_r at r = L and r = C */
  S_PREC_BF16,   /* the precision envelopes to C: figures */
  S_PREC_FP32,
  S_PREC_WORST,  /* the worst errors over every position to L and to C */
  S_EX,          /* unseen angles and retrieval at the plan's lengths */
  S_ENT,         /* attention entropy of identical contents at those lengths */
  S_VLLM,        /* the config under vLLM's and llama.cpp's formulas */
  S_GGML,
  S_N
};

typedef struct rp_step {
  rp_table t;
  char *line;    /* the command line, as the page prints it (NULL: not run) */
  char *refused; /* its message, where a refusal is part of the answer */
} rp_step;

typedef struct rp_model {
  const rl_report_model *pm; /* the plan's */
  rl_model_rope info;
  const char *arg;   /* CONFIG as given */
  char *abs;         /* its absolute path: what every command reads */
  const char *layer; /* --layer-type, or NULL */
  const char *pfx;   /* "" or "a-", "b-": this model's file names */
  rp_step s[S_N];
} rp_model;

typedef struct rp_ctx {
  const char *tmp;                /* the folder the page is made in */
  const rl_report_settings *set;
  const rl_report_plan *plan;
  rl_progress prog;
  struct timespec start;
  size_t done;
} rp_ctx;

/* Every command of model m (report_steps.c): 0, or the exit status the
 * report ends with after a printed message. */
int rp_run_model(rp_ctx *c, rp_model *m);
/* The commands a model runs (for the progress's total). */
size_t rp_steps_total(const rp_model *m);
void rp_model_free(rp_model *m);

/* The page (report_sections.c). */
void rp_page_model(rp_page *p, const rp_ctx *c, const rp_model *m, int two);
void rp_page_compare(rp_page *p, const rp_ctx *c, const rp_model *a, const rp_model *b);
/* summary.csv: the headline numbers, each with the table it comes from
 * (report_sections.c, beside the page that states them). */
int rp_summary(rp_buf *b, const rp_ctx *c, rp_model *const *ms, size_t n);

/* Numbers as the page shows them: 6 significant digits (the tables hold
 * every digit), a standard error to 2; the cell's own text otherwise. */
void rp_fmt6(char *b, size_t n, const char *s);
void rp_fmt_se(char *b, size_t n, const char *s);

#endif
