/*
 * spmv.c -- sparse matrix-vector products and the vector kernels of the
 * solvers.  Sums run in index order, so results are reproducible bit for
 * bit.
 */
#include <math.h>

#include "sparse.h"

/* y = A x */
void spmv(const csr_t *a, const double *x, double *y)
{
    int i, k;

    for (i = 0; i < a->nrows; i++) {
        double s = 0.0;
        for (k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            s += a->val[k] * x[a->col[k]];
        y[i] = s;
    }
}

/* y = A^T x, scattering row by row */
void spmv_t(const csr_t *a, const double *x, double *y)
{
    int i, k;

    for (i = 0; i < a->ncols; i++)
        y[i] = 0.0;
    for (i = 0; i < a->nrows; i++) {
        double xi = x[i];
        for (k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            y[a->col[k]] += a->val[k] * xi;
    }
}

/* y = alpha A x + beta y (y is not read when beta is 0) */
void spmv_axpby(const csr_t *a, double alpha, const double *x, double beta, double *y)
{
    int i, k;

    for (i = 0; i < a->nrows; i++) {
        double s = 0.0;
        for (k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            s += a->val[k] * x[a->col[k]];
        y[i] = beta == 0.0 ? alpha * s : alpha * s + beta * y[i];
    }
}

double vec_dot(const double *x, const double *y, int n)
{
    double s = 0.0;
    int i;

    for (i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

double vec_norm2(const double *x, int n)
{
    return sqrt(vec_dot(x, x, n));
}

double vec_norm_inf(const double *x, int n)
{
    double m = 0.0;
    int i;

    for (i = 0; i < n; i++) {
        double v = fabs(x[i]);
        if (v > m)
            m = v;
    }
    return m;
}

/* y += alpha x */
void vec_axpy(double alpha, const double *x, double *y, int n)
{
    int i;

    for (i = 0; i < n; i++)
        y[i] += alpha * x[i];
}

/* y = x + beta y */
void vec_xpby(const double *x, double beta, double *y, int n)
{
    int i;

    for (i = 0; i < n; i++)
        y[i] = x[i] + beta * y[i];
}

void vec_copy(const double *x, double *y, int n)
{
    int i;

    for (i = 0; i < n; i++)
        y[i] = x[i];
}

void vec_fill(double v, double *x, int n)
{
    int i;

    for (i = 0; i < n; i++)
        x[i] = v;
}

/* r = b - A x; returns ||r||_2 */
double residual(const csr_t *a, const double *x, const double *b, double *r)
{
    int i, k;

    for (i = 0; i < a->nrows; i++) {
        double s = b[i];
        for (k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
            s -= a->val[k] * x[a->col[k]];
        r[i] = s;
    }
    return vec_norm2(r, a->nrows);
}
