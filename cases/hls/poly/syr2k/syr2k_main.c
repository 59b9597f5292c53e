/*
 * syr2k_main.c - the harness-owned driver of syr2k.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints C, the only array kernel_syr2k() writes (its strictly upper
 * triangle must come out unchanged).  Sizes: -DN=.. -DK=..
 */
#include "poly_harness.h"

#ifndef N
#define N 20
#endif
#ifndef K
#define K 24
#endif

void kernel_syr2k(double alpha, double beta, double C[N][N], double A[N][K], double B[N][K]);

static double A[N][K];
static double B[N][K];
static double C[N][N];
static double alpha, beta;

static void fixed_inputs(void)
{
    alpha = 1.5;
    beta = 1.2;
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < K; k++) {
            A[i][k] = (double)((i * k + 1) % N) / N;
            B[i][k] = (double)((i * k + 2) % K) / K;
        }
        for (int j = 0; j < N; j++)
            C[i][j] = (double)((i * j + 3) % N) / K;
    }
}

static void seeded_inputs(void)
{
    alpha = ph_f64(-2.0, 2.0, 1.0);
    beta = ph_f64(-2.0, 2.0, 1.0);
    ph_fill_f64(&A[0][0], N * K, -4.0, 4.0, 1.0);
    ph_fill_f64(&B[0][0], N * K, -4.0, 4.0, 1.0);
    ph_fill_f64(&C[0][0], N * N, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_syr2k(alpha, beta, C, A, B);
    ph_dump_f64("C", &C[0][0], N, N);
    return 0;
}
