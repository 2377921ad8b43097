/* blas.c: the core's matrix products, OpenBLAS opened at the first call
 * (internal.h says why), gslcblas otherwise. */
#include "internal.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef RL_OPENBLAS_SONAME
#include <dlfcn.h>
#endif

typedef void (*dgemm_fn)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int,
                         int, double, const double *, int, const double *, int, double,
                         double *, int);
typedef void (*sgemm_fn)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int,
                         int, float, const float *, int, const float *, int, float, float *,
                         int);
typedef void (*dgemv_fn)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, int, int, double,
                         const double *, int, const double *, int, double, double *, int);
typedef double (*ddot_fn)(int, const double *, int, const double *, int);

/* gslcblas until OpenBLAS is open (the same CBLAS interface and enum
 * values: both follow the reference cblas.h) */
static struct {
  dgemm_fn dgemm;
  sgemm_fn sgemm;
  dgemv_fn dgemv;
  ddot_fn ddot;
  const char *name, *core;
} lib = {cblas_dgemm, cblas_sgemm, cblas_dgemv, cblas_ddot, "gsl", "-"};

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
#ifdef RL_OPENBLAS_SONAME
  /* no thread at start-up unless the user asks for threads */
  int set = !getenv("OPENBLAS_NUM_THREADS");
  if (set)
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
  void *h = dlopen(RL_OPENBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (set)
    unsetenv("OPENBLAS_NUM_THREADS");
  if (!h)
    return;
  /* dlsym's void * to a function pointer: POSIX requires it to work */
  dgemm_fn dg;
  sgemm_fn sg;
  dgemv_fn dv;
  ddot_fn dd;
  char *(*corename)(void);
  void *p;
  if (!(p = dlsym(h, "cblas_dgemm")))
    return;
  memcpy(&dg, &p, sizeof p);
  if (!(p = dlsym(h, "cblas_sgemm")))
    return;
  memcpy(&sg, &p, sizeof p);
  if (!(p = dlsym(h, "cblas_dgemv")))
    return;
  memcpy(&dv, &p, sizeof p);
  if (!(p = dlsym(h, "cblas_ddot")))
    return;
  memcpy(&dd, &p, sizeof p);
  lib.dgemm = dg, lib.sgemm = sg, lib.dgemv = dv, lib.ddot = dd, lib.name = "openblas";
  if ((p = dlsym(h, "openblas_get_corename"))) {
    memcpy(&corename, &p, sizeof p);
    const char *n = corename();
    lib.core = n && *n ? n : "-";
  }
  /* the handle stays open for the process */
#endif
}

void rl_blas_load(void) { pthread_once(&once, load); }
const char *rl_blas_name(void)
{
  rl_blas_load();
  return lib.name;
}
const char *rl_blas_core(void)
{
  rl_blas_load();
  return lib.core;
}

void rl_blas_dgemm(enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int M, int N, int K,
                   double alpha, const double *A, int lda, const double *B, int ldb,
                   double beta, double *C, int ldc)
{
  rl_blas_load();
  lib.dgemm(CblasRowMajor, ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void rl_blas_sgemm(enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int M, int N, int K,
                   float alpha, const float *A, int lda, const float *B, int ldb, float beta,
                   float *C, int ldc)
{
  rl_blas_load();
  lib.sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void rl_blas_dgemv(enum CBLAS_TRANSPOSE ta, int M, int N, double alpha, const double *A,
                   int lda, const double *x, int incx, double beta, double *y, int incy)
{
  rl_blas_load();
  lib.dgemv(CblasRowMajor, ta, M, N, alpha, A, lda, x, incx, beta, y, incy);
}

double rl_blas_ddot(int n, const double *x, int incx, const double *y, int incy)
{
  rl_blas_load();
  return lib.ddot(n, x, incx, y, incy);
}
