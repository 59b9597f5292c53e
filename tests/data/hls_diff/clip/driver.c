/* driver.c - harness-owned test driver of the clip kernel.
 *   ./prog               the fixed vectors (values inside [-50, 50])
 *   ./prog --seed N      N values generated from N: odd N values up to +-1000, even N all equal
 * It prints every output: y, then the sum. With OUT_FILE defined it writes them there instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clip.h"

#ifndef N
#define N 8
#endif

static unsigned long long state;

static unsigned long long next(void)
{
    unsigned long long z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    static const int fixed[8] = { 3, -7, 50, -50, 0, 12, -1, 9 };
    int *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    unsigned long long seed = argc == 3 && strcmp(argv[1], "--seed") == 0 ? strtoull(argv[2], NULL, 10) : 0;
    FILE *out = stdout;
    long sum;
    int i;

    state = seed;
    for (i = 0; i < N; i++)
        x[i] = seed == 0 ? fixed[i % 8] : seed % 2 ? (int)(next() % 2001) - 1000 : (int)(seed * 3);
#ifdef OUT_FILE
    out = fopen(OUT_FILE, "w");
    if (!out)
        return 1;
#endif
    sum = clip(x, y, N);
    for (i = 0; i < N; i++)
        fprintf(out, "%d\n", y[i]);
    fprintf(out, "sum %ld\n", sum);
    return fclose(out) != 0;
}
