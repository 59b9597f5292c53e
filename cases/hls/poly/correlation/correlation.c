/*
 * correlation.c - Pearson correlation matrix of NV variables over NS samples
 *
 * Specification: the sample correlation coefficient (Pearson), as defined in
 * e.g. Johnson and Wichern, "Applied Multivariate Statistical Analysis",
 * 6th ed., section 1.4:  r_ij = s_ij / (sqrt(s_ii) * sqrt(s_jj)), computed by
 * standardising every column (mean 0, population standard deviation 1) and
 * taking scaled inner products.  A column whose standard deviation is below
 * EPS is treated as having deviation 1, so a constant column yields zero
 * correlation with every other column instead of a division by zero.
 * Double precision.
 *
 * Interface: kernel_correlation() is the design's top function; data is
 * standardised in place.  The dataset size is fixed at compile time
 * (-DNS=.. -DNV=..).
 */
#include <math.h>

#ifndef NS
#define NS 32   /* samples (rows) */
#endif
#ifndef NV
#define NV 24   /* variables (columns) */
#endif
#define EPS 0.1

void kernel_correlation(double corr[NV][NV], double data[NS][NV])
{
    double mean[NV], stddev[NV];
    const double sqrt_n = sqrt((double)NS);

    for (int j = 0; j < NV; j++) {
        double s = 0.0;
        for (int i = 0; i < NS; i++)
            s += data[i][j];
        mean[j] = s / NS;
    }
    for (int j = 0; j < NV; j++) {
        double ss = 0.0;
        for (int i = 0; i < NS; i++) {
            double d = data[i][j] - mean[j];
            ss += d * d;
        }
        stddev[j] = sqrt(ss / NS);
        if (stddev[j] <= EPS)
            stddev[j] = 1.0;
    }
    for (int i = 0; i < NS; i++)
        for (int j = 0; j < NV; j++)
            data[i][j] = (data[i][j] - mean[j]) / (sqrt_n * stddev[j]);

    for (int i = 0; i < NV; i++) {
        corr[i][i] = 1.0;
        for (int j = i + 1; j < NV; j++) {
            double acc = 0.0;
            for (int k = 0; k < NS; k++)
                acc += data[k][i] * data[k][j];
            corr[i][j] = acc;
            corr[j][i] = acc;
        }
    }
}
