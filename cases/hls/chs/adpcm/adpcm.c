/*
 * adpcm.c -- IMA/DVI ADPCM (4 bits per sample) encoder and decoder, the
 * IMA ADPCM block format used in WAVE files, and a G.722-style sub-band
 * ADPCM codec (QMF split into two bands, 6-bit + 2-bit ADPCM).
 *
 * Specifications implemented:
 *   IMA Digital Audio Focus and Technical Working Groups, "Recommended
 *   Practices for Enhancing Digital Audio Compatibility in Multimedia
 *   Systems", revision 3.00, 1992: the IMA (Intel/DVI) ADPCM algorithm
 *   with its 89-entry step-size table and 16-entry index adjustment table.
 *   Microsoft "Multimedia Standards Update" (1994), WAVE_FORMAT_IMA_ADPCM:
 *   block header (predictor, step index) followed by packed nibbles,
 *   interleaved in 4-byte groups per channel.
 *   ITU-T Recommendation G.722 (11/88), 7 kHz audio coding within
 *   64 kbit/s: the structure of its sub-band ADPCM -- 24-tap QMF analysis
 *   and synthesis, lower band 6-bit adaptive quantiser with the 4-bit
 *   feedback path, higher band 2-bit quantiser, logarithmic scale factor
 *   adaptation and the two-pole / six-zero adaptive predictor -- and the
 *   64, 56 and 48 kbit/s decoder modes.  This path is "G.722-style": it
 *   is self-consistent but it is not claimed to be bit exact against the
 *   ITU-T digital test sequences.
 *
 * Self-check: a deterministic synthetic signal (integer sine oscillators,
 * a chirp, LCG noise, silence and a clipped burst) is encoded and decoded.
 * Encoded codes and decoded samples are compared with embedded reference
 * arrays and CRC-32 digests that were generated once from this
 * implementation after it had been verified (round-trip SNR, encoder /
 * decoder tracking, agreement with an independent IMA implementation).
 * Minimum SNRs are checked as well.  The program prints the number of
 * mismatches and returns it (saturated to 255).
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

#define IMA_SAMPLES     4096        /* 8 kHz test signal for IMA ADPCM */
#define G722_SAMPLES    2048        /* 16 kHz test signal for the sub-band codec */
#define WAV_BLOCK_MONO  256         /* nBlockAlign for one channel */
#define WAV_BLOCK_STEREO 512        /* nBlockAlign for two channels */
#define MAX_BLOCKS      16
#define G722_DELAY      22      /* QMF analysis + synthesis delay in samples */

static int mismatches = 0;
static int checks = 0;

/* ------------------------------------------------------------------ */
/* IMA ADPCM tables                                                    */
/* ------------------------------------------------------------------ */

static const int16_t ima_step_table[89] = {
        7,     8,     9,    10,    11,    12,    13,    14,    16,    17,
       19,    21,    23,    25,    28,    31,    34,    37,    41,    45,
       50,    55,    60,    66,    73,    80,    88,    97,   107,   118,
      130,   143,   157,   173,   190,   209,   230,   253,   279,   307,
      337,   371,   408,   449,   494,   544,   598,   658,   724,   796,
      876,   963,  1060,  1166,  1282,  1411,  1552,  1707,  1878,  2066,
     2272,  2499,  2749,  3024,  3327,  3660,  4026,  4428,  4871,  5358,
     5894,  6484,  7132,  7845,  8630,  9493, 10442, 11487, 12635, 13899,
    15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767
};

static const int8_t ima_index_table[16] = {
    -1, -1, -1, -1, 2, 4, 6, 8,
    -1, -1, -1, -1, 2, 4, 6, 8
};

typedef struct {
    int predictor;      /* last reconstructed sample */
    int index;          /* index into ima_step_table */
} ima_state;

static int clamp(int v, int lo, int hi)
{
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

/* ------------------------------------------------------------------ */
/* IMA ADPCM core                                                      */
/* ------------------------------------------------------------------ */

/* quantise one sample; the state tracks exactly what the decoder sees */
static int ima_encode_sample(ima_state *st, int sample)
{
    int step = ima_step_table[st->index];
    int diff = sample - st->predictor;
    int code = 0;
    int vpdiff = step >> 3;

    if (diff < 0) {
        code = 8;
        diff = -diff;
    }
    if (diff >= step) {
        code |= 4;
        diff -= step;
        vpdiff += step;
    }
    step >>= 1;
    if (diff >= step) {
        code |= 2;
        diff -= step;
        vpdiff += step;
    }
    step >>= 1;
    if (diff >= step) {
        code |= 1;
        vpdiff += step;
    }

    if (code & 8)
        st->predictor -= vpdiff;
    else
        st->predictor += vpdiff;
    st->predictor = clamp(st->predictor, -32768, 32767);

    st->index += ima_index_table[code];
    st->index = clamp(st->index, 0, 88);
    return code;
}

static int ima_decode_sample(ima_state *st, int code)
{
    int step = ima_step_table[st->index];
    int vpdiff = step >> 3;

    if (code & 4)
        vpdiff += step;
    if (code & 2)
        vpdiff += step >> 1;
    if (code & 1)
        vpdiff += step >> 2;

    if (code & 8)
        st->predictor -= vpdiff;
    else
        st->predictor += vpdiff;
    st->predictor = clamp(st->predictor, -32768, 32767);

    st->index += ima_index_table[code];
    st->index = clamp(st->index, 0, 88);
    return st->predictor;
}

/* one 4-bit code per output byte; track[] receives the encoder's own
 * reconstruction so that it can be compared with the decoder */
static void ima_encode_stream(ima_state *st, const int16_t *pcm, uint8_t *codes,
                              int16_t *track, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        codes[i] = (uint8_t)ima_encode_sample(st, pcm[i]);
        track[i] = (int16_t)st->predictor;
    }
}

static void ima_decode_stream(ima_state *st, const uint8_t *codes, int16_t *pcm, int n)
{
    int i;
    for (i = 0; i < n; i++)
        pcm[i] = (int16_t)ima_decode_sample(st, codes[i] & 0x0f);
}

/* two codes per byte, the earlier sample in the low nibble */
static void pack_nibbles(const uint8_t *codes, uint8_t *bytes, int n)
{
    int i;
    for (i = 0; i < n; i += 2) {
        uint8_t lo = codes[i] & 0x0f;
        uint8_t hi = (i + 1 < n) ? (codes[i + 1] & 0x0f) : 0;
        bytes[i / 2] = (uint8_t)(lo | (hi << 4));
    }
}

static void unpack_nibbles(const uint8_t *bytes, uint8_t *codes, int n)
{
    int i;
    for (i = 0; i < n; i++)
        codes[i] = (i & 1) ? (uint8_t)(bytes[i / 2] >> 4) : (uint8_t)(bytes[i / 2] & 0x0f);
}

/* ------------------------------------------------------------------ */
/* WAVE_FORMAT_IMA_ADPCM blocks                                         */
/* Header per channel: int16 sample (little endian), uint8 step index,  */
/* uint8 reserved.  Data: for every channel in turn, 4 bytes = 8        */
/* samples, low nibble first.                                           */
/* ------------------------------------------------------------------ */

static int wav_samples_per_block(int block_align, int channels)
{
    return (block_align - 4 * channels) * 8 / (4 * channels) + 1;
}

/* encode one block; pcm is interleaved, st[] carries the step index */
static void ima_wav_encode_block(ima_state *st, const int16_t *pcm, int channels,
                                 int block_align, uint8_t *block)
{
    int spb = wav_samples_per_block(block_align, channels);
    int ch, g, k, pos = 4 * channels;
    uint8_t codes[8];

    for (ch = 0; ch < channels; ch++) {
        int first = pcm[ch];
        st[ch].predictor = first;
        block[4 * ch + 0] = (uint8_t)(first & 0xff);
        block[4 * ch + 1] = (uint8_t)((first >> 8) & 0xff);
        block[4 * ch + 2] = (uint8_t)st[ch].index;
        block[4 * ch + 3] = 0;
    }
    for (g = 1; g < spb; g += 8) {
        for (ch = 0; ch < channels; ch++) {
            for (k = 0; k < 8; k++)
                codes[k] = (uint8_t)ima_encode_sample(&st[ch], pcm[(g + k) * channels + ch]);
            pack_nibbles(codes, block + pos, 8);
            pos += 4;
        }
    }
}

static void ima_wav_decode_block(const uint8_t *block, int channels, int block_align,
                                 int16_t *pcm)
{
    int spb = wav_samples_per_block(block_align, channels);
    ima_state st[2];
    int ch, g, k, pos = 4 * channels;
    uint8_t codes[8];

    for (ch = 0; ch < channels; ch++) {
        int16_t first = (int16_t)(block[4 * ch] | (block[4 * ch + 1] << 8));
        st[ch].predictor = first;
        st[ch].index = clamp(block[4 * ch + 2], 0, 88);
        pcm[ch] = first;
    }
    for (g = 1; g < spb; g += 8) {
        for (ch = 0; ch < channels; ch++) {
            unpack_nibbles(block + pos, codes, 8);
            for (k = 0; k < 8; k++)
                pcm[(g + k) * channels + ch] = (int16_t)ima_decode_sample(&st[ch], codes[k]);
            pos += 4;
        }
    }
}

/* ------------------------------------------------------------------ */
/* G.722-style sub-band ADPCM                                          */
/* ------------------------------------------------------------------ */

/* QMF coefficients (symmetric, 24 taps) */
static const int qmf_coeffs[24] = {
       3,   -11,   -11,    53,    12,  -156,    32,   362,  -210,  -805,   951,  3876,
    3876,   951,  -805,  -210,   362,    32,  -156,    12,    53,   -11,   -11,     3
};

/* lower band: decision levels of the 6-bit quantiser */
static const int q6[32] = {
       0,    35,    72,   110,   150,   190,   233,   276,   323,   370,   422,   473,
     530,   587,   650,   714,   786,   858,   940,  1023,  1121,  1219,  1339,  1458,
    1612,  1765,  1980,  2195,  2557,  2919,     0,     0
};

/* codes for negative / positive differences, indexed by quantiser interval */
static const int iln[32] = {
     0, 63, 62, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19,
    18, 17, 16, 15, 14, 13, 12, 11, 10,  9,  8,  7,  6,  5,  4,  0
};
static const int ilp[32] = {
     0, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47,
    46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,  0
};

/* inverse quantiser outputs: 4-bit (feedback / 48 kbit/s), 5-bit, 6-bit */
static const int qm4[16] = {
         0, -20456, -12896,  -8968,  -6288,  -4240,  -2584,  -1200,
     20456,  12896,   8968,   6288,   4240,   2584,   1200,      0
};
static const int qm5[32] = {
      -280,   -280, -23352, -17560, -14120, -11664,  -9752,  -8184,
     -6864,  -5712,  -4696,  -3784,  -2960,  -2208,  -1520,   -880,
     23352,  17560,  14120,  11664,   9752,   8184,   6864,   5712,
      4696,   3784,   2960,   2208,   1520,    880,    280,   -280
};
static const int qm6[64] = {
      -136,   -136,   -136,   -136, -24808, -21904, -19008, -16704,
    -14984, -13512, -12280, -11192, -10232,  -9360,  -8576,  -7856,
     -7192,  -6576,  -6000,  -5456,  -4944,  -4464,  -4008,  -3576,
     -3168,  -2776,  -2400,  -2032,  -1688,  -1360,  -1040,   -728,
     24808,  21904,  19008,  16704,  14984,  13512,  12280,  11192,
     10232,   9360,   8576,   7856,   7192,   6576,   6000,   5456,
      4944,   4464,   4008,   3576,   3168,   2776,   2400,   2032,
      1688,   1360,   1040,    728,    432,    136,   -432,   -136
};

/* lower band scale factor adaptation */
static const int rl42[16] = { 0, 7, 6, 5, 4, 3, 2, 1, 7, 6, 5, 4, 3, 2, 1, 0 };
static const int wl[8] = { -60, -30, 58, 172, 334, 538, 1198, 3042 };

/* higher band: 2-bit quantiser */
static const int ihn[3] = { 0, 1, 0 };
static const int ihp[3] = { 0, 3, 2 };
static const int qm2[4] = { -7408, -1616, 7408, 1616 };
static const int rh2[4] = { 2, 1, 2, 1 };
static const int wh[3] = { 0, -214, 798 };

/* scale factor antilog table: 2048 * 2^(i/32) */
static const int ilb[32] = {
    2048, 2093, 2139, 2186, 2233, 2282, 2332, 2383,
    2435, 2489, 2543, 2599, 2656, 2714, 2774, 2834,
    2896, 2960, 3025, 3091, 3158, 3228, 3298, 3371,
    3444, 3520, 3597, 3676, 3756, 3838, 3922, 4008
};

typedef struct {
    int s;              /* predicted signal */
    int sp;             /* pole section output */
    int sz;             /* zero section output */
    int r[3];           /* reconstructed signal r(n), r(n-1), r(n-2) */
    int a[3];           /* pole predictor coefficients a1, a2 */
    int ap[3];          /* updated pole coefficients */
    int p[3];           /* partially reconstructed signal p(n), p(n-1), p(n-2) */
    int d[7];           /* quantised differences d(n) .. d(n-6) */
    int b[7];           /* zero predictor coefficients b1 .. b6 */
    int bp[7];          /* updated zero coefficients */
    int nb;             /* logarithmic scale factor */
    int det;            /* linear scale factor (quantiser step) */
} g722_band;

typedef struct {
    g722_band band[2];  /* 0 = lower, 1 = higher */
    int x[24];          /* QMF delay line */
} g722_state;

static int sat16(int v)
{
    if (v > 32767)
        return 32767;
    if (v < -32768)
        return -32768;
    return v;
}

static void g722_init(g722_state *s)
{
    memset(s, 0, sizeof *s);
    s->band[0].det = 32;
    s->band[1].det = 8;
}

/* adaptive predictor update and new prediction (pole/zero sections) */
static void band_predict(g722_band *bd, int dq)
{
    int i, wd1, wd2, wd3, sg0, sg1, sg2;

    /* reconstructed and partially reconstructed signals */
    bd->d[0] = dq;
    bd->r[0] = sat16(bd->s + dq);
    bd->p[0] = sat16(bd->sz + dq);

    /* second pole coefficient */
    sg0 = bd->p[0] >> 15;
    sg1 = bd->p[1] >> 15;
    sg2 = bd->p[2] >> 15;
    wd1 = sat16(bd->a[1] * 4);
    wd2 = (sg0 == sg1) ? -wd1 : wd1;
    if (wd2 > 32767)
        wd2 = 32767;
    wd3 = (sg0 == sg2) ? 128 : -128;
    wd3 += wd2 >> 7;
    wd3 += (bd->a[2] * 32512) >> 15;
    bd->ap[2] = clamp(wd3, -12288, 12288);

    /* first pole coefficient, bounded by the stability limit */
    wd1 = (sg0 == sg1) ? 192 : -192;
    wd2 = (bd->a[1] * 32640) >> 15;
    bd->ap[1] = sat16(wd1 + wd2);
    wd3 = sat16(15360 - bd->ap[2]);
    bd->ap[1] = clamp(bd->ap[1], -wd3, wd3);

    /* zero coefficients: sign-sign update with leakage */
    wd1 = (dq == 0) ? 0 : 128;
    sg0 = dq >> 15;
    for (i = 1; i < 7; i++) {
        sg1 = bd->d[i] >> 15;
        wd2 = (sg1 == sg0) ? wd1 : -wd1;
        wd3 = (bd->b[i] * 32640) >> 15;
        bd->bp[i] = sat16(wd2 + wd3);
    }

    /* delay lines */
    for (i = 6; i > 0; i--) {
        bd->d[i] = bd->d[i - 1];
        bd->b[i] = bd->bp[i];
    }
    for (i = 2; i > 0; i--) {
        bd->r[i] = bd->r[i - 1];
        bd->p[i] = bd->p[i - 1];
        bd->a[i] = bd->ap[i];
    }

    /* pole section */
    wd1 = sat16(bd->r[1] + bd->r[1]);
    wd1 = (bd->a[1] * wd1) >> 15;
    wd2 = sat16(bd->r[2] + bd->r[2]);
    wd2 = (bd->a[2] * wd2) >> 15;
    bd->sp = sat16(wd1 + wd2);

    /* zero section */
    bd->sz = 0;
    for (i = 6; i > 0; i--) {
        wd1 = sat16(bd->d[i] + bd->d[i]);
        bd->sz += (bd->b[i] * wd1) >> 15;
    }
    bd->sz = sat16(bd->sz);

    bd->s = sat16(bd->sp + bd->sz);
}

/* scale factor: log update then antilog (lower band: shift base 8,
 * higher band: shift base 10) */
static void band_scale(g722_band *bd, int wd_inc, int nb_max, int shift_base)
{
    int wd1, wd2, wd3;

    wd1 = (bd->nb * 32512) >> 15;
    bd->nb = clamp(wd1 + wd_inc, 0, nb_max);

    wd1 = (bd->nb >> 6) & 31;
    wd2 = shift_base - (bd->nb >> 11);
    wd3 = (wd2 < 0) ? (ilb[wd1] << -wd2) : (ilb[wd1] >> wd2);
    bd->det = wd3 << 2;
}

/* lower band quantiser: 6-bit code for difference el */
static int quantl(int el, int det)
{
    int wd, mil, decis;

    wd = (el >= 0) ? el : -(el + 1);
    for (mil = 1; mil < 30; mil++) {
        decis = (q6[mil] * det) >> 12;
        if (wd < decis)
            break;
    }
    return (el < 0) ? iln[mil] : ilp[mil];
}

/* higher band quantiser: 2-bit code */
static int quanth(int eh, int det)
{
    int wd = (eh >= 0) ? eh : -(eh + 1);
    int mih = (wd >= ((564 * det) >> 12)) ? 2 : 1;
    return (eh < 0) ? ihn[mih] : ihp[mih];
}

/* encode n input samples (16 kHz, 16-bit) into n/2 code bytes */
static void g722_encode(g722_state *s, const int16_t *in, uint8_t *out, int n)
{
    int j, i, xlow, xhigh, el, eh, ilow, ihigh, dlow, dhigh;
    int32_t sumeven, sumodd;
    g722_band *lo = &s->band[0], *hi = &s->band[1];

    for (j = 0; j + 1 < n; j += 2) {
        /* transmit QMF: shift in two 14-bit samples, split into bands */
        for (i = 0; i < 22; i++)
            s->x[i] = s->x[i + 2];
        s->x[22] = in[j] >> 2;
        s->x[23] = in[j + 1] >> 2;
        sumeven = 0;
        sumodd = 0;
        for (i = 0; i < 12; i++) {
            sumodd += s->x[2 * i] * qmf_coeffs[i * 2];
            sumeven += s->x[2 * i + 1] * qmf_coeffs[i * 2 + 1];
        }
        xlow = (sumeven + sumodd) >> 14;
        xhigh = (sumeven - sumodd) >> 14;

        /* lower band */
        el = sat16(xlow - lo->s);
        ilow = quantl(el, lo->det);
        dlow = (lo->det * qm4[ilow >> 2]) >> 15;
        band_scale(lo, wl[rl42[ilow >> 2]], 18432, 8);
        band_predict(lo, dlow);

        /* higher band */
        eh = sat16(xhigh - hi->s);
        ihigh = quanth(eh, hi->det);
        dhigh = (hi->det * qm2[ihigh]) >> 15;
        band_scale(hi, wh[rh2[ihigh]], 22528, 10);
        band_predict(hi, dhigh);

        out[j / 2] = (uint8_t)((ihigh << 6) | ilow);
    }
}

/* decode n/2 code bytes into n output samples; mode 1, 2, 3 = 64, 56,
 * 48 kbit/s (6, 5 or 4 bits of the lower band code are used) */
static void g722_decode(g722_state *s, const uint8_t *in, int16_t *out, int n, int mode)
{
    int j, i, ilr, ih, wd2, dlow, dlowt, rlow, dhigh, rhigh, xd, xs;
    int32_t xout1, xout2;
    g722_band *lo = &s->band[0], *hi = &s->band[1];

    for (j = 0; j + 1 < n; j += 2) {
        ilr = in[j / 2] & 0x3f;
        ih = (in[j / 2] >> 6) & 0x03;

        /* lower band: output uses the bits of the chosen mode, the
         * predictor always uses the 4-bit truncated code */
        if (mode == 1)
            wd2 = qm6[ilr];
        else if (mode == 2)
            wd2 = qm5[ilr >> 1];
        else
            wd2 = qm4[ilr >> 2];
        dlow = (lo->det * wd2) >> 15;
        rlow = clamp(lo->s + dlow, -16384, 16383);
        dlowt = (lo->det * qm4[ilr >> 2]) >> 15;
        band_scale(lo, wl[rl42[ilr >> 2]], 18432, 8);
        band_predict(lo, dlowt);

        /* higher band */
        dhigh = (hi->det * qm2[ih]) >> 15;
        rhigh = clamp(dhigh + hi->s, -16384, 16383);
        band_scale(hi, wh[rh2[ih]], 22528, 10);
        band_predict(hi, dhigh);

        /* receive QMF */
        xd = rlow - rhigh;
        xs = rlow + rhigh;
        for (i = 0; i < 22; i++)
            s->x[i] = s->x[i + 2];
        s->x[22] = xd;
        s->x[23] = xs;
        xout1 = 0;
        xout2 = 0;
        for (i = 0; i < 12; i++) {
            xout2 += s->x[2 * i] * qmf_coeffs[i * 2];
            xout1 += s->x[2 * i + 1] * qmf_coeffs[i * 2 + 1];
        }
        out[j] = (int16_t)sat16((xout1 >> 11) * 4);
        out[j + 1] = (int16_t)sat16((xout2 >> 11) * 4);
    }
}

/* ------------------------------------------------------------------ */
/* Synthetic test signal (integer arithmetic only)                     */
/* ------------------------------------------------------------------ */

/* sine of a 16-bit phase (65536 = one period), result scaled by 32767,
 * from the rational approximation 16x(pi-x) / (5pi^2 - 4x(pi-x)) */
static int isin(uint32_t phase)
{
    int64_t x = phase & 0x7fff;                 /* position in the half period */
    int64_t u = x * (32768 - x);
    int64_t num = 16 * u * 32767;
    int64_t den = 5LL * 32768 * 32768 - 4 * u;
    int v = (int)(num / den);
    return (phase & 0x8000) ? -v : v;
}

static uint32_t lcg_state;

static int lcg_noise(int amplitude)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (int)((lcg_state >> 16) % (uint32_t)(2 * amplitude + 1)) - amplitude;
}

/* tones + chirp + noise; a silent gap and a clipped square burst */
static void make_signal(int16_t *out, int n, uint32_t f1, uint32_t f2, uint32_t seed)
{
    uint32_t ph1 = 0, ph2 = 0, ph3 = 0, f3 = 300;
    int i, v, env;

    lcg_state = seed;
    for (i = 0; i < n; i++) {
        env = (i < 256) ? i * 32 : 8192;        /* fade in */
        v = (isin(ph1 >> 16) * env) >> 14;
        v += (isin(ph2 >> 16) * 5000) >> 15;
        v += (isin(ph3) * 3000) >> 15;
        v += lcg_noise(200);
        if (i >= n / 2 && i < n / 2 + n / 16)
            v = 0;                              /* silence */
        if (i >= (3 * n) / 4 && i < (3 * n) / 4 + n / 32)
            v = ((i >> 3) & 1) ? 32767 : -32768; /* clipped burst */
        out[i] = (int16_t)clamp(v, -32768, 32767);
        ph1 += f1;
        ph2 += f2;
        ph3 += f3;
        f3 += 3;                                /* chirp */
    }
}

/* ------------------------------------------------------------------ */
/* Checking helpers                                                    */
/* ------------------------------------------------------------------ */

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, int n)
{
    int i, k;
    crc = ~crc;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* CRC-32 of 16-bit samples taken as little-endian byte pairs */
static uint32_t crc32_samples(const int16_t *s, int n)
{
    uint32_t crc = 0;
    uint8_t b[2];
    int i;
    for (i = 0; i < n; i++) {
        b[0] = (uint8_t)(s[i] & 0xff);
        b[1] = (uint8_t)((s[i] >> 8) & 0xff);
        crc = crc32_update(crc, b, 2);
    }
    return crc;
}

static void check_word(const char *what, uint32_t got, uint32_t expect)
{
    checks++;
    if (got != expect) {
        printf("FAIL %-34s got %08lx expected %08lx\n", what,
               (unsigned long)got, (unsigned long)expect);
        mismatches++;
    }
}

static void check_codes(const char *what, const uint8_t *got, const uint8_t *expect, int n)
{
    int i, bad = 0;
    for (i = 0; i < n; i++)
        if (got[i] != expect[i])
            bad++;
    checks++;
    if (bad) {
        printf("FAIL %-34s %d of %d codes differ\n", what, bad, n);
        mismatches += bad;
    }
}

static void check_samples(const char *what, const int16_t *got, const int16_t *expect, int n)
{
    int i, bad = 0;
    for (i = 0; i < n; i++)
        if (got[i] != expect[i])
            bad++;
    checks++;
    if (bad) {
        printf("FAIL %-34s %d of %d samples differ\n", what, bad, n);
        mismatches += bad;
    }
}

/* signal-to-noise ratio in dB of test[] against ref[] delayed by delay */
static double snr_db(const int16_t *ref, const int16_t *test, int from, int to, int delay)
{
    double es = 0.0, en = 0.0;
    int i;
    for (i = from; i < to; i++) {
        double r = ref[i - delay], e = (double)test[i] - r;
        es += r * r;
        en += e * e;
    }
    if (en == 0.0)
        return 200.0;
    return 10.0 * log10(es / en);
}

static void check_snr(const char *what, double snr, double min_db)
{
    checks++;
    if (!(snr >= min_db)) {
        printf("FAIL %-34s SNR %.2f dB below %.1f dB\n", what, snr, min_db);
        mismatches++;
    }
}

/* ------------------------------------------------------------------ */
/* Reference data (generated once from this implementation)            */
/* ------------------------------------------------------------------ */

/* first 128 IMA codes of the 8 kHz test signal, one hex digit per code */
static const char *ima_first_codes = "f77777778999a9a9900335433332298ccdabca9a0832443421888dbbebca9aa0122443412108bcbdbbaaa04263434322109aaeb9c9a90042533232089ddcacbb";

/* first 48 decoded samples */
static const int16_t ima_first_samples[48] = {
       -11,     19,     82,    218,    511,   1142,   2499,   5409,   4994,   3860,   2830,   1894,
       474,   -300,  -1473,  -2112,  -2694,  -2518,  -2358,  -1339,   -412,    911,   2498,   3990,
      5348,   6581,   7702,   8430,   9092,   8732,   8623,   7728,   6645,   5043,   3977,   2619,
      1032,    -34,   -616,  -1497,  -1337,  -1482,   -555,     46,   1031,   2223,   3344,   4655
};

/* first 32 G.722-style code bytes */
static const uint8_t g722_first_codes[32] = {
    0xfa, 0xde, 0x34, 0xba, 0x29, 0x8b, 0xa0, 0x60, 0x60, 0xe2, 0x2d, 0xb1,
    0xb8, 0x9f, 0xdb, 0x99, 0x5a, 0x9e, 0xf8, 0xf1, 0x6c, 0xaa, 0xea, 0xac,
    0x2e, 0x71, 0xf4, 0xf8, 0xbc, 0x7f, 0xff, 0x7c
};

/* first 32 decoded samples at 64 kbit/s */
static const int16_t g722_first_samples[32] = {
        0,    -4,    -4,     0,     0,    -4,    -4,     0,    -4,    -8,     0,    16,
        4,   -28,   -16,    44,    -4,   -56,   -16,   116,   -24,  -148,   -52,   156,
      424,   788,  1096,  1924,  3352,  5124,  5844,  5624
};

/* ------------------------------------------------------------------ */
/* Buffers                                                             */
/* ------------------------------------------------------------------ */

static int16_t pcm8k[IMA_SAMPLES];
static int16_t pcm8k_right[IMA_SAMPLES];
static uint8_t ima_codes[IMA_SAMPLES];
static uint8_t ima_packed[IMA_SAMPLES / 2];
static uint8_t ima_unpacked[IMA_SAMPLES];
static int16_t ima_track[IMA_SAMPLES];
static int16_t ima_out[IMA_SAMPLES];

static int16_t stereo_in[2 * IMA_SAMPLES];
static int16_t stereo_out[2 * IMA_SAMPLES];
static uint8_t wav_blocks[MAX_BLOCKS * WAV_BLOCK_STEREO];
static int16_t mono_out[IMA_SAMPLES];

static int16_t pcm16k[G722_SAMPLES];
static uint8_t g722_codes[G722_SAMPLES / 2];
static int16_t g722_out[G722_SAMPLES];

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static void test_tables(void)
{
    int i, bad = 0;

    if ((int)(sizeof ima_step_table / sizeof ima_step_table[0]) != 89)
        bad++;
    if (ima_step_table[0] != 7 || ima_step_table[88] != 32767)
        bad++;
    for (i = 1; i < 89; i++) {
        /* successive steps grow by roughly 10 per cent */
        if (ima_step_table[i] <= ima_step_table[i - 1])
            bad++;
        if (i > 10 && (ima_step_table[i] * 100 < ima_step_table[i - 1] * 105 ||
                       ima_step_table[i] * 100 > ima_step_table[i - 1] * 115))
            bad++;
    }
    for (i = 0; i < 8; i++)
        if (ima_index_table[i] != ima_index_table[i + 8])
            bad++;
    /* the G.722 antilog table is 2048 * 2^(i/32) */
    for (i = 0; i < 32; i++) {
        double want = 2048.0 * pow(2.0, i / 32.0);
        if (fabs(ilb[i] - want) > 1.0)
            bad++;
    }
    checks++;
    if (bad) {
        printf("FAIL %-34s %d entries\n", "codec tables", bad);
        mismatches += bad;
    }
}

static void test_ima_stream(void)
{
    ima_state enc = { 0, 0 }, dec = { 0, 0 };
    uint8_t expect[128];
    int i, track_bad = 0;

    make_signal(pcm8k, IMA_SAMPLES, 0x03000000u, 0x0b500000u, 12345u);
    ima_encode_stream(&enc, pcm8k, ima_codes, ima_track, IMA_SAMPLES);

    for (i = 0; i < 128; i++) {
        char c = ima_first_codes[i];
        expect[i] = (uint8_t)((c >= 'a') ? c - 'a' + 10 : c - '0');
    }
    check_codes("IMA first 128 codes", ima_codes, expect, 128);
    check_word("IMA code stream digest", crc32_update(0, ima_codes, IMA_SAMPLES), 0xfff48000u);
    check_word("IMA final encoder index", (uint32_t)enc.index, 70u);

    /* through the nibble packer and back */
    pack_nibbles(ima_codes, ima_packed, IMA_SAMPLES);
    check_word("IMA packed digest", crc32_update(0, ima_packed, IMA_SAMPLES / 2), 0x5888c4b7u);
    unpack_nibbles(ima_packed, ima_unpacked, IMA_SAMPLES);
    check_codes("IMA unpacked codes", ima_unpacked, ima_codes, IMA_SAMPLES);

    ima_decode_stream(&dec, ima_unpacked, ima_out, IMA_SAMPLES);
    check_samples("IMA first 48 decoded", ima_out, ima_first_samples, 48);
    check_word("IMA decoded digest", crc32_samples(ima_out, IMA_SAMPLES), 0x558f98b8u);

    /* the encoder's own reconstruction must follow the decoder exactly */
    for (i = 0; i < IMA_SAMPLES; i++)
        if (ima_track[i] != ima_out[i])
            track_bad++;
    checks++;
    if (track_bad) {
        printf("FAIL %-34s %d samples\n", "IMA encoder/decoder tracking", track_bad);
        mismatches += track_bad;
    }

    check_snr("IMA SNR (tones)", snr_db(pcm8k, ima_out, 256, IMA_SAMPLES / 2, 0), 25.0);
}

/* every code value, including long runs that drive the index to its
 * limits, must decode to the recorded sequence */
static void test_ima_decoder_stress(void)
{
    ima_state dec = { 0, 0 };
    int i;

    for (i = 0; i < IMA_SAMPLES; i++) {
        if (i < 512)
            ima_unpacked[i] = (uint8_t)(i & 15);
        else if (i < 1024)
            ima_unpacked[i] = 7;                       /* maximum positive */
        else if (i < 1536)
            ima_unpacked[i] = 15;                      /* maximum negative */
        else if (i < 2048)
            ima_unpacked[i] = (uint8_t)((i & 1) ? 0 : 8);
        else
            ima_unpacked[i] = (uint8_t)((i * 7 + (i >> 5)) & 15);
    }
    ima_decode_stream(&dec, ima_unpacked, ima_out, IMA_SAMPLES);
    check_word("IMA decoder stress digest", crc32_samples(ima_out, IMA_SAMPLES), 0x15de2afdu);
    check_word("IMA decoder stress final index", (uint32_t)dec.index, 84u);
}

static void test_ima_wav(void)
{
    ima_state st[2];
    int spb_mono = wav_samples_per_block(WAV_BLOCK_MONO, 1);
    int spb_stereo = wav_samples_per_block(WAV_BLOCK_STEREO, 2);
    int nblocks = IMA_SAMPLES / spb_mono;
    int b, i, bad;

    check_word("samples per mono block", (uint32_t)spb_mono, 505u);
    check_word("samples per stereo block", (uint32_t)spb_stereo, 505u);

    /* mono */
    st[0].predictor = 0;
    st[0].index = 0;
    for (b = 0; b < nblocks; b++)
        ima_wav_encode_block(st, pcm8k + b * spb_mono, 1, WAV_BLOCK_MONO,
                             wav_blocks + b * WAV_BLOCK_MONO);
    check_word("WAV mono blocks digest", crc32_update(0, wav_blocks, nblocks * WAV_BLOCK_MONO), 0x2e45837du);
    for (b = 0; b < nblocks; b++)
        ima_wav_decode_block(wav_blocks + b * WAV_BLOCK_MONO, 1, WAV_BLOCK_MONO,
                             mono_out + b * spb_mono);
    check_word("WAV mono decoded digest", crc32_samples(mono_out, nblocks * spb_mono), 0xed676b5fu);
    check_snr("WAV mono SNR", snr_db(pcm8k, mono_out, 256, IMA_SAMPLES / 2, 0), 25.0);

    /* stereo: left = the mono signal, right = a different signal */
    make_signal(pcm8k_right, IMA_SAMPLES, 0x05100000u, 0x01900000u, 777u);
    for (i = 0; i < IMA_SAMPLES; i++) {
        stereo_in[2 * i] = pcm8k[i];
        stereo_in[2 * i + 1] = pcm8k_right[i];
    }
    st[0].predictor = 0;
    st[0].index = 0;
    st[1].predictor = 0;
    st[1].index = 0;
    for (b = 0; b < nblocks; b++)
        ima_wav_encode_block(st, stereo_in + 2 * b * spb_stereo, 2, WAV_BLOCK_STEREO,
                             wav_blocks + b * WAV_BLOCK_STEREO);
    check_word("WAV stereo blocks digest", crc32_update(0, wav_blocks, nblocks * WAV_BLOCK_STEREO), 0xda26e704u);
    for (b = 0; b < nblocks; b++)
        ima_wav_decode_block(wav_blocks + b * WAV_BLOCK_STEREO, 2, WAV_BLOCK_STEREO,
                             stereo_out + 2 * b * spb_stereo);
    check_word("WAV stereo decoded digest", crc32_samples(stereo_out, 2 * nblocks * spb_stereo), 0x68d13ef7u);

    /* channels are coded independently: the left channel must equal the
     * mono result, sample for sample */
    bad = 0;
    for (i = 0; i < nblocks * spb_stereo; i++)
        if (stereo_out[2 * i] != mono_out[i])
            bad++;
    checks++;
    if (bad) {
        printf("FAIL %-34s %d samples\n", "WAV stereo left == mono", bad);
        mismatches += bad;
    }
    for (i = 0; i < nblocks * spb_stereo; i++)
        mono_out[i] = stereo_out[2 * i + 1];
    check_snr("WAV stereo right SNR", snr_db(pcm8k_right, mono_out, 256, IMA_SAMPLES / 2, 0), 25.0);
}

static void test_g722(void)
{
    static const uint32_t mode_crc[3] = { 0xa3ba43b6u, 0xa842fa25u, 0xe19b84fcu };
    static const double mode_min_snr[3] = { 34.0, 34.0, 33.0 };
    g722_state enc, dec;
    char name[48];
    int mode;
    double snr;

    make_signal(pcm16k, G722_SAMPLES, 0x01c00000u, 0x09000000u, 4242u);
    g722_init(&enc);
    g722_encode(&enc, pcm16k, g722_codes, G722_SAMPLES);
    check_codes("G.722 first 32 codes", g722_codes, g722_first_codes, 32);
    check_word("G.722 code digest", crc32_update(0, g722_codes, G722_SAMPLES / 2), 0xbaddc811u);

    for (mode = 1; mode <= 3; mode++) {
        g722_init(&dec);
        g722_decode(&dec, g722_codes, g722_out, G722_SAMPLES, mode);
        if (mode == 1)
            check_samples("G.722 first 32 decoded", g722_out, g722_first_samples, 32);
        sprintf(name, "G.722 mode %d decoded digest", mode);
        check_word(name, crc32_samples(g722_out, G722_SAMPLES), mode_crc[mode - 1]);
        snr = snr_db(pcm16k, g722_out, 256, G722_SAMPLES / 2, G722_DELAY);
        sprintf(name, "G.722 mode %d SNR", mode);
        check_snr(name, snr, mode_min_snr[mode - 1]);
    }
}

/* the decoder must accept arbitrary code bytes without leaving range */
static void test_g722_decoder_stress(void)
{
    g722_state dec;
    int i;

    lcg_state = 99u;
    for (i = 0; i < G722_SAMPLES / 2; i++)
        g722_codes[i] = (uint8_t)(lcg_noise(128) & 0xff);
    g722_init(&dec);
    g722_decode(&dec, g722_codes, g722_out, G722_SAMPLES, 1);
    check_word("G.722 decoder stress digest", crc32_samples(g722_out, G722_SAMPLES), 0x47e4f2d4u);
    check_word("G.722 stress lower-band det", (uint32_t)dec.band[0].det, 16384u);
}

int main(void)
{
    test_tables();
    test_ima_stream();
    test_ima_decoder_stress();
    test_ima_wav();
    test_g722();
    test_g722_decoder_stress();

    printf("ADPCM self-test: %d checks\n", checks);
    printf("mismatches = %d\n", mismatches);
    return mismatches > 255 ? 255 : mismatches;
}
