/*
 * lu.c - LU factorisation without pivoting, A = L*U, computed in place
 *
 * Specification: Gaussian elimination in its kij ("right-looking") form,
 * Golub and Van Loan, "Matrix Computations", 4th ed., algorithm 3.2.1.
 * On exit the strictly lower triangle holds the multipliers of the unit
 * lower-triangular L and the upper triangle holds U.  The input matrix is
 * strictly diagonally dominant, so no pivoting is needed.  Double precision.
 */
#include <stdio.h>

#define N 24

static double A[N][N];

static void init_data(void)
{
    for (int i = 0; i < N; i++) {
        double offdiag = 0.0;
        for (int j = 0; j < N; j++) {
            if (j != i) {
                A[i][j] = (double)((3 * i + 5 * j + 1) % 17) / 17.0 - 0.4;
                offdiag += A[i][j] < 0.0 ? -A[i][j] : A[i][j];
            }
        }
        A[i][i] = offdiag + 1.0 + (double)i / N;
    }
}

static void kernel_lu(void)
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

int main(void)
{
    init_data();
    kernel_lu();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            printf("%.17g%c", A[i][j], j == N - 1 ? '\n' : ' ');
    return 0;
}
