/* glue_spmv_ellpack.c - connects spmv_ellpack() to the mach data harness. */
#include "harness.h"
#include "spmv_ellpack.h"

int h_kernel(void)
{
    const double *nzval = h_input("nzval", HT_F64, N_ROWS * ELL_WIDTH);
    const int32_t *cols = h_input("cols", HT_I32, N_ROWS * ELL_WIDTH);
    const int32_t *row_len = h_input("row_len", HT_I32, N_ROWS);
    const double *vec = h_input("vec", HT_F64, N_ROWS);
    double *out = h_buffer("out", HT_F64, N_ROWS);

    spmv_ellpack(nzval, cols, row_len, vec, out);
    h_output("out", HT_F64, out, N_ROWS);
    return 0;
}
