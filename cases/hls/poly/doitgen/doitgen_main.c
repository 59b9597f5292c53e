/*
 * doitgen_main.c - the harness-owned driver of doitgen.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints A (one line per (r,q) row), the only array kernel_doitgen() writes.
 * Sizes: -DNR=.. -DNQ=.. -DLOG2_NP=..
 */
#include <stdint.h>
#include "poly_harness.h"

#ifndef NR
#define NR 10
#endif
#ifndef NQ
#define NQ 8
#endif
#ifndef LOG2_NP
#define LOG2_NP 4
#endif
#define NP (1 << LOG2_NP)
/* |A|, |C4| <= 2^12 and NP <= 64 keep every 32-bit sum of products exact */
#define VMAX 4096

void kernel_doitgen(int32_t A[NR * NQ * NP], int32_t C4[NP][NP]);

static int32_t A[NR * NQ * NP];
static int32_t C4[NP][NP];

static void fixed_inputs(void)
{
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++)
            for (int p = 0; p < NP; p++)
                A[((r * NQ + q) << LOG2_NP) + p] = (r * q + p * 7 + 3) % 97 - 20;
    for (int s = 0; s < NP; s++)
        for (int p = 0; p < NP; p++)
            C4[s][p] = 3 * ((s * p * 5 + 11) % 97) - 60;
}

static void seeded_inputs(void)
{
    ph_fill_i32(A, NR * NQ * NP, -VMAX, VMAX, 1);
    ph_fill_i32(&C4[0][0], NP * NP, -VMAX, VMAX, 1);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_doitgen(A, C4);
    ph_dump_i32("A", A, NR * NQ, NP);
    return 0;
}
