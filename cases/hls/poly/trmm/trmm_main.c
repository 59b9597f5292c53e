/*
 * trmm_main.c - the harness-owned driver of trmm.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs (A's strictly lower triangle
 *                    holds unrelated values on purpose)
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h);
 *                    A's strictly lower triangle is drawn independently
 * Prints B, the only array kernel_trmm() writes.  Sizes: -DM=.. -DN=..
 */
#include "poly_harness.h"

#ifndef M
#define M 20
#endif
#ifndef N
#define N 24
#endif

void kernel_trmm(double alpha, double B[M][N], double A[M][M]);

static double A[M][M];
static double B[M][N];
static double alpha;

static void fixed_inputs(void)
{
    alpha = 1.5;
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

static void seeded_inputs(void)
{
    alpha = ph_f64(-2.0, 2.0, 1.0);
    ph_fill_f64(&A[0][0], M * M, -4.0, 4.0, 1.0);
    ph_fill_f64(&B[0][0], M * N, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_trmm(alpha, B, A);
    ph_dump_f64("B", &B[0][0], M, N);
    return 0;
}
