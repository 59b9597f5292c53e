/* glue_kmp.c - connects kmp() to the mach data harness. */
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
