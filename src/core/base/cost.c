/* cost.c: the cost model of long requests and the refusals it sets
 * (see ropelab/cost.h for where the rates come from). */
#include <math.h>
#include <stdio.h>
#include "ropelab.h"

static _Thread_local double noted;

void rl_cost_note_reset(void)
{
  noted = 0;
}

double rl_cost_noted(void)
{
  return noted;
}

static void note(double c)
{
  if (c > noted)
    noted = c;
}

void rl_cost_duration(double s, char *buf, size_t n)
{
  if (s < 120)
    snprintf(buf, n, "%.0f s", s);
  else if (s < 3600)
    snprintf(buf, n, "%.1f min", s / 60);
  else
    snprintf(buf, n, "%.3g h", s / 3600);
}

static double row_s(size_t pairs, int closed_forms, size_t mc_samples)
{
  double p = (double)pairs;
  return RL_COST_DECAY_ROW_S + (closed_forms ? p * RL_COST_DECAY_PAIR_S : 0) +
         (double)mc_samples * p * RL_COST_MC_S;
}

double rl_cost_decay(size_t rows, size_t pairs, int closed_forms, size_t mc_samples)
{
  return (double)rows * row_s(pairs, closed_forms, mc_samples);
}

double rl_cost_extrap(size_t configs, size_t samples, size_t eval_len, size_t dim)
{
  double n = (double)eval_len;
  return (double)configs *
         (n * RL_COST_EXTRAP_POS_S + (double)samples * n * (double)dim * RL_COST_EXTRAP_SAMPLE_S);
}

double rl_cost_men(const double *len, size_t nlen, size_t pairs)
{
  double s = 0;
  for (size_t i = 0; i < nlen; i++)
    s += len[i] * (double)pairs * RL_COST_MEN_S;
  return s;
}

double rl_cost_prec(size_t pipelines, size_t positions, size_t pairs)
{
  double n = (double)pairs;
  return (double)(pipelines + 1) * n * RL_COST_PREC_BUILD_S +
         (double)pipelines * (double)positions * n * RL_COST_PREC_POS_S;
}

size_t rl_cost_prec_build_positions(void)
{
  /* rounded, not ceil: 1.5e-6 / 1e-7 is 15.000000000000002 in doubles */
  return (size_t)floor(RL_COST_PREC_BUILD_S / RL_COST_PREC_POS_S + 0.5);
}

rl_status rl_cost_check_prec(size_t pipelines, size_t positions, const char *positions_what,
                             size_t positions_given, size_t pairs, const char *pairs_what,
                             size_t pairs_given, char *err)
{
  double c = rl_cost_prec(pipelines, positions, pairs);
  note(c);
  if (c <= RL_COST_MAX_CPU_S)
    return RL_OK;
  char t[32], lim[32];
  rl_cost_duration(c, t, sizeof t);
  rl_cost_duration(RL_COST_MAX_CPU_S, lim, sizeof lim);
  double builds = (double)(pipelines + 1) * (double)pairs * RL_COST_PREC_BUILD_S;
  double most = floor((RL_COST_MAX_CPU_S - builds) /
                      ((double)pipelines * (double)pairs * RL_COST_PREC_POS_S));
  if (most < 1) {
    /* not one position beside the builds: fewer positions cannot help,
     * the width is the cost; the largest --dim (--rot: twice the pairs)
     * that fits the positions asked */
    double fit = floor(RL_COST_MAX_CPU_S / ((double)(pipelines + 1) * RL_COST_PREC_BUILD_S +
                                            (double)pipelines * (double)positions *
                                                RL_COST_PREC_POS_S));
    snprintf(err, RL_ERR_MAX,
             "invalid %s '%zu': too large: about %s of CPU for %zu pairs in %zu pipeline%s, "
             "the schedules' builds alone %.0f s (%.2g us a pair, measured); expected %s at "
             "most %.0f (%s of CPU for %zu position%s)",
             pairs_what, pairs_given, t, pairs, pipelines, pipelines == 1 ? "" : "s", builds,
             RL_COST_PREC_BUILD_S * 1e6, pairs_what, 2 * fit, lim, positions,
             positions == 1 ? "" : "s");
    return RL_ERANGE;
  }
  /* the largest value of the option itself: --to counts from --from */
  double top = most + (double)positions_given - (double)positions;
  snprintf(err, RL_ERR_MAX,
           "invalid %s '%zu': about %s of CPU for %zu positions of %zu pairs in %zu pipeline%s "
           "(%.2g us a pair and position, measured); expected at most %.0f (%s of CPU), "
           "--sample log, or one --precision",
           positions_what, positions_given, t, positions, pairs, pipelines,
           pipelines == 1 ? "" : "s", RL_COST_PREC_POS_S * 1e6, top, lim);
  return RL_ERANGE;
}

size_t rl_cost_chunk_rows(double row_cost_s, double seconds, size_t max_rows)
{
  double r = row_cost_s > 0 ? floor(seconds / row_cost_s) : (double)max_rows;
  return r < 1 ? 1 : r > (double)max_rows ? max_rows : (size_t)r;
}

rl_status rl_cost_check_decay(size_t rows, const char *rows_what, size_t pairs, int closed_forms,
                              size_t mc_samples, char *err)
{
  double c = rl_cost_decay(rows, pairs, closed_forms, mc_samples);
  note(c);
  if (c <= RL_COST_MAX_CPU_S)
    return RL_OK;
  char t[32], lim[32];
  rl_cost_duration(c, t, sizeof t);
  rl_cost_duration(RL_COST_MAX_CPU_S, lim, sizeof lim);
  double fixed = (double)rows * row_s(pairs, closed_forms, 0);
  if (mc_samples && fixed <= RL_COST_MAX_CPU_S / 2) {
    /* the samples make it long: the most that fit the hour */
    double most = floor((RL_COST_MAX_CPU_S - fixed) / ((double)rows * (double)pairs * RL_COST_MC_S));
    snprintf(err, RL_ERR_MAX,
             "invalid --samples '%zu': about %s of CPU for %zu distances of %zu pairs (%.0f ns "
             "a sample per pair and distance, measured); expected at most %.0f here (%s of CPU), "
             "or fewer distances",
             mc_samples, t, rows, pairs, RL_COST_MC_S * 1e9, most, lim);
    return RL_ERANGE;
  }
  double most = floor(RL_COST_MAX_CPU_S / row_s(pairs, closed_forms, mc_samples));
  snprintf(err, RL_ERR_MAX,
           "invalid %s '%zu': about %s of CPU at %.3g us a distance (%zu pairs%s, measured); "
           "expected at most %.0f distances (%s of CPU): shard the range with --shard",
           rows_what, rows, t, row_s(pairs, closed_forms, mc_samples) * 1e6, pairs,
           mc_samples ? ", mc" : "", most, lim);
  return RL_ERANGE;
}

rl_status rl_cost_check_extrap(size_t configs, size_t samples, size_t train_len,
                               size_t eval_len, size_t dim, char *err)
{
  /* a learned absolute table of L x d doubles is drawn for each config */
  double table = (double)train_len * (double)dim;
  if (table * RL_COST_TABLE_BYTES > RL_COST_MAX_BYTES / 2) {
    snprintf(err, RL_ERR_MAX,
             "invalid --train-len '%zu': about %.3g GB of memory for a learned table of "
             "L x d = %zu x %zu doubles; expected at most %.0f at d = %zu (%.0f GB)",
             train_len, table * RL_COST_TABLE_BYTES / 1e9, train_len, dim,
             floor(RL_COST_MAX_BYTES / 2 / RL_COST_TABLE_BYTES / (double)dim), dim,
             RL_COST_MAX_BYTES / 2e9);
    return RL_ERANGE;
  }
  double bytes = (double)eval_len * RL_COST_EXTRAP_POS_BYTES;
  if (bytes > RL_COST_MAX_BYTES / 2) {
    snprintf(err, RL_ERR_MAX,
             "invalid --eval-len '%zu': about %.3g GB of memory (%.0f bytes a position, "
             "measured); expected at most %.0f (%.0f GB)",
             eval_len, bytes / 1e9, RL_COST_EXTRAP_POS_BYTES,
             floor(RL_COST_MAX_BYTES / 2 / RL_COST_EXTRAP_POS_BYTES), RL_COST_MAX_BYTES / 2e9);
    return RL_ERANGE;
  }
  double c = rl_cost_extrap(configs, samples, eval_len, dim) +
             (double)configs * table * RL_COST_TABLE_S;
  note(c);
  if (c <= RL_COST_MAX_CPU_S)
    return RL_OK;
  char t[32], lim[32];
  rl_cost_duration(c, t, sizeof t);
  rl_cost_duration(RL_COST_MAX_CPU_S, lim, sizeof lim);
  double per = rl_cost_extrap(configs, samples, 1, dim);
  snprintf(err, RL_ERR_MAX,
           "invalid --eval-len '%zu': about %s of CPU for %zu configurations of %zu samples at "
           "d = %zu (measured rates); expected at most %.0f here (%s of CPU), or fewer samples",
           eval_len, t, configs, samples, dim, floor(RL_COST_MAX_CPU_S / per), lim);
  return RL_ERANGE;
}

rl_status rl_cost_check_men(const double *len, size_t nlen, size_t pairs, char *err)
{
  double c = rl_cost_men(len, nlen, pairs);
  note(c);
  if (c <= RL_COST_MAX_CPU_S)
    return RL_OK;
  double longest = 0;
  for (size_t i = 0; i < nlen; i++)
    longest = len[i] > longest ? len[i] : longest;
  char t[32], lim[32];
  rl_cost_duration(c, t, sizeof t);
  rl_cost_duration(RL_COST_MAX_CPU_S, lim, sizeof lim);
  snprintf(err, RL_ERR_MAX,
           "invalid --len '%.17g' with %zu pairs: about %s of CPU for the search (%.0f ns a "
           "distance per pair, measured); expected lengths summing to at most %.0f here (%s "
           "of CPU), or a smaller --dim",
           longest, pairs, t, RL_COST_MEN_S * 1e9,
           floor(RL_COST_MAX_CPU_S / ((double)pairs * RL_COST_MEN_S)), lim);
  return RL_ERANGE;
}

rl_status rl_cost_check_scheme(size_t dim, int identity, char *err)
{
  double mats = RL_COST_HEAD_MATS - (identity ? 2 : 0), d = (double)dim;
  double bytes = mats * d * d * sizeof(double), lim = RL_COST_MAX_BYTES / 2;
  if (bytes <= lim)
    return RL_OK;
  double most = floor(sqrt(lim / (mats * sizeof(double))));
  most -= fmod(most, 2); /* an even dimension */
  snprintf(err, RL_ERR_MAX,
           "invalid --dim '%zu': about %.3g GB of memory for a head's %.0f d x d matrices "
           "(W_q, W_k and the scheme's own); expected at most %.0f (%.0f GB)",
           dim, bytes / 1e9, mats, most, lim / 1e9);
  return RL_ERANGE;
}
