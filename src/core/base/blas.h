/* blas.h (internal to the core: not in ropelab.h): the core's matrix
 * products through one seam, with OpenBLAS loaded at the first call.
 *
 * Why not linked: loading OpenBLAS (Debian's 36 MB libopenblas.so.0,
 * every kernel of every x86 family) costs a process about 7 ms of CPU in
 * the dynamic loader (12,000 symbol relocations and the page faults of
 * its tables, perf) and its constructor starts a thread per core, and
 * most ropelab processes never multiply a matrix.  So the executable
 * links GSL's gslcblas (what GSL's own routines call, gsl_blas_*), and
 * the products that are worth OpenBLAS (the trainer's, extrapolate's)
 * come here: at the first call OpenBLAS is opened with dlopen
 * (RTLD_LOCAL: its cblas_* do not replace gslcblas' for GSL) where the
 * build found it (-Dblas=auto or openblas), else gslcblas computes.
 *
 * Threads: OpenBLAS runs one thread unless the user set
 * OPENBLAS_NUM_THREADS (it is opened with OPENBLAS_NUM_THREADS=1 in the
 * environment for the moment of its constructor, so no thread is
 * started); ropelab's own --threads are the parallelism, and a product's
 * bits do not depend on the machine's core count.
 *
 * rl_blas_load is safe from any thread (pthread_once), but the
 * environment is briefly changed while OpenBLAS starts: callers that
 * start threads call it first, from the thread that starts them. */
#ifndef RL_BASE_BLAS_H
#define RL_BASE_BLAS_H

#include <gsl/gsl_cblas.h>

/* Opens OpenBLAS if the build asked for it and it is there; idempotent. */
void rl_blas_load(void);
/* "openblas" or "gsl": the library the products below run on (loads). */
const char *rl_blas_name(void);
/* OpenBLAS's kernel family ("Haswell", "SkylakeX"), "-" for gslcblas
 * (loads): the kernels differ in their order of the sums. */
const char *rl_blas_core(void);

/* Row-major C = alpha op(A) op(B) + beta C, as cblas_?gemm. */
void rl_blas_dgemm(enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int M, int N, int K,
                   double alpha, const double *A, int lda, const double *B, int ldb,
                   double beta, double *C, int ldc);
void rl_blas_sgemm(enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int M, int N, int K,
                   float alpha, const float *A, int lda, const float *B, int ldb, float beta,
                   float *C, int ldc);
/* Row-major y = alpha op(A) x + beta y, as cblas_dgemv; x . y. */
void rl_blas_dgemv(enum CBLAS_TRANSPOSE ta, int M, int N, double alpha, const double *A,
                   int lda, const double *x, int incx, double beta, double *y, int incy);
double rl_blas_ddot(int n, const double *x, int incx, const double *y, int incy);

#endif
