/* viterbi.h - sizes and entry point of the Viterbi decoder. */
#ifndef VITERBI_H
#define VITERBI_H

#include <stdint.h>

#define N_OBS 32                       /* length of the observation sequence */
#define LOG_STATES 4
#define N_STATES (1 << LOG_STATES)     /* hidden states */
#define LOG_TOKENS 5
#define N_TOKENS (1 << LOG_TOKENS)     /* observable symbols */

void viterbi(const uint8_t *obs, const double *init, const double *trans,
             const double *emit, double *cost, uint8_t *back, uint8_t *path,
             double *best);

#endif
