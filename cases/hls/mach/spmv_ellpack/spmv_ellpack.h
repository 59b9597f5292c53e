/* spmv_ellpack.h - sizes and entry point of the ELLPACK sparse matrix-vector product. */
#ifndef SPMV_ELLPACK_H
#define SPMV_ELLPACK_H

#include <stdint.h>

#define LOG_ROWS 6
#define N_ROWS (1 << LOG_ROWS)         /* the matrix is N_ROWS x N_ROWS */
#define ELL_WIDTH 8                    /* stored entries per row (padded) */

void spmv_ellpack(const double *nzval, const int32_t *cols, const int32_t *row_len,
                  const double *vec, double *out);

#endif
