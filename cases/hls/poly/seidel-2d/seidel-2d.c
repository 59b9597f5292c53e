/*
 * seidel-2d.c - 2-D nine-point Gauss-Seidel relaxation
 *
 * Specification: Gauss-Seidel iteration (Saad, "Iterative Methods for
 * Sparse Linear Systems", 2nd ed., section 4.1) on the nine-point box
 * stencil: sweeping rows top-down and columns left-right, every interior
 * point is replaced in place by the mean of the 3x3 block centred on it,
 * so points above and to the left already carry their new values.
 * Boundary values stay fixed.  Double precision.
 */
#include <stdio.h>

#define N 24
#define TSTEPS 8

static double A[N][N];

static void init_data(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = ((double)((i * (j + 3)) % N) + 1.5) / N;
}

static void kernel_seidel_2d(void)
{
    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i <= N - 2; i++) {
            for (int j = 1; j <= N - 2; j++) {
                double above = A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1];
                double level = A[i][j - 1] + A[i][j] + A[i][j + 1];
                double below = A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1];
                A[i][j] = (above + level + below) / 9.0;
            }
        }
    }
}

int main(void)
{
    init_data();
    kernel_seidel_2d();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            printf("%.17g%c", A[i][j], j == N - 1 ? '\n' : ' ');
    return 0;
}
