/*
 * mvt_main.c - the harness-owned driver of mvt.c (never part of the design).
 *
 * ./prog             the suite's fixed inputs
 * ./prog --seed N    inputs generated from N (see oracles/poly/poly_harness.h):
 *                    A and the y vectors over the whole int16 range, the x
 *                    vectors within +-2^24 so the 32-bit sums cannot overflow
 * Prints x1 and x2, the arrays kernel_mvt() writes.  Sizes: -DN=..
 */
#include <stdint.h>
#include "poly_harness.h"

#ifndef N
#define N 32
#endif

void kernel_mvt(int32_t x1v[N], int32_t x2v[N], int16_t A[N][N], int16_t y1v[N], int16_t y2v[N]);

static int16_t A[N][N];
static int16_t y1v[N], y2v[N];
static int32_t x1v[N], x2v[N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++) {
        x1v[i] = (i * 997) % 16384 - 8192;
        x2v[i] = (i * 571 + 300) % 16384 - 8192;
        y1v[i] = (int16_t)((i * 1231 + 77) % 32768 - 16384);
        y2v[i] = (int16_t)((i * 733 + 5) % 32768 - 16384);
        for (int j = 0; j < N; j++)
            A[i][j] = (int16_t)(((i * 37 + j * 101) % 256) * 128 - 16384);
    }
}

static void seeded_inputs(void)
{
    ph_fill_i32(x1v, N, -(1 << 24), 1 << 24, 1 << 14);
    ph_fill_i32(x2v, N, -(1 << 24), 1 << 24, 1 << 14);
    ph_fill_i16(y1v, N, INT16_MIN, INT16_MAX, 1 << 14);
    ph_fill_i16(y2v, N, INT16_MIN, INT16_MAX, 1 << 14);
    ph_fill_i16(&A[0][0], N * N, INT16_MIN, INT16_MAX, 1 << 14);
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_mvt(x1v, x2v, A, y1v, y2v);
    ph_dump_i32("x1", x1v, 1, N);
    ph_dump_i32("x2", x2v, 1, N);
    return 0;
}
