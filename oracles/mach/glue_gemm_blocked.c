/* glue_gemm_blocked.c - connects gemm_blocked() to the mach data harness. */
#include "harness.h"
#include "gemm_blocked.h"

int h_kernel(void)
{
    const double *a = h_input("a", HT_F64, GEMM_N * GEMM_N);
    const double *b = h_input("b", HT_F64, GEMM_N * GEMM_N);
    double *c = h_buffer("c", HT_F64, GEMM_N * GEMM_N);

    gemm_blocked(a, b, c);
    h_output("c", HT_F64, c, GEMM_N * GEMM_N);
    return 0;
}

/* --seed N: the two factors in the pattern N % 8 picks (see h_matrix:
 * identity on either side, zeros, small integers, ones, rows of very
 * different scales, triangular factors). */
int h_generate(uint64_t seed)
{
    h_matrix(h_define("a", HT_F64, GEMM_N * GEMM_N), GEMM_N, (unsigned)(seed % 8), 0);
    h_matrix(h_define("b", HT_F64, GEMM_N * GEMM_N), GEMM_N, (unsigned)(seed % 8), 1);
    return 0;
}
