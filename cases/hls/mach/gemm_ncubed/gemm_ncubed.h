/* gemm_ncubed.h - sizes and entry point of the triple-loop matrix product. */
#ifndef GEMM_NCUBED_H
#define GEMM_NCUBED_H

#define GEMM_N 32                      /* matrices are GEMM_N x GEMM_N */

void gemm_ncubed(const double a[GEMM_N * GEMM_N], const double b[GEMM_N * GEMM_N],
                 double c[GEMM_N * GEMM_N]);

#endif
