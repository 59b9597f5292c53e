/*
 * syr2k.c - symmetric rank-2k update, C := alpha*A*B' + alpha*B*A' + beta*C
 *
 * Specification: the Level 3 BLAS operation xSYR2K with UPLO = 'L',
 * TRANS = 'N' (Dongarra et al., ACM TOMS 16(1), 1990).  Only the lower
 * triangle of C is referenced and updated.  Double precision.
 *
 * Interface: kernel_syr2k() is the design's top function; the dataset size
 * is fixed at compile time (-DN=.. -DK=..).
 */
#ifndef N
#define N 20   /* order of C */
#endif
#ifndef K
#define K 24   /* columns of A and B */
#endif

void kernel_syr2k(double alpha, double beta, double C[N][N], double A[N][K], double B[N][K])
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++) {
            double acc = 0.0;
            for (int k = 0; k < K; k++)
                acc += A[i][k] * B[j][k] + B[i][k] * A[j][k];
            C[i][j] = alpha * acc + beta * C[i][j];
        }
    }
}
