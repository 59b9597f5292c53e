/*
 * floyd-warshall_main.c - the harness-owned driver of floyd-warshall.c (never part of the design).
 *
 * ./prog             the suite's fixed graph
 * ./prog --seed N    a graph generated from N (see oracles/poly/poly_harness.h):
 *                    every edge weight in [1, NOEDGE], every self-loop 0
 * Prints path, the only array kernel_floyd_warshall() writes.  Sizes: -DN=..
 */
#include <stdint.h>
#include "poly_harness.h"

#ifndef N
#define N 24
#endif
#define NOEDGE (1 << 24)

void kernel_floyd_warshall(int32_t path[N][N]);

static int32_t path[N][N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int32_t w = ((i * 3 + j * 5) % 7 + 1) * 977 + (i ^ j);
            if (i == j)
                w = 0;
            else if ((i * j + i + j) % 5 == 0)
                w = NOEDGE;
            path[i][j] = w;
        }
}

static void seeded_inputs(void)
{
    ph_fill_i32(&path[0][0], N * N, 1, NOEDGE, 1);
    for (int i = 0; i < N; i++)
        path[i][i] = 0;
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    kernel_floyd_warshall(path);
    ph_dump_i32("path", &path[0][0], N, N);
    return 0;
}
