/*
 * link.h -- the end-to-end frame chain of link.c.
 */
#ifndef LINK_H
#define LINK_H

#include "codec.h"

enum link_channel { LINK_NONE = 0, LINK_BSC = 1, LINK_BURST = 2, LINK_AWGN = 3 };

typedef struct {
    int channel;                /* enum link_channel */
    uint32_t seed;              /* channel generator seed */
    uint32_t p16[4];            /* BSC: p16[0]; burst: see ch_burst */
    int32_t amp, sigma, step;   /* additive noise */
    int rate, phase;            /* puncturing */
} link_cfg;

typedef struct {
    int coded;                  /* coded bits before puncturing */
    int sent;                   /* bits sent */
    int end_state;              /* encoder state after the frame */
    int raw_errors;             /* symbols the channel got wrong */
    int used;                   /* received symbols the decoder used */
    vit_result dec;
    ch_stats errs;              /* decoded bits against the bits sent */
} link_result;

int link_run(const link_cfg *lc, const vit_cfg *vc, const uint8_t *bits, int n, uint8_t *decoded, link_result *res);

#endif
