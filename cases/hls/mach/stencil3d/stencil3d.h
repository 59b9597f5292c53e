/* stencil3d.h - sizes and entry point of the 7-point 3-D stencil. */
#ifndef STENCIL3D_H
#define STENCIL3D_H

#include <stdint.h>

#define LOG_X 4                        /* grid is DIM_Z x DIM_Y x DIM_X */
#define LOG_Y 3
#define DIM_X (1 << LOG_X)
#define DIM_Y (1 << LOG_Y)
#define DIM_Z 6
#define GRID_SIZE (DIM_Z << (LOG_Y + LOG_X))

void stencil3d(const int32_t coef[2], const int32_t *orig, int32_t *sol);

#endif
