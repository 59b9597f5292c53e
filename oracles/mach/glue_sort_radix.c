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
