/* sort_merge.h - size and entry point of the bottom-up merge sort. */
#ifndef SORT_MERGE_H
#define SORT_MERGE_H

#include <stdint.h>

#define SORT_N 200                     /* number of keys (not a power of two) */

void sort_merge(int32_t *a, int32_t *tmp);

#endif
