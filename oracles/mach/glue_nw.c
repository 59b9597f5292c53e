/* glue_nw.c - connects nw() to the mach data harness.  Besides the two
 * aligned sequences it outputs the (LEN_A+1) x (LEN_B+1) score matrix,
 * packed without the row padding. */
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
