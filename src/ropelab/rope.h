/* rope.h: rotations: what RoPE does with any schedule.
 * Part of the ropelab core API: include "ropelab.h", which includes
 * every module header. */
#ifndef ROPELAB_ROPE_H
#define ROPELAB_ROPE_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Index of the two components of pair i in a layout. */
void rl_layout_pair(rl_layout layout, size_t rot, size_t i, size_t *a, size_t *b);

/* The permutation that maps interleaved to half-split:
 * y[j] = x[perm[j]] turns an interleaved vector (or the rows of W_q, W_k)
 * into its half-split form.  perm has dim entries; the pass-through
 * dimensions map to themselves. */
void rl_layout_perm(size_t dim, size_t rot, size_t *perm);

/* y = P x (to_half != 0) or y = P^T x (to_half == 0); x and y distinct. */
void rl_layout_permute(size_t dim, size_t rot, int to_half, const double *x, double *y);

/* Three independent implementations of y = R(m) x.  x and y may alias
 * except for rl_rope_apply_matrix.  All return RL_ERANGE past RL_POS_MAX. */

/* The explicit dim x dim block-diagonal matrix, row-major, into R. */
rl_status rl_rope_matrix(const rl_schedule *f, rl_layout layout, double m, double *R);
/* y = R(m) x by a matrix-vector product with the matrix above
 * (ws: dim*dim doubles of caller scratch). */
rl_status rl_rope_apply_matrix(const rl_schedule *f, rl_layout layout, double m,
                               const double *x, double *y, double *ws);
/* y = x * cos + rot(x) * sin (RoFormer eq. 34). */
rl_status rl_rope_apply_elementwise(const rl_schedule *f, rl_layout layout, double m,
                                    const double *x, double *y);
/* pairs as complex numbers multiplied by e^{i m theta}. */
rl_status rl_rope_apply_complex(const rl_schedule *f, rl_layout layout, double m,
                                const double *x, double *y);

/* cos(m theta_i), sin(m theta_i) for all n pairs. */
rl_status rl_rope_cossin(const rl_schedule *f, double m, double *c, double *s);
/* The table as frameworks store it: attn cos(m theta_i), attn sin(m
 * theta_i) (Hugging Face multiplies cos and sin by attention_scaling). */
rl_status rl_schedule_cossin(const rl_schedule *sc, double m, double *c, double *s);
/* The same for positions m0 + j step, j < count, into c[j n + i] and
 * s[j n + i]: the same values (exact and fp64 pipelines: by
 * rl_angle_sincos_rows, within the same 0.55 ulp, when m0 and step are
 * integers; otherwise row by row).  RL_ERANGE as rl_schedule_cossin. */
rl_status rl_schedule_cossin_rows(const rl_schedule *sc, double m0, double step, size_t count,
                                  double *c, double *s);
/* M-RoPE: y = R(pos) x with pair i turned by pos[axis_i] theta_i
 * (Qwen2-VL; pos = {t, h, w}); for schedules without axes, by pos[0]. */
rl_status rl_rope_apply_axes(const rl_schedule *f, rl_layout layout, const double pos[3],
                             const double *x, double *y);

/* The cos/sin table as frameworks store it (`ropelab angles`), per
 * position m, in one of the formats:
 *   long   pos, pair, cos, sin: a row per (position, pair)
 *   pairs  pos, cos_0..cos_{n-1}, sin_0..sin_{n-1} (Meta Llama's freqs_cis)
 *   dims   pos, then a column per rotated dimension where the layout puts
 *          its pair (interleaved: pair i on 2i, 2i+1; half: i, i + rot/2)
 *   hf     Hugging Face's caches: dims in the half layout, whatever the
 *          schedule's layout (emb = cat(freqs, freqs)) */
typedef enum rl_table_format {
  RL_TABLE_LONG, RL_TABLE_PAIRS, RL_TABLE_DIMS, RL_TABLE_HF
} rl_table_format;
/* angles' own settings, declared once (param.h). */
typedef struct rl_angles_settings {
  int format; /* rl_table_format */
} rl_angles_settings;
const rl_param *const *rl_angles_param_list(void); /* NULL-terminated */
const char *rl_table_format_name(int format);
/* The layout of the table's dimensions: the half one for hf. */
rl_layout rl_table_layout(int format, rl_layout layout);
/* Rows per position (n pairs for long, else 1) and values per row. */
size_t rl_table_rows_per_pos(int format, const rl_schedule *f);
size_t rl_table_columns(int format, const rl_schedule *f);
/* Position m's rows from its cos c[i] and sin s[i] into v, in the
 * format's column order (layout from rl_table_layout); returns the end. */
double *rl_table_put(int format, rl_layout layout, const rl_schedule *f, double m,
                     const double *c, const double *s, double *v);

#ifdef __cplusplus
}
#endif
#endif
