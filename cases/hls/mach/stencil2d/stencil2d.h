/* stencil2d.h - sizes and entry point of the 3x3 image stencil. */
#ifndef STENCIL2D_H
#define STENCIL2D_H

#include <stdint.h>

#define LOG_COLS 5
#define COLS (1 << LOG_COLS)           /* image width, a power of two */
#define ROWS 24                        /* image height */
#define FSIZE 3                        /* the filter is FSIZE x FSIZE */

void stencil2d(const int32_t *orig, const int32_t *filter, int32_t *sol);

#endif
