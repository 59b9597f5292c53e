/*
 * syrk.c - symmetric rank-k update, C := alpha*A*A' + beta*C
 *
 * Specification: the Level 3 BLAS operation xSYRK with UPLO = 'L',
 * TRANS = 'N' (Dongarra et al., ACM TOMS 16(1), 1990).  Only the lower
 * triangle of C (j <= i) is referenced and updated; the strictly upper
 * triangle must come out unchanged.  Double precision.
 */
#include <stdio.h>

#define N 24   /* order of C */
#define K 20   /* columns of A */

static double A[N][K];
static double C[N][N];

static void init_data(double *alpha, double *beta)
{
    *alpha = 1.5;
    *beta = 1.2;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < K; k++)
            A[i][k] = (double)((i * k + 1) % N) / N;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = (double)((i * j + 2) % K) / K;
}

static void kernel_syrk(double alpha, double beta)
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

int main(void)
{
    double alpha, beta;
    init_data(&alpha, &beta);
    kernel_syrk(alpha, beta);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            printf("%.17g%c", C[i][j], j == N - 1 ? '\n' : ' ');
    return 0;
}
