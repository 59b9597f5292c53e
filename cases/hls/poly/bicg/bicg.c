/*
 * bicg.c - the two matrix-vector products of one BiCG iteration
 *
 * Specification: the biconjugate gradient method (Fletcher, "Conjugate
 * gradient methods for indefinite systems", 1976; Saad, "Iterative Methods
 * for Sparse Linear Systems", 2nd ed., algorithm 7.3) needs q := A*p and
 * s := A'*r in every iteration.  Both are computed in one sweep over A.
 * Double precision.
 *
 * Interface: kernel_bicg() is the design's top function; the dataset size is
 * fixed at compile time (-DNR=.. -DNC=..).
 */
#ifndef NR
#define NR 26  /* rows of A */
#endif
#ifndef NC
#define NC 22  /* columns of A */
#endif

void kernel_bicg(double s[NC], double q[NR], double A[NR][NC], double p[NC], double r[NR])
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
