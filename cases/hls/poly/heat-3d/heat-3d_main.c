/*
 * heat-3d_main.c - the harness-owned driver of heat-3d.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h),
 *                    every value in the signed Q1.14 range [-2, 2)
 * Prints A and B, the arrays kernel_heat_3d() writes.  Sizes: -DN=.. -DTSTEPS=..
 */
#include <stdint.h>
#include "poly_harness.h"

#ifndef N
#define N 12
#endif
#ifndef TSTEPS
#define TSTEPS 10
#endif
#define FRAC 14

void kernel_heat_3d(int32_t A[N][N][N], int32_t B[N][N][N]);

static int32_t A[N][N][N];
static int32_t B[N][N][N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++) {
                A[i][j][k] = ((i + j + (N - k)) % 8) << (FRAC - 2);
                A[i][j][k] += ((i * j * k) % 13) << (FRAC - 4);
            }
}

static void seeded_inputs(void)
{
    ph_fill_i32(&A[0][0][0], N * N * N, -(2 << FRAC), (2 << FRAC) - 1, 1 << FRAC);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    /* both buffers carry the same fixed boundary */
    memcpy(B, A, sizeof B);
    kernel_heat_3d(A, B);
    ph_dump_i32("A", &A[0][0][0], N * N, N);
    ph_dump_i32("B", &B[0][0][0], N * N, N);
    return 0;
}
