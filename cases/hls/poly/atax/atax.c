/*
 * atax.c - y := A' * (A * x)
 *
 * Specification: the normal-equations product used by least-squares methods
 * (Golub and Van Loan, "Matrix Computations", 4th ed., section 5.3): two
 * matrix-vector products, the second with the transpose.  Double precision.
 *
 * Interface: kernel_atax() is the design's top function; the dataset size is
 * fixed at compile time (-DM=.. -DN=..).
 */
#ifndef M
#define M 22   /* rows of A */
#endif
#ifndef N
#define N 26   /* columns of A */
#endif

void kernel_atax(double y[N], double A[M][N], double x[N])
{
    double tmp[M];

    for (int j = 0; j < N; j++)
        y[j] = 0.0;
    for (int i = 0; i < M; i++) {
        tmp[i] = 0.0;
        for (int j = 0; j < N; j++)
            tmp[i] += A[i][j] * x[j];
        for (int j = 0; j < N; j++)
            y[j] += A[i][j] * tmp[i];
    }
}
