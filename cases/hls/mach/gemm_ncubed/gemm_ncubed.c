/*
 * gemm_ncubed.c - dense matrix product C = A * B with the plain triple loop.
 *
 * Specification: the definition of the matrix product,
 *     c[i][j] = sum over k = 0 .. N-1 of a[i][k] * b[k][j],
 * evaluated in the "ijk" order with one inner-product accumulator per
 * element (Golub & Van Loan, Matrix Computations, 4th ed., Section 1.1).
 * All matrices are square, GEMM_N x GEMM_N, stored row major in flat arrays.
 */
#include "gemm_ncubed.h"

void gemm_ncubed(const double a[GEMM_N * GEMM_N], const double b[GEMM_N * GEMM_N],
                 double c[GEMM_N * GEMM_N])
{
    int i, j, k;
    int row, col;
    double sum, prod;

    for (i = 0; i < GEMM_N; i++) {
        row = i * GEMM_N;                  /* first element of row i */
        for (j = 0; j < GEMM_N; j++) {
            sum = 0.0;
            for (k = 0; k < GEMM_N; k++) {
                col = k * GEMM_N + j;      /* element (k, j) of B */
                prod = a[row + k] * b[col];
                sum += prod;
            }
            c[row + j] = sum;
        }
    }
}
