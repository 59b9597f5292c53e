/*
 * gemm.c - general matrix-matrix multiply, C := alpha*A*B + beta*C
 *
 * Specification: the Level 3 BLAS operation xGEMM (Dongarra, Du Croz,
 * Hammarling, Duff, "A Set of Level 3 Basic Linear Algebra Subprograms",
 * ACM TOMS 16(1), 1990), with op(A) = A and op(B) = B.
 *
 * This version computes in signed fixed point: every value is a Q4.12 number
 * held in an int32_t (real value = raw / 2^12).  Products are accumulated
 * exactly in 64 bits and rescaled once per output element, the way a
 * hardware datapath with a wide accumulator would do it.
 */
#include <stdio.h>
#include <stdint.h>

#define NI 20
#define NJ 24
#define NK 28

#define FRAC_BITS 12
#define FX_ONE (1 << FRAC_BITS)

typedef int32_t fx_t;
typedef int64_t acc_t;

static fx_t A[NI][NK];
static fx_t B[NK][NJ];
static fx_t C[NI][NJ];

/* raw Q4.12 value from a small integer numerator over 8 */
static fx_t fx_eighths(int num)
{
    return (fx_t)(num * (FX_ONE / 8));
}

static void init_data(fx_t *alpha, fx_t *beta)
{
    *alpha = fx_eighths(11);   /* 1.375 */
    *beta = fx_eighths(-6);    /* -0.75 */
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

static void kernel_gemm(fx_t alpha, fx_t beta)
{
    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++) {
            acc_t dot = 0;
            for (int k = 0; k < NK; k++)
                dot += (acc_t)A[i][k] * B[k][j];
            fx_t ab = (fx_t)(dot >> FRAC_BITS);
            acc_t scaled = (acc_t)alpha * ab + (acc_t)beta * C[i][j];
            C[i][j] = (fx_t)(scaled >> FRAC_BITS);
        }
    }
}

int main(void)
{
    fx_t alpha, beta;
    init_data(&alpha, &beta);
    kernel_gemm(alpha, beta);
    for (int i = 0; i < NI; i++) {
        for (int j = 0; j < NJ; j++)
            printf("%ld%c", (long)C[i][j], j == NJ - 1 ? '\n' : ' ');
    }
    return 0;
}
