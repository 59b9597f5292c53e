/*
 * gesummv.c - sum of two scaled matrix-vector products, y := alpha*A*x + beta*B*x
 *
 * Specification: the GE_SUM_MV operation of the updated BLAS proposal
 * (Blackford et al., ACM TOMS 28(2), 2002, section 2.4).  Double precision.
 */
#include <stdio.h>

#define N 28

static double A[N][N];
static double B[N][N];
static double x[N];
static double y[N];

static void init_data(double *alpha, double *beta)
{
    *alpha = 1.5;
    *beta = -0.5;
    for (int i = 0; i < N; i++) {
        x[i] = (double)(i % N) / N + 0.25;
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * j + 1) % N) / N;
            B[i][j] = (double)((i * j + 2) % (N - 3)) / (N - 3);
        }
    }
}

static void kernel_gesummv(double alpha, double beta)
{
    for (int i = 0; i < N; i++) {
        double ta = 0.0, tb = 0.0;
        for (int j = 0; j < N; j++) {
            ta += A[i][j] * x[j];
            tb += B[i][j] * x[j];
        }
        y[i] = alpha * ta + beta * tb;
    }
}

int main(void)
{
    double alpha, beta;
    init_data(&alpha, &beta);
    kernel_gesummv(alpha, beta);
    for (int i = 0; i < N; i++)
        printf("%.17g\n", y[i]);
    return 0;
}
