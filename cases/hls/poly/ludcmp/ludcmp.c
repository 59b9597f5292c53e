/*
 * ludcmp.c - solve A*x = b by LU decomposition and two triangular solves
 *
 * Specification: Golub and Van Loan, "Matrix Computations", 4th ed.,
 * section 3.2: factor A = L*U with Doolittle's method (unit lower L,
 * algorithm 3.2.1 in its ijk form), then solve L*y = b by forward
 * substitution (algorithm 3.1.1) and U*x = y by back substitution
 * (algorithm 3.1.2).  A is strictly diagonally dominant, so no pivoting
 * is needed.  Double precision.
 *
 * Interface: kernel_ludcmp() is the design's top function; A is overwritten
 * by its factors.  The dataset size is fixed at compile time (-DN=..).
 */
#ifndef N
#define N 28
#endif

void kernel_ludcmp(double A[N][N], double b[N], double x[N], double y[N])
{
    /* Doolittle: row i of L, then row i of U */
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < i; j++) {
            double w = A[i][j];
            for (int k = 0; k < j; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w / A[j][j];
        }
        for (int j = i; j < N; j++) {
            double w = A[i][j];
            for (int k = 0; k < i; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w;
        }
    }
    /* L*y = b, L unit lower triangular */
    for (int i = 0; i < N; i++) {
        double w = b[i];
        for (int j = 0; j < i; j++)
            w -= A[i][j] * y[j];
        y[i] = w;
    }
    /* U*x = y */
    for (int i = N - 1; i >= 0; i--) {
        double w = y[i];
        for (int j = i + 1; j < N; j++)
            w -= A[i][j] * x[j];
        x[i] = w / A[i][i];
    }
}
