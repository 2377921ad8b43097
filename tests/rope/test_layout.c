/* test_layout.c: interleaved vs half-split pairing and the permutation
 * between them.
 *
 * Hand-derived facts: Hugging Face's convert_llama_weights_to_hf permutes
 * the rows of W_q, W_k with view(n/2, 2).transpose, i.e. row j of the
 * half-split form is row perm[j] of the interleaved one, perm[i] = 2i,
 * perm[n+i] = 2i+1.  For d = 8 that is {0,2,4,6,1,3,5,7}. */
#include <complex.h>
#include <math.h>
#include <string.h>
#include <gsl/gsl_rng.h>
#include "ropelab.h"
#include "tap.h"

#define DMAX 128

static void test_pairs_and_perm(void)
{
  size_t a, b;
  rl_layout_pair(RL_LAYOUT_INTERLEAVED, 8, 3, &a, &b);
  tap_ok(a == 6 && b == 7, "interleaved r=8 pair 3 = (6, 7)");
  rl_layout_pair(RL_LAYOUT_HALF, 8, 3, &a, &b);
  tap_ok(a == 3 && b == 7, "half r=8 pair 3 = (3, 7)");
  rl_layout_pair(RL_LAYOUT_HALF, 4, 1, &a, &b);
  tap_ok(a == 1 && b == 3, "half r=4 (of d=6) pair 1 = (1, 3)");

  static const size_t want8[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  static const size_t want6[6] = {0, 2, 1, 3, 4, 5}; /* r = 4: dims 4, 5 stay */
  size_t perm[DMAX];
  rl_layout_perm(8, 8, perm);
  tap_ok(memcmp(perm, want8, sizeof want8) == 0, "perm d=8 r=8 = {0,2,4,6,1,3,5,7}");
  rl_layout_perm(6, 4, perm);
  tap_ok(memcmp(perm, want6, sizeof want6) == 0, "perm d=6 r=4 = {0,2,1,3,4,5}");

  /* a permutation: every index hit exactly once; tail fixed; and pair i of
   * the half layout holds the two members of interleaved pair i */
  static const size_t dims[][2] = {{2, 2}, {8, 8}, {128, 128}, {64, 32}, {10, 2}, {96, 64}};
  for (size_t k = 0; k < sizeof dims / sizeof *dims; k++) {
    size_t d = dims[k][0], r = dims[k][1], hits[DMAX] = {0};
    int ok = 1;
    rl_layout_perm(d, r, perm);
    for (size_t j = 0; j < d; j++)
      if (perm[j] < d)
        hits[perm[j]]++;
    for (size_t j = 0; j < d; j++)
      ok &= hits[j] == 1;
    tap_ok(ok, "d=%zu r=%zu: perm is a permutation", d, r);
    ok = 1;
    for (size_t j = r; j < d; j++)
      ok &= perm[j] == j;
    for (size_t i = 0; i < r / 2; i++) {
      size_t ia, ib, ha, hb;
      rl_layout_pair(RL_LAYOUT_INTERLEAVED, r, i, &ia, &ib);
      rl_layout_pair(RL_LAYOUT_HALF, r, i, &ha, &hb);
      ok &= perm[ha] == ia && perm[hb] == ib;
    }
    tap_ok(ok, "d=%zu r=%zu: perm maps half pair i onto interleaved pair i, tail fixed", d, r);
  }
}

static void test_permute(gsl_rng *rng)
{
  double x[DMAX], y[DMAX], z[DMAX];
  size_t perm[DMAX];
  for (int t = 0; t < 3; t++) {
    size_t d = t == 0 ? 8 : 128, r = t == 2 ? 96 : d;
    for (size_t j = 0; j < d; j++)
      x[j] = gsl_rng_uniform(rng);
    rl_layout_perm(d, r, perm);
    rl_layout_permute(d, r, 1, x, y);
    int ok = 1;
    for (size_t j = 0; j < d; j++)
      ok &= y[j] == x[perm[j]];
    tap_ok(ok, "d=%zu r=%zu: permute(to_half) is y[j] = x[perm[j]]", d, r);
    rl_layout_permute(d, r, 0, y, z);
    tap_ok(memcmp(x, z, d * sizeof *x) == 0, "d=%zu r=%zu: P^T P x == x", d, r);
  }
}

/* rotate(half, P x) == P rotate(interleaved, x), bitwise: pair i meets the
 * same c, s and the same operands in the same order in both layouts.  For
 * the matrix form this relies on dgemv summing each row in column order:
 * GSL's CBLAS does (the added terms are exact zeros otherwise), and GSL's
 * routines run on it in every build (OpenBLAS, which sums in blocks and
 * fuses a multiply-add, serves only the core's own products, opened with
 * RTLD_LOCAL: src/core/base/blas.c). */
static void test_commute(gsl_rng *rng)
{
  static const size_t dims[][2] = {{8, 8}, {128, 128}, {64, 32}, {6, 4}};
  double x[DMAX], px[DMAX], yi[DMAX], yh[DMAX], pyi[DMAX], ws[DMAX * DMAX];
  for (size_t k = 0; k < sizeof dims / sizeof *dims; k++) {
    rl_schedule *f;
    if (rl_schedule_rope(dims[k][0], dims[k][1], 10000, &f))
      continue;
    size_t d = f->dim;
    int ok[3] = {1, 1, 1}, tail = 1;
    for (int t = 0; t < 100; t++) {
      double m = t % 2 ? floor(gsl_rng_uniform(rng) * RL_POS_MAX) : gsl_rng_uniform(rng) * 1e5;
      for (size_t j = 0; j < d; j++)
        x[j] = 2 * gsl_rng_uniform(rng) - 1;
      rl_layout_permute(d, f->rot, 1, x, px);
      for (int impl = 0; impl < 3; impl++) {
        if (impl == 0) {
          rl_rope_apply_matrix(f, RL_LAYOUT_INTERLEAVED, m, x, yi, ws);
          rl_rope_apply_matrix(f, RL_LAYOUT_HALF, m, px, yh, ws);
        } else if (impl == 1) {
          rl_rope_apply_elementwise(f, RL_LAYOUT_INTERLEAVED, m, x, yi);
          rl_rope_apply_elementwise(f, RL_LAYOUT_HALF, m, px, yh);
        } else {
          rl_rope_apply_complex(f, RL_LAYOUT_INTERLEAVED, m, x, yi);
          rl_rope_apply_complex(f, RL_LAYOUT_HALF, m, px, yh);
        }
        rl_layout_permute(d, f->rot, 1, yi, pyi);
        ok[impl] &= memcmp(yh, pyi, d * sizeof *yh) == 0;
        for (size_t j = f->rot; j < d; j++)
          tail &= yi[j] == x[j] && yh[j] == px[j];
      }
    }
    static const char *names[3] = {"matrix", "elementwise", "complex"};
    for (int impl = 0; impl < 3; impl++)
      tap_ok(ok[impl], "d=%zu r=%zu %s: rotate(half, P x) == P rotate(interleaved, x) bitwise",
             d, f->rot, names[impl]);
    tap_ok(tail, "d=%zu r=%zu: dims %zu..%zu unchanged", d, f->rot, f->rot, d - 1);
    rl_schedule_free(f);
  }
}

/* The two reference formulations written out here, independently:
 * Hugging Face apply_rotary_pos_emb: q*cos + rotate_half(q)*sin with
 *   cos = cat(cos_i, cos_i), rotate_half(q) = cat(-q[n:], q[:n]);
 * Meta llama apply_rotary_emb: view_as_complex over consecutive pairs
 *   times polar(1, m theta_i).
 * Both with the library's c, s (the angles are test_angle's business), so
 * the library must match them to the last bit. */
static void test_references(gsl_rng *rng)
{
  rl_schedule *f;
  if (rl_schedule_rope(64, 48, 10000, &f))
    return;
  size_t d = f->dim, n = f->n, r = f->rot;
  double q[DMAX], y[DMAX], hf[DMAX], c[DMAX], s[DMAX];
  int ok_hf = 1, ok_meta = 1;
  for (int t = 0; t < 50; t++) {
    double m = floor(gsl_rng_uniform(rng) * 1e6);
    for (size_t j = 0; j < d; j++)
      q[j] = 2 * gsl_rng_uniform(rng) - 1;
    rl_rope_cossin(f, m, c, s);
    for (size_t j = 0; j < r; j++) {
      double rh = j < n ? -q[j + n] : q[j - n];
      hf[j] = q[j] * c[j % n] + rh * s[j % n];
    }
    for (size_t j = r; j < d; j++)
      hf[j] = q[j];
    rl_rope_apply_elementwise(f, RL_LAYOUT_HALF, m, q, y);
    ok_hf &= memcmp(y, hf, d * sizeof *y) == 0;
    rl_rope_apply_complex(f, RL_LAYOUT_INTERLEAVED, m, q, y);
    for (size_t i = 0; i < n; i++) {
      double complex z = CMPLX(q[2 * i], q[2 * i + 1]) * CMPLX(c[i], s[i]);
      ok_meta &= y[2 * i] == creal(z) && y[2 * i + 1] == cimag(z);
    }
    for (size_t j = r; j < d; j++)
      ok_meta &= y[j] == q[j];
  }
  tap_ok(ok_hf, "d=64 r=48: half == Hugging Face q*cos + rotate_half(q)*sin");
  tap_ok(ok_meta, "d=64 r=48: interleaved == Meta llama view_as_complex * polar");
  rl_schedule_free(f);
}

int main(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 4242);
  test_pairs_and_perm();
  test_permute(rng);
  test_commute(rng);
  test_references(rng);
  gsl_rng_free(rng);
  return tap_done();
}
