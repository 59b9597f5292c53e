/*
 * symm_main.c - the harness-owned driver of symm.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs (A's strictly upper triangle is -999)
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h);
 *                    A's strictly upper triangle is drawn independently
 * Prints C, the only array kernel_symm() writes.  Sizes: -DM=.. -DN=..
 */
#include "poly_harness.h"

#ifndef M
#define M 20
#endif
#ifndef N
#define N 22
#endif

void kernel_symm(double alpha, double beta, double C[M][N], double A[M][M], double B[M][N]);

static double A[M][M];
static double B[M][N];
static double C[M][N];
static double alpha, beta;

static void fixed_inputs(void)
{
    alpha = 1.5;
    beta = 1.2;
    for (int i = 0; i < M; i++) {
        for (int k = 0; k < M; k++)
            A[i][k] = (k <= i) ? (double)((i + k) % 100) / M : -999.0;
        for (int j = 0; j < N; j++) {
            B[i][j] = (double)((N + i - j) % 100) / M;
            C[i][j] = (double)((i + j) % 100) / M;
        }
    }
}

static void seeded_inputs(void)
{
    alpha = ph_f64(-2.0, 2.0, 1.0);
    beta = ph_f64(-2.0, 2.0, 1.0);
    ph_fill_f64(&A[0][0], M * M, -4.0, 4.0, 1.0);
    ph_fill_f64(&B[0][0], M * N, -4.0, 4.0, 1.0);
    ph_fill_f64(&C[0][0], M * N, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_symm(alpha, beta, C, A, B);
    ph_dump_f64("C", &C[0][0], M, N);
    return 0;
}
