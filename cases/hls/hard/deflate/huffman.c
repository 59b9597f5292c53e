/*
 * huffman.c -- Huffman codes for Deflate.
 *
 *   df_huff_lengths  code lengths from symbol frequencies: a Huffman tree
 *                    built with two queues over the symbols sorted by
 *                    frequency, then limited to 'limit' bits by moving
 *                    codes until the Kraft sum is exactly one again
 *   df_huff_codes    the canonical codes of RFC 1951, 3.2.2, bit-reversed
 *                    for the LSB-first bit order of the format
 *   df_length_code,
 *   df_dist_code     the symbol and extra bits of a match length or
 *                    distance (RFC 1951, 3.2.5)
 */
#include "deflate.h"

#define MAX_SYMS  DF_NLITLEN
#define MAX_NODES (2 * MAX_SYMS)

const uint16_t df_len_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258
};
const uint8_t df_len_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
    3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0
};
const uint16_t df_dist_base[30] = {
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
    257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577
};
const uint8_t df_dist_extra[30] = {
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
    7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13
};

/* the low 'len' bits of code in reverse order */
uint32_t df_reverse(uint32_t code, int len)
{
    uint32_t r = 0;
    int i;

    for (i = 0; i < len; i++) {
        r = (r << 1) | (code & 1);
        code >>= 1;
    }
    return r;
}

/* sorts the used symbols by frequency, ties by symbol; returns how many */
static int sort_symbols(const uint32_t *freq, int n, int16_t *order)
{
    int m = 0, s, j;

    for (s = 0; s < n; s++) {
        if (freq[s] == 0)
            continue;
        j = m++;
        while (j > 0 && freq[order[j - 1]] > freq[s]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = (int16_t)s;
    }
    return m;
}

/* Depth of every leaf of the Huffman tree over the m sorted symbols.
 * Leaves are nodes 0..m-1, internal nodes m..2m-2 in the order they are
 * made (so with non-decreasing weights): the two lightest of the leaf
 * queue and the internal queue are merged, a leaf winning ties. */
static void tree_depths(const uint32_t *freq, const int16_t *order, int m, uint8_t *depth)
{
    uint32_t weight[MAX_NODES];
    int16_t parent[MAX_NODES];
    uint8_t d[MAX_NODES];
    int leaf = 0, node = m, next = m, k;

    for (k = 0; k < m; k++)
        weight[k] = freq[order[k]];
    for (k = 0; k < m - 1; k++) {
        int pick[2], j;
        for (j = 0; j < 2; j++) {
            if (leaf < m && (node >= next || weight[leaf] <= weight[node]))
                pick[j] = leaf++;
            else
                pick[j] = node++;
        }
        weight[next] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = (int16_t)next;
        parent[pick[1]] = (int16_t)next;
        next++;
    }
    d[next - 1] = 0;
    for (k = next - 2; k >= 0; k--)
        d[k] = (uint8_t)(d[parent[k]] + 1);
    for (k = 0; k < m; k++)
        depth[k] = d[k];
}

/* Limits the lengths to 'limit' bits: every longer code is cut to the
 * limit, then, while the Kraft sum exceeds one, the deepest code shorter
 * than the limit becomes two codes one bit longer, one of which takes the
 * place of a code at the limit (each step lowers the sum by 2^-limit).
 * The lengths are then handed out again, longest to the least frequent. */
static void limit_depths(uint8_t *depth, int m, int limit)
{
    int count[DF_MAX_BITS + 1];
    uint32_t kraft = 0, full = (uint32_t)1 << limit;
    int k, len, b;

    for (len = 0; len <= limit; len++)
        count[len] = 0;
    for (k = 0; k < m; k++)
        count[depth[k] > limit ? limit : depth[k]]++;
    for (len = 1; len <= limit; len++)
        kraft += (uint32_t)count[len] << (limit - len);
    while (kraft > full) {
        for (b = limit - 1; count[b] == 0; b--)
            ;
        count[b]--;
        count[b + 1] += 2;
        count[limit]--;
        kraft--;
    }
    k = 0;
    for (len = limit; len >= 1; len--) {
        int c;
        for (c = 0; c < count[len]; c++)
            depth[k++] = (uint8_t)len;
    }
}

/* Code lengths (at most 'limit' bits, 1 <= limit <= 15) for the n symbols
 * (1 <= n <= 288) with the given frequencies, which total below 2^32;
 * unused symbols get 0.  A single used symbol gets a 1-bit code.  Returns
 * the longest length (0 when no symbol is used), or -1 for parameters out
 * of range or more used symbols than 2^limit codes can hold. */
int df_huff_lengths(const uint32_t *freq, int n, int limit, uint8_t *lens)
{
    int16_t order[MAX_SYMS];
    uint8_t depth[MAX_SYMS];
    int m, k, longest = 0;

    if (n < 1 || n > MAX_SYMS || limit < 1 || limit > DF_MAX_BITS)
        return -1;
    for (k = 0; k < n; k++)
        lens[k] = 0;
    m = sort_symbols(freq, n, order);
    if (m > (1 << limit))
        return -1;
    if (m == 0)
        return 0;
    if (m == 1) {
        lens[order[0]] = 1;
        return 1;
    }
    tree_depths(freq, order, m, depth);
    for (k = 0; k < m; k++)
        if (depth[k] > longest)
            longest = depth[k];
    if (longest > limit) {
        limit_depths(depth, m, limit);
        longest = limit;
    }
    for (k = 0; k < m; k++)
        lens[order[k]] = depth[k];
    return longest;
}

/* Canonical codes for the lengths (RFC 1951, 3.2.2), stored bit-reversed.
 * Returns the number of codes, or -1 when the lengths over-subscribe the
 * code space or a length exceeds DF_MAX_BITS. */
int df_huff_codes(const uint8_t *lens, int n, uint16_t *codes)
{
    int count[DF_MAX_BITS + 1];
    uint32_t next[DF_MAX_BITS + 1];
    uint32_t code = 0;
    int len, s, total = 0;

    for (len = 0; len <= DF_MAX_BITS; len++)
        count[len] = 0;
    for (s = 0; s < n; s++) {
        if (lens[s] > DF_MAX_BITS)
            return -1;
        count[lens[s]]++;
    }
    count[0] = 0;
    for (len = 1; len <= DF_MAX_BITS; len++) {
        code = (code + (uint32_t)count[len - 1]) << 1;
        next[len] = code;
        if (code + (uint32_t)count[len] > ((uint32_t)1 << len))
            return -1;
        total += count[len];
    }
    for (s = 0; s < n; s++) {
        len = lens[s];
        codes[s] = 0;
        if (len != 0)
            codes[s] = (uint16_t)df_reverse(next[len]++, len);
    }
    return total;
}

/* the length symbol (257..285) of a match length 3..258, with its extra bits */
int df_length_code(int len, int *extra_bits, int *extra)
{
    int s = 28;

    while (df_len_base[s] > len)
        s--;
    *extra_bits = df_len_extra[s];
    *extra = len - df_len_base[s];
    return 257 + s;
}

/* the distance symbol (0..29) of a distance 1..32768, with its extra bits */
int df_dist_code(int dist, int *extra_bits, int *extra)
{
    int s = 29;

    while (df_dist_base[s] > dist)
        s--;
    *extra_bits = df_dist_extra[s];
    *extra = dist - df_dist_base[s];
    return s;
}
