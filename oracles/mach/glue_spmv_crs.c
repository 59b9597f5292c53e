/* glue_spmv_crs.c - connects spmv_crs() to the mach data harness.  The
 * number of non-zeros is given by the length of the "val" section; the
 * kernel only relies on row_ptr. */
#include "harness.h"
#include "spmv_crs.h"

int h_kernel(void)
{
    size_t nnz = (size_t)h_param("nnz");
    const double *val;
    const int32_t *cols, *row_ptr;
    const double *vec;
    double *out;

    if (nnz > MAX_NNZ)
        return 2;
    val = h_input("val", HT_F64, nnz);
    cols = h_input("cols", HT_I32, nnz);
    row_ptr = h_input("row_ptr", HT_I32, N_ROWS + 1);
    vec = h_input("vec", HT_F64, N_ROWS);
    out = h_buffer("out", HT_F64, N_ROWS);

    spmv_crs(val, cols, row_ptr, vec, out);
    h_output("out", HT_F64, out, N_ROWS);
    return 0;
}
