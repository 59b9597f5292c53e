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
 * This file is the design.  Its interface (the functions at the end, all
 * named adpcm_*) is exercised by the test driver adpcm_test.c, which feeds
 * the test signals and prints every code, sample and state value; the
 * harness compares that output with the output of the known-good design.
 */
#include <stdint.h>
#include <string.h>
#include <math.h>

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

/* ------------------------------------------------------------------ */
/* Interface of the design (used by the test driver)                   */
/* ------------------------------------------------------------------ */

/* IMA stream coding; *predictor and *index carry the coder state in and
 * out (index 0..88).  track[] receives the encoder's reconstruction. */
void adpcm_ima_encode(int *predictor, int *index, const int16_t *pcm, uint8_t *codes,
                      int16_t *track, int n)
{
    ima_state st;
    st.predictor = *predictor;
    st.index = *index;
    ima_encode_stream(&st, pcm, codes, track, n);
    *predictor = st.predictor;
    *index = st.index;
}

void adpcm_ima_decode(int *predictor, int *index, const uint8_t *codes, int16_t *pcm, int n)
{
    ima_state st;
    st.predictor = *predictor;
    st.index = *index;
    ima_decode_stream(&st, codes, pcm, n);
    *predictor = st.predictor;
    *index = st.index;
}

void adpcm_pack(const uint8_t *codes, uint8_t *bytes, int n)
{
    pack_nibbles(codes, bytes, n);
}

void adpcm_unpack(const uint8_t *bytes, uint8_t *codes, int n)
{
    unpack_nibbles(bytes, codes, n);
}

int adpcm_wav_samples_per_block(int block_align, int channels)
{
    return wav_samples_per_block(block_align, channels);
}

/* one WAVE block from interleaved pcm; index[ch] carries each channel's
 * step index from block to block */
void adpcm_wav_encode(int *index, const int16_t *pcm, int channels, int block_align,
                      uint8_t *block)
{
    ima_state st[2];
    int ch;
    for (ch = 0; ch < channels; ch++) {
        st[ch].predictor = 0;
        st[ch].index = index[ch];
    }
    ima_wav_encode_block(st, pcm, channels, block_align, block);
    for (ch = 0; ch < channels; ch++)
        index[ch] = st[ch].index;
}

void adpcm_wav_decode(const uint8_t *block, int channels, int block_align, int16_t *pcm)
{
    ima_wav_decode_block(block, channels, block_align, pcm);
}

/* the sub-band coder keeps one encoder and one decoder state between calls */
static g722_state g722_enc, g722_dec;

void adpcm_g722_reset(void)
{
    g722_init(&g722_enc);
    g722_init(&g722_dec);
}

void adpcm_g722_encode(const int16_t *in, uint8_t *out, int n)
{
    g722_encode(&g722_enc, in, out, n);
}

void adpcm_g722_decode(const uint8_t *in, int16_t *out, int n, int mode)
{
    g722_decode(&g722_dec, in, out, n, mode);
}

/* the state of the encoder (which = 0) or decoder (1): per band s, sp,
 * sz, nb, det, a1, a2, b1..b6 (13 values), then the 24 QMF taps */
void adpcm_g722_state(int which, int *vals)
{
    const g722_state *s = which ? &g722_dec : &g722_enc;
    int band, i, k = 0;
    for (band = 0; band < 2; band++) {
        const g722_band *bd = &s->band[band];
        vals[k++] = bd->s;
        vals[k++] = bd->sp;
        vals[k++] = bd->sz;
        vals[k++] = bd->nb;
        vals[k++] = bd->det;
        vals[k++] = bd->a[1];
        vals[k++] = bd->a[2];
        for (i = 1; i < 7; i++)
            vals[k++] = bd->b[i];
    }
    for (i = 0; i < 24; i++)
        vals[k++] = s->x[i];
}

/* SNR in dB of test[from..to) against ref[] delayed by delay samples */
double adpcm_snr_db(const int16_t *ref, const int16_t *test, int from, int to, int delay)
{
    return snr_db(ref, test, from, to, delay);
}
