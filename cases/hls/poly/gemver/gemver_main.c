/*
 * gemver_main.c - the harness-owned driver of gemver.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints A, x and w, the arrays kernel_gemver() writes.  Sizes: -DN=..
 */
#include "poly_harness.h"

#ifndef N
#define N 24
#endif

void kernel_gemver(double alpha, double beta, double A[N][N],
                   double u1[N], double v1[N], double u2[N], double v2[N],
                   double w[N], double x[N], double y[N], double z[N]);

static double A[N][N];
static double u1[N], v1[N], u2[N], v2[N];
static double x[N], y[N], z[N], w[N];
static double alpha, beta;

static void fixed_inputs(void)
{
    alpha = 1.25;
    beta = 0.75;
    for (int i = 0; i < N; i++) {
        double fi = (double)i;
        u1[i] = fi / N;
        v1[i] = (fi + 1.0) / (2 * N);
        u2[i] = (fi + 2.0) / (3 * N);
        v2[i] = (fi + 3.0) / (4 * N);
        y[i] = (fi + 4.0) / (5 * N);
        z[i] = (fi + 5.0) / (6 * N);
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i * j + 3) % N) / N;
    }
}

static void seeded_inputs(void)
{
    alpha = ph_f64(-2.0, 2.0, 1.0);
    beta = ph_f64(-2.0, 2.0, 1.0);
    ph_fill_f64(&A[0][0], N * N, -4.0, 4.0, 1.0);
    ph_fill_f64(u1, N, -4.0, 4.0, 1.0);
    ph_fill_f64(v1, N, -4.0, 4.0, 1.0);
    ph_fill_f64(u2, N, -4.0, 4.0, 1.0);
    ph_fill_f64(v2, N, -4.0, 4.0, 1.0);
    ph_fill_f64(y, N, -4.0, 4.0, 1.0);
    ph_fill_f64(z, N, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(x, sizeof x);
    ph_poison(w, sizeof w);
    kernel_gemver(alpha, beta, A, u1, v1, u2, v2, w, x, y, z);
    ph_dump_f64("A", &A[0][0], N, N);
    ph_dump_f64("x", x, 1, N);
    ph_dump_f64("w", w, 1, N);
    return 0;
}
