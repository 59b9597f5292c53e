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

/* --seed N: the image and filter N % 8 picks: 0 random (image 0..4095,
 * taps -16..16), 1 a single lit pixel (shows the filter's orientation),
 * 2 a black image, 3 a flat image, 4 signed values near the widest range
 * the accumulator holds (image +-2^20, taps +-64), 5 the identity filter,
 * 6 a filter with one off-centre tap, 7 a ramp image (r * 1000 + c). */
int h_generate(uint64_t seed)
{
    unsigned pattern = (unsigned)(seed % 8);
    int32_t *orig = h_define("orig", HT_I32, ROWS * COLS);
    int32_t *filter = h_define("filter", HT_I32, FSIZE * FSIZE);
    int i, r, c, flat = (int)h_below(4096);

    for (i = 0; i < FSIZE * FSIZE; i++)
        filter[i] = pattern == 4 ? (int32_t)h_below(129) - 64 : (int32_t)h_below(33) - 16;
    for (r = 0; r < ROWS; r++)
        for (c = 0; c < COLS; c++) {
            i = (r << LOG_COLS) + c;
            orig[i] = pattern == 2 ? 0 : pattern == 3 ? flat : pattern == 7 ? r * 1000 + c
                    : pattern == 4 ? (int32_t)h_below(2 * 1048576 + 1) - 1048576 : (int32_t)h_below(4096);
        }
    if (pattern == 1) {
        for (i = 0; i < ROWS * COLS; i++)
            orig[i] = 0;
        orig[((1 + (int)h_below(ROWS - 2)) << LOG_COLS) + 1 + (int)h_below(COLS - 2)] = 1000;
    }
    if (pattern == 5 || pattern == 6) {
        for (i = 0; i < FSIZE * FSIZE; i++)
            filter[i] = 0;
        i = pattern == 5 ? FSIZE * FSIZE / 2 : (int)h_below(FSIZE * FSIZE - 1);
        filter[i + (pattern == 6 && i >= FSIZE * FSIZE / 2)] = pattern == 5 ? 1 : 3;
    }
    return 0;
}
