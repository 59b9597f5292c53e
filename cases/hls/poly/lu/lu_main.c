/*
 * lu_main.c - the harness-owned driver of lu.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h);
 *                    the diagonal is then set to 1 + the row's sum of |A[i][j]|,
 *                    so A stays strictly diagonally dominant
 * Prints A, the only array kernel_lu() writes.  Sizes: -DN=..
 */
#include "poly_harness.h"

#ifndef N
#define N 24
#endif

void kernel_lu(double A[N][N]);

static double A[N][N];

static void fixed_inputs(void)
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

static void seeded_inputs(void)
{
    ph_fill_f64(&A[0][0], N * N, -4.0, 4.0, 1.0);
    for (int i = 0; i < N; i++) {
        double offdiag = 0.0;
        for (int j = 0; j < N; j++)
            if (j != i)
                offdiag += A[i][j] < 0.0 ? -A[i][j] : A[i][j];
        A[i][i] = offdiag + 1.0;
    }
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_lu(A);
    ph_dump_f64("A", &A[0][0], N, N);
    return 0;
}
