/* spmv_crs.h - sizes and entry point of the CRS sparse matrix-vector product. */
#ifndef SPMV_CRS_H
#define SPMV_CRS_H

#include <stdint.h>

#define N_ROWS 64                      /* the matrix is N_ROWS x N_ROWS */
#define MAX_NNZ 1024                   /* capacity of val[] and cols[] */

void spmv_crs(const double *val, const int32_t *cols, const int32_t *row_ptr,
              const double *vec, double *out);

#endif
