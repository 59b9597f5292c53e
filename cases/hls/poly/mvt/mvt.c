/*
 * mvt.c - matrix-vector product and transposed matrix-vector product
 *     x1 := x1 + A*y1
 *     x2 := x2 + A'*y2
 *
 * Specification: two Level 2 BLAS xGEMV operations (Dongarra et al.,
 * "An Extended Set of FORTRAN Basic Linear Algebra Subprograms",
 * ACM TOMS 14(1), 1988) sharing one matrix.
 *
 * Fixed-point version: matrix and vectors are Q1.14 numbers in int16_t
 * (real value = raw / 2^14), products are formed in 32 bits, accumulated in
 * a 32-bit register as Q.14 after a rounding right shift, and the result
 * vectors are kept as int32_t Q.14.
 *
 * Interface: kernel_mvt() is the design's top function; the dataset size is
 * fixed at compile time (-DN=..).
 */
#include <stdint.h>

#ifndef N
#define N 32
#endif
#define Q 14

typedef int16_t q14_t;

/* round-to-nearest conversion of a Q.28 product back to Q.14 */
static int32_t rescale(int32_t prod)
{
    return (prod + (1 << (Q - 1))) >> Q;
}

void kernel_mvt(int32_t x1v[N], int32_t x2v[N], q14_t A[N][N], q14_t y1v[N], q14_t y2v[N])
{
    for (int i = 0; i < N; i++) {
        int32_t acc = x1v[i];
        for (int j = 0; j < N; j++)
            acc += rescale((int32_t)A[i][j] * y1v[j]);
        x1v[i] = acc;
    }
    for (int i = 0; i < N; i++) {
        int32_t acc = x2v[i];
        for (int j = 0; j < N; j++)
            acc += rescale((int32_t)A[j][i] * y2v[j]);
        x2v[i] = acc;
    }
}
