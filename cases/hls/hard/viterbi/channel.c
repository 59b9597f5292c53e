/*
 * channel.c -- integer channel models with a seeded generator.
 *
 * The generator is xorshift32 (Marsaglia, 2003) seeded through a
 * multiplicative hash.  Three channels act on coded bits:
 *
 *   - binary symmetric: each bit flips with probability p16 / 65536;
 *   - two-state burst channel (Gilbert-Elliott): a good and a bad state
 *     with their own flip probabilities and the probabilities of leaving
 *     each state, all in units of 1/65536;
 *   - additive noise: bit b is sent as +amp (b = 1) or -amp (b = 0), an
 *     approximately Gaussian integer of standard deviation sigma (a sum of
 *     twelve uniform 12-bit values) is added, and the result is quantised
 *     to 3 bits with a uniform step, level 4 starting at 0.
 */
#include "codec.h"

#define CH_GAUSS_TERMS 12
#define CH_GAUSS_ONE   4096                /* standard deviation of ch_gauss */

void ch_seed(ch_rng *r, uint32_t seed)
{
    uint32_t s = seed * 0x9E3779B1u + 0x7F4A7C15u;

    r->s = s != 0 ? s : 0x6D2B79F5u;       /* xorshift never leaves state 0 */
}

uint32_t ch_next(ch_rng *r)
{
    uint32_t x = r->s;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->s = x;
    return x;
}

/* uniform in 0..n-1 (0 when n is 0), by the high half of a 64-bit product */
uint32_t ch_below(ch_rng *r, uint32_t n)
{
    return (uint32_t)(((uint64_t)ch_next(r) * n) >> 32);
}

/* a / b rounded towards minus infinity; b must be positive */
int32_t ch_floordiv(int32_t a, int32_t b)
{
    int32_t q = a / b;

    if (a % b != 0 && a < 0)
        q--;
    return q;
}

/* approximately normal, mean 0 and standard deviation CH_GAUSS_ONE */
int32_t ch_gauss(ch_rng *r)
{
    int32_t v = 0;
    int i;

    for (i = 0; i < CH_GAUSS_TERMS; i++)
        v += (int32_t)(ch_next(r) >> 20);
    return v - CH_GAUSS_TERMS * 2048 + CH_GAUSS_TERMS / 2;
}

/* 3-bit level of a received amplitude: floor(y / step) + 4, clamped to 0..7 (a step below 1 counts as 1) */
uint8_t ch_quantize(int32_t y, int32_t step)
{
    int32_t q;

    if (step < 1)
        step = 1;
    q = ch_floordiv(y, step);
    if (q < -4)
        return 0;
    if (q > SOFT_MAX - 4)
        return SOFT_MAX;
    return (uint8_t)(q + 4);
}

/* binary symmetric channel; returns the bits flipped */
int ch_bsc(ch_rng *r, uint32_t p16, const uint8_t *in, int n, uint8_t *out)
{
    int i, flips = 0;

    for (i = 0; i < n; i++) {
        int f = (ch_next(r) >> 16) < p16;
        out[i] = (uint8_t)((in[i] & 1) ^ f);
        flips += f;
    }
    return flips;
}

/*
 * Gilbert-Elliott channel, starting in the good state.  p16[0]: good to
 * bad, p16[1]: bad to good, p16[2]: flip in the good state, p16[3]: flip
 * in the bad state.  Returns the bits flipped.
 */
int ch_burst(ch_rng *r, const uint32_t p16[4], const uint8_t *in, int n, uint8_t *out)
{
    int i, bad = 0, flips = 0;

    for (i = 0; i < n; i++) {
        int f = (ch_next(r) >> 16) < p16[bad ? 3 : 2];
        out[i] = (uint8_t)((in[i] & 1) ^ f);
        flips += f;
        if ((ch_next(r) >> 16) < p16[bad ? 1 : 0])
            bad = !bad;
    }
    return flips;
}

/*
 * Additive-noise channel with 3-bit soft output.  Returns the symbols
 * whose hard decision (level >= 4) differs from the bit sent.
 */
int ch_awgn(ch_rng *r, int32_t amp, int32_t sigma, int32_t step, const uint8_t *in, int n, uint8_t *soft)
{
    int i, raw = 0;

    for (i = 0; i < n; i++) {
        int32_t x = (in[i] & 1) ? amp : -amp;
        int32_t noise = (int32_t)(((int64_t)ch_gauss(r) * sigma) / CH_GAUSS_ONE);
        uint8_t q = ch_quantize(x + noise, step);
        soft[i] = q;
        raw += (q >= 4) != ((in[i] & 1) != 0);
    }
    return raw;
}

/* hard decisions from soft levels; erasures stay erasures */
void ch_hard(const uint8_t *soft, int n, uint8_t *hard)
{
    int i;

    for (i = 0; i < n; i++)
        hard[i] = soft[i] == SYM_ERASED ? SYM_ERASED : (uint8_t)(soft[i] >= 4);
}

/* compares two bit strings: errors, where they are and how they cluster */
int ch_count_errors(const uint8_t *a, const uint8_t *b, int n, ch_stats *st)
{
    int i, run = 0;

    st->errors = 0;
    st->first = -1;
    st->last = -1;
    st->longest = 0;
    st->bursts = 0;
    for (i = 0; i < n; i++) {
        if (a[i] != b[i]) {
            if (st->first < 0)
                st->first = i;
            st->last = i;
            st->errors++;
            if (run == 0)
                st->bursts++;
            run++;
            if (run > st->longest)
                st->longest = run;
        } else {
            run = 0;
        }
    }
    return st->errors;
}
