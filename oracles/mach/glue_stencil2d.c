/* glue_stencil2d.c - connects stencil2d() to the mach data harness. */
#include "harness.h"
#include "stencil2d.h"

int h_kernel(void)
{
    const int32_t *orig = h_input("orig", HT_I32, ROWS * COLS);
    const int32_t *filter = h_input("filter", HT_I32, FSIZE * FSIZE);
    int32_t *sol = h_buffer("sol", HT_I32, ROWS * COLS);

    stencil2d(orig, filter, sol);
    h_output("sol", HT_I32, sol, ROWS * COLS);
    return 0;
}
