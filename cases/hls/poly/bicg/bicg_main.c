/*
 * bicg_main.c - the harness-owned driver of bicg.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints s and q, the arrays kernel_bicg() writes.  Sizes: -DNR=.. -DNC=..
 */
#include "poly_harness.h"

#ifndef NR
#define NR 26
#endif
#ifndef NC
#define NC 22
#endif

void kernel_bicg(double s[NC], double q[NR], double A[NR][NC], double p[NC], double r[NR]);

static double A[NR][NC];
static double p[NC], q[NR];
static double r[NR], s[NC];

static void fixed_inputs(void)
{
    for (int j = 0; j < NC; j++)
        p[j] = (double)(j % NC) / NC;
    for (int i = 0; i < NR; i++) {
        r[i] = (double)(i % NR) / NR;
        for (int j = 0; j < NC; j++)
            A[i][j] = (double)(i * (j + 1) % NR) / NR;
    }
}

static void seeded_inputs(void)
{
    ph_fill_f64(&A[0][0], NR * NC, -4.0, 4.0, 1.0);
    ph_fill_f64(p, NC, -4.0, 4.0, 1.0);
    ph_fill_f64(r, NR, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(q, sizeof q);
    ph_poison(s, sizeof s);
    kernel_bicg(s, q, A, p, r);
    ph_dump_f64("s", s, 1, NC);
    ph_dump_f64("q", q, 1, NR);
    return 0;
}
