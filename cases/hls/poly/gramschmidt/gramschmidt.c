/*
 * gramschmidt.c - QR factorisation A = Q*R by modified Gram-Schmidt
 *
 * Specification: Golub and Van Loan, "Matrix Computations", 4th ed.,
 * algorithm 5.2.6 (modified Gram-Schmidt).  A (M x N, M >= N, full column
 * rank) is overwritten during the computation; Q (M x N) has orthonormal
 * columns and R (N x N) is upper triangular.  Double precision.
 */
#include <stdio.h>
#include <math.h>

#define M 24
#define N 20

static double A[M][N];
static double Q[M][N];
static double R[N][N];

static void init_data(void)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i * j + 1) % M) / M + (i == j ? 1.0 : 0.0);
}

static void kernel_gramschmidt(void)
{
    for (int k = 0; k < N; k++) {
        double nrm = 0.0;
        for (int i = 0; i < M; i++)
            nrm += A[i][k] * A[i][k];
        R[k][k] = sqrt(nrm);
        for (int i = 0; i < M; i++)
            Q[i][k] = A[i][k] / R[k][k];
        for (int j = k + 1; j < N; j++) {
            double dot = 0.0;
            for (int i = 0; i < M; i++)
                dot += Q[i][k] * A[i][j];
            R[k][j] = dot;
            for (int i = 0; i < M; i++)
                A[i][j] -= Q[i][k] * dot;
        }
    }
}

int main(void)
{
    init_data();
    kernel_gramschmidt();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            printf("%.17g%c", R[i][j], j == N - 1 ? '\n' : ' ');
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            printf("%.17g%c", Q[i][j], j == N - 1 ? '\n' : ' ');
    return 0;
}
