/*
 * trmm.c - triangular matrix-matrix product, B := alpha*A*B
 *
 * Specification: the Level 3 BLAS operation xTRMM with SIDE = 'L',
 * UPLO = 'U', TRANSA = 'N', DIAG = 'N' (Dongarra et al., ACM TOMS 16(1),
 * 1990).  A is upper triangular; its strictly lower triangle is not
 * referenced.  B is overwritten in place: row i of the result depends only
 * on rows k >= i of the old B, so rows are produced top-down.  Double
 * precision.
 *
 * Interface: kernel_trmm() is the design's top function; the dataset size is
 * fixed at compile time (-DM=.. -DN=..).
 */
#ifndef M
#define M 20   /* order of A, rows of B */
#endif
#ifndef N
#define N 24   /* columns of B */
#endif

void kernel_trmm(double alpha, double B[M][N], double A[M][M])
{
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            double acc = A[i][i] * B[i][j];
            for (int k = i + 1; k < M; k++)
                acc += A[i][k] * B[k][j];
            B[i][j] = alpha * acc;
        }
    }
}
