/*
 * link.c -- one frame end to end: encode, puncture, channel, depuncture,
 * decode, count errors.
 *
 * The channel acts on the punctured bits.  A hard-decision decoder gets
 * bits (the additive-noise channel's levels are sliced at 4); a
 * soft-decision decoder gets levels (the binary channels' bits become the
 * confident levels 0 and 7).
 */
#include "codec.h"
#include "link.h"

static uint8_t lk_coded[CC_MAX_CODED];
static uint8_t lk_tx[CC_MAX_CODED];
static uint8_t lk_rx[CC_MAX_CODED];

/* runs the configured channel over n bits; returns the raw symbol errors */
static int lk_channel(const link_cfg *lc, int metric, const uint8_t *in, int n, uint8_t *out)
{
    ch_rng r;
    int raw, i;

    ch_seed(&r, lc->seed);
    switch (lc->channel) {
    case LINK_BSC:
        raw = ch_bsc(&r, lc->p16[0], in, n, out);
        break;
    case LINK_BURST:
        raw = ch_burst(&r, lc->p16, in, n, out);
        break;
    case LINK_AWGN:
        raw = ch_awgn(&r, lc->amp, lc->sigma, lc->step, in, n, out);
        if (metric == VIT_HARD)
            ch_hard(out, n, out);
        return raw;
    default:
        for (i = 0; i < n; i++)
            out[i] = in[i];
        raw = 0;
        break;
    }
    if (metric == VIT_SOFT) {
        for (i = 0; i < n; i++)
            out[i] = out[i] ? SOFT_MAX : 0;
    }
    return raw;
}

/* one frame through the whole chain; returns 0 or a negative code */
int link_run(const link_cfg *lc, const vit_cfg *vc, const uint8_t *bits, int n, uint8_t *decoded, link_result *res)
{
    int coded, sent, used;

    coded = cc_encode(vc->code, vc->term, bits, n, lk_coded, &res->end_state);
    if (coded < 0)
        return -1;
    sent = pc_puncture(lc->rate, lc->phase, lk_coded, coded, lk_tx);
    if (sent < 0)
        return -2;
    res->coded = coded;
    res->sent = sent;
    res->raw_errors = lk_channel(lc, vc->metric, lk_tx, sent, lk_rx);
    used = vit_decode_punctured(vc, lc->rate, lc->phase, lk_rx, sent, n, decoded, &res->dec);
    if (used < 0)
        return -3;
    res->used = used;
    ch_count_errors(bits, decoded, n, &res->errs);
    return 0;
}
