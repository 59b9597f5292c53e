/*
 * sort_radix.c - least-significant-digit radix sort of unsigned 32-bit keys.
 *
 * Specification: LSD radix sort with a counting sort per digit (Cormen,
 * Leiserson, Rivest & Stein, Introduction to Algorithms, 3rd ed., Sections
 * 8.2 and 8.3).  Keys are split into RADIX_BITS-bit digits, least significant
 * first; each pass counts the digits, turns the counts into bucket start
 * positions with an exclusive prefix sum, and scatters the keys stably into
 * the other buffer.  KEY_BITS / RADIX_BITS is even, so the sorted keys end up
 * back in a[].
 */
#include "sort_radix.h"

#define DIGIT_MASK ((1u << RADIX_BITS) - 1)

void sort_radix(uint32_t *a, uint32_t *tmp, int32_t *count)
{
    int shift, b, i;
    int32_t sum, c;
    uint32_t key, digit;
    uint32_t *src = a, *dst = tmp, *swap;

    for (shift = 0; shift < KEY_BITS; shift += RADIX_BITS) {
        /* histogram of the current digit */
        for (b = 0; b < BUCKETS; b++)
            count[b] = 0;
        for (i = 0; i < SORT_N; i++) {
            key = src[i];
            digit = (key >> shift) & DIGIT_MASK;
            count[digit]++;
        }

        /* exclusive prefix sum: count[b] becomes the first slot of bucket b */
        sum = 0;
        for (b = 0; b < BUCKETS; b++) {
            c = count[b];
            count[b] = sum;
            sum += c;
        }

        /* stable scatter */
        for (i = 0; i < SORT_N; i++) {
            key = src[i];
            digit = (key >> shift) & DIGIT_MASK;
            dst[count[digit]] = key;
            count[digit]++;
        }

        swap = src;
        src = dst;
        dst = swap;
    }
}
