/* glue_nw.c - connects nw() to the mach data harness.  Besides the two
 * aligned sequences it outputs the (LEN_A+1) x (LEN_B+1) score matrix,
 * packed without the row padding. */
#include <string.h>

#include "harness.h"
#include "nw.h"

int h_kernel(void)
{
    const uint8_t *seqa = h_input("seq_a", HT_U8, LEN_A);
    const uint8_t *seqb = h_input("seq_b", HT_U8, LEN_B);
    int32_t *score = h_buffer("score", HT_I32, (LEN_A + 1) * STRIDE);
    uint8_t *dir = h_buffer("dir", HT_U8, (LEN_A + 1) * STRIDE);
    uint8_t *aligna = h_buffer("align_a", HT_U8, ALIGN_LEN);
    uint8_t *alignb = h_buffer("align_b", HT_U8, ALIGN_LEN);
    int32_t *packed = h_buffer("score_packed", HT_I32, (LEN_A + 1) * (LEN_B + 1));
    int i, j;

    nw(seqa, seqb, score, dir, aligna, alignb);
    for (i = 0; i <= LEN_A; i++)
        for (j = 0; j <= LEN_B; j++)
            packed[i * (LEN_B + 1) + j] = score[i * STRIDE + j];
    h_output("align_a", HT_U8, aligna, ALIGN_LEN);
    h_output("align_b", HT_U8, alignb, ALIGN_LEN);
    h_output("score", HT_I32, packed, (LEN_A + 1) * (LEN_B + 1));
    return 0;
}

static void random_bases(uint8_t *s, int n, const char *alphabet)
{
    int i, k = (int)strlen(alphabet);

    for (i = 0; i < n; i++)
        s[i] = (uint8_t)alphabet[h_below((uint64_t)k)];
}

/* --seed N: the pair of sequences N % 8 picks: 0 random, 1 B inside A
 * (gaps on both ends of B), 2 B the tail of A (the traceback ends with
 * leading gaps), 3 both all 'A' (ties everywhere), 4 disjoint alphabets (no
 * match at all), 5 B the head of A with point mutations, 6 periodic
 * sequences out of phase, 7 B starting with bases A does not contain. */
int h_generate(uint64_t seed)
{
    uint8_t *a = h_define("seq_a", HT_U8, LEN_A);
    uint8_t *b = h_define("seq_b", HT_U8, LEN_B);
    int i, off;

    random_bases(a, LEN_A, "ACGT");
    random_bases(b, LEN_B, "ACGT");
    switch (seed % 8) {
    case 1:
        off = 1 + (int)h_below(LEN_A - LEN_B - 1);
        memcpy(b, a + off, LEN_B);
        break;
    case 2:
        memcpy(b, a + (LEN_A - LEN_B), LEN_B);
        break;
    case 3:
        memset(a, 'A', LEN_A);
        memset(b, 'A', LEN_B);
        break;
    case 4:
        random_bases(a, LEN_A, "AC");
        random_bases(b, LEN_B, "GT");
        break;
    case 5:
        memcpy(b, a, LEN_B);
        for (i = 0; i < LEN_B; i++)
            if (h_below(8) == 0)
                b[i] = (uint8_t)"ACGT"[h_below(4)];
        break;
    case 6:
        for (i = 0; i < LEN_A; i++)
            a[i] = (uint8_t)"ACGT"[i % 4];
        for (i = 0; i < LEN_B; i++)
            b[i] = (uint8_t)"ACG"[(i + 1) % 3];
        break;
    case 7:
        random_bases(a, LEN_A, "ACG");
        memset(b, 'T', 6);
        memcpy(b + 6, a, LEN_B - 6);
        break;
    default:
        break;
    }
    return 0;
}
