/*
 * gesummv_main.c - the harness-owned driver of gesummv.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints y, the only array kernel_gesummv() writes.  Sizes: -DN=.. (N >= 4)
 */
#include "poly_harness.h"

#ifndef N
#define N 28
#endif

void kernel_gesummv(double alpha, double beta, double y[N], double A[N][N], double B[N][N], double x[N]);

static double A[N][N];
static double B[N][N];
static double x[N];
static double y[N];
static double alpha, beta;

static void fixed_inputs(void)
{
    alpha = 1.5;
    beta = -0.5;
    for (int i = 0; i < N; i++) {
        x[i] = (double)(i % N) / N + 0.25;
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * j + 1) % N) / N;
            B[i][j] = (double)((i * j + 2) % (N - 3)) / (N - 3);
        }
    }
}

static void seeded_inputs(void)
{
    alpha = ph_f64(-2.0, 2.0, 1.0);
    beta = ph_f64(-2.0, 2.0, 1.0);
    ph_fill_f64(&A[0][0], N * N, -4.0, 4.0, 1.0);
    ph_fill_f64(&B[0][0], N * N, -4.0, 4.0, 1.0);
    ph_fill_f64(x, N, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(y, sizeof y);
    kernel_gesummv(alpha, beta, y, A, B, x);
    ph_dump_f64("y", y, 1, N);
    return 0;
}
