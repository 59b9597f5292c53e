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
