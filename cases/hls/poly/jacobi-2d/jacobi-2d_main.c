/*
 * jacobi-2d_main.c - the harness-owned driver of jacobi-2d.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h),
 *                    every value in the unsigned Q2.12 range [0, 4)
 * Prints A and B, the arrays kernel_jacobi_2d() writes.  Sizes: -DN=.. -DTSTEPS=..
 */
#include <stdint.h>
#include "poly_harness.h"

#ifndef N
#define N 20
#endif
#ifndef TSTEPS
#define TSTEPS 10
#endif
#define FRAC 12

void kernel_jacobi_2d(int32_t A[N][N], int32_t B[N][N]);

static int32_t A[N][N];
static int32_t B[N][N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            /* value in [0, 4): integer part and a fraction in 1/N steps */
            A[i][j] = (((i + j) % 4) << FRAC) + (((i * j) % N) << FRAC) / N;
        }
}

static void seeded_inputs(void)
{
    ph_fill_i32(&A[0][0], N * N, 0, (4 << FRAC) - 1, 1 << FRAC);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    /* both buffers carry the same fixed boundary */
    memcpy(B, A, sizeof B);
    kernel_jacobi_2d(A, B);
    ph_dump_i32("A", &A[0][0], N, N);
    ph_dump_i32("B", &B[0][0], N, N);
    return 0;
}
