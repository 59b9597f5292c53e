/*
 * atax.c - y := A' * (A * x)
 *
 * Specification: the normal-equations product used by least-squares methods
 * (Golub and Van Loan, "Matrix Computations", 4th ed., section 5.3): two
 * matrix-vector products, the second with the transpose.  Double precision.
 */
#include <stdio.h>

#define M 22   /* rows of A */
#define N 26   /* columns of A */

static double A[M][N];
static double x[N];
static double y[N];

static void init_data(void)
{
    for (int j = 0; j < N; j++)
        x[j] = 1.0 + (double)j / N;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i + j) % N) / (5 * M);
}

static void kernel_atax(void)
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

int main(void)
{
    init_data();
    kernel_atax();
    for (int j = 0; j < N; j++)
        printf("%.17g\n", y[j]);
    return 0;
}
