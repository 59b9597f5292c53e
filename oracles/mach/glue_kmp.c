/* glue_kmp.c - connects kmp() to the mach data harness. */
#include <string.h>

#include "harness.h"
#include "kmp.h"

int h_kernel(void)
{
    const uint8_t *pat = h_input("pattern", HT_U8, PAT_LEN);
    const uint8_t *text = h_input("text", HT_U8, TEXT_LEN);
    int32_t *next = h_buffer("next", HT_I32, PAT_LEN);
    uint32_t *hits = h_buffer("hits", HT_U32, HIT_WORDS);
    int32_t *found = h_buffer("found", HT_I32, 1);

    found[0] = kmp(pat, text, next, hits);
    h_output("found", HT_I32, found, 1);
    h_output("next", HT_I32, next, PAT_LEN);
    h_output("hits", HT_U32, hits, HIT_WORDS);
    return 0;
}

static void random_text(uint8_t *s, int n, const char *alphabet)
{
    int i, k = (int)strlen(alphabet);

    for (i = 0; i < n; i++)
        s[i] = (uint8_t)alphabet[h_below((uint64_t)k)];
}

/* --seed N: the pattern and text N % 8 picks: 0 random over {a, b},
 * 1 "aaaa" in a text of mostly 'a' (overlapping hits), 2 "abab" in a
 * periodic text, 3 random over {a, b, c}, 4 a pattern that never occurs,
 * 5 the text a repetition of the pattern (hits at both ends), 6 a pattern
 * with a border, 7 any byte values, the pattern taken from the text and
 * its head at the very end of the text. */
int h_generate(uint64_t seed)
{
    static const char *const bordered[] = { "abab", "aaba", "abaa", "aaab", "abba", "baab", "bbab" };
    uint8_t *pat = h_define("pattern", HT_U8, PAT_LEN);
    uint8_t *text = h_define("text", HT_U8, TEXT_LEN);
    int i, at;

    random_text(pat, PAT_LEN, "ab");
    random_text(text, TEXT_LEN, "ab");
    switch (seed % 8) {
    case 1:
        memset(pat, 'a', PAT_LEN);
        for (i = 0; i < TEXT_LEN; i++)
            text[i] = h_below(16) ? 'a' : 'b';
        break;
    case 2:
        memcpy(pat, "abab", PAT_LEN);
        for (i = 0; i < TEXT_LEN; i++)
            text[i] = h_below(32) ? (uint8_t)"ab"[i % 2] : 'a';
        break;
    case 3:
        random_text(pat, PAT_LEN, "abc");
        random_text(text, TEXT_LEN, "abc");
        break;
    case 4:
        pat[h_below(PAT_LEN)] = 'c';
        break;
    case 5:
        for (i = 0; i < TEXT_LEN; i++)
            text[i] = pat[i % PAT_LEN];
        break;
    case 6:
        memcpy(pat, bordered[h_below(7)], PAT_LEN);
        break;
    case 7:
        /* The pattern ends with 0xB1, the fill byte of the text's guard zone
         * (the second buffer h_kernel() allocates), and the text ends with the
         * rest of the pattern: a read past the end of the text completes a
         * false match there. */
        for (i = 0; i < TEXT_LEN; i++)
            text[i] = (uint8_t)h_below(256);
        at = (int)h_below(TEXT_LEN - PAT_LEN + 1);
        memcpy(pat, text + at, PAT_LEN);
        pat[PAT_LEN - 1] = 0xB1;
        memcpy(text, pat, PAT_LEN);
        memcpy(text + TEXT_LEN - (PAT_LEN - 1), pat, PAT_LEN - 1);
        break;
    default:
        break;
    }
    return 0;
}
