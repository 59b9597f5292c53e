/*
 * symm.c - symmetric matrix-matrix product, C := alpha*A*B + beta*C
 *
 * Specification: the Level 3 BLAS operation xSYMM with SIDE = 'L',
 * UPLO = 'L' (Dongarra et al., ACM TOMS 16(1), 1990).  A is symmetric and
 * only its lower triangle is referenced; the strictly upper triangle holds
 * unrelated values that must never be read.  Double precision.
 *
 * Interface: kernel_symm() is the design's top function; the dataset size is
 * fixed at compile time (-DM=.. -DN=..).
 */
#ifndef M
#define M 20   /* order of A, rows of B and C */
#endif
#ifndef N
#define N 22   /* columns of B and C */
#endif

/* element (i,k) of the full symmetric matrix, read from the lower triangle */
static double sym_at(double A[M][M], int i, int k)
{
    return (k <= i) ? A[i][k] : A[k][i];
}

void kernel_symm(double alpha, double beta, double C[M][N], double A[M][M], double B[M][N])
{
    double T[M][N];

    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            double acc = 0.0;
            for (int k = 0; k < M; k++)
                acc += sym_at(A, i, k) * B[k][j];
            T[i][j] = alpha * acc;
        }
    }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = beta * C[i][j] + T[i][j];
}
