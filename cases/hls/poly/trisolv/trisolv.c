/*
 * trisolv.c - lower-triangular solve L*x = b by forward substitution
 *
 * Specification: Golub and Van Loan, "Matrix Computations", 4th ed.,
 * algorithm 3.1.1 (row-oriented forward substitution):
 *     x[i] = (b[i] - sum_{j<i} L[i][j]*x[j]) / L[i][i]
 * The strictly upper triangle of L is not referenced.  Double precision.
 *
 * Interface: kernel_trisolv() is the design's top function; the diagonal of
 * L must be non-zero.  The dataset size is fixed at compile time (-DN=..).
 */
#ifndef N
#define N 32
#endif

void kernel_trisolv(double x[N], double L[N][N], double b[N])
{
    for (int i = 0; i < N; i++) {
        double r = b[i];
        for (int j = 0; j < i; j++)
            r -= L[i][j] * x[j];
        x[i] = r / L[i][i];
    }
}
