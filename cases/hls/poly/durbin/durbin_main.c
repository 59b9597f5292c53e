/*
 * durbin_main.c - the harness-owned driver of durbin.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h):
 *                    r[i] = v * 0.5 / ((i + 1) * (i + 2)) with v in [-1, 1], so
 *                    sum |r| < 1/2 and T stays diagonally dominant, hence
 *                    positive definite
 * Prints y, the only array kernel_durbin() writes.  Sizes: -DN=..
 */
#include "poly_harness.h"

#ifndef N
#define N 32
#endif

void kernel_durbin(double y[N], double r[N]);

static double r[N];
static double y[N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++)
        r[i] = 0.5 / (double)((i + 2) * (i + 1));
}

static void seeded_inputs(void)
{
    ph_fill_f64(r, N, -1.0, 1.0, 1.0);
    for (int i = 0; i < N; i++)
        r[i] *= 0.5 / (double)((i + 2) * (i + 1));
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(y, sizeof y);
    kernel_durbin(y, r);
    ph_dump_f64("y", y, 1, N);
    return 0;
}
