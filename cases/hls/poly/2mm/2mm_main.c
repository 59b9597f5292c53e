/*
 * 2mm_main.c - the harness-owned driver of 2mm.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints D, the only array kernel_2mm() writes.
 * Sizes: -DNI=.. -DNJ=.. -DNK=.. -DNL=..
 */
#include "poly_harness.h"

#ifndef NI
#define NI 16
#endif
#ifndef NJ
#define NJ 18
#endif
#ifndef NK
#define NK 22
#endif
#ifndef NL
#define NL 20
#endif

void kernel_2mm(double alpha, double beta, double D[NI][NL],
                double A[NI][NK], double B[NK][NJ], double C[NJ][NL]);

static double A[NI][NK];
static double B[NK][NJ];
static double C[NJ][NL];
static double D[NI][NL];
static double alpha, beta;

static void fixed_inputs(void)
{
    alpha = 1.5;
    beta = 1.2;
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (double)((i * k + 1) % NI) / NI;
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (double)(k * (j + 1) % NJ) / NJ;
    for (int j = 0; j < NJ; j++)
        for (int l = 0; l < NL; l++)
            C[j][l] = (double)((j * (l + 3) + 1) % NL) / NL;
    for (int i = 0; i < NI; i++)
        for (int l = 0; l < NL; l++)
            D[i][l] = (double)(i * (l + 2) % NK) / NK;
}

static void seeded_inputs(void)
{
    alpha = ph_f64(-2.0, 2.0, 1.0);
    beta = ph_f64(-2.0, 2.0, 1.0);
    ph_fill_f64(&A[0][0], NI * NK, -4.0, 4.0, 1.0);
    ph_fill_f64(&B[0][0], NK * NJ, -4.0, 4.0, 1.0);
    ph_fill_f64(&C[0][0], NJ * NL, -4.0, 4.0, 1.0);
    ph_fill_f64(&D[0][0], NI * NL, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_2mm(alpha, beta, D, A, B, C);
    ph_dump_f64("D", &D[0][0], NI, NL);
    return 0;
}
