/*
 * spmv_ellpack.c - sparse matrix-vector product y = A x in ELLPACK format.
 *
 * Specification: the ELLPACK-ITPACK format (Kincaid, Oppe & Young, ITPACKV
 * 2D User's Guide, 1989; Saad, Iterative Methods for Sparse Linear Systems,
 * 2nd ed., Section 3.4): every row stores ELL_WIDTH (value, column) slots,
 * rows with fewer non-zeros are padded.  Slots are kept column-major, so slot
 * s of row r is element (s << LOG_ROWS) + r.  row_len[r] gives the number of
 * real entries of row r (the "ELLPACK-R" refinement), so padding is skipped.
 * The slot loop is unrolled by two, with partial sums sum0 (even slots) and
 * sum1 (odd slots), y[r] = sum0 + sum1.
 */
#include "spmv_ellpack.h"

void spmv_ellpack(const double *nzval, const int32_t *cols, const int32_t *row_len,
                  const double *vec, double *out)
{
    int r, s, len, p0, p1;
    double sum0, sum1;

    for (r = 0; r < N_ROWS; r++) {
        len = row_len[r];
        sum0 = 0.0;
        sum1 = 0.0;
        for (s = 0; s + 1 < len; s += 2) {
            p0 = (s << LOG_ROWS) + r;          /* slot s */
            p1 = p0 + N_ROWS;                  /* slot s + 1 */
            sum0 += nzval[p0] * vec[cols[p0]];
            sum1 += nzval[p1] * vec[cols[p1]];
        }
        if (s < len) {                         /* odd slot count: one left */
            p0 = (s << LOG_ROWS) + r;
            sum0 += nzval[p0] * vec[cols[p0]];
        }
        out[r] = sum0 + sum1;
    }
}
