/*
 * gramschmidt.c - QR factorisation A = Q*R by modified Gram-Schmidt
 *
 * Specification: Golub and Van Loan, "Matrix Computations", 4th ed.,
 * algorithm 5.2.6 (modified Gram-Schmidt).  A (M x N, M >= N, full column
 * rank) is overwritten during the computation; Q (M x N) has orthonormal
 * columns and R (N x N) is upper triangular.  Double precision.
 *
 * Interface: kernel_gramschmidt() is the design's top function; it writes
 * the upper triangle of R and leaves the strictly lower one as it was.  The
 * dataset size is fixed at compile time (-DM=.. -DN=.., M >= N).
 */
#include <math.h>

#ifndef M
#define M 24
#endif
#ifndef N
#define N 20
#endif

void kernel_gramschmidt(double A[M][N], double R[N][N], double Q[M][N])
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
