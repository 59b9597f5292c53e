/* glue_sort_merge.c - connects sort_merge() to the mach data harness. */
#include "harness.h"
#include "sort_merge.h"

int h_kernel(void)
{
    int32_t *a = h_input("keys", HT_I32, SORT_N);
    int32_t *tmp = h_buffer("tmp", HT_I32, SORT_N);

    sort_merge(a, tmp);
    h_output("keys", HT_I32, a, SORT_N);
    return 0;
}

/* --seed N: keys over the whole i32 range in the pattern N % 8 picks
 * (see h_keys: duplicates, ties on the high bits, sorted, reverse sorted,
 * all equal, extremes INT32_MIN / INT32_MAX, small values). */
int h_generate(uint64_t seed)
{
    int64_t keys[SORT_N];
    int32_t *k = h_define("keys", HT_I32, SORT_N);
    int i;

    h_keys(keys, SORT_N, (unsigned)(seed % 8), INT32_MIN, INT32_MAX);
    for (i = 0; i < SORT_N; i++)
        k[i] = (int32_t)keys[i];
    return 0;
}
