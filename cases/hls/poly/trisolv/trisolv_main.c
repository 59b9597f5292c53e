/*
 * trisolv_main.c - the harness-owned driver of trisolv.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs (the upper triangle holds 7.0)
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h):
 *                    the strictly lower triangle in [-1, 1], the diagonal
 *                    1 + |v| (never zero), the strictly upper triangle drawn
 *                    independently
 * Prints x, the only array kernel_trisolv() writes.  Sizes: -DN=..
 */
#include "poly_harness.h"

#ifndef N
#define N 32
#endif

void kernel_trisolv(double x[N], double L[N][N], double b[N]);

static double L[N][N];
static double b[N];
static double x[N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++) {
        b[i] = (double)(i % 7) - 2.5;
        for (int j = 0; j < N; j++)
            L[i][j] = (j < i) ? (double)((i + N - j) % 9) / (2.0 * N) : 7.0;
        L[i][i] = (double)(i + 1) / 4.0;
    }
}

static void seeded_inputs(void)
{
    ph_fill_f64(&L[0][0], N * N, -1.0, 1.0, 1.0);
    ph_fill_f64(b, N, -4.0, 4.0, 1.0);
    for (int i = 0; i < N; i++)
        L[i][i] = 1.0 + (L[i][i] < 0.0 ? -L[i][i] : L[i][i]);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(x, sizeof x);
    kernel_trisolv(x, L, b);
    ph_dump_f64("x", x, 1, N);
    return 0;
}
