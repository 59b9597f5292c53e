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
 */
#include <stdio.h>
#include <stdint.h>

#define NR 10
#define NQ 8
#define LOG2_NP 4
#define NP (1 << LOG2_NP)

static int32_t A[NR * NQ * NP];
static int32_t C4[NP][NP];

static void init_data(void)
{
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++)
            for (int p = 0; p < NP; p++)
                A[((r * NQ + q) << LOG2_NP) + p] = (r * q + p * 7 + 3) % 97 - 20;
    for (int s = 0; s < NP; s++)
        for (int p = 0; p < NP; p++)
            C4[s][p] = 3 * ((s * p * 5 + 11) % 97) - 60;
}

static void kernel_doitgen(void)
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

int main(void)
{
    init_data();
    kernel_doitgen();
    for (int r = 0; r < NR; r++)
        for (int q = 0; q < NQ; q++) {
            printf("A[%d][%d]:", r, q);
            for (int p = 0; p < NP; p++)
                printf(" %ld", (long)A[((r * NQ + q) << LOG2_NP) + p]);
            printf("\n");
        }
    return 0;
}
