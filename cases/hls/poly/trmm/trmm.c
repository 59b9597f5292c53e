/*
 * trmm.c - triangular matrix-matrix product, B := alpha*A*B
 *
 * Specification: the Level 3 BLAS operation xTRMM with SIDE = 'L',
 * UPLO = 'U', TRANSA = 'N', DIAG = 'N' (Dongarra et al., ACM TOMS 16(1),
 * 1990).  A is upper triangular; its strictly lower triangle is not
 * referenced (it is filled with unrelated values here on purpose).  B is
 * overwritten in place: row i of the result depends only on rows k >= i of
 * the old B, so rows are produced top-down.  Double precision.
 */
#include <stdio.h>

#define M 20   /* order of A, rows of B */
#define N 24   /* columns of B */

static double A[M][M];
static double B[M][N];

static void init_data(double *alpha)
{
    *alpha = 1.5;
    for (int i = 0; i < M; i++) {
        for (int k = 0; k < M; k++) {
            if (k >= i)
                A[i][k] = (double)((i + k) % M) / M + 0.5;
            else
                A[i][k] = -100.0 - i - k;   /* not referenced */
        }
        for (int j = 0; j < N; j++)
            B[i][j] = (double)((N + i - j) % N) / N;
    }
}

static void kernel_trmm(double alpha)
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

int main(void)
{
    double alpha;
    init_data(&alpha);
    kernel_trmm(alpha);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            printf("%.17g%c", B[i][j], j == N - 1 ? '\n' : ' ');
    return 0;
}
