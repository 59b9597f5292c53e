/*
 * jacobi-1d.c - 1-D three-point Jacobi relaxation
 *
 * Specification: Jacobi iteration for the 1-D Laplace equation with fixed
 * (Dirichlet) end values (Saad, "Iterative Methods for Sparse Linear
 * Systems", 2nd ed., section 4.1, applied to the three-point stencil):
 * each interior point becomes the mean of itself and its two neighbours,
 *     B[i] = (A[i-1] + A[i] + A[i+1]) / 3,
 * using two buffers that alternate roles every half step.  Double precision.
 *
 * Interface: kernel_jacobi_1d() is the design's top function; B must carry
 * the same end values as A on entry.  The dataset size is fixed at compile
 * time (-DN=.. -DTSTEPS=..).
 */
#ifndef N
#define N 40
#endif
#ifndef TSTEPS
#define TSTEPS 24
#endif

void kernel_jacobi_1d(double A[N], double B[N])
{
    const double third = 1.0 / 3.0;

    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            B[i] = third * (A[i - 1] + A[i] + A[i + 1]);
        for (int i = 1; i < N - 1; i++)
            A[i] = third * (B[i - 1] + B[i] + B[i + 1]);
    }
}
