/*
 * doitgen.c - multiresolution analysis kernel (MADNESS "doitgen" step)
 *
 *     A(r,q,p) := sum_s A(r,q,s) * C4(s,p)
 *
 * Specification: the transformation of a 3-D coefficient tensor by a square
 * matrix along its last mode, i.e. for every (r,q) the row vector
 * A(r,q,:) is replaced by A(r,q,:) * C4 (a mode-3 tensor-matrix product, see
 * Kolda and Bader, "Tensor Decompositions and Applications", SIAM Review
 * 51(3), 2009, section 2.5).  Integer arithmetic.
 *
 * The tensor is stored flat, the way an HLS design addresses one memory
 * bank: NP is a power of two, so the (r,q) row base is (r*NQ + q) << LOG2_NP.
 *
 * Interface: kernel_doitgen() is the design's top function; the dataset size
 * is fixed at compile time (-DNR=.. -DNQ=.. -DLOG2_NP=..).
 */
#include <stdint.h>

#ifndef NR
#define NR 10
#endif
#ifndef NQ
#define NQ 8
#endif
#ifndef LOG2_NP
#define LOG2_NP 4
#endif
#define NP (1 << LOG2_NP)

void kernel_doitgen(int32_t A[NR * NQ * NP], int32_t C4[NP][NP])
{
    int32_t sum[NP];

    for (int r = 0; r < NR; r++) {
        for (int q = 0; q < NQ; q++) {
            int32_t *row = &A[(r * NQ + q) << LOG2_NP];
            for (int p = 0; p < NP; p++) {
                sum[p] = 0;
                for (int s = 0; s < NP; s++)
                    sum[p] += row[s] * C4[s][p];
            }
            for (int p = 0; p < NP; p++)
                row[p] = sum[p];
        }
    }
}
