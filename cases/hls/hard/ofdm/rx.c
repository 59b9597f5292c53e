/*
 * rx.c -- the receiver.
 *
 *   timing      the received samples are correlated with the training
 *               symbol as the transmitter makes it (same IFFT scaling); the
 *               metric of a candidate position d of the first training
 *               symbol is the L1 magnitude |Re| + |Im| of C(d) plus that of
 *               C(d + NFFT) (no multipliers, no overflow); the first
 *               maximum over d = LTS_CP .. LTS_CP + search wins and the
 *               frame starts LTS_CP samples earlier.
 *   windows     every FFT window starts BACKOFF samples into the cyclic
 *               prefix (a phase ramp the channel estimate absorbs).
 *   estimate    H = average of the two training symbols' bins (rounded
 *               half up) times the known +1 / -1 values; 0 on empty bins.
 *   equalise    X = Y conj(H) A_REF / |H|^2, rounded to nearest (halves
 *               away from zero), saturated to 16 bits; 0 where H = 0.
 *   pilots      P = sum of the equalised pilots times their expected sign;
 *               every bin is then rotated by conj(P) / |P| (|P| the integer
 *               square root of |P|^2, rounded like the equaliser); no
 *               rotation when P = 0.
 *   header      bit k = 1 when the real parts of data subcarriers k and
 *               k + 24 sum to more than 0; parity, zero reserved bits and a
 *               length that fits are required.
 *   data        hard demapping, deinterleaving, descrambling with the seed
 *               recovered from the service field, payload and CRC.
 */
#include "ofdm.h"

static const int pilot_base[NPILOT] = { 1, 1, 1, -1 };

/* floor(sqrt(v)), digit by digit */
uint32_t isqrt64(uint64_t v)
{
    uint64_t res = 0, bit = 1ull << 62;
    while (bit > v)
        bit >>= 2;
    while (bit != 0) {
        if (v >= res + bit) {
            v -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return (uint32_t)res;
}

/* num / den rounded to nearest, halves away from zero (den > 0) */
static int64_t div_round(int64_t num, int64_t den)
{
    if (num >= 0)
        return (num + den / 2) / den;
    return -((-num + den / 2) / den);
}

static int64_t abs64(int64_t v)
{
    return v < 0 ? -v : v;
}

static int16_t sat16(int64_t v)
{
    if (v > 32767)
        return 32767;
    if (v < -32768)
        return -32768;
    return (int16_t)v;
}

/* the correlation of NFFT received samples at `at` with the reference */
static void correlate(const cplx16 *rx, int at, const cplx16 *ref, int64_t *re, int64_t *im)
{
    int64_t sr = 0, si = 0;
    int i;
    for (i = 0; i < NFFT; i++) {
        sr += (int64_t)rx[at + i].re * ref[i].re + (int64_t)rx[at + i].im * ref[i].im;
        si += (int64_t)rx[at + i].im * ref[i].re - (int64_t)rx[at + i].re * ref[i].im;
    }
    *re = sr;
    *im = si;
}

int rx_timing(const cplx16 *rx, int n, int search, unsigned tx_scale, int64_t *peak)
{
    cplx16 pre[PREAMBLE_LEN];
    int64_t c1r, c1i, c2r, c2i, metric, best = -1;
    int d, best_d = -1;

    ofdm_preamble(tx_scale, pre);
    for (d = LTS_CP; d <= LTS_CP + search; d++) {
        if (d + 2 * NFFT > n)
            break;
        correlate(rx, d, pre + LTS_CP, &c1r, &c1i);
        correlate(rx, d + NFFT, pre + LTS_CP, &c2r, &c2i);
        metric = abs64(c1r) + abs64(c1i) + abs64(c2r) + abs64(c2i);
        if (metric > best) {
            best = metric;
            best_d = d;
        }
    }
    *peak = best;
    if (best_d < 0)
        return OFDM_ERR_SHORT;
    return best_d - LTS_CP;
}

/* the FFT of NFFT samples from `at`; returns its saturation count */
int rx_fft_window(const cplx16 *rx, int n, int at, unsigned scale_mask, cplx16 *bins)
{
    int i;
    if (at < 0 || at + NFFT > n)
        return OFDM_ERR_SHORT;
    for (i = 0; i < NFFT; i++)
        bins[i] = rx[at + i];
    return fft_run(bins, LOG2_NFFT, 0, scale_mask);
}

void rx_estimate(const cplx16 *y1, const cplx16 *y2, cplx32 *h)
{
    int k, l;
    int32_t ar, ai;
    for (k = 0; k < NFFT; k++) {
        l = ofdm_lts_value(k);
        ar = ((int32_t)y1[k].re + y2[k].re + 1) >> 1;
        ai = ((int32_t)y1[k].im + y2[k].im + 1) >> 1;
        h[k].re = ar * l;
        h[k].im = ai * l;
    }
}

cplx16 rx_equalize(cplx16 y, cplx32 h)
{
    cplx16 x;
    int64_t den = (int64_t)h.re * h.re + (int64_t)h.im * h.im;
    int64_t nr, ni;

    x.re = 0;
    x.im = 0;
    if (den == 0)
        return x;
    nr = ((int64_t)y.re * h.re + (int64_t)y.im * h.im) * A_REF;
    ni = ((int64_t)y.im * h.re - (int64_t)y.re * h.im) * A_REF;
    x.re = sat16(div_round(nr, den));
    x.im = sat16(div_round(ni, den));
    return x;
}

/* eq holds the 64 equalised bins of symbol `symbol` */
cplx32 rx_pilot_phase(const cplx16 *eq, int symbol)
{
    cplx32 p;
    int k, sign;
    p.re = 0;
    p.im = 0;
    for (k = 0; k < NPILOT; k++) {
        sign = pilot_base[k] * pilot_polarity(symbol);
        p.re += sign * eq[ofdm_pilot_bin(k)].re;
        p.im += sign * eq[ofdm_pilot_bin(k)].im;
    }
    return p;
}

cplx16 rx_derotate(cplx16 x, cplx32 p)
{
    int64_t mag2 = (int64_t)p.re * p.re + (int64_t)p.im * p.im;
    int64_t mag, r, i;

    if (mag2 == 0)
        return x;
    mag = isqrt64((uint64_t)mag2);
    r = (int64_t)x.re * p.re + (int64_t)x.im * p.im;
    i = (int64_t)x.im * p.re - (int64_t)x.re * p.im;
    x.re = sat16(div_round(r, mag));
    x.im = sat16(div_round(i, mag));
    return x;
}

int rx_header(const cplx16 *eq, int *mod, int *length)
{
    uint8_t bits[HEADER_BITS], parity = 0;
    int32_t soft;
    int k, m, len;

    for (k = 0; k < HEADER_BITS; k++) {
        soft = (int32_t)eq[ofdm_data_bin(k)].re + eq[ofdm_data_bin(k + HEADER_BITS)].re;
        bits[k] = (uint8_t)(soft > 0);
    }
    m = bits[0] | (bits[1] << 1);
    len = 0;
    for (k = 0; k < 12; k++)
        len |= bits[2 + k] << k;
    *mod = m;
    *length = len;
    for (k = 0; k < 14; k++)
        parity ^= bits[k];
    if (parity != bits[14])
        return OFDM_ERR_HEADER;
    for (k = 15; k < HEADER_BITS; k++)
        if (bits[k] != 0)
            return OFDM_ERR_HEADER;
    if (ofdm_nsym(m, len) == 0)
        return OFDM_ERR_HEADER;
    return OFDM_OK;
}

/* 1 when the descrambled service bits after the recovered register (7 ..
 * SERVICE_BITS - 1) are all zero; 0 when there are fewer than SERVICE_BITS */
int rx_service_check(const uint8_t *desc, int nbits)
{
    int i;
    if (nbits < SERVICE_BITS)
        return 0;
    for (i = 7; i < SERVICE_BITS; i++)
        if (desc[i] != 0)
            return 0;
    return 1;
}

/* FFT, equaliser and pilot rotation of the symbol whose window starts at `at` */
static int rx_symbol(const cplx16 *rx, int n, int at, unsigned rx_scale, const cplx32 *h, int symbol,
                     cplx16 *eq, rx_info *info)
{
    cplx16 bins[NFFT];
    cplx32 p;
    int k, sat;

    sat = rx_fft_window(rx, n, at, rx_scale, bins);
    if (sat < 0)
        return sat;
    info->saturations += sat;
    for (k = 0; k < NFFT; k++)
        eq[k] = rx_equalize(bins[k], h[k]);
    p = rx_pilot_phase(eq, symbol);
    info->phase[symbol] = p;
    for (k = 0; k < NFFT; k++)
        eq[k] = rx_derotate(eq[k], p);
    return OFDM_OK;
}

/* receives one frame; returns the payload length, or an error (with
 * OFDM_ERR_CRC the payload has been written all the same) */
int ofdm_rx(const cplx16 *rx, int n, int search, unsigned tx_scale, unsigned rx_scale, uint8_t *payload,
            rx_info *info)
{
    static uint8_t bits[MAX_BITS], desc[MAX_BITS];
    cplx16 y1[NFFT], y2[NFFT], eq[NFFT];
    uint8_t sym_bits[NDATA * 6], demapped[NDATA * 6];
    int start, base, rc, s, k, nb, ncbps, nbits, mod, length, i;
    uint16_t crc = 0;

    info->saturations = 0;
    info->evm = 0;
    info->nsym = 0;
    info->seed = 0;
    info->service_ok = 0;
    info->crc_rx = 0;
    info->crc_calc = 0;
    info->header_mod = -1;
    info->header_length = -1;
    start = rx_timing(rx, n, search, tx_scale, &info->peak);
    info->start = start;
    if (start < 0)
        return start;

    base = start + LTS_CP - BACKOFF;
    rc = rx_fft_window(rx, n, base, rx_scale, y1);
    if (rc < 0)
        return rc;
    info->saturations += rc;
    rc = rx_fft_window(rx, n, base + NFFT, rx_scale, y2);
    if (rc < 0)
        return rc;
    info->saturations += rc;
    rx_estimate(y1, y2, info->h);

    base = start + PREAMBLE_LEN + NCP - BACKOFF;
    rc = rx_symbol(rx, n, base, rx_scale, info->h, 0, eq, info);
    if (rc < 0)
        return rc;
    rc = rx_header(eq, &mod, &length);
    info->header_mod = mod;
    info->header_length = length;
    if (rc < 0)
        return rc;

    info->nsym = ofdm_nsym(mod, length);
    nb = qam_bits(mod);
    ncbps = NDATA * nb;
    nbits = info->nsym * ncbps;
    for (s = 0; s < info->nsym; s++) {
        base += NSYM;
        rc = rx_symbol(rx, n, base, rx_scale, info->h, s + 1, eq, info);
        if (rc < 0)
            return rc;
        for (k = 0; k < NDATA; k++) {
            qam_demap(mod, eq[ofdm_data_bin(k)], demapped + k * nb);
            info->evm += qam_error(mod, eq[ofdm_data_bin(k)]);
        }
        deinterleave(mod, demapped, sym_bits);
        for (k = 0; k < ncbps; k++)
            bits[s * ncbps + k] = sym_bits[k];
    }

    info->seed = descramble_recover(bits, desc, nbits);
    info->service_ok = rx_service_check(desc, nbits);
    bits_to_bytes(desc + SERVICE_BITS, length, payload);
    for (i = 0; i < CRC_BITS; i++)
        crc = (uint16_t)((crc << 1) | desc[SERVICE_BITS + 8 * length + i]);
    info->crc_rx = crc;
    info->crc_calc = crc16_ccitt(payload, length);
    if (info->crc_rx != info->crc_calc)
        return OFDM_ERR_CRC;
    return length;
}
