/*
 * channel.c -- an integer channel model: a multipath FIR with complex Q14
 * taps, a timing offset (noise-only samples before the frame), a noise-only
 * tail, and additive noise on every sample from a seeded generator.
 *
 * The generator is xorshift32 (13, 17, 5); a state of 0 is replaced by a
 * fixed non-zero constant.  A noise sample is the sum of twelve 12-bit
 * uniform values minus their mean (an Irwin-Hall approximation of a
 * Gaussian with standard deviation 4096), scaled to the requested
 * standard deviation.  Each output sample draws the in-phase value first,
 * then the quadrature value, whatever the deviation.
 */
#include "ofdm.h"

#define NOISE_MEAN 24570            /* 12 * 4095 / 2 */

uint32_t chan_rand(uint32_t *state)
{
    uint32_t x = *state;
    if (x == 0)
        x = 0x6d2b79f5u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

int32_t chan_gauss(uint32_t *state, int std)
{
    int32_t sum = 0;
    int i;
    for (i = 0; i < 12; i++)
        sum += (int32_t)(chan_rand(state) >> 20);
    sum -= NOISE_MEAN;
    return (int32_t)(((int64_t)sum * std + 2048) >> 12);
}

static int16_t saturate(int64_t v)
{
    if (v > 32767)
        return 32767;
    if (v < -32768)
        return -32768;
    return (int16_t)v;
}

/* out receives delay + n + ntaps - 1 + tail samples; returns that count,
 * or OFDM_ERR_LENGTH when a parameter is out of range */
int channel_apply(const channel_cfg *cfg, const cplx16 *in, int n, cplx16 *out)
{
    int total, i, t, idx;
    int64_t acc_re, acc_im;
    uint32_t state = cfg->noise_seed;

    if (cfg->ntaps < 1 || cfg->ntaps > CH_MAX_TAPS)
        return OFDM_ERR_LENGTH;
    if (cfg->delay < 0 || cfg->delay > CH_MAX_DELAY || cfg->tail < 0 || cfg->tail > CH_MAX_TAIL)
        return OFDM_ERR_LENGTH;
    if (n < 0 || n > MAX_FRAME || cfg->noise_std < 0 || cfg->noise_std > 32767)
        return OFDM_ERR_LENGTH;
    total = cfg->delay + n + cfg->ntaps - 1 + cfg->tail;

    for (i = 0; i < total; i++) {
        acc_re = 0;
        acc_im = 0;
        for (t = 0; t < cfg->ntaps; t++) {
            idx = i - cfg->delay - t;
            if (idx >= 0 && idx < n) {
                acc_re += (int64_t)in[idx].re * cfg->taps[t].re - (int64_t)in[idx].im * cfg->taps[t].im;
                acc_im += (int64_t)in[idx].re * cfg->taps[t].im + (int64_t)in[idx].im * cfg->taps[t].re;
            }
        }
        acc_re = (acc_re + (1 << 13)) >> 14;
        acc_im = (acc_im + (1 << 13)) >> 14;
        acc_re += chan_gauss(&state, cfg->noise_std);
        acc_im += chan_gauss(&state, cfg->noise_std);
        out[i].re = saturate(acc_re);
        out[i].im = saturate(acc_im);
    }
    return total;
}
