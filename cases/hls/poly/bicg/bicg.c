/*
 * bicg.c - the two matrix-vector products of one BiCG iteration
 *
 * Specification: the biconjugate gradient method (Fletcher, "Conjugate
 * gradient methods for indefinite systems", 1976; Saad, "Iterative Methods
 * for Sparse Linear Systems", 2nd ed., algorithm 7.3) needs q := A*p and
 * s := A'*r in every iteration.  Both are computed in one sweep over A.
 * Double precision.
 */
#include <stdio.h>

#define NR 26  /* rows of A */
#define NC 22  /* columns of A */

static double A[NR][NC];
static double p[NC], q[NR];
static double r[NR], s[NC];

static void init_data(void)
{
    for (int j = 0; j < NC; j++)
        p[j] = (double)(j % NC) / NC;
    for (int i = 0; i < NR; i++) {
        r[i] = (double)(i % NR) / NR;
        for (int j = 0; j < NC; j++)
            A[i][j] = (double)(i * (j + 1) % NR) / NR;
    }
}

static void kernel_bicg(void)
{
    for (int j = 0; j < NC; j++)
        s[j] = 0.0;
    for (int i = 0; i < NR; i++) {
        double qi = 0.0;
        for (int j = 0; j < NC; j++) {
            s[j] += r[i] * A[i][j];
            qi += A[i][j] * p[j];
        }
        q[i] = qi;
    }
}

int main(void)
{
    init_data();
    kernel_bicg();
    for (int j = 0; j < NC; j++)
        printf("s %.17g\n", s[j]);
    for (int i = 0; i < NR; i++)
        printf("q %.17g\n", q[i]);
    return 0;
}
