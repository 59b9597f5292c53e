/* nw.h - sizes and entry point of the Needleman-Wunsch global alignment. */
#ifndef NW_H
#define NW_H

#include <stdint.h>

#define LEN_A 80                       /* length of sequence A */
#define LEN_B 72                       /* length of sequence B */
#define LOG_STRIDE 7
#define STRIDE (1 << LOG_STRIDE)       /* row pitch of the DP matrices, > LEN_B */
#define ALIGN_LEN (LEN_A + LEN_B)      /* longest possible alignment */

/* direction codes stored in the traceback matrix */
#define DIR_DIAG 0
#define DIR_UP 1
#define DIR_LEFT 2

void nw(const uint8_t *seqa, const uint8_t *seqb, int32_t *score, uint8_t *dir,
        uint8_t *aligna, uint8_t *alignb);

#endif
