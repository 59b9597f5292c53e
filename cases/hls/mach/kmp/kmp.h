/* kmp.h - sizes and entry point of the Knuth-Morris-Pratt matcher. */
#ifndef KMP_H
#define KMP_H

#include <stdint.h>

#define PAT_LEN 4
#define LOG_TEXT 13
#define TEXT_LEN (1 << LOG_TEXT)
#define HIT_WORDS (TEXT_LEN >> 5)      /* one bit per text position */

int32_t kmp(const uint8_t *pat, const uint8_t *text, int32_t *next, uint32_t *hits);

#endif
