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
