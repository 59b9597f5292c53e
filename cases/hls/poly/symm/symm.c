/*
 * symm.c - symmetric matrix-matrix product, C := alpha*A*B + beta*C
 *
 * Specification: the Level 3 BLAS operation xSYMM with SIDE = 'L',
 * UPLO = 'L' (Dongarra et al., ACM TOMS 16(1), 1990).  A is symmetric and
 * only its lower triangle is referenced; the strictly upper triangle holds
 * unrelated values that must never be read.  Double precision.
 */
#include <stdio.h>

#define M 20   /* order of A, rows of B and C */
#define N 22   /* columns of B and C */

static double A[M][M];
static double B[M][N];
static double C[M][N];

static void init_data(double *alpha, double *beta)
{
    *alpha = 1.5;
    *beta = 1.2;
    for (int i = 0; i < M; i++) {
        for (int k = 0; k < M; k++)
            A[i][k] = (k <= i) ? (double)((i + k) % 100) / M : -999.0;
        for (int j = 0; j < N; j++) {
            B[i][j] = (double)((N + i - j) % 100) / M;
            C[i][j] = (double)((i + j) % 100) / M;
        }
    }
}

/* element (i,k) of the full symmetric matrix, read from the lower triangle */
static double sym_at(int i, int k)
{
    return (k <= i) ? A[i][k] : A[k][i];
}

static void kernel_symm(double alpha, double beta)
{
    double T[M][N];

    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            double acc = 0.0;
            for (int k = 0; k < M; k++)
                acc += sym_at(i, k) * B[k][j];
            T[i][j] = alpha * acc;
        }
    }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = beta * C[i][j] + T[i][j];
}

int main(void)
{
    double alpha, beta;
    init_data(&alpha, &beta);
    kernel_symm(alpha, beta);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            printf("%.17g%c", C[i][j], j == N - 1 ? '\n' : ' ');
    return 0;
}
