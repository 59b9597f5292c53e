/*
 * nussinov.c - RNA secondary structure by base-pair maximisation
 *
 * Specification: Nussinov's dynamic programme (R. Nussinov and
 * A. B. Jacobson, PNAS 77(11), 1980; Durbin, Eddy, Krogh, Mitchison,
 * "Biological Sequence Analysis", 1998, section 10.2):
 *     S(i,j) = max( S(i+1,j), S(i,j-1), S(i+1,j-1) + pair(i,j),
 *                   max_{i<k<j} S(i,k) + S(k+1,j) )
 * with S(i,j) = 0 for j <= i, and pair(i,j) = 1 for the Watson-Crick pairs
 * A-U and C-G.  Integer arithmetic.
 *
 * The sequence is stored 2 bits per base, 16 bases per 32-bit word
 * (A=0, C=1, G=2, U=3, so complementary bases sum to 3).
 *
 * Interface: kernel_nussinov() is the design's top function: it packs the
 * sequence (one base 0..3 per element of seq), clears the table and fills
 * it.  The dataset size is fixed at compile time (-DN=..).
 */
#include <stdint.h>

#ifndef N
#define N 40
#endif
#define WORDS ((N + 15) / 16)

static int base_at(const uint32_t *packed, int i)
{
    return (int)((packed[i >> 4] >> ((i & 15) << 1)) & 3u);
}

static int can_pair(int a, int b)
{
    return a + b == 3;
}

static void pack_seq(const uint8_t *seq, uint32_t *packed)
{
    for (int i = 0; i < N; i++) {
        uint32_t b = (uint32_t)(seq[i] & 3u);
        packed[i >> 4] |= b << ((i & 15) << 1);
    }
}

void kernel_nussinov(uint8_t seq[N], int table[N][N])
{
    uint32_t packed[WORDS] = {0};

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            table[i][j] = 0;
    pack_seq(seq, packed);
    for (int i = N - 1; i >= 0; i--) {
        for (int j = i + 1; j < N; j++) {
            int best = table[i + 1][j];
            if (table[i][j - 1] > best)
                best = table[i][j - 1];
            int paired = table[i + 1][j - 1]
                       + can_pair(base_at(packed, i), base_at(packed, j));
            if (paired > best)
                best = paired;
            for (int k = i + 1; k < j; k++) {
                int split = table[i][k] + table[k + 1][j];
                if (split > best)
                    best = split;
            }
            table[i][j] = best;
        }
    }
}
