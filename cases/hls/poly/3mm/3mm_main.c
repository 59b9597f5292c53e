/*
 * 3mm_main.c - the harness-owned driver of 3mm.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints E, F and G, every array kernel_3mm() writes.
 * Sizes: -DNI=.. -DNJ=.. -DNK=.. -DNL=.. -DNM=..
 */
#include "poly_harness.h"

#ifndef NI
#define NI 16
#endif
#ifndef NJ
#define NJ 18
#endif
#ifndef NK
#define NK 20
#endif
#ifndef NL
#define NL 22
#endif
#ifndef NM
#define NM 24
#endif

void kernel_3mm(double E[NI][NJ], double F[NJ][NL], double G[NI][NL],
                double A[NI][NK], double B[NK][NJ], double C[NJ][NM], double D[NM][NL]);

static double A[NI][NK];
static double B[NK][NJ];
static double C[NJ][NM];
static double D[NM][NL];
static double E[NI][NJ];
static double F[NJ][NL];
static double G[NI][NL];

static void fixed_inputs(void)
{
    for (int i = 0; i < NI; i++)
        for (int k = 0; k < NK; k++)
            A[i][k] = (double)((i * k + 1) % NI) / (5 * NI);
    for (int k = 0; k < NK; k++)
        for (int j = 0; j < NJ; j++)
            B[k][j] = (double)((k * (j + 1) + 2) % NJ) / (5 * NJ);
    for (int j = 0; j < NJ; j++)
        for (int m = 0; m < NM; m++)
            C[j][m] = (double)(j * (m + 3) % NL) / (5 * NL);
    for (int m = 0; m < NM; m++)
        for (int l = 0; l < NL; l++)
            D[m][l] = (double)((m * (l + 2) + 2) % NK) / (5 * NK);
}

static void seeded_inputs(void)
{
    ph_fill_f64(&A[0][0], NI * NK, -4.0, 4.0, 1.0);
    ph_fill_f64(&B[0][0], NK * NJ, -4.0, 4.0, 1.0);
    ph_fill_f64(&C[0][0], NJ * NM, -4.0, 4.0, 1.0);
    ph_fill_f64(&D[0][0], NM * NL, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(E, sizeof E);
    ph_poison(F, sizeof F);
    ph_poison(G, sizeof G);
    kernel_3mm(E, F, G, A, B, C, D);
    ph_dump_f64("E", &E[0][0], NI, NJ);
    ph_dump_f64("F", &F[0][0], NJ, NL);
    ph_dump_f64("G", &G[0][0], NI, NL);
    return 0;
}
