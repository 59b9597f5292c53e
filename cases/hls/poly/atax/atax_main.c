/*
 * atax_main.c - the harness-owned driver of atax.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints y, the only array kernel_atax() writes.  Sizes: -DM=.. -DN=..
 */
#include "poly_harness.h"

#ifndef M
#define M 22
#endif
#ifndef N
#define N 26
#endif

void kernel_atax(double y[N], double A[M][N], double x[N]);

static double A[M][N];
static double x[N];
static double y[N];

static void fixed_inputs(void)
{
    for (int j = 0; j < N; j++)
        x[j] = 1.0 + (double)j / N;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i + j) % N) / (5 * M);
}

static void seeded_inputs(void)
{
    ph_fill_f64(&A[0][0], M * N, -4.0, 4.0, 1.0);
    ph_fill_f64(x, N, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(y, sizeof y);
    kernel_atax(y, A, x);
    ph_dump_f64("y", y, 1, N);
    return 0;
}
