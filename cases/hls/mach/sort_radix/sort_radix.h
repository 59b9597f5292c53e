/* sort_radix.h - sizes and entry point of the LSD radix sort. */
#ifndef SORT_RADIX_H
#define SORT_RADIX_H

#include <stdint.h>

#define SORT_N 256                     /* number of keys */
#define KEY_BITS 32
#define RADIX_BITS 4                   /* bits per digit */
#define BUCKETS (1 << RADIX_BITS)

void sort_radix(uint32_t *a, uint32_t *tmp, int32_t *count);

#endif
