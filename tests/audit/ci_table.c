/* ci_table.c: the Llama 3.1 RoPE table of ci_tables.py written by plain C
 * in float32 (d = 128, base 500000, llama3 factor 8, L = 8192, low 1,
 * high 4; half layout, positions 0..1023), independently of ropelab, for
 * the CI recipe of experiments/audit/README.md (tests/audit/cases/ci_recipe.sh).
 *   ci_table powf|exp2f COS.csv SIN.csv
 * powf: theta_i = 1 / powf(base, 2i/d); exp2f: theta_i = exp2f(-(2i/d) *
 * log2f(base)), the form C code writes to avoid pow.  cos and sin by cosf
 * and sinf of the float32 angle; printed with %.9g (float32 round-trips).
 * Built and run by the test with the system's cc and libm. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define D 128
#define P 1024

int main(int argc, char **argv)
{
  if (argc != 4)
    return 2;
  int use_exp2 = !strcmp(argv[1], "exp2f");
  const float base = 500000.0f, factor = 8.0f, L = 8192.0f, low = 1.0f, high = 4.0f;
  const float two_pi = 6.283185307f;
  float inv[D / 2];
  for (int i = 0; i < D / 2; i++) {
    float y = (float)(2 * i) / (float)D;
    float t = use_exp2 ? exp2f(-y * log2f(base)) : 1.0f / powf(base, y);
    /* Llama 3.1's bands over the wavelength (transformers'
     * _compute_llama3_parameters) */
    float wl = two_pi / t;
    if (wl > L / low)
      t = t / factor;
    else if (!(wl < L / high)) {
      float smooth = (L / wl - low) / (high - low);
      t = (1.0f - smooth) * t / factor + smooth * t;
    }
    inv[i] = t;
  }
  FILE *fc = fopen(argv[2], "w"), *fs = fopen(argv[3], "w");
  if (!fc || !fs)
    return 3;
  for (int m = 0; m < P; m++)
    for (int k = 0; k < D; k++) {
      float a = (float)m * inv[k % (D / 2)];
      fprintf(fc, "%.9g%c", (double)cosf(a), k + 1 < D ? ',' : '\n');
      fprintf(fs, "%.9g%c", (double)sinf(a), k + 1 < D ? ',' : '\n');
    }
  return fclose(fc) || fclose(fs) ? 3 : 0;
}
