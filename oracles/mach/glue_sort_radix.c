/* glue_sort_radix.c - connects sort_radix() to the mach data harness. */
#include "harness.h"
#include "sort_radix.h"

int h_kernel(void)
{
    uint32_t *a = h_input("keys", HT_U32, SORT_N);
    uint32_t *tmp = h_buffer("tmp", HT_U32, SORT_N);
    int32_t *count = h_buffer("count", HT_I32, BUCKETS);

    sort_radix(a, tmp, count);
    h_output("keys", HT_U32, a, SORT_N);
    return 0;
}

/* --seed N: keys over the whole u32 range in the pattern N % 8 picks
 * (see h_keys: duplicates, ties on the high bits, sorted, reverse sorted,
 * all equal, extremes, small values). */
int h_generate(uint64_t seed)
{
    int64_t keys[SORT_N];
    uint32_t *k = h_define("keys", HT_U32, SORT_N);
    int i;

    h_keys(keys, SORT_N, (unsigned)(seed % 8), 0, UINT32_MAX);
    for (i = 0; i < SORT_N; i++)
        k[i] = (uint32_t)keys[i];
    return 0;
}
