/*
 * trisolv.c - lower-triangular solve L*x = b by forward substitution
 *
 * Specification: Golub and Van Loan, "Matrix Computations", 4th ed.,
 * algorithm 3.1.1 (row-oriented forward substitution):
 *     x[i] = (b[i] - sum_{j<i} L[i][j]*x[j]) / L[i][i]
 * The strictly upper triangle of L is not referenced; it holds unrelated
 * values here.  Double precision.
 */
#include <stdio.h>

#define N 32

static double L[N][N];
static double b[N];
static double x[N];

static void init_data(void)
{
    for (int i = 0; i < N; i++) {
        b[i] = (double)(i % 7) - 2.5;
        for (int j = 0; j < N; j++)
            L[i][j] = (j < i) ? (double)((i + N - j) % 9) / (2.0 * N) : 7.0;
        L[i][i] = (double)(i + 1) / 4.0;
    }
}

static void kernel_trisolv(void)
{
    for (int i = 0; i < N; i++) {
        double r = b[i];
        for (int j = 0; j < i; j++)
            r -= L[i][j] * x[j];
        x[i] = r / L[i][i];
    }
}

int main(void)
{
    init_data();
    kernel_trisolv();
    for (int i = 0; i < N; i++)
        printf("x[%d] = %.17g\n", i, x[i]);
    return 0;
}
