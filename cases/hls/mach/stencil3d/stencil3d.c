/*
 * stencil3d.c - 7-point three-dimensional stencil on a regular grid.
 *
 * Specification: the standard second-order 7-point stencil
 *     sol[z][y][x] = C0 * orig[z][y][x]
 *                  + C1 * (orig[z][y][x-1] + orig[z][y][x+1]
 *                        + orig[z][y-1][x] + orig[z][y+1][x]
 *                        + orig[z-1][y][x] + orig[z+1][y][x])
 * applied to every interior point (the finite-difference discretisation of
 * the 3-D Laplacian, e.g. LeVeque, Finite Difference Methods for Ordinary and
 * Partial Differential Equations, Section 3.2); boundary points are copied.
 * X and Y extents are powers of two: point (z, y, x) is stored at
 * (z << (LOG_Y + LOG_X)) | (y << LOG_X) | x.
 */
#include "stencil3d.h"

void stencil3d(const int32_t coef[2], const int32_t *orig, int32_t *sol)
{
    const int row = 1 << LOG_X;            /* distance to the y neighbours */
    const int plane = 1 << (LOG_Y + LOG_X); /* distance to the z neighbours */
    int x, y, z, p;
    int32_t centre, ring;

    /* boundary points keep their value; interior ones are overwritten below */
    for (p = 0; p < GRID_SIZE; p++)
        sol[p] = orig[p];

    for (z = 1; z < DIM_Z - 1; z++) {
        for (y = 1; y < DIM_Y - 1; y++) {
            for (x = 1; x < DIM_X - 1; x++) {
                p = (z << (LOG_Y + LOG_X)) | (y << LOG_X) | x;
                centre = orig[p];
                ring = orig[p - 1] + orig[p + 1]
                     + orig[p - row] + orig[p + row]
                     + orig[p - plane] + orig[p + plane];
                sol[p] = coef[0] * centre + coef[1] * ring;
            }
        }
    }
}
