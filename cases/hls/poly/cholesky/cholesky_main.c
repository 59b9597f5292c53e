/*
 * cholesky_main.c - the harness-owned driver of cholesky.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * The input is built as A = B*B' + N*I, which is positive definite, from a
 * fixed or a seeded B.  Prints the whole of A: L in the lower triangle, the
 * strictly upper triangle as it was given.  Sizes: -DN=..
 */
#include "poly_harness.h"

#ifndef N
#define N 24
#endif

void kernel_cholesky(double A[N][N]);

static double A[N][N];
static double B[N][N];

static void spd_from_b(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++)
                s += B[i][k] * B[j][k];
            A[i][j] = s + (i == j ? (double)N : 0.0);
        }
    }
}

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = (double)((i * 7 + j * 3 + 2) % N) / N - 0.5;
}

static void seeded_inputs(void)
{
    ph_fill_f64(&B[0][0], N * N, -2.0, 2.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    spd_from_b();
    kernel_cholesky(A);
    ph_dump_f64("A", &A[0][0], N, N);
    return 0;
}
