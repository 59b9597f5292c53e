/*
 * jacobi-1d.c - 1-D three-point Jacobi relaxation
 *
 * Specification: Jacobi iteration for the 1-D Laplace equation with fixed
 * (Dirichlet) end values (Saad, "Iterative Methods for Sparse Linear
 * Systems", 2nd ed., section 4.1, applied to the three-point stencil):
 * each interior point becomes the mean of itself and its two neighbours,
 *     B[i] = (A[i-1] + A[i] + A[i+1]) / 3,
 * using two buffers that alternate roles every half step.  Double precision.
 */
#include <stdio.h>

#define N 40
#define TSTEPS 24

static double A[N];
static double B[N];

static void init_data(void)
{
    for (int i = 0; i < N; i++) {
        A[i] = (double)((i * 13) % 17) / 17.0 + 0.05 * i;
        B[i] = A[i];
    }
}

static void kernel_jacobi_1d(void)
{
    const double third = 1.0 / 3.0;

    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            B[i] = third * (A[i - 1] + A[i] + A[i + 1]);
        for (int i = 1; i < N - 1; i++)
            A[i] = third * (B[i - 1] + B[i] + B[i + 1]);
    }
}

int main(void)
{
    init_data();
    kernel_jacobi_1d();
    for (int i = 0; i < N; i++)
        printf("%.17g\n", A[i]);
    return 0;
}
