/* driver.c - harness-owned test driver of the mean kernel: ./prog [--seed N] prints the mean of
 * 100 values (fixed ones, or values in [0, 1000) generated from N) with %.17g. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double mean(const double *x, int n);

int main(int argc, char **argv)
{
    double x[100];
    unsigned long long seed = argc == 3 && strcmp(argv[1], "--seed") == 0 ? strtoull(argv[2], NULL, 10) : 0;
    unsigned long long z = seed;
    int i;

    for (i = 0; i < 100; i++) {
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = seed == 0 ? i * 0.5 : (double)(z >> 11) / 9007199254740992.0 * 1000.0;
    }
    printf("%.17g\n", mean(x, 100));
    return 0;
}
