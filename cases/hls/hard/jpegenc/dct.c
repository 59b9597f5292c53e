/*
 * dct.c -- forward DCT, quantisation tables and quantisation for jpegenc.
 *
 * The 8x8 FDCT of T.81 A.3.3,
 *   F(u,v) = 1/4 C(u) C(v) sum_x sum_y f(x,y) cos((2x+1)u pi/16) cos((2y+1)v pi/16),
 * is computed separably: a 1-D transform of every row, then of every
 * column.  Each 1-D transform splits its input into sums s_k = x_k + x_(7-k)
 * and differences d_k = x_k - x_(7-k) (k = 0..3); the even outputs are
 * built from the sums, the odd outputs from the differences:
 *   X0 = c4 (s0 + s1 + s2 + s3) / 2       X4 = c4 (s0 - s1 - s2 + s3) / 2
 *   X2 = (c2 (s0 - s3) + c6 (s1 - s2)) / 2 X6 = (c6 (s0 - s3) - c2 (s1 - s2)) / 2
 *   X1 = (c1 d0 + c3 d1 + c5 d2 + c7 d3) / 2
 *   X3 = (c3 d0 - c7 d1 - c1 d2 - c5 d3) / 2
 *   X5 = (c5 d0 - c1 d1 + c7 d2 + c3 d3) / 2
 *   X7 = (c7 d0 - c5 d1 + c3 d2 - c1 d3) / 2
 * with ck = cos(k pi/16) in 13-bit fixed point.  The row pass keeps
 * PASS1_BITS extra fraction bits, the column pass removes them.
 *
 * Quantisation tables are Tables K.1 and K.2 scaled by the usual quality
 * factor (quality < 50: 5000 / quality percent, else 200 - 2 quality
 * percent), rounded and limited to 1..255 as baseline 8-bit tables require.
 */
#include "jpegenc.h"

#define CONST_BITS  13
#define PASS1_BITS  2

#define C1 8035     /* round(cos(1 pi/16) * 2^13) */
#define C2 7568
#define C3 6811
#define C4 5793
#define C5 4551
#define C6 3135
#define C7 1598

/* Table K.1: luminance quantisation table, natural (row-major) order */
static const uint8_t std_luma_q[JE_BLOCK] = {
    16, 11, 10, 16,  24,  40,  51,  61,
    12, 12, 14, 19,  26,  58,  60,  55,
    14, 13, 16, 24,  40,  57,  69,  56,
    14, 17, 22, 29,  51,  87,  80,  62,
    18, 22, 37, 56,  68, 109, 103,  77,
    24, 35, 55, 64,  81, 104, 113,  92,
    49, 64, 78, 87, 103, 121, 120, 101,
    72, 92, 95, 98, 112, 100, 103,  99
};

/* Table K.2: chrominance quantisation table, natural order */
static const uint8_t std_chroma_q[JE_BLOCK] = {
    17, 18, 24, 47, 99, 99, 99, 99,
    18, 21, 26, 66, 99, 99, 99, 99,
    24, 26, 56, 99, 99, 99, 99, 99,
    47, 66, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99,
    99, 99, 99, 99, 99, 99, 99, 99
};

static uint8_t zz_order[JE_BLOCK];
static int zz_built = 0;

/* Walks the anti-diagonals of the block (Figure A.6): even diagonals run
 * up and to the right, odd ones down and to the left. */
static void build_zigzag(void)
{
    int k = 0, d;

    for (d = 0; d < 15; d++) {
        int lo = d < 8 ? 0 : d - 7;
        int hi = d < 8 ? d : 7;
        int i;
        for (i = lo; i <= hi; i++) {
            int row = (d & 1) ? i : d - i;
            int col = d - row;
            zz_order[k++] = (uint8_t)(row * 8 + col);
        }
    }
    zz_built = 1;
}

/* natural (row-major) index of zig-zag position k, 0 <= k < 64 */
int je_zigzag(int k)
{
    if (!zz_built)
        build_zigzag();
    return zz_order[k];
}

static int32_t descale(int32_t x, int n)
{
    return (x + ((int32_t)1 << (n - 1))) >> n;
}

/* 1-D transform of 8 values in[0], in[stride], ... into out likewise,
 * each result descaled by 'shift' bits. */
static void fdct_1d(const int32_t *in, int stride, int32_t *out, int shift)
{
    int32_t s0 = in[0] + in[7 * stride];
    int32_t s1 = in[stride] + in[6 * stride];
    int32_t s2 = in[2 * stride] + in[5 * stride];
    int32_t s3 = in[3 * stride] + in[4 * stride];
    int32_t d0 = in[0] - in[7 * stride];
    int32_t d1 = in[stride] - in[6 * stride];
    int32_t d2 = in[2 * stride] - in[5 * stride];
    int32_t d3 = in[3 * stride] - in[4 * stride];
    int32_t e0 = s0 + s3, e1 = s1 + s2;
    int32_t f0 = s0 - s3, f1 = s1 - s2;

    out[0] = descale(C4 * (e0 + e1), shift);
    out[4 * stride] = descale(C4 * (e0 - e1), shift);
    out[2 * stride] = descale(C2 * f0 + C6 * f1, shift);
    out[6 * stride] = descale(C6 * f0 - C2 * f1, shift);
    out[stride] = descale(C1 * d0 + C3 * d1 + C5 * d2 + C7 * d3, shift);
    out[3 * stride] = descale(C3 * d0 - C7 * d1 - C1 * d2 - C5 * d3, shift);
    out[5 * stride] = descale(C5 * d0 - C1 * d1 + C7 * d2 + C3 * d3, shift);
    out[7 * stride] = descale(C7 * d0 - C5 * d1 + C3 * d2 - C1 * d3, shift);
}

/* Forward DCT of a level-shifted block (-128..127, row-major) into
 * coefficients in natural order (DC at out[0], range about -1024..1023). */
void je_fdct(const int16_t *in, int32_t *out)
{
    int32_t wide[JE_BLOCK], rows[JE_BLOCK];
    int i;

    for (i = 0; i < JE_BLOCK; i++)
        wide[i] = in[i];
    /* rows: the 1/2 of the formula and CONST_BITS go, PASS1_BITS stay */
    for (i = 0; i < 8; i++)
        fdct_1d(wide + 8 * i, 1, rows + 8 * i, CONST_BITS + 1 - PASS1_BITS);
    /* columns: the 1/2, CONST_BITS and PASS1_BITS go */
    for (i = 0; i < 8; i++)
        fdct_1d(rows + i, 8, out + i, CONST_BITS + 1 + PASS1_BITS);
}

/* the percentage the base tables are scaled by; quality is 1..100 */
int je_quality_scale(int quality)
{
    if (quality < 50)
        return 5000 / quality;
    return 200 - 2 * quality;
}

static const uint8_t *const std_q[2] = { std_luma_q, std_chroma_q };

/* the scaled luminance (which = 0) or chrominance (which = 1) table, in
 * natural order */
void je_quant_table(int quality, int which, uint16_t *qt)
{
    const uint8_t *base = std_q[which];
    int scale = je_quality_scale(quality);
    int i;

    for (i = 0; i < JE_BLOCK; i++) {
        int32_t v = ((int32_t)base[i] * scale + 50) / 100;
        if (v < 1)
            v = 1;
        if (v > 255)
            v = 255;
        qt[i] = (uint16_t)v;
    }
}

/* coef / q rounded to nearest, halves away from zero */
static int16_t quantise_one(int32_t coef, int32_t q)
{
    if (coef < 0)
        return (int16_t)-((-coef + (q >> 1)) / q);
    return (int16_t)((coef + (q >> 1)) / q);
}

/* Quantises natural-order coefficients with a natural-order table and
 * stores the result in zig-zag order. */
void je_quantise(const int32_t *coef, const uint16_t *qt, int16_t *zz)
{
    int k;

    for (k = 0; k < JE_BLOCK; k++) {
        int n = je_zigzag(k);
        zz[k] = quantise_one(coef[n], qt[n]);
    }
}
