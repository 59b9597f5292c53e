/*
 * correlation_main.c - the harness-owned driver of correlation.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs (the last column is constant)
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h);
 *                    an odd seed makes column N % NV constant, a seed of 2 mod 4
 *                    gives it a deviation of exactly EPS (the default NS only)
 * Prints corr and the standardised data, the arrays kernel_correlation()
 * writes.  Sizes: -DNS=.. -DNV=..
 */
#include "poly_harness.h"

#ifndef NS
#define NS 32
#endif
#ifndef NV
#define NV 24
#endif

void kernel_correlation(double corr[NV][NV], double data[NS][NV]);

static double data[NS][NV];
static double corr[NV][NV];

static void fixed_inputs(void)
{
    for (int i = 0; i < NS; i++)
        for (int j = 0; j < NV; j++)
            data[i][j] = (j == NV - 1) ? 2.5
                       : (double)((i * (j + 1) + 3 * j) % 29) / 29.0 + 0.01 * i;
}

static void seeded_inputs(void)
{
    ph_fill_f64(&data[0][0], NS * NV, -4.0, 4.0, 1.0);
    if (ph_seed % 2) {
        int c = (int)(ph_seed % NV);
        for (int i = 1; i < NS; i++)
            data[i][c] = data[0][c];
    } else if (ph_seed % 4 == 2 && NS == 32) {
        /* a column whose deviation is exactly EPS (0.1) in double arithmetic:
         * eight rows of 0.23094010767585013, then zeros */
        int c = (int)(ph_seed % NV);
        for (int i = 0; i < NS; i++)
            data[i][c] = i < 8 ? 0.23094010767585013 : 0.0;
    }
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(corr, sizeof corr);
    kernel_correlation(corr, data);
    ph_dump_f64("corr", &corr[0][0], NV, NV);
    ph_dump_f64("data", &data[0][0], NS, NV);
    return 0;
}
