/*
 * nw.c - Needleman-Wunsch global sequence alignment with linear gap cost.
 *
 * Specification: Needleman & Wunsch, J. Mol. Biol. 48 (1970) 443-453, in the
 * usual dynamic-programming form (Durbin et al., Biological Sequence
 * Analysis, Section 2.3):
 *     F(0,0) = 0, F(i,0) = i*GAP, F(0,j) = j*GAP,
 *     F(i,j) = max( F(i-1,j-1) + s(a_i, b_j), F(i-1,j) + GAP, F(i,j-1) + GAP )
 * with s = MATCH or MISMATCH; ties prefer the diagonal, then up, then left.
 * The alignment is recovered by walking the recorded choices back from
 * (LEN_A, LEN_B); it is emitted from its last column to its first, gaps as
 * '-', and the unused tail of the output is filled with '_'.
 * Matrix cell (i, j) is stored at (i << LOG_STRIDE) | j.
 */
#include "nw.h"

#define MATCH 2
#define MISMATCH (-1)
#define GAP (-2)

void nw(const uint8_t *seqa, const uint8_t *seqb, int32_t *score, uint8_t *dir,
        uint8_t *aligna, uint8_t *alignb)
{
    int i, j, k, pos;
    int32_t diag, up, left, best;
    uint8_t way;

    /* first row and first column: only gaps */
    for (j = 0; j <= LEN_B; j++) {
        score[j] = j * GAP;
        dir[j] = DIR_LEFT;
    }
    for (i = 1; i <= LEN_A; i++) {
        score[i << LOG_STRIDE] = i * GAP;
        dir[i << LOG_STRIDE] = DIR_UP;
    }

    for (i = 1; i <= LEN_A; i++) {
        for (j = 1; j <= LEN_B; j++) {
            pos = (i << LOG_STRIDE) | j;
            diag = score[pos - STRIDE - 1]
                 + (seqa[i - 1] == seqb[j - 1] ? MATCH : MISMATCH);
            up = score[pos - STRIDE] + GAP;
            left = score[pos - 1] + GAP;
            best = diag;
            way = DIR_DIAG;
            if (up > best) {
                best = up;
                way = DIR_UP;
            }
            if (left > best) {
                best = left;
                way = DIR_LEFT;
            }
            score[pos] = best;
            dir[pos] = way;
        }
    }

    /* trace back from the bottom-right corner */
    i = LEN_A;
    j = LEN_B;
    k = 0;
    while (i > 0 || j > 0) {
        way = dir[(i << LOG_STRIDE) | j];
        if (way == DIR_DIAG) {
            aligna[k] = seqa[i - 1];
            alignb[k] = seqb[j - 1];
            i--;
            j--;
        } else if (way == DIR_UP) {
            aligna[k] = seqa[i - 1];
            alignb[k] = '-';
            i--;
        } else {
            aligna[k] = '-';
            alignb[k] = seqb[j - 1];
            j--;
        }
        k++;
    }
    for (; k < ALIGN_LEN; k++) {
        aligna[k] = '_';
        alignb[k] = '_';
    }
}
