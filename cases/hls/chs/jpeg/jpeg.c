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
 *   coefficients; the inverse transform meets the accuracy bounds of
 *   IEEE Std 1180 against a double-precision evaluation of the A.3.3
 *   formula (peak error at most 1).
 *
 * This file is the design.  Its interface (the jpeg_* functions at the
 * end) is exercised by the test driver jpeg_test.c, which feeds the test
 * blocks and prints every table, coefficient, scan byte and pixel; the
 * harness compares that output with the output of the known-good design.
 */
#include <stdint.h>
#include <string.h>

#define BLOCK       64
#define STREAM_MAX  16384

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
/* Interface of the design (used by the test driver)                   */
/* ------------------------------------------------------------------ */

static huff_t dc_table, ac_table;        /* Tables K.3 and K.5 */
static int dc_count, ac_count;

/* builds the Huffman tables of Tables K.3 and K.5 */
void jpeg_init(void)
{
    dc_count = huff_build(&dc_table, dc_luma_bits, dc_luma_vals);
    ac_count = huff_build(&ac_table, ac_luma_bits, ac_luma_vals);
}

/* table 0 = DC, 1 = AC: the number of codes; EHUFCO and EHUFSI by symbol
 * (256 each); MINCODE[1..16], MAXCODE[1..17] and VALPTR[1..16] into dec */
int jpeg_huffman(int which, uint16_t *ehufco, uint8_t *ehufsi, int32_t *dec)
{
    const huff_t *h = which ? &ac_table : &dc_table;
    int l;
    memcpy(ehufco, h->ehufco, sizeof h->ehufco);
    memcpy(ehufsi, h->ehufsi, sizeof h->ehufsi);
    for (l = 1; l <= 16; l++)
        *dec++ = h->mincode[l];
    for (l = 1; l <= 17; l++)
        *dec++ = h->maxcode[l];
    for (l = 1; l <= 16; l++)
        *dec++ = h->valptr[l];
    return which ? ac_count : dc_count;
}

void jpeg_zigzag(uint8_t *order)
{
    memcpy(order, zigzag, sizeof zigzag);
}

/* the fixed-point cosine basis dct_k[x][u], row-major */
void jpeg_basis(int16_t *basis)
{
    memcpy(basis, dct_k, sizeof dct_k);
}

void jpeg_scale_quant(uint16_t *qt, int percent)
{
    scale_quant(qt, percent);
}

void jpeg_fdct(const int16_t *in, int32_t *out)
{
    fdct_8x8(in, out);
}

void jpeg_idct(const int32_t *in, int32_t *out)
{
    idct_8x8(in, out);
}

void jpeg_quantise(const int32_t *coef, const uint16_t *qt, int16_t *zz)
{
    quantise(coef, qt, zz);
}

void jpeg_dequantise(const int16_t *zz, const uint16_t *qt, int32_t *coef)
{
    dequantise(zz, qt, coef);
}

int jpeg_category(int32_t v)
{
    return category(v);
}

int32_t jpeg_extend(int32_t v, int t)
{
    return extend(v, t);
}

/* Encodes nblocks 8x8 blocks of pixels (64 each, row-major) into one scan
 * with an RSTm marker every `restart` blocks (0: none).  zz receives the
 * quantised coefficients of every block (zig-zag order).  Returns the
 * scan length, or -1 when the scan does not fit into max bytes. */
int jpeg_encode(const uint8_t *px, int nblocks, const uint16_t *qt, int restart,
                uint8_t *scan, int max, int16_t *zz)
{
    static bitw_t w;
    int16_t lv[BLOCK];
    int32_t coef[BLOCK];
    int32_t pred;
    int b, i, m;

    w.len = 0;
    w.acc = 0;
    w.nbits = 0;
    w.overflow = 0;
    pred = 0;
    m = 0;
    for (b = 0; b < nblocks; b++) {
        if (restart > 0 && b > 0 && b % restart == 0) {
            flush_bits(&w);
            emit_marker(&w, (uint8_t)(0xD0 + m));
            m = (m + 1) & 7;
            pred = 0;
        }
        for (i = 0; i < BLOCK; i++)
            lv[i] = (int16_t)(px[b * BLOCK + i] - 128);
        fdct_8x8(lv, coef);
        quantise(coef, qt, zz + b * BLOCK);
        encode_block(&w, zz + b * BLOCK, &pred, &dc_table, &ac_table);
    }
    flush_bits(&w);
    if (w.overflow || w.len > (uint32_t)max)
        return -1;
    memcpy(scan, w.buf, w.len);
    return (int)w.len;
}

/* Decodes nblocks blocks from a scan made like jpeg_encode's: zz receives
 * the decoded coefficients, px the reconstructed pixels.  status[0] is the
 * reader's error count, status[1] its final position; then per block the
 * restart check (1 found, 0 missing, -1 none expected) and the decoder's
 * success flag. */
void jpeg_decode(const uint8_t *scan, int len, int nblocks, const uint16_t *qt, int restart,
                 int16_t *zz, uint8_t *px, int32_t *status)
{
    int32_t coef[BLOCK], samples[BLOCK];
    int32_t pred;
    bitr_t r;
    int b, i, m;

    r.buf = scan;
    r.len = (uint32_t)len;
    r.pos = 0;
    r.cnt = 0;
    r.marker = 0;
    r.errors = 0;
    pred = 0;
    m = 0;
    for (b = 0; b < nblocks; b++) {
        status[2 + 2 * b] = -1;
        if (restart > 0 && b > 0 && b % restart == 0) {
            status[2 + 2 * b] = read_restart(&r, m);
            m = (m + 1) & 7;
            pred = 0;
        }
        status[3 + 2 * b] = decode_block(&r, zz + b * BLOCK, &pred, &dc_table, &ac_table);
        dequantise(zz + b * BLOCK, qt, coef);
        idct_8x8(coef, samples);
        for (i = 0; i < BLOCK; i++)
            px[b * BLOCK + i] = clamp_pixel(samples[i] + 128);
    }
    status[0] = r.errors;
    status[1] = (int32_t)r.pos;
}
