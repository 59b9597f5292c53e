/*
 * kmp.c - Knuth-Morris-Pratt string matching.
 *
 * Specification: Knuth, Morris & Pratt, "Fast pattern matching in strings",
 * SIAM J. Comput. 6 (1977) 323-350, in the prefix-function formulation of
 * Cormen, Leiserson, Rivest & Stein, Introduction to Algorithms, 3rd ed.,
 * Section 32.4: next[q] is the length of the longest proper prefix of
 * pat[0..q] that is also a suffix of it.  Every occurrence of the pattern in
 * the text is reported, overlapping ones included: bit (s & 31) of word
 * hits[s >> 5] is set for every start position s, and the number of
 * occurrences is returned.
 */
#include "kmp.h"

int32_t kmp(const uint8_t *pat, const uint8_t *text, int32_t *next, uint32_t *hits)
{
    int q, k, i, start;
    int32_t found = 0;

    /* prefix function of the pattern */
    next[0] = 0;
    k = 0;
    for (q = 1; q < PAT_LEN; q++) {
        while (k > 0 && pat[k] != pat[q])
            k = next[k - 1];
        if (pat[k] == pat[q])
            k++;
        next[q] = k;
    }

    for (i = 0; i < (TEXT_LEN >> 5); i++)
        hits[i] = 0;

    /* scan the text; q = number of pattern characters matched so far */
    q = 0;
    for (i = 0; i < TEXT_LEN; i++) {
        while (q > 0 && pat[q] != text[i])
            q = next[q - 1];
        if (pat[q] == text[i])
            q++;
        if (q == PAT_LEN) {
            start = i - PAT_LEN + 1;
            hits[start >> 5] |= 1u << (start & 31);
            found++;
            q = next[q - 1];
        }
    }
    return found;
}
