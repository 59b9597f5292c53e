/*
 * tx.c -- the transmitter.
 *
 * A frame is
 *   preamble     LTS_CP samples of guard (the end of the training symbol)
 *                and the training symbol twice (PREAMBLE_LEN samples)
 *   header       one BPSK symbol: HEADER_BITS bits on data subcarriers
 *                0..23 and again on 24..47, pilots of symbol 0
 *   data         nsym symbols of the chosen modulation, pilots of symbols
 *                1..nsym
 * and every symbol is NCP samples of cyclic prefix followed by the NFFT
 * samples of the IFFT of its 64 bins.
 *
 * Subcarrier f (-26..26) sits in bin f mod 64.  DC (f = 0) is empty, the
 * pilots are at f = -21, -7, 7, 21 with base values +1, +1, +1, -1 times the
 * symbol's polarity, and the 48 data subcarriers are the others in
 * increasing f.  The training symbol carries +1 or -1 (times A_REF) on all
 * 52 used subcarriers: output bits of the scrambler started from LTS_SEED,
 * in increasing f, a 1 giving -1.
 *
 * Header bits: 0-1 modulation, 2-13 payload length (least significant bit
 * first), 14 even parity over bits 0-13, 15-23 zero.
 * Data bits: SERVICE_BITS zeros, the payload (each byte least significant
 * bit first), its CRC-16 (most significant bit first), zeros up to a whole
 * number of symbols; all scrambled, then interleaved symbol by symbol.
 */
#include "ofdm.h"

#define LTS_SEED 0x5d

static const int pilot_f[NPILOT] = { -21, -7, 7, 21 };
static const int pilot_base[NPILOT] = { 1, 1, 1, -1 };

static int bin_of(int f)
{
    return f < 0 ? f + NFFT : f;
}

int ofdm_data_bin(int k)
{
    int f, n = 0;
    for (f = -26; f <= 26; f++) {
        if (f == 0 || f == -21 || f == -7 || f == 7 || f == 21)
            continue;
        if (n == k)
            return bin_of(f);
        n++;
    }
    return -1;
}

int ofdm_pilot_bin(int p)
{
    if (p < 0 || p >= NPILOT)
        return -1;
    return bin_of(pilot_f[p]);
}

int ofdm_lts_value(int bin)
{
    uint8_t state = LTS_SEED, bit = 0;
    int f, target;

    if (bin < 0 || bin >= NFFT)
        return 0;
    target = bin < NFFT / 2 ? bin : bin - NFFT;
    if (target == 0 || target < -26 || target > 26)
        return 0;
    for (f = -26; f <= target; f++) {
        if (f == 0)
            continue;
        bit = scrambler_step(&state);
    }
    return bit ? -1 : 1;
}

int ofdm_nsym(int mod, int length)
{
    int ncbps = NDATA * qam_bits(mod), nbits, nsym;
    if (ncbps == 0 || length < 0 || length > MAX_PAYLOAD)
        return 0;
    nbits = SERVICE_BITS + 8 * length + CRC_BITS;
    nsym = (nbits + ncbps - 1) / ncbps;
    if (nsym > MAX_DATA_SYMBOLS)
        return 0;
    return nsym;
}

void ofdm_header_bits(int mod, int length, uint8_t *bits)
{
    uint8_t parity = 0;
    int i;

    for (i = 0; i < HEADER_BITS; i++)
        bits[i] = 0;
    bits[0] = (uint8_t)(mod & 1);
    bits[1] = (uint8_t)((mod >> 1) & 1);
    for (i = 0; i < 12; i++)
        bits[2 + i] = (uint8_t)((length >> i) & 1);
    for (i = 0; i < 14; i++)
        parity ^= bits[i];
    bits[14] = parity;
}

/* the scrambled data field; returns its length in bits, or an error */
int ofdm_data_bits(const uint8_t *payload, int length, int mod, uint8_t seed, uint8_t *bits, uint16_t *crc)
{
    static uint8_t raw[MAX_BITS];
    int nsym = ofdm_nsym(mod, length), nbits, pos, i;
    uint16_t c;

    if (qam_bits(mod) == 0)
        return OFDM_ERR_MOD;
    if (nsym == 0)
        return OFDM_ERR_LENGTH;
    nbits = nsym * NDATA * qam_bits(mod);
    for (i = 0; i < nbits; i++)
        raw[i] = 0;
    pos = SERVICE_BITS;
    bytes_to_bits(payload, length, raw + pos);
    pos += 8 * length;
    c = crc16_ccitt(payload, length);
    for (i = 0; i < CRC_BITS; i++)
        raw[pos + i] = (uint8_t)((c >> (15 - i)) & 1u);
    *crc = c;
    scramble(seed, raw, bits, nbits);
    return nbits;
}

/* the 64 bins of a symbol: 48 points, the pilots of symbol `symbol`, zeros */
void ofdm_map_symbol(const cplx16 *points, int symbol, cplx16 *bins)
{
    int k, p, pol = pilot_polarity(symbol);

    for (k = 0; k < NFFT; k++) {
        bins[k].re = 0;
        bins[k].im = 0;
    }
    for (k = 0; k < NDATA; k++)
        bins[ofdm_data_bin(k)] = points[k];
    for (p = 0; p < NPILOT; p++)
        bins[ofdm_pilot_bin(p)].re = (int16_t)(pilot_base[p] * pol * A_REF);
}

/* IFFT of the bins (overwritten) and the cyclic prefix: NSYM samples;
 * returns the IFFT's saturation count */
int ofdm_modulate(cplx16 *bins, unsigned scale_mask, cplx16 *out)
{
    int sat, i;
    sat = fft_run(bins, LOG2_NFFT, 1, scale_mask);
    for (i = 0; i < NCP; i++)
        out[i] = bins[NFFT - NCP + i];
    for (i = 0; i < NFFT; i++)
        out[NCP + i] = bins[i];
    return sat;
}

int ofdm_preamble(unsigned scale_mask, cplx16 *out)
{
    cplx16 bins[NFFT];
    int k, sat;

    for (k = 0; k < NFFT; k++) {
        bins[k].re = (int16_t)(ofdm_lts_value(k) * A_REF);
        bins[k].im = 0;
    }
    sat = fft_run(bins, LOG2_NFFT, 1, scale_mask);
    for (k = 0; k < LTS_CP; k++)
        out[k] = bins[NFFT - LTS_CP + k];
    for (k = 0; k < NFFT; k++) {
        out[LTS_CP + k] = bins[k];
        out[LTS_CP + NFFT + k] = bins[k];
    }
    return sat;
}

int ofdm_tx(const uint8_t *payload, int length, int mod, uint8_t seed, unsigned scale_mask,
            cplx16 *out, tx_info *info)
{
    static uint8_t bits[MAX_BITS];
    uint8_t hdr[HEADER_BITS], sym_bits[NDATA * 6];
    cplx16 points[NDATA], bins[NFFT];
    int nbits, nsym, ncbps, s, k, pos, sat;

    if (qam_bits(mod) == 0)
        return OFDM_ERR_MOD;
    if (seed < 1 || seed > 127)
        return OFDM_ERR_SEED;
    nsym = ofdm_nsym(mod, length);
    if (nsym == 0)
        return OFDM_ERR_LENGTH;
    ncbps = NDATA * qam_bits(mod);
    nbits = ofdm_data_bits(payload, length, mod, seed, bits, &info->crc);

    sat = ofdm_preamble(scale_mask, out);
    pos = PREAMBLE_LEN;

    ofdm_header_bits(mod, length, hdr);
    for (k = 0; k < NDATA; k++)
        points[k] = qam_map(MOD_BPSK, &hdr[k % HEADER_BITS]);
    ofdm_map_symbol(points, 0, bins);
    sat += ofdm_modulate(bins, scale_mask, out + pos);
    pos += NSYM;

    for (s = 0; s < nsym; s++) {
        interleave(mod, bits + s * ncbps, sym_bits);
        for (k = 0; k < NDATA; k++)
            points[k] = qam_map(mod, sym_bits + k * qam_bits(mod));
        ofdm_map_symbol(points, s + 1, bins);
        sat += ofdm_modulate(bins, scale_mask, out + pos);
        pos += NSYM;
    }

    info->mod = mod;
    info->length = length;
    info->nsym = nsym;
    info->nbits = nbits;
    info->saturations = sat;
    info->nsamples = pos;
    return pos;
}
