/*
 * cholesky.c - Cholesky factorisation A = L*L' of a symmetric positive
 * definite matrix, lower triangle overwritten by L
 *
 * Specification: the row-oriented ("dot product") Cholesky algorithm,
 * Golub and Van Loan, "Matrix Computations", 4th ed., section 4.2.5:
 *     L[i][j] = (A[i][j] - sum_{k<j} L[i][k]*L[j][k]) / L[j][j],  j < i
 *     L[i][i] = sqrt(A[i][i] - sum_{k<i} L[i][k]^2)
 * The input is built as A = B*B' + N*I, which is positive definite.
 * The strictly upper triangle is not referenced.  Double precision.
 */
#include <stdio.h>
#include <math.h>

#define N 24

static double A[N][N];

static void init_data(void)
{
    double B[N][N];

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = (double)((i * 7 + j * 3 + 2) % N) / N - 0.5;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++)
                s += B[i][k] * B[j][k];
            A[i][j] = s + (i == j ? (double)N : 0.0);
        }
    }
}

static void kernel_cholesky(void)
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

int main(void)
{
    init_data();
    kernel_cholesky();
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++)
            printf("%.17g%c", A[i][j], j == i ? '\n' : ' ');
    return 0;
}
