/* divided.c: a method that exists only in the test build, to show what
 * adding a method with a parameter of its own touches: this file (its
 * type, its one declaration, and the names and key a config.json and a
 * GGUF file give them), one registry line (registry.c, under
 * RL_TEST_METHOD) and its tests; nothing under src/cli, nothing in the
 * model readers.  RoFormer's frequencies divided by a divisor q >= 1 (a
 * made-up method: linear interpolation with its own option name, so the
 * expected values are those of linear's closed form theta_i =
 * base^(-2i/r) / q). */
#include "core/schedules/schedule_impl.h"

static rl_status init(rl_schedule *s, char *err)
{
  (void)err;
  for (size_t i = 0; i < s->n; i++)
    rl_sched_set(s, i, rl_sched_plain(s, (long double)s->p.base, i) / (rl_xr)s->p.own[0].x);
  return RL_OK;
}

/* No RL_SP_* bit: a method's own parameter needs none; the CLI refuses
 * it for other methods from the declaration alone. */
static const rl_param p_divisor = {
    .key = "divisor", .kind = RL_PK_REAL, .offset = RL_SP_OWN(0), .lo = 1,
    .hi = INFINITY, .dflt = 2, .metavar = "Q", .symbol = "q",
    .help = "frequencies over Q (test build)"};
static const rl_param *const params[] = {&p_divisor, NULL};

/* A config.json names it rope_scaling {"rope_type": "divided", "divisor":
 * Q}; a GGUF file <arch>.rope.scaling.type "divided" and
 * <arch>.rope.scaling.divisor Q (made-up names, as the method). */
static const char *const hf_names[] = {"divided", NULL};
static const rl_model_key hf_keys[] = {{"divisor", "divisor", 0}, {NULL, NULL, 0}};
static const rl_model_decl hf = {.names = hf_names, .keys = hf_keys};
static const char *const gguf_names[] = {"divided", NULL};
static const rl_model_key gguf_keys[] = {{"rope.scaling.divisor", "divisor", 0},
                                         {NULL, NULL, 0}};
static const rl_model_decl gguf = {.names = gguf_names, .keys = gguf_keys};

const rl_schedule_type rl_sched_test_divided = {
    .name = "divided", .summary = "RoFormer's frequencies divided by q (test build only)",
    .paper = "none", .code = "none", .uses = RL_SP_TRAIN_LEN, .init = init, .params = params,
    .hf = &hf, .gguf = &gguf};
