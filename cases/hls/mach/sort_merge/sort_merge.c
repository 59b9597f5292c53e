/*
 * sort_merge.c - bottom-up (iterative) merge sort of signed 32-bit keys.
 *
 * Specification: straight two-way merge sort (Knuth, TAOCP Vol. 3,
 * Section 5.2.4; the bottom-up variant of Sedgewick & Wayne, Algorithms,
 * 4th ed., Section 2.2): runs of width 1, 2, 4, ... are merged pairwise
 * until one run covers the whole array.  The last run of a pass may be
 * shorter than the others.  Each merge writes into tmp[lo..hi) and copies
 * the result back into a[lo..hi).  The result is ascending and stable.
 */
#include "sort_merge.h"

void sort_merge(int32_t *a, int32_t *tmp)
{
    int width, lo, mid, hi;
    int i, j, k;

    for (width = 1; width < SORT_N; width <<= 1) {
        for (lo = 0; lo < SORT_N; lo += width << 1) {
            mid = lo + width;
            hi = lo + (width << 1);
            if (mid > SORT_N)
                mid = SORT_N;
            if (hi > SORT_N)
                hi = SORT_N;

            /* merge a[lo..mid) and a[mid..hi) into tmp[lo..hi) */
            i = lo;
            j = mid;
            k = lo;
            while (i < mid && j < hi) {
                if (a[i] <= a[j])
                    tmp[k++] = a[i++];
                else
                    tmp[k++] = a[j++];
            }
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];

            for (k = lo; k < hi; k++)
                a[k] = tmp[k];
        }
    }
}
