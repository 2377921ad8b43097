/* decl_opts.c: a command's options declared in the core (decl_opts.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "decl_opts.h"
#include "opt.h"

static size_t count(const rl_param *const *list)
{
  size_t n = 0;
  while (list[n] && n < RL_DECL_MAX)
    n++;
  return n;
}

void rl_decl_opts_init(rl_decl_opts *g, const rl_param *const *list, void *obj, int first)
{
  *g = (rl_decl_opts){list, obj, first, 0};
  for (size_t k = 0; k < count(list); k++)
    rl_param_set_default(list[k], obj);
}

size_t rl_decl_longopts(const rl_decl_opts *g, struct option *all, size_t n, size_t cap)
{
  return rl_longopts_declared(all, n, cap, g->list, g->first,
                              g->first + (int)count(g->list) - 1);
}

int rl_decl_opt(rl_decl_opts *g, const char *cmd, int c, const char *arg)
{
  if (c < g->first || c >= g->first + (int)count(g->list))
    return RL_OPT_NOT_MINE;
  const rl_param *d = g->list[c - g->first];
  char err[RL_ERR_MAX];
  if (rl_param_parse(d, g->obj, arg, err, sizeof err))
    return RL_OPT_FAILED(rl_usage(cmd, "%s", err));
  g->given |= 1u << (c - g->first);
  return RL_OPT_TAKEN;
}

int rl_decl_any_given(const rl_decl_opts *g) { return g->given != 0; }

unsigned rl_decl_given_bits(const rl_decl_opts *g)
{
  unsigned bits = 0;
  for (size_t k = 0; k < count(g->list); k++)
    if (g->given & (1u << k))
      bits |= g->list[k]->bit;
  return bits;
}

void rl_decl_names(const rl_param *const *list, char *buf, size_t n)
{
  size_t k = count(list), len = 0;
  buf[0] = 0;
  for (size_t i = 0; i < k && len < n; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s--%s", i == 0 ? "" : i + 1 == k ? " and " : ", ",
                            list[i]->key);
}

/* "      --KEY METAVAR", as rl_help_param_at writes it */
static const char *head_of(const rl_param *d, char *buf, size_t n)
{
  snprintf(buf, n, "      --%s %s", d->key, d->metavar ? d->metavar : "X");
  return buf;
}

void rl_decl_help(FILE *fp, const rl_param *const *list)
{
  rl_decl_help_at(fp, list, 21);
}

void rl_decl_help_at(FILE *fp, const rl_param *const *list, int col)
{
  char dflt[128], lo[RL_NUMFMT_MAX], hi[RL_NUMFMT_MAX], head[96];
  for (size_t k = 0; k < count(list); k++) {
    const rl_param *d = list[k];
    if (d->flags & RL_PF_NO_OPTION)
      continue;
    /* a help of several lines: the first wrapped, the others (a table of
     * the values) written as they are */
    const char *help = d->help ? d->help : "", *more = strchr(help, '\n');
    size_t len = more ? (size_t)(more - help) : strlen(help);
    rl_param_default_text(d, dflt, sizeof dflt);
    /* a real number's range is part of what the option means (sigma's
     * limits keep sigma^2 normal): printed from the declaration */
    int range = d->kind == RL_PK_REAL && isfinite(d->hi);
    if (range) {
      rl_numfmt(d->lo, lo);
      rl_numfmt(d->hi, hi);
    }
    /* sized for this help, whatever its length: a fixed buffer cut long
     * helps (and wrote past its end before it was capped) */
    size_t n = len + sizeof dflt + sizeof lo + sizeof hi + 32;
    char *text = malloc(n);
    if (!text) { /* out of memory in --help: the help alone, unwrapped */
      fprintf(fp, "%s %.*s\n", head_of(d, head, sizeof head), (int)len, help);
      continue;
    }
    memcpy(text, help, len);
    text[len] = 0;
    if (range || dflt[0])
      snprintf(text + len, n - len, " (%s%s%s%s%s%s)", range ? lo : "", range ? ".." : "",
               range ? hi : "", range && dflt[0] ? "; " : "", dflt[0] ? "default " : "", dflt);
    if (more) /* laid out by its author: one space after the option, then its lines */
      fprintf(fp, "%-*s %s\n%s\n", col - 1, head_of(d, head, sizeof head), text, more + 1);
    else
      rl_help_param_at(fp, d, text, col);
    free(text);
  }
}

void rl_decl_meta(const rl_decl_opts *g, rl_out *out)
{
  char key[64], val[400];
  for (size_t k = 0; k < count(g->list); k++) {
    const rl_param *d = g->list[k];
    if ((d->flags & RL_PF_NO_META) || (d->meta_if && !d->meta_if(g->obj)))
      continue;
    rl_param_meta_key(d, key, sizeof key);
    rl_param_format(d, g->obj, val, sizeof val);
    rl_out_meta(out, key, val);
  }
}
