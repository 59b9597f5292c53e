/*
 * seidel-2d.c - 2-D nine-point Gauss-Seidel relaxation
 *
 * Specification: Gauss-Seidel iteration (Saad, "Iterative Methods for
 * Sparse Linear Systems", 2nd ed., section 4.1) on the nine-point box
 * stencil: sweeping rows top-down and columns left-right, every interior
 * point is replaced in place by the mean of the 3x3 block centred on it,
 * so points above and to the left already carry their new values.
 * Boundary values stay fixed.  Double precision.
 *
 * Interface: kernel_seidel_2d() is the design's top function; the dataset
 * size is fixed at compile time (-DN=.. -DTSTEPS=..).
 */
#ifndef N
#define N 24
#endif
#ifndef TSTEPS
#define TSTEPS 8
#endif

void kernel_seidel_2d(double A[N][N])
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
