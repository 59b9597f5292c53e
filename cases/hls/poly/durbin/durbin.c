/*
 * durbin.c - Levinson-Durbin solution of the Yule-Walker equations
 *
 * Specification: Durbin's algorithm, Golub and Van Loan, "Matrix
 * Computations", 4th ed., algorithm 4.7.1.  Given r[0..N-1], it solves
 * T(N) y = -r where T is the symmetric positive definite Toeplitz matrix
 * with first row (1, r[0], ..., r[N-2]).  Double precision.
 *
 * Interface: kernel_durbin() is the design's top function; the dataset size
 * is fixed at compile time (-DN=..).
 */
#ifndef N
#define N 32
#endif

void kernel_durbin(double y[N], double r[N])
{
    double z[N];
    double alpha = -r[0];
    double beta = 1.0;

    y[0] = -r[0];
    for (int k = 1; k < N; k++) {
        beta = (1.0 - alpha * alpha) * beta;
        double sum = 0.0;
        int i = 0;
        while (i < k) {
            sum += r[k - i - 1] * y[i];
            i++;
        }
        alpha = -(r[k] + sum) / beta;
        for (int m = 0; m < k; m++)
            z[m] = y[m] + alpha * y[k - m - 1];
        for (int m = 0; m < k; m++)
            y[m] = z[m];
        y[k] = alpha;
    }
}
