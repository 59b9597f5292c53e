/*
 * gemm_main.c - the harness-owned driver of gemm.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints C, the only array kernel_gemm() writes.  Sizes: -DNI=.. -DNJ=.. -DNK=..
 */
#include <stdint.h>
#include "poly_harness.h"

#ifndef NI
#define NI 20
#endif
#ifndef NJ
#define NJ 24
#endif
#ifndef NK
#define NK 28
#endif

#define FX_ONE (1 << 12)
/* Q4.12 in 16 bits: [-8, 8); the 64-bit dot products cannot overflow */
#define FX_MIN (-32768)
#define FX_MAX 32767

void kernel_gemm(int32_t alpha, int32_t beta, int32_t C[NI][NJ], int32_t A[NI][NK], int32_t B[NK][NJ]);

static int32_t A[NI][NK];
static int32_t B[NK][NJ];
static int32_t C[NI][NJ];
static int32_t alpha, beta;

/* raw Q4.12 value from a small integer numerator over 8 */
static int32_t fx_eighths(int num)
{
    return (int32_t)(num * (FX_ONE / 8));
}

static void fixed_inputs(void)
{
    alpha = fx_eighths(11);   /* 1.375 */
    beta = fx_eighths(-6);    /* -0.75 */
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = fx_eighths((i * 7 + k * 3 + 1) % 57 - 16);
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = fx_eighths((k * 5 + j * 11 + 3) % 53 - 14);
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = fx_eighths((i + 2 * j) % 13 - 6);
}

static void seeded_inputs(void)
{
    alpha = ph_i32(FX_MIN, FX_MAX, FX_ONE);
    beta = ph_i32(FX_MIN, FX_MAX, FX_ONE);
    ph_fill_i32(&A[0][0], NI * NK, FX_MIN, FX_MAX, FX_ONE);
    ph_fill_i32(&B[0][0], NK * NJ, FX_MIN, FX_MAX, FX_ONE);
    ph_fill_i32(&C[0][0], NI * NJ, FX_MIN, FX_MAX, FX_ONE);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_gemm(alpha, beta, C, A, B);
    ph_dump_i32("C", &C[0][0], NI, NJ);
    return 0;
}
