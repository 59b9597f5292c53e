/* clip.c - limits every value to [LO, HI] and returns the sum of the limited values. */
#include "clip.h"

long clip(const int *x, int *y, int n)
{
    long sum = 0;
    int i;

    for (i = 0; i < n; i++) {
        y[i] = x[i] < LO ? LO : x[i] > HI ? HI : x[i];
        sum += y[i];
    }
    return sum;
}
