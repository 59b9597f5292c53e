/*
 * fdtd-2d_main.c - the harness-owned driver of fdtd-2d.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h)
 * Prints ex, ey and hz, the arrays kernel_fdtd_2d() writes.
 * Sizes: -DTMAX=.. -DNX=.. -DNY=..
 */
#include "poly_harness.h"

#ifndef TMAX
#define TMAX 12
#endif
#ifndef NX
#define NX 20
#endif
#ifndef NY
#define NY 24
#endif

void kernel_fdtd_2d(double ex[NX][NY], double ey[NX][NY], double hz[NX][NY], double fict[TMAX]);

static double ex[NX][NY];
static double ey[NX][NY];
static double hz[NX][NY];
static double fict[TMAX];

static void fixed_inputs(void)
{
    for (int t = 0; t < TMAX; t++)
        fict[t] = (double)t * 0.25;
    for (int i = 0; i < NX; i++)
        for (int j = 0; j < NY; j++) {
            ex[i][j] = (double)(i * (j + 1) % NX) / NX;
            ey[i][j] = (double)((i + 2) * j % NY) / NY;
            hz[i][j] = (double)((i + 3) * (j + 1) % NX) / NX;
        }
}

static void seeded_inputs(void)
{
    ph_fill_f64(fict, TMAX, -4.0, 4.0, 1.0);
    ph_fill_f64(&ex[0][0], NX * NY, -4.0, 4.0, 1.0);
    ph_fill_f64(&ey[0][0], NX * NY, -4.0, 4.0, 1.0);
    ph_fill_f64(&hz[0][0], NX * NY, -4.0, 4.0, 1.0);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_fdtd_2d(ex, ey, hz, fict);
    ph_dump_f64("ex", &ex[0][0], NX, NY);
    ph_dump_f64("ey", &ey[0][0], NX, NY);
    ph_dump_f64("hz", &hz[0][0], NX, NY);
    return 0;
}
