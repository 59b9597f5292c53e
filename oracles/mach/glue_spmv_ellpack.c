/* glue_spmv_ellpack.c - connects spmv_ellpack() to the mach data harness. */
#include <math.h>

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

/* --seed N: the matrix N % 8 picks: 0 random row lengths 0..8, 1 every
 * row full, 2 every row empty, 3 odd lengths only, 4 even lengths only,
 * 5 padding slots holding values and columns that must be skipped, 6 one
 * entry per row in column 0 or 63, 7 values of very different magnitudes.
 * Padding slots are value 0, column 0 unless the pattern says otherwise. */
int h_generate(uint64_t seed)
{
    unsigned pattern = (unsigned)(seed % 8);
    double *nzval = h_define("nzval", HT_F64, N_ROWS * ELL_WIDTH);
    int32_t *cols = h_define("cols", HT_I32, N_ROWS * ELL_WIDTH);
    int32_t *row_len = h_define("row_len", HT_I32, N_ROWS);
    double *vec = h_define("vec", HT_F64, N_ROWS);
    int32_t order[N_ROWS];
    int r, s, j, len, p;

    for (r = 0; r < N_ROWS; r++) {
        len = (int)h_below(ELL_WIDTH + 1);
        len = pattern == 1 ? ELL_WIDTH : pattern == 2 ? 0 : pattern == 3 ? ((len | 1) > ELL_WIDTH ? ELL_WIDTH - 1 : (len | 1))
            : pattern == 4 ? len & ~1 : pattern == 6 ? 1 : len;
        row_len[r] = len;
        h_permutation(order, N_ROWS);
        for (s = 1; s < len; s++)  /* the first len columns, ascending */
            for (j = s; j > 0 && order[j - 1] > order[j]; j--) {
                int32_t t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        for (s = 0; s < ELL_WIDTH; s++) {
            p = (s << LOG_ROWS) + r;
            if (s < len) {
                cols[p] = pattern == 6 ? (h_below(2) ? N_ROWS - 1 : 0) : order[s];
                nzval[p] = pattern == 7 ? ldexp(h_uniform(-1.0, 1.0), (int)h_below(21) - 10) : h_uniform(-1.0, 1.0);
            } else if (pattern == 5) {
                cols[p] = (int32_t)h_below(N_ROWS);
                nzval[p] = h_uniform(100.0, 1000.0);
            }
        }
    }
    for (r = 0; r < N_ROWS; r++)
        vec[r] = pattern == 7 ? ldexp(h_uniform(-1.0, 1.0), (int)h_below(21) - 10) : h_uniform(-1.0, 1.0);
    return 0;
}
