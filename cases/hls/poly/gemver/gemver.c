/*
 * gemver.c - rank-2 update followed by two matrix-vector products
 *
 * Specification: the GEMVER operation of the updated BLAS proposal
 * (Blackford et al., "An Updated Set of Basic Linear Algebra Subprograms",
 * ACM TOMS 28(2), 2002, section 2.4):
 *     B := A + u1*v1' + u2*v2'
 *     x := beta*B'*y + z
 *     w := alpha*B*x
 * Double precision; A is updated in place to hold B.
 *
 * Interface: kernel_gemver() is the design's top function; the dataset size
 * is fixed at compile time (-DN=..).
 */
#ifndef N
#define N 24
#endif

void kernel_gemver(double alpha, double beta, double A[N][N],
                   double u1[N], double v1[N], double u2[N], double v2[N],
                   double w[N], double x[N], double y[N], double z[N])
{
    /* rank-2 update */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] += u1[i] * v1[j] + u2[i] * v2[j];

    /* x := beta * A' * y + z */
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < N; j++)
            s += A[j][i] * y[j];
        x[i] = beta * s + z[i];
    }

    /* w := alpha * A * x */
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < N; j++)
            s += A[i][j] * x[j];
        w[i] = alpha * s;
    }
}
