/* ramp.c - weighted prefix sums of a ramp, printed one per line. */
#include <stdio.h>

#define N 24

static void prefix(const int *in, long *out, int n)
{
    long acc = 0;
    for (int i = 0; i < n; i++) {
        acc += (long)in[i] * (i + 1);
        out[i] = acc;
    }
}

int main(void)
{
    int in[N];
    long out[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 7 + 3) % 11 - 5;
    prefix(in, out, N);
    for (int i = 0; i < N; i++)
        printf("%ld\n", out[i]);
    return 0;
}
