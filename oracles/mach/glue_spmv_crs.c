/* glue_spmv_crs.c - connects spmv_crs() to the mach data harness.  The
 * number of non-zeros is given by the length of the "val" section; the
 * kernel only relies on row_ptr. */
#include <math.h>
#include <string.h>

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

/* A value of the magnitude class: [-1, 1), or +-[2^-10, 2^10) (wide). */
static double crs_value(int wide)
{
    double v = h_uniform(-1.0, 1.0);

    return wide ? ldexp(v < 0 ? -1.0 : 1.0, (int)h_below(21) - 10) * (1.0 + fabs(v)) : v;
}

/* --seed N: the matrix N % 8 picks: 0 random rows of 1..12 entries,
 * 1 short rows with empty ones (the first and last row among them), 2 no
 * entries at all, 3 full rows (the first one among them), 4 a diagonal of
 * small integers, 5 unsorted columns with repeated ones, 6 values and the
 * vector of very different magnitudes, 7 every row with 16 entries (the
 * capacity). */
int h_generate(uint64_t seed)
{
    unsigned pattern = (unsigned)(seed % 8);
    int32_t row_ptr[N_ROWS + 1], cols[MAX_NNZ], order[N_ROWS];
    double val[MAX_NNZ], *vec;
    int r, k, cnt, nnz = 0;

    for (r = 0; r < N_ROWS; r++) {
        row_ptr[r] = nnz;
        cnt = pattern == 1 ? (r == 0 || r == N_ROWS - 1 ? 0 : (int)h_below(5))
            : pattern == 2 ? 0
            : pattern == 3 ? (r == 0 || h_below(8) == 0 ? N_ROWS : (int)h_below(4))
            : pattern == 4 ? 1
            : pattern == 7 ? MAX_NNZ / N_ROWS
            : 1 + (int)h_below(12);
        if (nnz + cnt > MAX_NNZ)
            cnt = MAX_NNZ - nnz;
        h_permutation(order, N_ROWS);
        if (pattern != 5) {  /* distinct columns in ascending order */
            for (k = 1; k < cnt; k++) {
                int32_t c = order[k];
                int j = k;
                for (; j > 0 && order[j - 1] > c; j--)
                    order[j] = order[j - 1];
                order[j] = c;
            }
        }
        for (k = 0; k < cnt; k++) {
            cols[nnz] = pattern == 4 ? r : pattern == 5 && k % 3 == 2 ? cols[nnz - 1] : order[k];
            val[nnz] = pattern == 4 ? (double)((int)h_below(17) - 8) : crs_value(pattern == 6);
            nnz++;
        }
    }
    row_ptr[N_ROWS] = nnz;
    vec = h_define("vec", HT_F64, N_ROWS);
    for (r = 0; r < N_ROWS; r++)
        vec[r] = crs_value(pattern == 6);
    h_define_param("nnz", nnz);
    memcpy(h_define("val", HT_F64, (size_t)nnz), val, (size_t)nnz * sizeof *val);
    memcpy(h_define("cols", HT_I32, (size_t)nnz), cols, (size_t)nnz * sizeof *cols);
    memcpy(h_define("row_ptr", HT_I32, N_ROWS + 1), row_ptr, sizeof row_ptr);
    return 0;
}
