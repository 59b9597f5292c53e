/*
 * seidel-2d_main.c - the harness-owned driver of seidel-2d.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints A, the only array kernel_seidel_2d() writes.  Sizes: -DN=.. -DTSTEPS=..
 */
#include "poly_harness.h"

#ifndef N
#define N 24
#endif
#ifndef TSTEPS
#define TSTEPS 8
#endif

void kernel_seidel_2d(double A[N][N]);

static double A[N][N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = ((double)((i * (j + 3)) % N) + 1.5) / N;
}

static void seeded_inputs(void)
{
    ph_fill_f64(&A[0][0], N * N, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_seidel_2d(A);
    ph_dump_f64("A", &A[0][0], N, N);
    return 0;
}
