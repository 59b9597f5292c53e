/*
 * heat-3d.c - explicit 3-D heat equation, fixed point
 *
 * Specification: forward-Euler time stepping of u_t = alpha * laplacian(u)
 * with the standard second-order seven-point Laplacian (LeVeque, "Finite
 * Difference Methods for Ordinary and Partial Differential Equations",
 * 2007, sections 9.1 and 12.1), with alpha*dt/h^2 = 1/8 per axis:
 *     B = A + (Axx + Ayy + Azz) / 8,   Axx = A[i+1] - 2*A[i] + A[i-1], ...
 * Two buffers alternate every half step; boundary planes stay fixed.
 *
 * Arithmetic: values are Q.14 fixed-point numbers (raw / 2^14) in cell_t; the
 * division by 8 of each second difference is an arithmetic right shift by 3.
 *
 * Interface: kernel_heat_3d() is the design's top function; B must carry the
 * same boundary as A on entry.  The dataset size is fixed at compile time
 * (-DN=.. -DTSTEPS=..).
 */
#include <stdint.h>

#ifndef N
#define N 12
#endif
#ifndef TSTEPS
#define TSTEPS 10
#endif

typedef int32_t cell_t;

static void step(cell_t src[N][N][N], cell_t dst[N][N][N])
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            for (int k = 1; k < N - 1; k++) {
                cell_t c = src[i][j][k];
                int32_t dxx = src[i + 1][j][k] - 2 * c + src[i - 1][j][k];
                int32_t dyy = src[i][j + 1][k] - 2 * c + src[i][j - 1][k];
                int32_t dzz = src[i][j][k + 1] - 2 * c + src[i][j][k - 1];
                dst[i][j][k] = c + (dxx >> 3) + (dyy >> 3) + (dzz >> 3);
            }
}

void kernel_heat_3d(cell_t A[N][N][N], cell_t B[N][N][N])
{
    for (int t = 1; t <= TSTEPS; t++) {
        step(A, B);
        step(B, A);
    }
}
