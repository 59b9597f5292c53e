/*
 * cholesky.c - Cholesky factorisation A = L*L' of a symmetric positive
 * definite matrix, lower triangle overwritten by L
 *
 * Specification: the row-oriented ("dot product") Cholesky algorithm,
 * Golub and Van Loan, "Matrix Computations", 4th ed., section 4.2.5:
 *     L[i][j] = (A[i][j] - sum_{k<j} L[i][k]*L[j][k]) / L[j][j],  j < i
 *     L[i][i] = sqrt(A[i][i] - sum_{k<i} L[i][k]^2)
 * The strictly upper triangle is not referenced.  Double precision.
 *
 * Interface: kernel_cholesky() is the design's top function; A must be
 * symmetric positive definite.  The dataset size is fixed at compile time
 * (-DN=..).
 */
#include <math.h>

#ifndef N
#define N 24
#endif

void kernel_cholesky(double A[N][N])
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            double s = A[i][j];
            for (int k = 0; k < j; k++)
                s -= A[i][k] * A[j][k];
            A[i][j] = s / A[j][j];
        }
        double d = A[i][i];
        for (int k = 0; k < i; k++)
            d -= A[i][k] * A[i][k];
        A[i][i] = sqrt(d);
    }
}
