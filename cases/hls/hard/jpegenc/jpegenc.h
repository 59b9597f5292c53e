/*
 * jpegenc.h -- interface of a baseline sequential DCT JPEG encoder
 * (ITU-T T.81 | ISO/IEC 10918-1, JFIF 1.02 container).
 *
 * The encoder is split over five files:
 *   color.c    RGB -> YCbCr conversion, edge padding, chroma downsampling,
 *              8x8 block extraction with level shift
 *   dct.c      fixed-point 8x8 forward DCT, quantisation tables with
 *              quality scaling, quantisation into zig-zag order
 *   huff.c     the standard Huffman tables (Annex K.3), code tables from
 *              BITS/HUFFVAL (Annex C) and optimal tables from symbol
 *              statistics (Annex K.2)
 *   bitio.c    byte and bit output with byte stuffing, padding and markers
 *   jpegenc.c  parameter checks, marker segments, the MCU loop, DC
 *              prediction and AC run-length coding, restart intervals
 *
 * Everything works on static, caller-provided buffers of bounded size.
 */
#ifndef JPEGENC_H
#define JPEGENC_H

#include <stddef.h>
#include <stdint.h>

#define JE_MAX_DIM    64          /* largest width and height accepted */
#define JE_PLANE      64          /* stride of every sample plane (a multiple of 16) */
#define JE_BLOCK      64          /* samples in an 8x8 block */
#define JE_MAX_RESTART 65535      /* largest restart interval (16-bit Ri) */

#define JE_SUB_444    0           /* no chroma subsampling */
#define JE_SUB_422    1           /* chroma halved horizontally */
#define JE_SUB_420    2           /* chroma halved in both directions */

#define JE_ERR_PARAM  (-1)        /* a parameter outside its range */
#define JE_ERR_SPACE  (-2)        /* the output buffer is too small */
#define JE_ERR_TABLE  (-3)        /* a Huffman table that cannot be built (je_huff_*) */

/* Huffman table selectors (Tc/Th of the DHT segment) */
#define JE_DC_LUMA    0
#define JE_AC_LUMA    1
#define JE_DC_CHROMA  2
#define JE_AC_CHROMA  3

typedef struct {
    int width;              /* 1..JE_MAX_DIM */
    int height;             /* 1..JE_MAX_DIM */
    int components;         /* 1: greyscale samples, 3: RGB triplets */
    int subsampling;        /* JE_SUB_444/422/420 (ignored for greyscale) */
    int quality;            /* 1..100 */
    int restart_interval;   /* MCUs between restart markers, 0 = none */
    int optimize;           /* 0: the standard tables, 1: optimal tables */
} je_params;

/* A Huffman table as it is transmitted: BITS (bits[l] = number of codes of
 * length l, l = 1..16; bits[0] unused) and HUFFVAL in code order. */
typedef struct {
    uint8_t bits[17];
    uint8_t vals[256];
} je_huff_spec;

/* EHUFCO/EHUFSI: the code and its length for every symbol (size 0: none). */
typedef struct {
    uint16_t code[256];
    uint8_t size[256];
} je_huff_code;

typedef struct {
    uint8_t *buf;
    int cap;                /* bytes available in buf */
    int pos;                /* bytes produced so far (may exceed cap) */
    uint32_t acc;           /* pending bits, right-aligned */
    int nbits;              /* number of pending bits (0..7 between calls) */
} je_bitwriter;

/* color.c */
void je_rgb_to_ycc(const uint8_t *rgb, int w, int h, uint8_t *y, uint8_t *cb, uint8_t *cr);
void je_pad_plane(uint8_t *plane, int w, int h, int pw, int ph);
void je_downsample(const uint8_t *in, int pw, int ph, int hf, int vf, uint8_t *out);
void je_load_block(const uint8_t *plane, int bx, int by, int16_t *block);

/* dct.c */
int je_zigzag(int k);
void je_fdct(const int16_t *in, int32_t *out);
int je_quality_scale(int quality);
void je_quant_table(int quality, int which, uint16_t *qt);
void je_quantise(const int32_t *coef, const uint16_t *qt, int16_t *zz);

/* huff.c */
void je_std_spec(int which, je_huff_spec *spec);
int je_spec_count(const je_huff_spec *spec);
int je_huff_build(const je_huff_spec *spec, je_huff_code *code);
int je_huff_optimal(const uint32_t *freq, je_huff_spec *spec);
int je_category(int32_t v);

/* bitio.c */
void je_bw_init(je_bitwriter *bw, uint8_t *buf, int cap);
void je_bw_byte(je_bitwriter *bw, int b);
void je_bw_u16(je_bitwriter *bw, int v);
void je_bw_marker(je_bitwriter *bw, int m);
void je_bw_bits(je_bitwriter *bw, uint32_t code, int size);
void je_bw_flush(je_bitwriter *bw);

/* jpegenc.c */
int je_check_params(const je_params *p);
int je_mcu_layout(const je_params *p, int *mcus_x, int *mcus_y, int *blocks_per_mcu);
int je_encode_block(const int16_t *zz, int *pred, const je_huff_code *dc,
                    const je_huff_code *ac, je_bitwriter *bw, uint32_t *dc_freq, uint32_t *ac_freq);
int je_encode(const je_params *p, const uint8_t *pixels, uint8_t *out, int cap,
              je_huff_spec *used);

#endif
