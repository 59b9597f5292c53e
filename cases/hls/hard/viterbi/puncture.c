/*
 * puncture.c -- puncturing of the rate-1/2 stream to higher rates.
 *
 * A pattern keeps or deletes coded bits position by position; position p
 * of the interleaved stream is c0 of step p/2 when p is even and c1 when
 * p is odd.  The patterns are those of IEEE 802.11 (rates 2/3 and 3/4) and
 * 802.11n (rate 5/6), written per output as
 *
 *     rate 2/3:  c0: 1 1        c1: 1 0
 *     rate 3/4:  c0: 1 1 0      c1: 1 0 1
 *     rate 5/6:  c0: 1 1 0 1 0  c1: 1 0 1 0 1
 *
 * and interleaved into one mask per rate (bit p = position p of a period).
 * `phase` is the stream position the first bit has within the pattern, so
 * a long stream can be punctured in pieces.
 */
#include "codec.h"

#define PC_RATES 4

static const uint16_t pc_mask[PC_RATES] = { 0x0003u, 0x0007u, 0x0027u, 0x0267u };
static const uint8_t pc_len[PC_RATES] = { 2, 4, 6, 10 };

static int pc_valid(int rate)
{
    return rate >= PC_RATE_1_2 && rate < PC_RATES;
}

/* coded bits in one period of the pattern */
int pc_period(int rate)
{
    return pc_valid(rate) ? pc_len[rate] : -1;
}

/* bits kept in one period */
int pc_kept(int rate)
{
    int p, kept = 0;

    if (!pc_valid(rate))
        return -1;
    for (p = 0; p < pc_len[rate]; p++)
        kept += (pc_mask[rate] >> p) & 1u;
    return kept;
}

/* 1 when stream position pos is sent, 0 when it is deleted */
int pc_keep(int rate, int pos)
{
    if (!pc_valid(rate) || pos < 0)
        return -1;
    return (int)((pc_mask[rate] >> (pos % pc_len[rate])) & 1u);
}

/* the code rate after puncturing as a fraction num/den */
int pc_ratio(int rate, int *num, int *den)
{
    if (!pc_valid(rate))
        return -1;
    *num = pc_len[rate] / 2;
    *den = pc_kept(rate);
    return 0;
}

/* bits sent for n stream positions starting at pattern position phase */
int pc_punctured_len(int rate, int n, int phase)
{
    int period, full, i, len;

    if (!pc_valid(rate) || n < 0 || phase < 0)
        return -1;
    period = pc_len[rate];
    phase %= period;
    full = n / period;
    len = full * pc_kept(rate);
    for (i = full * period; i < n; i++)
        len += pc_keep(rate, phase + i);
    return len;
}

/* deletes the positions the pattern does not send; returns the bits written */
int pc_puncture(int rate, int phase, const uint8_t *in, int n, uint8_t *out)
{
    int i, j = 0;

    if (!pc_valid(rate) || n < 0 || phase < 0)
        return -1;
    for (i = 0; i < n; i++) {
        if (pc_keep(rate, phase + i))
            out[j++] = in[i];
    }
    return j;
}

/*
 * Rebuilds nout stream positions from the nin received symbols, marking
 * deleted positions SYM_ERASED.  Returns the received symbols used, or -1
 * when the input runs out before the stream is complete.
 */
int pc_depuncture(int rate, int phase, const uint8_t *in, int nin, uint8_t *out, int nout)
{
    int i, j = 0;

    if (!pc_valid(rate) || nout < 0 || phase < 0)
        return -1;
    for (i = 0; i < nout; i++) {
        if (pc_keep(rate, phase + i)) {
            if (j >= nin)
                return -1;
            out[i] = in[j++];
        } else {
            out[i] = SYM_ERASED;
        }
    }
    return j;
}
