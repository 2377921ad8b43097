/* audit_findings.h: whole-table bugs and the attention factor's cast
 * order, named by `ropelab audit` (src/core/audit/findings.c; installed
 * as ropelab/audit_findings.h).
 *
 * Identification (rl_audit_identify) names a table's schedule and, when
 * a few pairs are broken, what is wrong with each.  These name what is
 * wrong with the whole table, or with the order of its last roundings:
 *  - cos and sin exchanged throughout (the files given the wrong way
 *    round, or vLLM's cos_sin_cache = cat(cos, sin) split the other way:
 *    its two halves exchanged);
 *  - every sin negated: R(-m theta), what rotate_half with its halves
 *    exchanged (cat(x2, -x1) for cat(-x2, x1)) applies;
 *  - in a bfloat16 or float16 table with an attention factor a != 1:
 *    a applied after the cast (dt(f32(dt(cos)) * a), what
 *    cos.to(dtype) * a computes) instead of before it (dt(cos * a) in
 *    float32: transformers' LlamaRotaryEmbedding.forward, vLLM's
 *    yarn_scaling_rope.py _compute_cos_sin_cache then cache.to(dtype);
 *    ggml keeps its table in float32 and is not concerned). */
#ifndef ROPELAB_AUDIT_FINDINGS_H
#define ROPELAB_AUDIT_FINDINGS_H

#include <stddef.h>
#include "status.h"
#include "audit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* When fit is neither identified nor explained by a few broken pairs,
 * identify the table again with each whole-table bug undone; the first
 * that fits (or leaves only broken pairs) replaces *fit (the old one is
 * freed) and finding says what was undone ("" when none did).  Then, for
 * an identified bfloat16 or float16 table with a torch pipeline and an
 * attention factor, compares the two cast orders entry by entry and says
 * so when the table follows the other order.  finding: at least 384
 * bytes.  RL_ENOMEM, or RL_OK (a retry that fails to identify is not an
 * error). */
rl_status rl_audit_findings(const rl_audit_input *in, size_t dim_hint, double base_hint,
                            rl_audit_fit *fit, char *finding, size_t n);

/* Which bug makes a table miss schedule sc (read in layout; claimed: the
 * layout the user expects, or -1): each bug people make undone, or
 * redone on sc, in closed form, and the table measured again with the
 * tolerance model: the frequencies' exponent (base^(-i/d) for
 * base^(-2i/d), which is a rope of base sqrt(base); d - 2 in the
 * denominator), half/interleaved swapped, cos and sin swapped, every sin
 * negated, a position offset (from the phases' intercepts) or stride
 * (their slope), the attention factor dropped or applied twice, and a
 * 16-bit dtype inside the float32 computation (the angle, the position
 * or theta rounded to bfloat16 or float16: named when it explains 99% of
 * the entries).  bug: one line with its evidence, "" when none explains
 * the table (at least 400 bytes).  RL_ENOMEM, or RL_OK. */
rl_status rl_audit_explain(const rl_audit_input *in, int layout, const rl_schedule *sc,
                           int claimed, char *bug, size_t n);

#ifdef __cplusplus
}
#endif
#endif
