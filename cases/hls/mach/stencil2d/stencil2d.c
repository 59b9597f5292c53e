/*
 * stencil2d.c - 3x3 two-dimensional stencil (discrete 2-D correlation).
 *
 * Specification: for every interior pixel (r, c) of a ROWS x COLS image,
 *     sol[r][c] = sum over fr, fc in 0..2 of filter[fr][fc] * orig[r+fr-1][c+fc-1]
 * (the 2-D correlation of Gonzalez & Woods, Digital Image Processing, 3rd ed.,
 * Section 3.4.2). Pixels on the image border have no full neighbourhood and
 * are copied unchanged. The row length is a power of two, so pixel (r, c)
 * sits at index (r << LOG_COLS) + c.
 */
#include "stencil2d.h"

void stencil2d(const int32_t *orig, const int32_t *filter, int32_t *sol)
{
    int r, c, fr, fc;
    int centre, tap, last;
    int32_t acc;

    /* top and bottom rows */
    last = (ROWS - 1) << LOG_COLS;
    for (c = 0; c < COLS; c++) {
        sol[c] = orig[c];
        sol[last + c] = orig[last + c];
    }
    /* left and right columns */
    for (r = 1; r < ROWS - 1; r++) {
        sol[r << LOG_COLS] = orig[r << LOG_COLS];
        sol[(r << LOG_COLS) + COLS - 1] = orig[(r << LOG_COLS) + COLS - 1];
    }

    /* interior */
    for (r = 1; r < ROWS - 1; r++) {
        for (c = 1; c < COLS - 1; c++) {
            centre = (r << LOG_COLS) + c;
            acc = 0;
            for (fr = 0; fr < FSIZE; fr++) {
                for (fc = 0; fc < FSIZE; fc++) {
                    /* neighbour (r + fr - 1, c + fc - 1) */
                    tap = centre - COLS - 1 + (fr << LOG_COLS) + fc;
                    acc += filter[fr * FSIZE + fc] * orig[tap];
                }
            }
            sol[centre] = acc;
        }
    }
}
