/*
 * gesummv.c - sum of two scaled matrix-vector products, y := alpha*A*x + beta*B*x
 *
 * Specification: the GE_SUM_MV operation of the updated BLAS proposal
 * (Blackford et al., ACM TOMS 28(2), 2002, section 2.4).  Double precision.
 *
 * Interface: kernel_gesummv() is the design's top function; the dataset size
 * is fixed at compile time (-DN=..).
 */
#ifndef N
#define N 28
#endif

void kernel_gesummv(double alpha, double beta, double y[N], double A[N][N], double B[N][N], double x[N])
{
    for (int i = 0; i < N; i++) {
        double ta = 0.0, tb = 0.0;
        for (int j = 0; j < N; j++) {
            ta += A[i][j] * x[j];
            tb += B[i][j] * x[j];
        }
        y[i] = alpha * ta + beta * tb;
    }
}
