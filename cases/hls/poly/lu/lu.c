/*
 * lu.c - LU factorisation without pivoting, A = L*U, computed in place
 *
 * Specification: Gaussian elimination in its kij ("right-looking") form,
 * Golub and Van Loan, "Matrix Computations", 4th ed., algorithm 3.2.1.
 * On exit the strictly lower triangle holds the multipliers of the unit
 * lower-triangular L and the upper triangle holds U.  The input matrix is
 * strictly diagonally dominant, so no pivoting is needed.  Double precision.
 *
 * Interface: kernel_lu() is the design's top function; the dataset size is
 * fixed at compile time (-DN=..).
 */
#ifndef N
#define N 24
#endif

void kernel_lu(double A[N][N])
{
    for (int k = 0; k < N; k++) {
        double pivot = A[k][k];
        for (int i = k + 1; i < N; i++) {
            double l = A[i][k] / pivot;
            A[i][k] = l;
            for (int j = k + 1; j < N; j++)
                A[i][j] -= l * A[k][j];
        }
    }
}
