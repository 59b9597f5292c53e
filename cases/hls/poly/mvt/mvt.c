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
 */
#include <stdio.h>
#include <stdint.h>

#define N 32
#define Q 14

typedef int16_t q14_t;

static q14_t A[N][N];
static q14_t y1v[N], y2v[N];
static int32_t x1v[N], x2v[N];

/* round-to-nearest conversion of a Q.28 product back to Q.14 */
static int32_t rescale(int32_t prod)
{
    return (prod + (1 << (Q - 1))) >> Q;
}

static void init_data(void)
{
    for (int i = 0; i < N; i++) {
        x1v[i] = (i * 997) % 16384 - 8192;
        x2v[i] = (i * 571 + 300) % 16384 - 8192;
        y1v[i] = (q14_t)((i * 1231 + 77) % 32768 - 16384);
        y2v[i] = (q14_t)((i * 733 + 5) % 32768 - 16384);
        for (int j = 0; j < N; j++)
            A[i][j] = (q14_t)(((i * 37 + j * 101) % 256) * 128 - 16384);
    }
}

static void kernel_mvt(void)
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

int main(void)
{
    init_data();
    kernel_mvt();
    for (int i = 0; i < N; i++)
        printf("%ld %ld\n", (long)x1v[i], (long)x2v[i]);
    return 0;
}
