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
 * Arithmetic: values are Q1.14 numbers (raw / 2^14) in cell_t; the division
 * by 8 of each second difference is an arithmetic right shift by 3.
 */
#include <stdio.h>
#include <stdint.h>

#define N 12
#define TSTEPS 10
#define FRAC 14

typedef int32_t cell_t;

static cell_t A[N][N][N];
static cell_t B[N][N][N];

static void init_data(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++) {
                /* value in [0, 2) */
                A[i][j][k] = ((i + j + (N - k)) % 8) << (FRAC - 2);
                A[i][j][k] += ((i * j * k) % 13) << (FRAC - 4);
                B[i][j][k] = A[i][j][k];
            }
}

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

static void kernel_heat_3d(void)
{
    for (int t = 1; t <= TSTEPS; t++) {
        step(A, B);
        step(B, A);
    }
}

int main(void)
{
    init_data();
    kernel_heat_3d();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                printf("%ld%c", (long)A[i][j][k], k == N - 1 ? '\n' : ' ');
    return 0;
}
