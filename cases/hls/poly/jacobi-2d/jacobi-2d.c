/*
 * jacobi-2d.c - 2-D five-point Jacobi relaxation in fixed point
 *
 * Specification: Jacobi iteration for the 2-D Laplace equation on a square
 * grid with fixed boundary values (Saad, "Iterative Methods for Sparse
 * Linear Systems", 2nd ed., section 4.1, on the five-point stencil of
 * section 2.2): every interior point becomes the mean of itself and its
 * four neighbours, B = (C + N + S + W + E) / 5, with two buffers swapping
 * roles every half step.
 *
 * Arithmetic: grid values are unsigned Q2.12 numbers in int32_t (raw / 2^12,
 * range [0, 4)); the factor 1/5 is a Q.14 constant; the product is rounded
 * back to Q.12 with a right shift of 14 bits.
 *
 * Interface: kernel_jacobi_2d() is the design's top function; B must carry
 * the same boundary as A on entry.  The dataset size is fixed at compile
 * time (-DN=.. -DTSTEPS=..).
 */
#include <stdint.h>

#ifndef N
#define N 20
#endif
#ifndef TSTEPS
#define TSTEPS 10
#endif

#define FRAC 12                    /* grid values: Q.12 */
#define CFRAC 14                   /* coefficient: Q.14 */
#define FIFTH (((1 << CFRAC) + 2) / 5)

typedef int32_t cell_t;

static cell_t five_point(cell_t c, cell_t n, cell_t s, cell_t w, cell_t e)
{
    int32_t sum = c + n + s + w + e;
    return (cell_t)((sum * FIFTH + (1 << (CFRAC - 1))) >> CFRAC);
}

void kernel_jacobi_2d(cell_t A[N][N], cell_t B[N][N])
{
    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                B[i][j] = five_point(A[i][j], A[i - 1][j], A[i + 1][j],
                                     A[i][j - 1], A[i][j + 1]);
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                A[i][j] = five_point(B[i][j], B[i - 1][j], B[i + 1][j],
                                     B[i][j - 1], B[i][j + 1]);
    }
}
