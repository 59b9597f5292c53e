/*
 * syrk.c - symmetric rank-k update, C := alpha*A*A' + beta*C
 *
 * Specification: the Level 3 BLAS operation xSYRK with UPLO = 'L',
 * TRANS = 'N' (Dongarra et al., ACM TOMS 16(1), 1990).  Only the lower
 * triangle of C (j <= i) is referenced and updated; the strictly upper
 * triangle must come out unchanged.  Double precision.
 *
 * Interface: kernel_syrk() is the design's top function; the dataset size is
 * fixed at compile time (-DN=.. -DK=..).
 */
#ifndef N
#define N 24   /* order of C */
#endif
#ifndef K
#define K 20   /* columns of A */
#endif

void kernel_syrk(double alpha, double beta, double C[N][N], double A[N][K])
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < K; k++) {
            double aik = alpha * A[i][k];
            for (int j = 0; j <= i; j++)
                C[i][j] += aik * A[j][k];
        }
    }
}
