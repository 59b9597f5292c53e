/*
 * spmv_crs.c - sparse matrix-vector product y = A x, compressed row storage.
 *
 * Specification: the Compressed Row Storage (CRS/CSR) format of Barrett et
 * al., Templates for the Solution of Linear Systems, SIAM 1994, Section
 * 4.3.1: the non-zeros of row r are val[row_ptr[r] .. row_ptr[r+1]-1], their
 * column indices are in cols[] at the same positions, and row_ptr has
 * N_ROWS + 1 entries.  y[r] = sum over those k of val[k] * x[cols[k]],
 * accumulated in storage order.
 */
#include "spmv_crs.h"

void spmv_crs(const double *val, const int32_t *cols, const int32_t *row_ptr,
              const double *vec, double *out)
{
    int r, k, end;
    double sum, term;

    for (r = 0; r < N_ROWS; r++) {
        sum = 0.0;
        k = row_ptr[r];
        end = row_ptr[r + 1];
        while (k < end) {
            term = val[k] * vec[cols[k]];
            sum += term;
            k++;
        }
        out[r] = sum;
    }
}
