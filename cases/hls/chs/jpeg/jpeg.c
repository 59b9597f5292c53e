/*
 * jpeg.c -- baseline sequential DCT-based JPEG coding pieces: Huffman
 * entropy coding with byte stuffing and restart markers, zig-zag
 * reordering, quantisation, and fixed-point 8x8 forward/inverse DCT.
 *
 * Specification implemented:
 *   ITU-T Recommendation T.81 | ISO/IEC 10918-1, "Digital compression and
 *   coding of continuous-tone still images":
 *     - A.3.3  FDCT and IDCT definitions, A.3.4 quantisation (rounding to
 *       the nearest integer) and dequantisation, A.3.6 zig-zag order
 *       (Figure A.6)
 *     - Annex C  Huffman table specification: HUFFSIZE (Figure C.1),
 *       HUFFCODE (Figure C.2), EHUFCO/EHUFSI (Figure C.3)
 *     - F.1.2.1/F.1.2.2  DC difference and AC run-length encoding
 *       (Figures F.1 - F.5), F.1.2.3 byte stuffing
 *     - F.2.2  decoding: MINCODE/MAXCODE/VALPTR (Figure F.15), DECODE
 *       (Figure F.16), RECEIVE and EXTEND (Figure F.12), AC decoding
 *       (Figure F.13), NEXTBIT with marker detection (Figure F.18)
 *     - B.2.4.4 / E.1.4 restart intervals with RSTm markers
 *     - Annex K  Table K.1 (luminance quantisation) and Tables K.3 / K.5
 *       (luminance DC and AC Huffman codes)
 *   The 8x8 DCT is computed separably with 13-bit fixed-point cosine
 *   coefficients; the inverse transform is checked for accuracy against
 *   a double-precision evaluation of the A.3.3 formula in the manner of
 *   IEEE Std 1180 (peak error at most 1).
 *
 * Self-check: deterministic 8x8 test blocks are transformed, quantised
 * with three tables and Huffman-encoded into one scan with restart
 * markers; the scan is decoded again.  The decoded quantised
 * coefficients must equal the encoder's exactly, and the reconstructed
 * pixels, the scan length and a CRC of the scan must equal embedded
 * expected values.  main() prints the number of mismatches and returns
 * it (capped at 255).
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define BLOCK       64
#define NBLOCKS     24
#define RESTART_INTERVAL 5
#define STREAM_MAX  16384
#define NTABLES     3

/* ------------------------------------------------------------------ */
/* Tables from T.81                                                    */
/* ------------------------------------------------------------------ */

/* Zig-zag sequence (Figure A.6): zigzag[k] is the natural (row-major)
 * index of the k-th coefficient in zig-zag order. */
static const uint8_t zigzag[BLOCK] = {
     0,  1,  8, 16,  9,  2,  3, 10,
    17, 24, 32, 25, 18, 11,  4,  5,
    12, 19, 26, 33, 40, 48, 41, 34,
    27, 20, 13,  6,  7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36,
    29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46,
    53, 60, 61, 54, 47, 55, 62, 63
};

/* Table K.1: luminance quantisation table, natural order. */
static const uint16_t std_luma_quant[BLOCK] = {
    16, 11, 10, 16,  24,  40,  51,  61,
    12, 12, 14, 19,  26,  58,  60,  55,
    14, 13, 16, 24,  40,  57,  69,  56,
    14, 17, 22, 29,  51,  87,  80,  62,
    18, 22, 37, 56,  68, 109, 103,  77,
    24, 35, 55, 64,  81, 104, 113,  92,
    49, 64, 78, 87, 103, 121, 120, 101,
    72, 92, 95, 98, 112, 100, 103,  99
};

/* Table K.3: luminance DC difference codes (BITS, HUFFVAL). */
static const uint8_t dc_luma_bits[16] = {
    0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0
};
static const uint8_t dc_luma_vals[12] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
};

/* Table K.5: luminance AC codes (BITS, HUFFVAL). */
static const uint8_t ac_luma_bits[16] = {
    0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D
};
static const uint8_t ac_luma_vals[162] = {
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12,
    0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
    0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08,
    0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
    0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16,
    0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28,
    0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39,
    0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
    0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
    0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
    0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79,
    0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
    0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98,
    0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
    0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6,
    0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5,
    0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4,
    0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
    0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA,
    0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
    0xF9, 0xFA
};

#define AC_EOB  0x00
#define AC_ZRL  0xF0

/* Fixed-point DCT basis: dct_k[x][u] = round(2^13 * C(u)/2 * cos((2x+1)u*pi/16)),
 * C(0) = 1/sqrt(2), C(u) = 1 otherwise (A.3.3). */
#define DCT_FRAC_BITS 13
static const int16_t dct_k[8][8] = {
    {  2896,   4017,   3784,   3406,   2896,   2276,   1567,    799 },
    {  2896,   3406,   1567,   -799,  -2896,  -4017,  -3784,  -2276 },
    {  2896,   2276,  -1567,  -4017,  -2896,    799,   3784,   3406 },
    {  2896,    799,  -3784,  -2276,   2896,   3406,  -1567,  -4017 },
    {  2896,   -799,  -3784,   2276,   2896,  -3406,  -1567,   4017 },
    {  2896,  -2276,  -1567,   4017,  -2896,   -799,   3784,  -3406 },
    {  2896,  -3406,   1567,    799,  -2896,   4017,  -3784,   2276 },
    {  2896,  -4017,   3784,  -3406,   2896,  -2276,   1567,   -799 }
};

/* First pass keeps PASS1_BITS fractional bits; the second removes the rest. */
#define PASS1_SHIFT (DCT_FRAC_BITS - 4)
#define PASS2_SHIFT (DCT_FRAC_BITS + 4)

/* ------------------------------------------------------------------ */
/* Mismatch bookkeeping                                                */
/* ------------------------------------------------------------------ */
static unsigned mismatches;
static unsigned checks;

static void expect(const char *what, int idx, long got, long want)
{
    checks++;
    if (got != want) {
        if (mismatches < 10)
            printf("MISMATCH %s[%d]: got %ld want %ld\n", what, idx, got, want);
        mismatches++;
    }
}

/* ------------------------------------------------------------------ */
/* Huffman tables (Annex C and F.2.2.3)                                */
/* ------------------------------------------------------------------ */
typedef struct {
    const uint8_t *bits;       /* BITS[0..15]: codes of length 1..16 */
    const uint8_t *vals;       /* HUFFVAL */
    int nvals;
    uint8_t  huffsize[257];
    uint16_t huffcode[256];
    /* encoder tables, indexed by symbol */
    uint16_t ehufco[256];
    uint8_t  ehufsi[256];
    /* decoder tables, indexed by code length 1..16 */
    int32_t  mincode[17];
    int32_t  maxcode[18];
    int32_t  valptr[17];
} huff_t;

static int huff_build(huff_t *h, const uint8_t *bits, const uint8_t *vals)
{
    int k, l, i, lastk, j;
    uint32_t code;
    uint8_t si;

    h->bits = bits;
    h->vals = vals;

    /* Figure C.1: HUFFSIZE */
    k = 0;
    for (l = 0; l < 16; l++)
        for (i = 0; i < bits[l]; i++)
            h->huffsize[k++] = (uint8_t)(l + 1);
    h->huffsize[k] = 0;
    lastk = k;
    h->nvals = lastk;

    /* Figure C.2: HUFFCODE */
    k = 0;
    code = 0;
    si = h->huffsize[0];
    for (;;) {
        while (h->huffsize[k] == si) {
            h->huffcode[k] = (uint16_t)code;
            code++;
            k++;
        }
        if (h->huffsize[k] == 0)
            break;
        do {
            code <<= 1;
            si++;
        } while (h->huffsize[k] != si);
    }

    /* Figure C.3: EHUFCO / EHUFSI by symbol */
    memset(h->ehufsi, 0, sizeof h->ehufsi);
    memset(h->ehufco, 0, sizeof h->ehufco);
    for (k = 0; k < lastk; k++) {
        h->ehufco[vals[k]] = h->huffcode[k];
        h->ehufsi[vals[k]] = h->huffsize[k];
    }

    /* Figure F.15: decoder tables */
    j = 0;
    for (l = 1; l <= 16; l++) {
        if (bits[l - 1] == 0) {
            h->maxcode[l] = -1;
            h->mincode[l] = 0;
            h->valptr[l] = 0;
        } else {
            h->valptr[l] = j;
            h->mincode[l] = h->huffcode[j];
            j += bits[l - 1] - 1;
            h->maxcode[l] = h->huffcode[j];
            j++;
        }
    }
    h->maxcode[17] = 0x7FFFFFFF;         /* sentinel: ends DECODE */
    return lastk;
}

/* ------------------------------------------------------------------ */
/* Bit writer with byte stuffing (F.1.2.3)                             */
/* ------------------------------------------------------------------ */
typedef struct {
    uint8_t  buf[STREAM_MAX];
    uint32_t len;
    uint32_t acc;
    int      nbits;
    int      overflow;
} bitw_t;

static void emit_byte(bitw_t *w, uint8_t b)
{
    if (w->len >= STREAM_MAX) {
        w->overflow = 1;
        return;
    }
    w->buf[w->len++] = b;
}

static void put_bits(bitw_t *w, uint32_t code, int size)
{
    w->acc = (w->acc << size) | (code & ((1u << size) - 1u));
    w->nbits += size;
    while (w->nbits >= 8) {
        uint8_t b = (uint8_t)(w->acc >> (w->nbits - 8));
        emit_byte(w, b);
        if (b == 0xFF)
            emit_byte(w, 0x00);          /* stuffed zero byte */
        w->nbits -= 8;
    }
}

/* Pad the last partial byte with 1-bits (F.1.2.3). */
static void flush_bits(bitw_t *w)
{
    if (w->nbits > 0)
        put_bits(w, 0x7F, 8 - w->nbits);
    w->acc = 0;
}

static void emit_marker(bitw_t *w, uint8_t m)
{
    emit_byte(w, 0xFF);
    emit_byte(w, m);
}

/* ------------------------------------------------------------------ */
/* Bit reader (NEXTBIT, Figure F.18)                                   */
/* ------------------------------------------------------------------ */
typedef struct {
    const uint8_t *buf;
    uint32_t len;
    uint32_t pos;
    uint32_t cur;
    int      cnt;           /* bits left in cur */
    int      marker;        /* marker code found in the data, or 0 */
    int      errors;
} bitr_t;

static int next_bit(bitr_t *r)
{
    if (r->cnt == 0) {
        uint8_t b;
        if (r->marker != 0 || r->pos >= r->len) {
            b = 0;                       /* past the data: feed zeros */
            r->errors++;
        } else {
            b = r->buf[r->pos++];
            if (b == 0xFF) {
                uint8_t b2 = (r->pos < r->len) ? r->buf[r->pos] : 0;
                if (b2 == 0x00) {
                    r->pos++;            /* stuffed byte: data 0xFF */
                } else {
                    r->marker = b2;      /* a marker: stop here */
                    r->pos--;
                    b = 0;
                    r->errors++;
                }
            }
        }
        r->cur = b;
        r->cnt = 8;
    }
    r->cnt--;
    return (int)((r->cur >> r->cnt) & 1u);
}

/* RECEIVE(SSSS): next s bits, most significant first. */
static int32_t receive(bitr_t *r, int s)
{
    int32_t v = 0;
    int i;
    for (i = 0; i < s; i++)
        v = (v << 1) | next_bit(r);
    return v;
}

/* EXTEND (Figure F.12): map an s-bit magnitude code to a signed value. */
static int32_t extend(int32_t v, int t)
{
    int32_t vt;
    if (t == 0)
        return 0;
    vt = (int32_t)1 << (t - 1);
    if (v < vt)
        v = v - ((int32_t)1 << t) + 1;
    return v;
}

/* DECODE (Figure F.16). Returns the symbol or -1 for an invalid code. */
static int huff_decode(bitr_t *r, const huff_t *h)
{
    int l = 1;
    int32_t code = next_bit(r);

    while (code > h->maxcode[l]) {
        l++;
        code = (code << 1) | next_bit(r);
    }
    if (l > 16)
        return -1;
    return h->vals[h->valptr[l] + code - h->mincode[l]];
}

/* Skip to the next byte boundary and consume the expected RSTm marker. */
static int read_restart(bitr_t *r, int m)
{
    r->cnt = 0;
    if (r->marker == 0) {
        if (r->pos + 1 < r->len && r->buf[r->pos] == 0xFF)
            r->marker = r->buf[r->pos + 1];
        else
            return 0;
    }
    if (r->marker != 0xD0 + m)
        return 0;
    r->pos += 2;
    r->marker = 0;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Entropy coding of one block                                         */
/* ------------------------------------------------------------------ */

/* Magnitude category SSSS (Tables F.1 and F.2). */
static int category(int32_t v)
{
    int s = 0;
    int32_t t = (v < 0) ? -v : v;
    while (t != 0) {
        s++;
        t >>= 1;
    }
    return s;
}

/* Low s bits of v, with negative values coded as v - 1 (F.1.2.1). */
static uint32_t magnitude_bits(int32_t v, int s)
{
    if (v < 0)
        v -= 1;
    return (uint32_t)v & ((1u << s) - 1u);
}

/* Encode quantised coefficients zz[] (zig-zag order). */
static void encode_block(bitw_t *w, const int16_t *zz, int32_t *pred,
                         const huff_t *dc, const huff_t *ac)
{
    int32_t diff = zz[0] - *pred;
    int s, k, r, last;

    *pred = zz[0];
    s = category(diff);
    put_bits(w, dc->ehufco[s], dc->ehufsi[s]);
    if (s)
        put_bits(w, magnitude_bits(diff, s), s);

    /* position of the last non-zero AC coefficient */
    for (last = BLOCK - 1; last > 0 && zz[last] == 0; last--)
        ;
    r = 0;
    for (k = 1; k <= last; k++) {
        if (zz[k] == 0) {
            r++;
            continue;
        }
        while (r > 15) {
            put_bits(w, ac->ehufco[AC_ZRL], ac->ehufsi[AC_ZRL]);
            r -= 16;
        }
        s = category(zz[k]);
        put_bits(w, ac->ehufco[(r << 4) + s], ac->ehufsi[(r << 4) + s]);
        put_bits(w, magnitude_bits(zz[k], s), s);
        r = 0;
    }
    if (last < BLOCK - 1)
        put_bits(w, ac->ehufco[AC_EOB], ac->ehufsi[AC_EOB]);
}

/* Decode one block into zz[] (zig-zag order). Returns 0 on error. */
static int decode_block(bitr_t *r, int16_t *zz, int32_t *pred,
                        const huff_t *dc, const huff_t *ac)
{
    int t, k, rs, run, s;
    int32_t diff;

    memset(zz, 0, BLOCK * sizeof zz[0]);
    t = huff_decode(r, dc);
    if (t < 0 || t > 11)
        return 0;
    diff = extend(receive(r, t), t);
    *pred += diff;
    zz[0] = (int16_t)*pred;

    k = 1;
    while (k < BLOCK) {
        rs = huff_decode(r, ac);
        if (rs < 0)
            return 0;
        run = rs >> 4;
        s = rs & 15;
        if (s == 0) {
            if (run == 15) {             /* ZRL: sixteen zeros */
                k += 16;
                continue;
            }
            break;                       /* EOB */
        }
        k += run;
        if (k > BLOCK - 1)
            return 0;
        zz[k] = (int16_t)extend(receive(r, s), s);
        k++;
    }
    return k <= BLOCK;
}

/* ------------------------------------------------------------------ */
/* Transforms                                                          */
/* ------------------------------------------------------------------ */

/* Forward DCT of level-shifted samples (natural order in and out). */
static void fdct_8x8(const int16_t *in, int32_t *out)
{
    int32_t tmp[BLOCK];
    int x, y, u, v;

    for (y = 0; y < 8; y++)
        for (u = 0; u < 8; u++) {
            int32_t acc = 0;
            for (x = 0; x < 8; x++)
                acc += dct_k[x][u] * in[y * 8 + x];
            tmp[y * 8 + u] = (acc + (1 << (PASS1_SHIFT - 1))) >> PASS1_SHIFT;
        }
    for (u = 0; u < 8; u++)
        for (v = 0; v < 8; v++) {
            int64_t acc = 0;
            for (y = 0; y < 8; y++)
                acc += (int64_t)dct_k[y][v] * tmp[y * 8 + u];
            out[v * 8 + u] = (int32_t)((acc + ((int64_t)1 << (PASS2_SHIFT - 1))) >> PASS2_SHIFT);
        }
}

/* Inverse DCT (natural order in), producing signed samples. */
static void idct_8x8(const int32_t *in, int32_t *out)
{
    int32_t tmp[BLOCK];
    int x, y, u, v;

    for (v = 0; v < 8; v++)
        for (x = 0; x < 8; x++) {
            int32_t acc = 0;
            for (u = 0; u < 8; u++)
                acc += dct_k[x][u] * in[v * 8 + u];
            tmp[v * 8 + x] = (acc + (1 << (PASS1_SHIFT - 1))) >> PASS1_SHIFT;
        }
    for (x = 0; x < 8; x++)
        for (y = 0; y < 8; y++) {
            int64_t acc = 0;
            for (v = 0; v < 8; v++)
                acc += (int64_t)dct_k[y][v] * tmp[v * 8 + x];
            out[y * 8 + x] = (int32_t)((acc + ((int64_t)1 << (PASS2_SHIFT - 1))) >> PASS2_SHIFT);
        }
}

static uint8_t clamp_pixel(int32_t v)
{
    if (v < 0)
        return 0;
    if (v > 255)
        return 255;
    return (uint8_t)v;
}

/* Quantise with rounding to nearest (A.3.4), natural order in,
 * zig-zag order out. */
static void quantise(const int32_t *coef, const uint16_t *qt, int16_t *zz)
{
    int k;
    for (k = 0; k < BLOCK; k++) {
        int32_t c = coef[zigzag[k]];
        int32_t q = qt[zigzag[k]];
        int32_t v = (c >= 0) ? (c + q / 2) / q : -((-c + q / 2) / q);
        zz[k] = (int16_t)v;
    }
}

/* Dequantise zig-zag coefficients into natural order. */
static void dequantise(const int16_t *zz, const uint16_t *qt, int32_t *coef)
{
    int k;
    for (k = 0; k < BLOCK; k++)
        coef[zigzag[k]] = (int32_t)zz[k] * qt[zigzag[k]];
}

/* Scale Table K.1 by percent (100 = as printed), clamping to 1..255. */
static void scale_quant(uint16_t *qt, int percent)
{
    int i;
    for (i = 0; i < BLOCK; i++) {
        int32_t q = (std_luma_quant[i] * percent + 50) / 100;
        if (q < 1)
            q = 1;
        if (q > 255)
            q = 255;
        qt[i] = (uint16_t)q;
    }
}

/* ------------------------------------------------------------------ */
/* Test material                                                       */
/* ------------------------------------------------------------------ */
static uint32_t lcg_state = 0x1234567u;
static uint32_t rnd(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (lcg_state >> 8) & 0xFFFFFFu;
}

/* Fill block b of the test image (8x8 samples, 0..255). */
static void make_block(int b, uint8_t *px)
{
    int x, y;
    int c0, c1, c2, c3;

    c0 = (int)(rnd() & 255); c1 = (int)(rnd() & 255);
    c2 = (int)(rnd() & 255); c3 = (int)(rnd() & 255);
    for (y = 0; y < 8; y++)
        for (x = 0; x < 8; x++) {
            int v;
            switch (b % 12) {
            case 0:  v = 128; break;                                  /* flat grey */
            case 1:  v = (b < 12) ? 0 : 255; break;                   /* black / white */
            case 2:  v = x * 32 + 8; break;                           /* horizontal ramp */
            case 3:  v = 255 - y * 30; break;                         /* vertical ramp */
            case 4:  v = ((x + y) & 1) ? 255 : 0; break;              /* 1-pixel checkerboard */
            case 5:  v = (((x >> 1) + (y >> 1)) & 1) ? 200 : 40; break;
            case 6:  v = (x < 3) ? 20 : 230; break;                   /* vertical edge */
            case 7: {                                                 /* disc */
                int dx = 2 * x - 7, dy = 2 * y - 7;
                v = (dx * dx + dy * dy < 36) ? 220 : 30;
                break;
            }
            case 8:  v = (int)(rnd() & 255); break;                   /* noise */
            case 9:                                                   /* bilinear patch */
                v = (c0 * (7 - x) * (7 - y) + c1 * x * (7 - y)
                     + c2 * (7 - x) * y + c3 * x * y) / 49;
                break;
            case 10: v = 128 + (int)((rnd() & 31)) - 16 + ((y == 4) ? 90 : 0); break;
            default:
                if (b < 12)                  /* one high-frequency basis pattern */
                    v = 128 + (dct_k[x][5] * dct_k[y][6]) / 262144;
                else
                    v = (x * y * 4 + c0) & 255;
                break;
            }
            px[y * 8 + x] = (uint8_t)v;
        }
}

/* FNV-1a over the decoded pixels of one block. */
static uint32_t hash_block(const uint8_t *px)
{
    uint32_t h = 2166136261u;
    int i;
    for (i = 0; i < BLOCK; i++) {
        h ^= px[i];
        h *= 16777619u;
    }
    return h;
}

static uint32_t crc32_bytes(const uint8_t *p, uint32_t n)
{
    uint32_t crc = 0xFFFFFFFFu, i;
    int k;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* Expected results, per quantisation table: length and CRC-32 of the
 * entropy-coded scan, and the hash of every reconstructed block. */
static const int table_percent[NTABLES] = { 100, 25, 1 };
static const uint32_t expected_len[NTABLES] = { 330u, 497u, 862u };
static const uint32_t expected_crc[NTABLES] = { 0xebf28eceu, 0x4592f5bdu, 0x97d12fd0u };
static const uint32_t expected_hash[NTABLES][NBLOCKS] = {
    {
        0xe5f96ac5u, 0xdfde6ac5u, 0x93ee6745u, 0x385b642du, 0x94909a3fu, 0x5d974129u,
        0x36569475u, 0x0a3c1eb9u, 0x955940c8u, 0x135853d6u, 0xbcb8ed98u, 0x852e850du,
        0xe5f96ac5u, 0xbbc5c685u, 0x93ee6745u, 0x385b642du, 0x94909a3fu, 0x5d974129u,
        0x36569475u, 0x0a3c1eb9u, 0x285c7189u, 0xf63c831fu, 0x987cb87au, 0x98dcb4f4u
    },
    {
        0xe5f96ac5u, 0xdfde6ac5u, 0x6865fac5u, 0xc8d97ed5u, 0xd08ff823u, 0x4bb4bc29u,
        0x61c500c5u, 0x80704659u, 0x3bd7e265u, 0x12059021u, 0xf9f49e8bu, 0x1f5fff15u,
        0xe5f96ac5u, 0xbbc5c685u, 0x6865fac5u, 0xc8d97ed5u, 0xd08ff823u, 0x4bb4bc29u,
        0x61c500c5u, 0x80704659u, 0x4df1663cu, 0x919d302au, 0xf5bfe88du, 0xd2c204a0u
    },
    {
        0xe5f96ac5u, 0xdfde6ac5u, 0x0bb81ac5u, 0xfb760125u, 0xddaf7dc5u, 0x5d3bc6c5u,
        0xcb197a45u, 0x6b103745u, 0x7113e57du, 0x23f22770u, 0x6b626081u, 0x05b5fa05u,
        0xe5f96ac5u, 0xbbc5c685u, 0x0bb81ac5u, 0xfb760125u, 0xddaf7dc5u, 0x5d3bc6c5u,
        0xcb197a45u, 0x6b103745u, 0xe0cadbe4u, 0xb96bd1ddu, 0x0f39fd8fu, 0x3d222a85u
    }
};

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

/* The zig-zag table must be the diagonal walk of Figure A.6. */
static void check_zigzag(void)
{
    int k = 0, s, i;
    for (s = 0; s < 15; s++) {
        for (i = 0; i <= s; i++) {
            int r = (s & 1) ? i : s - i;     /* odd diagonals run downwards */
            int c = s - r;
            if (r < 8 && c < 8) {
                expect("zigzag", k, zigzag[k], r * 8 + c);
                k++;
            }
        }
    }
    expect("zigzag_count", 0, k, BLOCK);
}

/* Code words of Tables K.3 and K.5 that follow from Annex C. */
static void check_codes(const huff_t *dc, const huff_t *ac)
{
    static const struct { int sym; uint16_t code; uint8_t size; } dcw[] = {
        { 0, 0x0, 2 }, { 1, 0x2, 3 }, { 2, 0x3, 3 }, { 5, 0x6, 3 },
        { 6, 0xE, 4 }, { 7, 0x1E, 5 }, { 11, 0x1FE, 9 }
    }, acw[] = {
        { 0x01, 0x0, 2 }, { 0x02, 0x1, 2 }, { 0x03, 0x4, 3 }, { 0x00, 0xA, 4 },
        { 0x04, 0xB, 4 }, { 0x11, 0xC, 4 }, { 0x05, 0x1A, 5 }, { 0x12, 0x1B, 5 },
        { 0x21, 0x1C, 5 }, { 0xF0, 0x7F9, 11 }, { 0xFA, 0xFFFE, 16 }
    };
    unsigned i;
    for (i = 0; i < sizeof dcw / sizeof dcw[0]; i++) {
        expect("dc_code", dcw[i].sym, dc->ehufco[dcw[i].sym], dcw[i].code);
        expect("dc_size", dcw[i].sym, dc->ehufsi[dcw[i].sym], dcw[i].size);
    }
    for (i = 0; i < sizeof acw / sizeof acw[0]; i++) {
        expect("ac_code", acw[i].sym, ac->ehufco[acw[i].sym], acw[i].code);
        expect("ac_size", acw[i].sym, ac->ehufsi[acw[i].sym], acw[i].size);
    }
}

/* The fixed-point basis must be the rounded A.3.3 cosines. */
static void check_basis(void)
{
    int x, u;
    for (x = 0; x < 8; x++)
        for (u = 0; u < 8; u++) {
            double c = (u == 0) ? 1.0 / sqrt(2.0) : 1.0;
            double ideal = 8192.0 * 0.5 * c * cos((2 * x + 1) * u * 3.14159265358979323846 / 16.0);
            expect("basis", x * 8 + u, fabs(dct_k[x][u] - ideal) <= 0.5 ? 0 : 1, 0);
        }
}

/* IEEE 1180-style accuracy test of the inverse DCT. */
#define IDCT_TRIALS 300
static void check_idct_accuracy(void)
{
    int32_t in[BLOCK], out[BLOCK];
    double basis[8][8];
    long peak = 0, sum_sq = 0, sum_err = 0;
    int t, i, x, y, u, v;

    for (x = 0; x < 8; x++)
        for (u = 0; u < 8; u++)
            basis[x][u] = 0.5 * ((u == 0) ? 1.0 / sqrt(2.0) : 1.0)
                        * cos((2 * x + 1) * u * 3.14159265358979323846 / 16.0);
    for (t = 0; t < IDCT_TRIALS; t++) {
        int range = (t % 3 == 0) ? 300 : (t % 3 == 1) ? 40 : 5;
        for (i = 0; i < BLOCK; i++) {
            int32_t r = (int32_t)(rnd() % (uint32_t)(2 * range + 1)) - range;
            in[i] = ((rnd() & 3) == 0 || i < 6) ? r : 0;
        }
        idct_8x8(in, out);
        for (y = 0; y < 8; y++)
            for (x = 0; x < 8; x++) {
                double s = 0.0;
                long ref, e;
                for (v = 0; v < 8; v++)
                    for (u = 0; u < 8; u++)
                        s += basis[x][u] * basis[y][v] * in[v * 8 + u];
                ref = lround(s);
                if (ref < -256) ref = -256;
                if (ref > 255) ref = 255;
                e = out[y * 8 + x] - ref;
                if (out[y * 8 + x] < -256 && ref == -256) e = 0;
                if (out[y * 8 + x] > 255 && ref == 255) e = 0;
                if (e < 0 ? -e > peak : e > peak)
                    peak = e < 0 ? -e : e;
                sum_sq += e * e;
                sum_err += e;
            }
    }
    printf("idct: peak error %ld, squared error sum %ld, error sum %ld over %d samples\n",
           peak, sum_sq, sum_err, IDCT_TRIALS * BLOCK);
    expect("idct_peak_ok", 0, peak <= 1, 1);
    expect("idct_mse_ok", 0, sum_sq * 100 <= 6L * IDCT_TRIALS * BLOCK, 1);   /* mse <= 0.06 */
    expect("idct_mean_ok", 0, labs(sum_err) * 1000 <= 15L * IDCT_TRIALS * BLOCK, 1); /* |mean| <= 0.015 */
}

/* Encode all blocks with one table, decode, and compare. */
static void run_table(int ti, const huff_t *dc, const huff_t *ac)
{
    static bitw_t w;
    static int16_t enc_zz[NBLOCKS][BLOCK];
    static uint8_t orig_px[NBLOCKS][BLOCK];
    int max_err = 0;
    uint16_t qt[BLOCK];
    uint8_t px[BLOCK], out_px[BLOCK];
    int16_t lv[BLOCK], zz[BLOCK];
    int32_t coef[BLOCK], samples[BLOCK];
    int32_t pred;
    bitr_t r;
    int b, i, m;
    uint32_t crc, h;

    scale_quant(qt, table_percent[ti]);

    /* ---- encoder ---- */
    w.len = 0;
    w.acc = 0;
    w.nbits = 0;
    w.overflow = 0;
    pred = 0;
    m = 0;
    lcg_state = 0x1234567u + 77u * (uint32_t)ti;
    for (b = 0; b < NBLOCKS; b++) {
        if (b > 0 && b % RESTART_INTERVAL == 0) {
            flush_bits(&w);
            emit_marker(&w, (uint8_t)(0xD0 + m));
            m = (m + 1) & 7;
            pred = 0;
        }
        make_block(b, px);
        memcpy(orig_px[b], px, BLOCK);
        for (i = 0; i < BLOCK; i++)
            lv[i] = (int16_t)(px[i] - 128);
        fdct_8x8(lv, coef);
        quantise(coef, qt, enc_zz[b]);
        encode_block(&w, enc_zz[b], &pred, dc, ac);
    }
    flush_bits(&w);
    expect("stream_overflow", ti, w.overflow, 0);
    crc = crc32_bytes(w.buf, w.len);
    printf("table %d (%3d%%): %u bytes, crc %08x\n", ti, table_percent[ti],
           (unsigned)w.len, (unsigned)crc);
    expect("stream_len", ti, (long)w.len, (long)expected_len[ti]);
    expect("stream_crc", ti, (long)crc, (long)expected_crc[ti]);

    /* ---- decoder ---- */
    r.buf = w.buf;
    r.len = w.len;
    r.pos = 0;
    r.cnt = 0;
    r.marker = 0;
    r.errors = 0;
    pred = 0;
    m = 0;
    for (b = 0; b < NBLOCKS; b++) {
        if (b > 0 && b % RESTART_INTERVAL == 0) {
            expect("restart_marker", b, read_restart(&r, m), 1);
            m = (m + 1) & 7;
            pred = 0;
        }
        expect("decode_ok", b, decode_block(&r, zz, &pred, dc, ac), 1);
        for (i = 0; i < BLOCK; i++)
            expect("coef", b * BLOCK + i, zz[i], enc_zz[b][i]);
        dequantise(zz, qt, coef);
        idct_8x8(coef, samples);
        for (i = 0; i < BLOCK; i++) {
            int e;
            out_px[i] = clamp_pixel(samples[i] + 128);
            e = abs(out_px[i] - orig_px[b][i]);
            if (e > max_err)
                max_err = e;
        }
        h = hash_block(out_px);
        if (ti == 0 && b < 3)
            printf("block %d: %02x %02x %02x %02x ... hash %08x\n", b,
                   out_px[0], out_px[1], out_px[2], out_px[3], (unsigned)h);
        expect("pixels", ti * NBLOCKS + b, (long)h, (long)expected_hash[ti][b]);
    }
    printf("table %d: largest pixel error %d\n", ti, max_err);
    if (table_percent[ti] == 1)          /* near-lossless table */
        expect("q1_max_error_ok", ti, max_err <= 2, 1);
    expect("reader_errors", ti, r.errors, 0);
    expect("reader_end", ti, (long)r.pos, (long)r.len);
}

int main(void)
{
    static huff_t dc, ac;
    int ti;

    check_zigzag();
    expect("dc_nvals", 0, huff_build(&dc, dc_luma_bits, dc_luma_vals), 12);
    expect("ac_nvals", 0, huff_build(&ac, ac_luma_bits, ac_luma_vals), 162);
    check_codes(&dc, &ac);
    check_basis();
    check_idct_accuracy();
    for (ti = 0; ti < NTABLES; ti++)
        run_table(ti, &dc, &ac);
    printf("checks = %u\n", checks);
    printf("mismatches = %u\n", mismatches);
    return mismatches > 255 ? 255 : (int)mismatches;
}
