/*
 * gramschmidt_main.c - the harness-owned driver of gramschmidt.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h);
 *                    4*M + 1 is added to the diagonal so the columns stay
 *                    independent (no zero norm, no division by zero)
 * Prints R, Q and A, the arrays kernel_gramschmidt() writes (R's strictly
 * lower triangle is never written: the driver clears it, and poisons the
 * rest of R and Q so that an element the kernel fails to write shows).
 * Sizes: -DM=.. -DN=.. (M >= N)
 */
#include "poly_harness.h"

#ifndef M
#define M 24
#endif
#ifndef N
#define N 20
#endif

void kernel_gramschmidt(double A[M][N], double R[N][N], double Q[M][N]);

static double A[M][N];
static double Q[M][N];
static double R[N][N];

static void fixed_inputs(void)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i * j + 1) % M) / M + (i == j ? 1.0 : 0.0);
}

static void seeded_inputs(void)
{
    ph_fill_f64(&A[0][0], M * N, -4.0, 4.0, 1.0);
    for (int j = 0; j < N; j++)
        A[j][j] += 4.0 * M + 1.0;
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(Q, sizeof Q);
    ph_poison(R, sizeof R);
    for (int i = 1; i < N; i++)
        for (int j = 0; j < i; j++)
            R[i][j] = 0.0;
    kernel_gramschmidt(A, R, Q);
    ph_dump_f64("R", &R[0][0], N, N);
    ph_dump_f64("Q", &Q[0][0], M, N);
    ph_dump_f64("A", &A[0][0], M, N);
    return 0;
}
