/*
 * gemm_blocked.c - dense matrix product C = A * B computed tile by tile.
 *
 * Specification: the matrix product c[i][j] = sum_k a[i][k] * b[k][j],
 * reorganised as a block (tiled) product: with A, B, C partitioned into
 * T x T tiles, C(I,J) = sum over K of A(I,K) * B(K,J) (Golub & Van Loan,
 * Matrix Computations, 4th ed., Section 1.3, block matrix multiplication).
 * N and T are powers of two, so every row offset is a shift:
 * element (i, j) lives at index (i << LOG_N) + j.
 */
#include "gemm_blocked.h"

void gemm_blocked(const double *a, const double *b, double *c)
{
    const int ntiles = GEMM_N / TILE;  /* tiles per matrix side */
    int ti, tj, tk;                    /* tile coordinates */
    int i0, j0, k0;                    /* first row / column of the tiles */
    int i, j, k, idx;
    int arow, brow;
    double aik;

    for (idx = 0; idx < (1 << (2 * LOG_N)); idx++) {
        c[idx] = 0.0;
    }

    for (ti = 0; ti < ntiles; ti++) {
        i0 = ti << LOG_T;
        for (tk = 0; tk < ntiles; tk++) {
            k0 = tk << LOG_T;
            for (tj = 0; tj < ntiles; tj++) {
                j0 = tj << LOG_T;
                /* C(ti,tj) += A(ti,tk) * B(tk,tj) */
                for (i = i0; i < i0 + TILE; i++) {
                    arow = i << LOG_N;
                    for (k = k0; k < k0 + TILE; k++) {
                        aik = a[arow + k];
                        brow = k << LOG_N;
                        for (j = j0; j < j0 + TILE; j++)
                            c[arow + j] += aik * b[brow + j];
                    }
                }
            }
        }
    }
}
