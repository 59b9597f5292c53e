/*
 * bits.c -- the bit-level stages of the modem.
 *
 *   scrambler   the frame-synchronous scrambler x^7 + x^4 + 1: the output
 *               bit is x7 xor x4 of a 7-bit register whose bit 6 holds x7,
 *               shifted left with the output bit entering at bit 0.  The
 *               transmitter scrambles the data field with a seed 1..127;
 *               the receiver needs no seed: the field starts with
 *               SERVICE_BITS zeros, so the first seven received bits are
 *               the register's contents after seven steps.
 *   pilots      the polarity of symbol n is +1 or -1 for output bit n of
 *               the same scrambler started from all ones (period 127, so
 *               a negative n counts back from 127).
 *   interleaver a block interleaver over the coded bits of one symbol
 *               (Ncbps = 48 Nbpsc): adjacent bits go to subcarriers far
 *               apart, then alternately to the more and less significant
 *               bits of the constellation:
 *                 i = (Ncbps/16)(k mod 16) + floor(k/16)
 *                 j = s floor(i/s) + (i + Ncbps - floor(16 i/Ncbps)) mod s,
 *                 s = max(Nbpsc/2, 1)
 *   crc         CRC-16 with the polynomial x^16 + x^12 + x^5 + 1, register
 *               preset to ones, bytes taken most significant bit first.
 *   packing     bytes become bits least significant bit first.
 */
#include "ofdm.h"

#define NCBPS_MAX (NDATA * 6)

static int8_t polarity[127];
static int polarity_ready = 0;

uint8_t scrambler_step(uint8_t *state)
{
    uint8_t s = *state;
    uint8_t out = (uint8_t)(((s >> 6) ^ (s >> 3)) & 1u);
    *state = (uint8_t)(((s << 1) | out) & 0x7fu);
    return out;
}

void scramble(uint8_t seed, const uint8_t *in, uint8_t *out, int n)
{
    uint8_t state = (uint8_t)(seed & 0x7fu);
    int i;
    for (i = 0; i < n; i++)
        out[i] = (uint8_t)((in[i] ^ scrambler_step(&state)) & 1u);
}

/* descrambles n bits whose first seven were scrambled zeros; returns the
 * register recovered from them (the output's first seven bits are 0) */
uint8_t descramble_recover(const uint8_t *in, uint8_t *out, int n)
{
    uint8_t state = 0, recovered;
    int i;

    for (i = 0; i < 7 && i < n; i++) {
        state = (uint8_t)(((state << 1) | (in[i] & 1u)) & 0x7fu);
        out[i] = 0;
    }
    recovered = state;
    for (i = 7; i < n; i++)
        out[i] = (uint8_t)((in[i] ^ scrambler_step(&state)) & 1u);
    return recovered;
}

int pilot_polarity(int symbol)
{
    uint8_t state;
    int i;

    if (!polarity_ready) {
        state = 0x7f;
        for (i = 0; i < 127; i++)
            polarity[i] = (int8_t)(scrambler_step(&state) ? -1 : 1);
        polarity_ready = 1;
    }
    symbol %= 127;
    if (symbol < 0)
        symbol += 127;
    return polarity[symbol];
}

/* perm[k] = position of input bit k after interleaving */
void interleave_table(int mod, int *perm)
{
    int nbpsc = qam_bits(mod);
    int ncbps = NDATA * nbpsc;
    int s = nbpsc / 2 > 1 ? nbpsc / 2 : 1;
    int k, i;

    for (k = 0; k < ncbps; k++) {
        i = (ncbps / 16) * (k % 16) + k / 16;
        perm[k] = s * (i / s) + (i + ncbps - (16 * i) / ncbps) % s;
    }
}

void interleave(int mod, const uint8_t *in, uint8_t *out)
{
    int perm[NCBPS_MAX];
    int ncbps = NDATA * qam_bits(mod), k;
    interleave_table(mod, perm);
    for (k = 0; k < ncbps; k++)
        out[perm[k]] = in[k];
}

void deinterleave(int mod, const uint8_t *in, uint8_t *out)
{
    int perm[NCBPS_MAX];
    int ncbps = NDATA * qam_bits(mod), k;
    interleave_table(mod, perm);
    for (k = 0; k < ncbps; k++)
        out[k] = in[perm[k]];
}

uint16_t crc16_ccitt(const uint8_t *data, int len)
{
    uint16_t crc = 0xffffu;
    int i, b;
    for (i = 0; i < len; i++) {
        crc ^= (uint16_t)(data[i] << 8);
        for (b = 0; b < 8; b++) {
            if (crc & 0x8000u)
                crc = (uint16_t)((crc << 1) ^ 0x1021u);
            else
                crc = (uint16_t)(crc << 1);
        }
    }
    return crc;
}

void bytes_to_bits(const uint8_t *bytes, int nbytes, uint8_t *bits)
{
    int i, b;
    for (i = 0; i < nbytes; i++)
        for (b = 0; b < 8; b++)
            bits[8 * i + b] = (uint8_t)((bytes[i] >> b) & 1u);
}

void bits_to_bytes(const uint8_t *bits, int nbytes, uint8_t *bytes)
{
    int i, b;
    uint8_t v;
    for (i = 0; i < nbytes; i++) {
        v = 0;
        for (b = 0; b < 8; b++)
            v |= (uint8_t)((bits[8 * i + b] & 1u) << b);
        bytes[i] = v;
    }
}

static int popcount8(uint8_t v)
{
    int n = 0;
    while (v != 0) {
        n += v & 1u;
        v >>= 1;
    }
    return n;
}

int count_bit_errors(const uint8_t *a, const uint8_t *b, int nbytes)
{
    int i, errors = 0;
    for (i = 0; i < nbytes; i++)
        errors += popcount8((uint8_t)(a[i] ^ b[i]));
    return errors;
}

int count_bit_errors_bits(const uint8_t *a, const uint8_t *b, int nbits)
{
    int i, errors = 0;
    for (i = 0; i < nbits; i++)
        errors += (a[i] ^ b[i]) & 1;
    return errors;
}
