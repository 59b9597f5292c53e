/*
 * covariance_main.c - the harness-owned driver of covariance.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints cov and the centred data, the arrays kernel_covariance() writes.
 * Sizes: -DNS=.. -DNV=..
 */
#include "poly_harness.h"

#ifndef NS
#define NS 30
#endif
#ifndef NV
#define NV 26
#endif

void kernel_covariance(double cov[NV][NV], double data[NS][NV]);

static double data[NS][NV];
static double cov[NV][NV];

static void fixed_inputs(void)
{
    for (int i = 0; i < NS; i++)
        for (int j = 0; j < NV; j++)
            data[i][j] = (double)((i * 11 + j * j + 5) % 37) / 37.0 + 0.02 * j;
}

static void seeded_inputs(void)
{
    ph_fill_f64(&data[0][0], NS * NV, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(cov, sizeof cov);
    kernel_covariance(cov, data);
    ph_dump_f64("cov", &cov[0][0], NV, NV);
    ph_dump_f64("data", &data[0][0], NS, NV);
    return 0;
}
