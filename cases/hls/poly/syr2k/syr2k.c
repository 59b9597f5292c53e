/*
 * syr2k.c - symmetric rank-2k update, C := alpha*A*B' + alpha*B*A' + beta*C
 *
 * Specification: the Level 3 BLAS operation xSYR2K with UPLO = 'L',
 * TRANS = 'N' (Dongarra et al., ACM TOMS 16(1), 1990).  Only the lower
 * triangle of C is referenced and updated.  Double precision.
 */
#include <stdio.h>

#define N 20   /* order of C */
#define K 24   /* columns of A and B */

static double A[N][K];
static double B[N][K];
static double C[N][N];

static void init_data(double *alpha, double *beta)
{
    *alpha = 1.5;
    *beta = 1.2;
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < K; k++) {
            A[i][k] = (double)((i * k + 1) % N) / N;
            B[i][k] = (double)((i * k + 2) % K) / K;
        }
        for (int j = 0; j < N; j++)
            C[i][j] = (double)((i * j + 3) % N) / K;
    }
}

static void kernel_syr2k(double alpha, double beta)
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

int main(void)
{
    double alpha, beta;
    init_data(&alpha, &beta);
    kernel_syr2k(alpha, beta);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            printf("%.17g%c", C[i][j], j == N - 1 ? '\n' : ' ');
    return 0;
}
