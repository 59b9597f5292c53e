/*
 * ludcmp.c - solve A*x = b by LU decomposition and two triangular solves
 *
 * Specification: Golub and Van Loan, "Matrix Computations", 4th ed.,
 * section 3.2: factor A = L*U with Doolittle's method (unit lower L,
 * algorithm 3.2.1 in its ijk form), then solve L*y = b by forward
 * substitution (algorithm 3.1.1) and U*x = y by back substitution
 * (algorithm 3.1.2).  A is strictly diagonally dominant, so no pivoting
 * is needed.  Double precision.
 */
#include <stdio.h>

#define N 28

static double A[N][N];
static double b[N];
static double x[N];
static double y[N];

static void init_data(void)
{
    for (int i = 0; i < N; i++) {
        b[i] = (double)(i + 1) / N / 2.0 + 4.0;
        double rowsum = 0.0;
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * 5 + j * 11 + 7) % N) / (2.0 * N);
            rowsum += A[i][j];
        }
        A[i][i] = rowsum + 1.0;
    }
}

static void kernel_ludcmp(void)
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

int main(void)
{
    init_data();
    kernel_ludcmp();
    for (int i = 0; i < N; i++)
        printf("x[%d] = %.17g\n", i, x[i]);
    return 0;
}
