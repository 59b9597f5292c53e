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

/* --seed N: the grid and coefficients N % 8 picks: 0 random (values
 * 0..19999, C0 2..9, C1 -3..-1), 1 a single lit point, 2 zeros, 3 a flat
 * grid, 4 signed values near the widest range the sums hold (+-2^20,
 * coefficients +-64), 5 only one of the coefficients non-zero, 6 a ramp
 * telling the three axes apart, 7 a positive C1. */
int h_generate(uint64_t seed)
{
    unsigned pattern = (unsigned)(seed % 8);
    int32_t *coef = h_define("coef", HT_I32, 2);
    int32_t *orig = h_define("orig", HT_I32, GRID_SIZE);
    int32_t flat = (int32_t)h_below(20000);
    int p, x, y, z;

    coef[0] = 2 + (int32_t)h_below(8);
    coef[1] = -1 - (int32_t)h_below(3);
    if (pattern == 4) {
        coef[0] = (int32_t)h_below(129) - 64;
        coef[1] = (int32_t)h_below(129) - 64;
    }
    if (pattern == 5)
        coef[h_below(2)] = 0;
    if (pattern == 7)
        coef[1] = 1 + (int32_t)h_below(5);
    for (z = 0; z < DIM_Z; z++)
        for (y = 0; y < DIM_Y; y++)
            for (x = 0; x < DIM_X; x++) {
                p = (z << (LOG_Y + LOG_X)) | (y << LOG_X) | x;
                orig[p] = pattern == 2 ? 0 : pattern == 3 ? flat : pattern == 6 ? x + 100 * y + 10000 * z
                        : pattern == 4 ? (int32_t)h_below(2 * 1048576 + 1) - 1048576 : (int32_t)h_below(20000);
            }
    if (pattern == 1) {
        for (p = 0; p < GRID_SIZE; p++)
            orig[p] = 0;
        orig[((1 + (int)h_below(DIM_Z - 2)) << (LOG_Y + LOG_X)) | ((1 + (int)h_below(DIM_Y - 2)) << LOG_X)
             | (1 + (int)h_below(DIM_X - 2))] = 1000;
    }
    return 0;
}
