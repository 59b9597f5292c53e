/*
 * qam.c -- Gray-coded constellations: BPSK, QPSK, 16-QAM and 64-QAM.
 *
 * Each axis carries half of the bits of a subcarrier (BPSK: one bit on the
 * in-phase axis only), the first bit being the most significant of the
 * axis' Gray code g.  The level of g is 2 * ungray(g) - (M - 1) for M levels
 * per axis, so neighbouring levels differ in one bit:
 *
 *   16-QAM axis  00 -> -3   01 -> -1   11 -> +1   10 -> +3
 *   64-QAM axis  000 -> -7  001 -> -5  011 -> -3  010 -> -1
 *                110 -> +1  111 -> +3  101 -> +5  100 -> +7
 *
 * Levels are multiplied by the unit of the constellation, A_REF / sqrt(E)
 * with E the mean energy of the levels (1, 2, 10, 42), so that every
 * constellation has the mean power of a BPSK point of amplitude A_REF.
 */
#include "ofdm.h"

static const int bits_tab[4] = { 1, 2, 4, 6 };
static const int levels_tab[4] = { 2, 2, 4, 8 };
static const int16_t unit_tab[4] = { 4096, 2896, 1295, 632 };

static int valid_mod(int mod)
{
    return mod >= MOD_BPSK && mod <= MOD_64QAM;
}

int qam_bits(int mod)
{
    if (!valid_mod(mod))
        return 0;
    return bits_tab[mod];
}

int qam_levels(int mod)
{
    if (!valid_mod(mod))
        return 0;
    return levels_tab[mod];
}

int16_t qam_unit(int mod)
{
    if (!valid_mod(mod))
        return 0;
    return unit_tab[mod];
}

unsigned qam_gray(unsigned v)
{
    return v ^ (v >> 1);
}

/* the prefix XOR of the code bits, for codes of up to 8 bits */
unsigned qam_ungray(unsigned g)
{
    unsigned v = g & 0xffu;
    v ^= v >> 1;
    v ^= v >> 2;
    v ^= v >> 4;
    return v;
}

int qam_axis_level(int mod, unsigned g)
{
    int m = qam_levels(mod);
    int idx = (int)qam_ungray(g & (unsigned)(m - 1));
    return 2 * idx - (m - 1);
}

cplx16 qam_map(int mod, const uint8_t *bits)
{
    cplx16 p;
    unsigned gi = 0, gq = 0;
    int nb = qam_bits(mod), half, i;
    int16_t u = qam_unit(mod);

    p.re = 0;
    p.im = 0;
    if (nb == 0)
        return p;
    if (mod == MOD_BPSK) {
        p.re = (int16_t)(qam_axis_level(mod, bits[0] & 1u) * u);
        return p;
    }
    half = nb / 2;
    for (i = 0; i < half; i++) {
        gi = (gi << 1) | (bits[i] & 1u);
        gq = (gq << 1) | (bits[half + i] & 1u);
    }
    p.re = (int16_t)(qam_axis_level(mod, gi) * u);
    p.im = (int16_t)(qam_axis_level(mod, gq) * u);
    return p;
}

/* the Gray code of the level nearest to x on one axis */
static unsigned demap_axis(int mod, int32_t x)
{
    int32_t m = qam_levels(mod), u = qam_unit(mod), t;
    int32_t idx;

    t = x + m * u;                          /* the lowest decision boundary moves to 0 */
    if (t < 0)
        t = 0;
    idx = t / (2 * u);
    if (idx > m - 1)
        idx = m - 1;
    return qam_gray((unsigned)idx);
}

void qam_demap(int mod, cplx16 x, uint8_t *bits)
{
    unsigned gi, gq;
    int nb = qam_bits(mod), half, i;

    if (nb == 0)
        return;
    if (mod == MOD_BPSK) {
        bits[0] = (uint8_t)demap_axis(mod, x.re);
        return;
    }
    half = nb / 2;
    gi = demap_axis(mod, x.re);
    gq = demap_axis(mod, x.im);
    for (i = 0; i < half; i++) {
        bits[i] = (uint8_t)((gi >> (half - 1 - i)) & 1u);
        bits[half + i] = (uint8_t)((gq >> (half - 1 - i)) & 1u);
    }
}

/* squared distance from x to the constellation point it is demapped to */
int64_t qam_error(int mod, cplx16 x)
{
    uint8_t bits[6];
    cplx16 p;
    int64_t dr, di;

    if (qam_bits(mod) == 0)
        return 0;
    qam_demap(mod, x, bits);
    p = qam_map(mod, bits);
    dr = (int64_t)x.re - p.re;
    di = (int64_t)x.im - p.im;
    return dr * dr + di * di;
}
