/*
 * nussinov_main.c - the harness-owned driver of nussinov.c (never part of the design).
 *
 * ./prog             the suite's fixed sequence
 * ./prog --seed N    a sequence generated from N (see oracles/poly/poly_harness.h)
 * Prints table, the only array kernel_nussinov() writes (the
 * table starts poisoned: the kernel must clear it).  Sizes: -DN=..
 */
#include <stdint.h>
#include "poly_harness.h"

#ifndef N
#define N 40
#endif

void kernel_nussinov(uint8_t seq[N], int table[N][N]);

static uint8_t seq[N];
static int table[N][N];

static void fixed_inputs(void)
{
    for (int i = 0; i < N; i++)
        seq[i] = (uint8_t)((i * i + 3 * (i / 5) + 1) % 4);
}

static void seeded_inputs(void)
{
    int32_t bases[N];
    ph_fill_i32(bases, N, 0, 3, 1);
    for (int i = 0; i < N; i++)
        seq[i] = (uint8_t)bases[i];
}

int main(int argc, char **argv)
{
    if (ph_start(argc, argv))
        seeded_inputs();
    else
        fixed_inputs();
    ph_poison(table, sizeof table);
    kernel_nussinov(seq, table);
    ph_dump_i32("table", &table[0][0], N, N);
    return 0;
}
