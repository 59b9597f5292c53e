/*
 * gemver.c - rank-2 update followed by two matrix-vector products
 *
 * Specification: the GEMVER operation of the updated BLAS proposal
 * (Blackford et al., "An Updated Set of Basic Linear Algebra Subprograms",
 * ACM TOMS 28(2), 2002, section 2.4):
 *     B := A + u1*v1' + u2*v2'
 *     x := beta*B'*y + z
 *     w := alpha*B*x
 * Double precision; A is updated in place to hold B.
 */
#include <stdio.h>

#define N 24

static double A[N][N];
static double u1[N], v1[N], u2[N], v2[N];
static double x[N], y[N], z[N], w[N];

static void init_data(double *alpha, double *beta)
{
    *alpha = 1.25;
    *beta = 0.75;
    for (int i = 0; i < N; i++) {
        double fi = (double)i;
        u1[i] = fi / N;
        v1[i] = (fi + 1.0) / (2 * N);
        u2[i] = (fi + 2.0) / (3 * N);
        v2[i] = (fi + 3.0) / (4 * N);
        y[i] = (fi + 4.0) / (5 * N);
        z[i] = (fi + 5.0) / (6 * N);
        x[i] = 0.0;
        w[i] = 0.0;
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i * j + 3) % N) / N;
    }
}

static void kernel_gemver(double alpha, double beta)
{
    /* rank-2 update */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] += u1[i] * v1[j] + u2[i] * v2[j];

    /* x := beta * A' * y + z */
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < N; j++)
            s += A[j][i] * y[j];
        x[i] = beta * s + z[i];
    }

    /* w := alpha * A * x */
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < N; j++)
            s += A[i][j] * x[j];
        w[i] = alpha * s;
    }
}

int main(void)
{
    double alpha, beta;
    init_data(&alpha, &beta);
    kernel_gemver(alpha, beta);
    for (int i = 0; i < N; i++)
        printf("x[%d] = %.17g\n", i, x[i]);
    for (int i = 0; i < N; i++)
        printf("w[%d] = %.17g\n", i, w[i]);
    return 0;
}
