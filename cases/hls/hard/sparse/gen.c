/*
 * gen.c -- test matrices and right-hand sides, built as COO triplets.
 *
 *   gen_poisson2d:  the 5-point Laplacian on an nx-by-ny grid with
 *                   Dirichlet boundaries (4 on the diagonal, -1 for each
 *                   neighbour), unknowns numbered row by row.
 *   gen_random_spd: a symmetric matrix with per_row random off-diagonal
 *                   pairs per row, values in (-1, 0], and a diagonal equal
 *                   to the row's absolute sum plus `shift`; with shift > 0
 *                   it is strictly diagonally dominant, hence positive
 *                   definite.  Repeated positions and the diagonal (added
 *                   in two parts) leave duplicates for the conversion.
 *   gen_convdiff2d: convection-diffusion -lap(u) + c . grad(u) on the
 *                   grid with first-order upwind differences: a
 *                   non-symmetric M-matrix.
 *
 * The generator is the 32-bit linear congruential generator of Numerical
 * Recipes (a = 1664525, c = 1013904223).
 */
#include "sparse.h"

uint32_t gen_next(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state;
}

/* uniform in [0, 1) with 24 random bits */
double gen_uniform(uint32_t *state)
{
    return (double)(gen_next(state) >> 8) * (1.0 / 16777216.0);
}

static int gen_grid_ok(int nx, int ny)
{
    return nx >= 1 && ny >= 1 && nx <= SP_MAX_N && ny <= SP_MAX_N / nx;
}

/* entries are added out of column order on purpose: east, north, centre, west, south */
int gen_poisson2d(coo_t *a, int nx, int ny)
{
    int ix, iy;

    if (!gen_grid_ok(nx, ny))
        return -1;
    coo_init(a, nx * ny, nx * ny);
    for (iy = 0; iy < ny; iy++) {
        for (ix = 0; ix < nx; ix++) {
            int i = iy * nx + ix;
            if (ix + 1 < nx)
                coo_add(a, i, i + 1, -1.0);
            if (iy + 1 < ny)
                coo_add(a, i, i + nx, -1.0);
            coo_add(a, i, i, 4.0);
            if (ix > 0)
                coo_add(a, i, i - 1, -1.0);
            if (iy > 0)
                coo_add(a, i, i - nx, -1.0);
        }
    }
    return a->nnz;
}

int gen_random_spd(coo_t *a, int n, int per_row, double shift, uint32_t seed)
{
    static double rowsum[SP_MAX_N];
    uint32_t st = seed;
    int i, r;

    if (n < 1 || n > SP_MAX_N || per_row < 0 || (long)n * (2 * per_row + 2) > SP_MAX_NNZ)
        return -1;
    coo_init(a, n, n);
    for (i = 0; i < n; i++)
        rowsum[i] = 0.0;
    for (i = 0; i < n; i++) {
        for (r = 0; r < per_row; r++) {
            int j = (int)((gen_next(&st) >> 8) % (uint32_t)n);   /* the low bits of an LCG are weak */
            double v = -gen_uniform(&st);
            if (j == i)
                continue;
            coo_add(a, i, j, v);
            coo_add(a, j, i, v);
            rowsum[i] -= v;
            rowsum[j] -= v;
        }
    }
    for (i = 0; i < n; i++) {
        coo_add(a, i, i, rowsum[i]);
        coo_add(a, i, i, shift);
    }
    return a->nnz;
}

int gen_convdiff2d(coo_t *a, int nx, int ny, double cx, double cy)
{
    int ix, iy;

    if (!gen_grid_ok(nx, ny))
        return -1;
    coo_init(a, nx * ny, nx * ny);
    for (iy = 0; iy < ny; iy++) {
        for (ix = 0; ix < nx; ix++) {
            int i = iy * nx + ix;
            double west = -1.0, east = -1.0, south = -1.0, north = -1.0;
            double centre = 4.0 + (cx < 0.0 ? -cx : cx) + (cy < 0.0 ? -cy : cy);
            if (cx > 0.0)
                west -= cx;
            else
                east += cx;
            if (cy > 0.0)
                south -= cy;
            else
                north += cy;
            if (iy > 0)
                coo_add(a, i, i - nx, south);
            if (ix > 0)
                coo_add(a, i, i - 1, west);
            coo_add(a, i, i, centre);
            if (ix + 1 < nx)
                coo_add(a, i, i + 1, east);
            if (iy + 1 < ny)
                coo_add(a, i, i + nx, north);
        }
    }
    return a->nnz;
}

/*
 * A known solution and its right-hand side b = A x_true.  kind 0: all
 * ones; 1: x_i = (i mod 7) - 3 + (i mod 2) / 2; 2: alternating +1, -1;
 * 3: a single 1 in the middle.  Returns 0, or -1 for an unknown kind.
 */
int gen_rhs(const csr_t *a, int kind, double *x_true, double *b)
{
    int i, n = a->ncols;

    for (i = 0; i < n; i++) {
        switch (kind) {
        case 0:
            x_true[i] = 1.0;
            break;
        case 1:
            x_true[i] = (double)(i % 7 - 3) + 0.5 * (double)(i % 2);
            break;
        case 2:
            x_true[i] = (i % 2) ? -1.0 : 1.0;
            break;
        case 3:
            x_true[i] = i == n / 2 ? 1.0 : 0.0;
            break;
        default:
            return -1;
        }
    }
    spmv(a, x_true, b);
    return 0;
}
