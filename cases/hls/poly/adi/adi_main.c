/*
 * adi_main.c - the harness-owned driver of adi.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints U and V, the arrays kernel_adi() writes.  Sizes: -DN=.. -DTSTEPS=..
 */
#include "poly_harness.h"

#ifndef N
#define N 20
#endif
#ifndef TSTEPS
#define TSTEPS 6
#endif

void kernel_adi(double U[N][N], double V[N][N]);

static double U[N][N];
static double V[N][N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            U[i][j] = (double)((i * 3 + j * 7) % N) / N;
}

static void seeded_inputs(void)
{
    ph_fill_f64(&U[0][0], N * N, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    /* both grids carry the same fixed boundary */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            V[i][j] = U[i][j];
    kernel_adi(U, V);
    ph_dump_f64("U", &U[0][0], N, N);
    ph_dump_f64("V", &V[0][0], N, N);
    return 0;
}
