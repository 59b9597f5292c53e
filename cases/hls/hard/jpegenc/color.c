/*
 * color.c -- colour conversion and sample preparation for jpegenc.
 *
 * RGB -> YCbCr follows JFIF 1.02:
 *   Y  =  0.299 R + 0.587 G + 0.114 B
 *   Cb = -0.168736 R - 0.331264 G + 0.5 B + 128
 *   Cr =  0.5 R - 0.418688 G - 0.081312 B + 128
 * in 16-bit fixed point (coefficients scaled by 2^16, rounded), so that
 * every result lies in 0..255 without clamping.
 *
 * Sample planes have a fixed stride of JE_PLANE bytes.  A plane is padded
 * to a whole number of MCUs by repeating its last column and last row;
 * chroma planes are then downsampled by averaging 2x1 or 2x2 groups with
 * an alternating rounding bias, so that no direction is favoured.
 */
#include "jpegenc.h"

#define FIX_BITS   16
#define HALF_FIX   ((int32_t)1 << (FIX_BITS - 1))
#define CENTRE     ((int32_t)128 << FIX_BITS)

/* round(c * 65536) for the conversion coefficients */
#define Y_R   19595
#define Y_G   38470
#define Y_B    7471
#define CB_R  11059
#define CB_G  21709
#define CR_G  27439
#define CR_B   5329
#define C_HALF 32768

static int32_t luma(int32_t r, int32_t g, int32_t b)
{
    return (Y_R * r + Y_G * g + Y_B * b + HALF_FIX) >> FIX_BITS;
}

static int32_t chroma_b(int32_t r, int32_t g, int32_t b)
{
    /* CENTRE + HALF_FIX - 1 rounds to nearest and keeps the sum >= 0 */
    return (C_HALF * b - CB_R * r - CB_G * g + CENTRE + HALF_FIX - 1) >> FIX_BITS;
}

static int32_t chroma_r(int32_t r, int32_t g, int32_t b)
{
    return (C_HALF * r - CR_G * g - CR_B * b + CENTRE + HALF_FIX - 1) >> FIX_BITS;
}

/* Converts a w x h image of packed RGB triplets into three planes of
 * stride JE_PLANE. */
void je_rgb_to_ycc(const uint8_t *rgb, int w, int h, uint8_t *y, uint8_t *cb, uint8_t *cr)
{
    int row, col;

    for (row = 0; row < h; row++) {
        const uint8_t *src = rgb + 3 * row * w;
        int at = row * JE_PLANE;
        for (col = 0; col < w; col++) {
            int32_t r = src[3 * col];
            int32_t g = src[3 * col + 1];
            int32_t b = src[3 * col + 2];
            y[at + col] = (uint8_t)luma(r, g, b);
            cb[at + col] = (uint8_t)chroma_b(r, g, b);
            cr[at + col] = (uint8_t)chroma_r(r, g, b);
        }
    }
}

/* Extends a w x h plane to pw x ph by replicating the right-most column
 * and the bottom row. */
void je_pad_plane(uint8_t *plane, int w, int h, int pw, int ph)
{
    int x, y;

    for (y = 0; y < h; y++) {
        uint8_t edge = plane[y * JE_PLANE + w - 1];
        for (x = w; x < pw; x++)
            plane[y * JE_PLANE + x] = edge;
    }
    for (y = h; y < ph; y++)
        for (x = 0; x < pw; x++)
            plane[y * JE_PLANE + x] = plane[(h - 1) * JE_PLANE + x];
}

/* one output sample of a 2x2 group; the bias alternates 1, 2, 1, 2 along a row */
static uint8_t average4(const uint8_t *p, int ox)
{
    int sum = p[0] + p[1] + p[JE_PLANE] + p[JE_PLANE + 1];
    int bias = 1 + (ox & 1);
    return (uint8_t)((sum + bias) >> 2);
}

/* one output sample of a 2x1 group; the bias alternates 0, 1, 0, 1 */
static uint8_t average2(const uint8_t *p, int ox)
{
    int sum = p[0] + p[1];
    int bias = ox & 1;
    return (uint8_t)((sum + bias) >> 1);
}

/* Downsamples a padded pw x ph plane by hf horizontally and vf vertically
 * (each 1 or 2) into out (stride JE_PLANE, size pw/hf x ph/vf). */
void je_downsample(const uint8_t *in, int pw, int ph, int hf, int vf, uint8_t *out)
{
    int ox, oy;
    int ow = pw / hf, oh = ph / vf;

    for (oy = 0; oy < oh; oy++) {
        const uint8_t *row = in + oy * vf * JE_PLANE;
        for (ox = 0; ox < ow; ox++) {
            uint8_t v;
            if (hf == 2 && vf == 2)
                v = average4(row + 2 * ox, ox);
            else if (hf == 2)
                v = average2(row + 2 * ox, ox);
            else if (vf == 2)
                v = (uint8_t)((row[ox] + row[ox + JE_PLANE] + (ox & 1)) >> 1);
            else
                v = row[ox];
            out[oy * JE_PLANE + ox] = v;
        }
    }
}

/* Copies the 8x8 block at block column bx, block row by of a plane and
 * level-shifts it to -128..127. */
void je_load_block(const uint8_t *plane, int bx, int by, int16_t *block)
{
    const uint8_t *src = plane + (by * 8) * JE_PLANE + bx * 8;
    int x, y;

    for (y = 0; y < 8; y++)
        for (x = 0; x < 8; x++)
            block[y * 8 + x] = (int16_t)(src[y * JE_PLANE + x] - 128);
}
