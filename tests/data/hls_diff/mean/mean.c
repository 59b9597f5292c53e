/* mean.c - the mean of n doubles, summed in index order. */
double mean(const double *x, int n)
{
    double s = 0.0;
    int i;

    for (i = 0; i < n; i++)
        s += x[i];
    return s / n;
}
