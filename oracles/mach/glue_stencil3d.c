/* glue_stencil3d.c - connects stencil3d() to the mach data harness. */
#include "harness.h"
#include "stencil3d.h"

int h_kernel(void)
{
    const int32_t *coef = h_input("coef", HT_I32, 2);
    const int32_t *orig = h_input("orig", HT_I32, GRID_SIZE);
    int32_t *sol = h_buffer("sol", HT_I32, GRID_SIZE);

    stencil3d(coef, orig, sol);
    h_output("sol", HT_I32, sol, GRID_SIZE);
    return 0;
}
