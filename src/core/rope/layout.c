/* layout.c: how the rotated dimensions are paired, and the permutation
 * between the two conventions in use.
 *
 * Interleaved: pair i is (x_2i, x_2i+1), as RoFormer eq. 15 writes R and
 * as Meta's llama apply_rotary_emb reads it (view_as_complex over
 * consecutive pairs; GPT-J the same).  Half-split: pair i is
 * (x_i, x_i+r/2), as GPT-NeoX and Hugging Face's rotate_half.  The two
 * agree up to the row permutation that Hugging Face's
 * convert_llama_weights_to_hf applies to W_q and W_k. */
#include "ropelab.h"

void rl_layout_pair(rl_layout layout, size_t rot, size_t i, size_t *a, size_t *b)
{
  if (layout == RL_LAYOUT_HALF) {
    *a = i;
    *b = i + rot / 2;
  } else {
    *a = 2 * i;
    *b = 2 * i + 1;
  }
}

/* Source index of half-split position j: the first r/2 slots take the
 * even (first) members of the interleaved pairs, the next r/2 the odd. */
static size_t perm_at(size_t rot, size_t j)
{
  size_t n = rot / 2;
  if (j >= rot)
    return j;
  return j < n ? 2 * j : 2 * (j - n) + 1;
}

void rl_layout_perm(size_t dim, size_t rot, size_t *perm)
{
  for (size_t j = 0; j < dim; j++)
    perm[j] = perm_at(rot, j);
}

void rl_layout_permute(size_t dim, size_t rot, int to_half, const double *x, double *y)
{
  for (size_t j = 0; j < dim; j++) {
    if (to_half)
      y[j] = x[perm_at(rot, j)];
    else
      y[perm_at(rot, j)] = x[j];
  }
}
