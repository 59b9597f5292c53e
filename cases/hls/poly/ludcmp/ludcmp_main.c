/*
 * ludcmp_main.c - the harness-owned driver of ludcmp.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h);
 *                    the diagonal is then set to 1 + the row's sum of |A[i][j]|,
 *                    so A stays strictly diagonally dominant
 * Prints A, x and y, the arrays kernel_ludcmp() writes.  Sizes: -DN=..
 */
#include "poly_harness.h"

#ifndef N
#define N 28
#endif

void kernel_ludcmp(double A[N][N], double b[N], double x[N], double y[N]);

static double A[N][N];
static double b[N];
static double x[N];
static double y[N];

static void fixed_inputs(void)
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

static void seeded_inputs(void)
{
    ph_fill_f64(&A[0][0], N * N, -4.0, 4.0, 1.0);
    ph_fill_f64(b, N, -4.0, 4.0, 1.0);
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
    ph_poison(x, sizeof x);
    ph_poison(y, sizeof y);
    kernel_ludcmp(A, b, x, y);
    ph_dump_f64("A", &A[0][0], N, N);
    ph_dump_f64("x", x, 1, N);
    ph_dump_f64("y", y, 1, N);
    return 0;
}
