/*
 * jacobi-1d_main.c - the harness-owned driver of jacobi-1d.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints A and B, the arrays kernel_jacobi_1d() writes.  Sizes: -DN=.. -DTSTEPS=..
 */
#include "poly_harness.h"

#ifndef N
#define N 40
#endif
#ifndef TSTEPS
#define TSTEPS 24
#endif

void kernel_jacobi_1d(double A[N], double B[N]);

static double A[N];
static double B[N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++)
        A[i] = (double)((i * 13) % 17) / 17.0 + 0.05 * i;
}

static void seeded_inputs(void)
{
    ph_fill_f64(A, N, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    /* both buffers carry the same end values */
    memcpy(B, A, sizeof B);
    kernel_jacobi_1d(A, B);
    ph_dump_f64("A", A, 1, N);
    ph_dump_f64("B", B, 1, N);
    return 0;
}
