/* sum.c - a self-checking program: the sum of squares 0..19, checked against its closed form. */
#include <stdio.h>

static long squares(int n)
{
    long s = 0;
    int i;

    for (i = 0; i < n; i++)
        s += (long)i * i;
    return s;
}

int main(void)
{
    long got = squares(20), want = 19L * 20 * 39 / 6;

    printf("sum = %ld\n", got);
    printf("mismatches = %d\n", got != want);
    return got != want;
}
