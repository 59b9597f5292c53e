/*
 * covariance.c - sample covariance matrix of NV variables over NS samples
 *
 * Specification: the unbiased sample covariance (Johnson and Wichern,
 * "Applied Multivariate Statistical Analysis", 6th ed., section 1.4):
 *     s_ij = 1/(n-1) * sum_k (x_ki - mean_i) * (x_kj - mean_j)
 * The data columns are centred in place, the upper triangle is computed
 * and mirrored.  Double precision.
 *
 * Interface: kernel_covariance() is the design's top function; the dataset
 * size is fixed at compile time (-DNS=.. -DNV=.., NS >= 2).
 */
#ifndef NS
#define NS 30   /* samples (rows) */
#endif
#ifndef NV
#define NV 26   /* variables (columns) */
#endif

void kernel_covariance(double cov[NV][NV], double data[NS][NV])
{
    double mean[NV];
    const double inv = 1.0 / (NS - 1);

    for (int j = 0; j < NV; j++) {
        double m = 0.0;
        for (int i = 0; i < NS; i++)
            m += data[i][j];
        mean[j] = m / NS;
    }
    for (int i = 0; i < NS; i++)
        for (int j = 0; j < NV; j++)
            data[i][j] -= mean[j];
    for (int i = 0; i < NV; i++) {
        for (int j = i; j < NV; j++) {
            double acc = 0.0;
            for (int k = 0; k < NS; k++)
                acc += data[k][i] * data[k][j];
            cov[i][j] = acc * inv;
            cov[j][i] = cov[i][j];
        }
    }
}
