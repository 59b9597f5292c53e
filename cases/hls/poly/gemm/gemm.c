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
 *
 * Interface: kernel_gemm() is the design's top function; the dataset size is
 * fixed at compile time (-DNI=.. -DNJ=.. -DNK=..).
 */
#include <stdint.h>

#ifndef NI
#define NI 20
#endif
#ifndef NJ
#define NJ 24
#endif
#ifndef NK
#define NK 28
#endif

#define FRAC_BITS 12

typedef int32_t fx_t;
typedef int64_t acc_t;

void kernel_gemm(fx_t alpha, fx_t beta, fx_t C[NI][NJ], fx_t A[NI][NK], fx_t B[NK][NJ])
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
