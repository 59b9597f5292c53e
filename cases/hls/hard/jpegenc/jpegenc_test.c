/*
 * jpegenc_test.c -- test driver for the jpegenc design.
 *
 * The driver belongs to the harness: it feeds vectors to every stage of
 * the encoder and prints everything the design computes as labelled
 * tokens (tables, samples, coefficients, code words, stream bytes, return
 * values).  It judges nothing itself; the harness compares the printed
 * output with that of the known-good design.
 *
 *   ./prog            the fixed vectors: zig-zag order, quality scaling and
 *                     the scaled tables K.1/K.2, the Huffman tables K.3-K.6
 *                     and their code words, tables that cannot be built,
 *                     optimal tables (one symbol, two, 256 equal, Fibonacci
 *                     counts that force the 16-bit limit), categories,
 *                     colour conversion, padding and downsampling, DCT and
 *                     quantisation of test blocks, the bit writer's byte
 *                     stuffing and padding, block coding, parameter checks
 *                     at every boundary, and whole JFIF files for greyscale
 *                     and colour images in every subsampling mode, with
 *                     standard and optimal tables and restart intervals,
 *                     and output buffers one byte too small
 *   ./prog --seed N   inputs generated from N (N >= 1) by splitmix64, with
 *                     N % 8 choosing the image pattern: natural, flat,
 *                     extremes, full-range noise, gradients, edges and
 *                     stripes, tiny images, largest images; every seed
 *                     also drives every stage with random values, and
 *                     ends with a tiny image into buffers of 0 to 3 bytes
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jpegenc.h"

#define OUT_MAX  (1 << 17)
#define MAX_PIX  (JE_MAX_DIM * JE_MAX_DIM * 3)

static uint8_t image[MAX_PIX];
static uint8_t stream[OUT_MAX];

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void put_bytes(const char *label, const uint8_t *p, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 32 == 0)
            printf("\n ");
        printf("%02x", p[i]);
    }
    printf("\n");
}

static void put_ints(const char *label, const int32_t *v, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 16 == 0)
            printf("\n");
        printf(" %ld", (long)v[i]);
    }
    printf("\n");
}

static void put_shorts(const char *label, const int16_t *v, int n)
{
    int32_t wide[JE_BLOCK];
    int i;
    for (i = 0; i < n; i++)
        wide[i] = v[i];
    put_ints(label, wide, n);
}

static void put_ushorts(const char *label, const uint16_t *v, int n)
{
    int32_t wide[256];
    int i;
    for (i = 0; i < n; i++)
        wide[i] = v[i];
    put_ints(label, wide, n);
}

static void put_plane(const char *label, const uint8_t *plane, int w, int h)
{
    static uint8_t rows[JE_PLANE * JE_PLANE];
    int x, y;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            rows[y * w + x] = plane[y * JE_PLANE + x];
    printf("%s.size %d %d\n", label, w, h);
    put_bytes(label, rows, w * h);
}

static void put_spec(const char *label, const je_huff_spec *spec)
{
    char name[96];
    int n = je_spec_count(spec);
    sprintf(name, "%s.bits", label);
    put_bytes(name, spec->bits + 1, 16);
    sprintf(name, "%s.vals", label);
    put_bytes(name, spec->vals, n > 256 ? 256 : n);
}

static void put_code(const char *label, const je_huff_code *code)
{
    char name[96];
    sprintf(name, "%s.ehufco", label);
    put_ushorts(name, code->code, 256);
    sprintf(name, "%s.ehufsi", label);
    put_bytes(name, code->size, 256);
}

/* ------------------------------------------------------------------ */
/* Generators                                                          */
/* ------------------------------------------------------------------ */

/* a fixed linear congruential sequence for the fixed vectors */
static uint32_t lcg_state = 0x2545F491u;

static uint32_t lcg(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state >> 8;
}

/* splitmix64 for the seeded inputs */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int rng_range(int lo, int hi)
{
    return lo + (int)(rng_next() % (uint64_t)((int64_t)hi - lo + 1));
}

static int clamp255(int v)
{
    return v < 0 ? 0 : (v > 255 ? 255 : v);
}

/*
 * Image patterns (one sample per channel value):
 *   0 natural: smooth gradients, a disc and mild noise
 *   1 flat: one colour
 *   2 extremes: every value 0 or 255
 *   3 noise: every value random
 *   4 gradients: linear ramps in x and y
 *   5 edges and stripes: sharp transitions with random periods
 *   6 checkerboard of two random colours, 1-pixel squares
 *   7 sparse: flat with isolated random pixels
 */
typedef uint32_t (*source_fn)(void);

static uint32_t src_lcg(void) { return lcg(); }
static uint32_t src_rng(void) { return (uint32_t)rng_next(); }

static void make_image(int pattern, int w, int h, int ch, source_fn rnd)
{
    int a[3], b[3], c, x, y, period, cx, cy, rad;

    for (c = 0; c < 3; c++) {
        a[c] = (int)(rnd() & 255);
        b[c] = (int)(rnd() & 255);
    }
    period = 1 + (int)(rnd() % 9);
    cx = (int)(rnd() % (uint32_t)w);
    cy = (int)(rnd() % (uint32_t)h);
    rad = 1 + (int)(rnd() % 24);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            for (c = 0; c < ch; c++) {
                int v, dx = x - cx, dy = y - cy;
                switch (pattern) {
                case 0:
                    v = a[c] + (b[c] - a[c]) * (x + y) / (w + h);
                    if (dx * dx + dy * dy < rad * rad)
                        v = 255 - v;
                    v += (int)(rnd() % 9) - 4;
                    break;
                case 1: v = a[c]; break;
                case 2: v = (rnd() & 1) ? 255 : 0; break;
                case 3: v = (int)(rnd() & 255); break;
                case 4: v = (a[c] * (w - x) + b[c] * x) / w + (y * (b[c] - a[c])) / (2 * h); break;
                case 5: v = ((x / period + (y * c) / (period + 1)) & 1) ? a[c] : b[c]; break;
                case 6: v = ((x + y) & 1) ? a[c] : b[c]; break;
                default: v = (rnd() % 23 == 0) ? (int)(rnd() & 255) : a[c]; break;
                }
                image[(y * w + x) * ch + c] = (uint8_t)clamp255(v);
            }
}

/* ------------------------------------------------------------------ */
/* Stage tests shared by both input sets                               */
/* ------------------------------------------------------------------ */

static void show_quant(int quality)
{
    uint16_t qt[JE_BLOCK];
    char label[64];
    printf("scale %d %d\n", quality, je_quality_scale(quality));
    je_quant_table(quality, 0, qt);
    sprintf(label, "qtable.luma.%d", quality);
    put_ushorts(label, qt, JE_BLOCK);
    je_quant_table(quality, 1, qt);
    sprintf(label, "qtable.chroma.%d", quality);
    put_ushorts(label, qt, JE_BLOCK);
}

static void show_build(const char *label, const je_huff_spec *spec)
{
    je_huff_code code;
    char name[96];
    int n = je_huff_build(spec, &code);
    printf("%s.build %d\n", label, n);
    if (n > 0) {
        sprintf(name, "%s.code", label);
        put_code(name, &code);
    }
}

static void show_optimal(const char *label, const uint32_t *freq)
{
    je_huff_spec spec;
    char name[96];
    int n;

    memset(&spec, 0xA5, sizeof spec);
    n = je_huff_optimal(freq, &spec);
    printf("%s.optimal %d\n", label, n);
    if (n > 0) {
        put_spec(label, &spec);
        sprintf(name, "%s.table", label);
        show_build(name, &spec);
    }
}

static void show_colour(const char *label, const uint8_t *rgb, int w, int h)
{
    static uint8_t y[JE_PLANE * JE_PLANE], cb[JE_PLANE * JE_PLANE], cr[JE_PLANE * JE_PLANE];
    char name[64];
    je_rgb_to_ycc(rgb, w, h, y, cb, cr);
    sprintf(name, "%s.y", label);
    put_plane(name, y, w, h);
    sprintf(name, "%s.cb", label);
    put_plane(name, cb, w, h);
    sprintf(name, "%s.cr", label);
    put_plane(name, cr, w, h);
}

/* pads a w x h plane to pw x ph and downsamples it in all four ways */
static void show_resample(const char *label, const uint8_t *samples, int w, int h, int pw, int ph)
{
    static uint8_t plane[JE_PLANE * JE_PLANE], out[JE_PLANE * JE_PLANE];
    char name[64];
    int x, y, hf, vf;

    memset(plane, 0x5A, sizeof plane);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            plane[y * JE_PLANE + x] = samples[y * w + x];
    je_pad_plane(plane, w, h, pw, ph);
    sprintf(name, "%s.padded", label);
    put_plane(name, plane, pw, ph);
    for (vf = 1; vf <= 2; vf++)
        for (hf = 1; hf <= 2; hf++) {
            memset(out, 0x33, sizeof out);
            je_downsample(plane, pw, ph, hf, vf, out);
            sprintf(name, "%s.down%d%d", label, hf, vf);
            put_plane(name, out, pw / hf, ph / vf);
        }
}

/* level shift, DCT and quantisation of the top-left block of a 8x8+ plane */
static void show_block(const char *label, const uint8_t *samples, const uint16_t *qt)
{
    static uint8_t plane[JE_PLANE * JE_PLANE];
    int16_t shifted[JE_BLOCK], zz[JE_BLOCK];
    int32_t coef[JE_BLOCK];
    char name[64];
    int x, y;

    for (y = 0; y < 16; y++)
        for (x = 0; x < 16; x++)
            plane[y * JE_PLANE + x] = samples[(y & 7) * 8 + (x & 7)] ^ (uint8_t)((x >> 3) * 0x55);
    je_load_block(plane, 1, 0, shifted);
    sprintf(name, "%s.shifted", label);
    put_shorts(name, shifted, JE_BLOCK);
    je_fdct(shifted, coef);
    sprintf(name, "%s.fdct", label);
    put_ints(name, coef, JE_BLOCK);
    je_quantise(coef, qt, zz);
    sprintf(name, "%s.zz", label);
    put_shorts(name, zz, JE_BLOCK);
}

static void show_fdct_direct(const char *label, const int16_t *in, const uint16_t *qt)
{
    int32_t coef[JE_BLOCK];
    int16_t zz[JE_BLOCK];
    char name[64];
    je_fdct(in, coef);
    sprintf(name, "%s.fdct", label);
    put_ints(name, coef, JE_BLOCK);
    je_quantise(coef, qt, zz);
    sprintf(name, "%s.zz", label);
    put_shorts(name, zz, JE_BLOCK);
}

/* bit writer: a list of (code, size) pairs, flushed, into a buffer of cap bytes */
static void show_bits(const char *label, const uint32_t *codes, const int *sizes, int n, int cap)
{
    static uint8_t buf[4096];
    je_bitwriter bw;
    char name[64];
    int i;

    memset(buf, 0xC3, sizeof buf);
    je_bw_init(&bw, buf, cap);
    for (i = 0; i < n; i++) {
        je_bw_bits(&bw, codes[i], sizes[i]);
        if (i % 7 == 3)
            printf("%s.pending %d %d %lu\n", label, i, bw.nbits, (unsigned long)bw.acc);
    }
    je_bw_flush(&bw);
    je_bw_marker(&bw, 0xD9);
    printf("%s.pos %d\n", label, bw.pos);
    sprintf(name, "%s.bytes", label);
    put_bytes(name, buf, bw.pos < cap ? bw.pos : cap + 2 < 4096 ? cap + 2 : cap);
}

/* one block coded with the standard luminance or chrominance tables, and counted */
static void show_block_code(const char *label, const int16_t *zz, int pred, int chroma)
{
    static uint8_t buf[2048];
    je_huff_spec dcs, acs;
    je_huff_code dc, ac;
    uint32_t dcf[257], acf[257];
    je_bitwriter bw;
    char name[64];
    int n, p = pred, i, used = 0;

    je_std_spec(chroma ? JE_DC_CHROMA : JE_DC_LUMA, &dcs);
    je_std_spec(chroma ? JE_AC_CHROMA : JE_AC_LUMA, &acs);
    je_huff_build(&dcs, &dc);
    je_huff_build(&acs, &ac);
    je_bw_init(&bw, buf, (int)sizeof buf);
    je_bw_bits(&bw, 5, 3);
    n = je_encode_block(zz, &p, &dc, &ac, &bw, NULL, NULL);
    je_bw_flush(&bw);
    printf("%s.symbols %d pred %d\n", label, n, p);
    sprintf(name, "%s.bytes", label);
    put_bytes(name, buf, bw.pos);
    memset(dcf, 0, sizeof dcf);
    memset(acf, 0, sizeof acf);
    p = pred;
    n = je_encode_block(zz, &p, &dc, &ac, NULL, dcf, acf);
    printf("%s.counted %d pred %d\n", label, n, p);
    printf("%s.freq", label);
    for (i = 0; i < 257; i++)
        if (dcf[i] != 0 || acf[i] != 0) {
            printf(" %d:%lu:%lu", i, (unsigned long)dcf[i], (unsigned long)acf[i]);
            used++;
        }
    printf(" (%d)\n", used);
}

static void show_params(const char *label, const je_params *p)
{
    int mx = -7, my = -7, bpm = -7;
    int r = je_check_params(p);
    int n = je_mcu_layout(p, &mx, &my, &bpm);
    printf("%s.check %d %d %d %d %d %d %d %d -> %d layout %d %d %d %d\n", label, p->width,
           p->height, p->components, p->subsampling, p->quality, p->restart_interval,
           p->optimize, r, r, n, mx, my, bpm);
}

/* a whole file: its length, bytes and tables, then the same with a
 * buffer exactly as long and one byte too short */
static void show_encode(const char *label, const je_params *p, const uint8_t *pixels, int cap)
{
    je_huff_spec used[4];
    char name[64];
    int len, t, again;

    memset(used, 0x77, sizeof used);
    memset(stream, 0xEE, sizeof stream);
    len = je_encode(p, pixels, stream, cap, used);
    printf("%s.params %d %d %d %d %d %d %d cap %d\n", label, p->width, p->height, p->components,
           p->subsampling, p->quality, p->restart_interval, p->optimize, cap);
    printf("%s.length %d\n", label, len);
    if (len < 0)
        return;
    sprintf(name, "%s.jpeg", label);
    put_bytes(name, stream, len);
    for (t = 0; t < 4; t++) {
        sprintf(name, "%s.table%d", label, t);
        put_spec(name, &used[t]);
    }
    again = je_encode(p, pixels, stream, len, NULL);
    printf("%s.exact %d\n", label, again);
    again = je_encode(p, pixels, stream, len - 1, NULL);
    printf("%s.short %d\n", label, again);
}

/* ------------------------------------------------------------------ */
/* The fixed vectors                                                   */
/* ------------------------------------------------------------------ */

static void fixed_tables(void)
{
    static const int qualities[] = { 1, 2, 5, 10, 24, 25, 49, 50, 51, 75, 90, 99, 100 };
    je_huff_spec spec;
    je_huff_code code;
    int32_t zz[JE_BLOCK], scales[100];
    char label[32];
    int i, t;

    for (i = 0; i < JE_BLOCK; i++)
        zz[i] = je_zigzag(i);
    put_ints("zigzag", zz, JE_BLOCK);
    for (i = 0; i < 100; i++)
        scales[i] = je_quality_scale(i + 1);
    put_ints("quality_scale", scales, 100);
    for (i = 0; i < (int)(sizeof qualities / sizeof qualities[0]); i++)
        show_quant(qualities[i]);
    for (t = 0; t < 4; t++) {
        je_std_spec(t, &spec);
        sprintf(label, "std%d", t);
        printf("%s.count %d\n", label, je_spec_count(&spec));
        put_spec(label, &spec);
        printf("%s.build %d\n", label, je_huff_build(&spec, &code));
        put_code(label, &code);
    }
}

static void fixed_bad_tables(void)
{
    je_huff_spec spec;
    int i;

    /* three codes of length 1 */
    memset(&spec, 0, sizeof spec);
    spec.bits[1] = 3;
    spec.vals[0] = 1; spec.vals[1] = 2; spec.vals[2] = 3;
    show_build("bad.oversubscribed", &spec);
    /* two codes of length 1: the second is all ones */
    spec.bits[1] = 2;
    show_build("bad.all_ones", &spec);
    /* a complete set of length 2 and one more of length 3 */
    memset(&spec, 0, sizeof spec);
    spec.bits[2] = 4; spec.bits[3] = 1;
    for (i = 0; i < 5; i++)
        spec.vals[i] = (uint8_t)(10 + i);
    show_build("bad.overfull", &spec);
    /* a symbol listed twice */
    memset(&spec, 0, sizeof spec);
    spec.bits[2] = 2; spec.bits[3] = 2;
    spec.vals[0] = 7; spec.vals[1] = 9; spec.vals[2] = 7; spec.vals[3] = 4;
    show_build("bad.duplicate", &spec);
    /* more than 256 codes */
    memset(&spec, 0, sizeof spec);
    spec.bits[9] = 200; spec.bits[10] = 57;
    show_build("bad.too_many", &spec);
    /* no codes at all */
    memset(&spec, 0, sizeof spec);
    show_build("empty", &spec);
    /* one code of length 1, one of length 16: legal */
    memset(&spec, 0, sizeof spec);
    spec.bits[1] = 1; spec.bits[16] = 1;
    spec.vals[0] = 0xF0; spec.vals[1] = 0x00;
    show_build("ok.sparse", &spec);
    /* 255 codes: the largest length-8 set that leaves the all-ones code */
    memset(&spec, 0, sizeof spec);
    spec.bits[8] = 255;
    for (i = 0; i < 255; i++)
        spec.vals[i] = (uint8_t)(254 - i);
    show_build("ok.full8", &spec);
    /* one code of every length 1..16 */
    memset(&spec, 0, sizeof spec);
    for (i = 1; i <= 16; i++) {
        spec.bits[i] = 1;
        spec.vals[i - 1] = (uint8_t)(i * 13);
    }
    show_build("ok.chain", &spec);
    /* 256 codes: 254 of length 8 and two of length 9, one slot left free */
    memset(&spec, 0, sizeof spec);
    spec.bits[8] = 254; spec.bits[9] = 2;
    for (i = 0; i < 256; i++)
        spec.vals[i] = (uint8_t)i;
    show_build("ok.full256", &spec);
}

static void fixed_optimal(void)
{
    static uint32_t freq[256];
    uint32_t a = 1, b = 1;
    int i;

    memset(freq, 0, sizeof freq);
    show_optimal("opt.none", freq);
    freq[0x42] = 9;
    show_optimal("opt.one", freq);
    freq[0x00] = 1;
    show_optimal("opt.two", freq);
    for (i = 0; i < 256; i++)
        freq[i] = 1;
    show_optimal("opt.uniform", freq);
    for (i = 0; i < 256; i++)
        freq[i] = (uint32_t)(i + 1);
    show_optimal("opt.linear", freq);
    /* Fibonacci counts: the unlimited code lengths run to 30 bits */
    memset(freq, 0, sizeof freq);
    for (i = 0; i < 32; i++) {
        uint32_t c = a + b;
        freq[(i * 37) & 255] = a;
        a = b;
        b = c;
    }
    show_optimal("opt.fibonacci", freq);
    /* powers of two over 20 symbols and a tail of ones */
    memset(freq, 0, sizeof freq);
    for (i = 0; i < 20; i++)
        freq[0xF0 - i * 7] = (uint32_t)1 << i;
    for (i = 0; i < 40; i++)
        freq[i * 3 + 1] += 1;
    show_optimal("opt.powers", freq);
    /* a realistic AC distribution */
    memset(freq, 0, sizeof freq);
    for (i = 0; i < 4000; i++) {
        int run = (int)(lcg() % 16), size = 1 + (int)(lcg() % 10);
        if (lcg() % 4 != 0)
            run = run / 4, size = 1 + size / 3;
        freq[(run << 4) | size]++;
    }
    freq[0x00] += 700;
    freq[0xF0] += 25;
    show_optimal("opt.ac", freq);
}

static void fixed_small_units(void)
{
    static const int32_t cats[] = { 0, 1, -1, 2, -2, 3, -3, 4, -4, 7, -7, 8, -8, 255, -255, 256,
                                    -256, 1023, -1023, 1024, -1024, 2047, -2047, 2048, 32767,
                                    -32767, 65535, -65536, 0x7FFFFFFF, -0x7FFFFFFF };
    static const uint8_t colours[] = { 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255,
                                       255, 255, 0, 0, 255, 255, 255, 0, 255, 128, 128, 128,
                                       1, 2, 3, 254, 253, 252, 127, 128, 129, 64, 192, 32, 10,
                                       250, 100 };
    int32_t out[64];
    int i, n = (int)(sizeof cats / sizeof cats[0]);

    for (i = 0; i < n; i++)
        out[i] = je_category(cats[i]);
    put_ints("category", out, n);
    show_colour("colour.fixed", colours, 7, 2);
    lcg_state = 99;
    for (i = 0; i < 40 * 3 * 5; i++)
        image[i] = (uint8_t)lcg();
    show_colour("colour.random", image, 40, 5);
}

static void fixed_resample(void)
{
    static uint8_t s[JE_PLANE * JE_PLANE];
    int i;
    lcg_state = 7;
    for (i = 0; i < JE_PLANE * JE_PLANE; i++)
        s[i] = (uint8_t)lcg();
    show_resample("resample.5x3", s, 5, 3, 16, 16);
    show_resample("resample.1x1", s, 1, 1, 8, 8);
    show_resample("resample.16x9", s, 16, 9, 16, 16);
    show_resample("resample.31x17", s, 31, 17, 32, 32);
    show_resample("resample.full", s, 64, 64, 64, 64);
    show_resample("resample.63x1", s, 63, 1, 64, 16);
}

static void fixed_blocks(void)
{
    static uint8_t px[JE_BLOCK];
    uint16_t q50[JE_BLOCK], q100[JE_BLOCK], q5[JE_BLOCK];
    int16_t in[JE_BLOCK];
    char label[32];
    int kind, i, x, y;

    je_quant_table(50, 0, q50);
    je_quant_table(100, 0, q100);
    je_quant_table(5, 1, q5);
    for (kind = 0; kind < 10; kind++) {
        for (y = 0; y < 8; y++)
            for (x = 0; x < 8; x++) {
                int v;
                switch (kind) {
                case 0: v = 0; break;
                case 1: v = 255; break;
                case 2: v = x * 36; break;
                case 3: v = 255 - y * 33; break;
                case 4: v = ((x + y) & 1) ? 255 : 0; break;
                case 5: v = (x == 3 && y == 4) ? 255 : 128; break;
                case 6: v = (x < 4) ? 30 : 220; break;
                case 7: v = (int)(lcg() & 255); break;
                case 8: v = ((x ^ y) * 37) & 255; break;
                default: v = 128 + ((x * y) & 7) * 15; break;
                }
                px[y * 8 + x] = (uint8_t)v;
            }
        sprintf(label, "block%d.q50", kind);
        show_block(label, px, q50);
        sprintf(label, "block%d.q100", kind);
        show_block(label, px, q100);
        sprintf(label, "block%d.q5c", kind);
        show_block(label, px, q5);
    }
    /* the basis function of every frequency at full amplitude */
    for (i = 0; i < JE_BLOCK; i += 9) {
        for (y = 0; y < 8; y++)
            for (x = 0; x < 8; x++)
                in[y * 8 + x] = (int16_t)((((x * (i & 7)) + (y * (i >> 3))) & 8) ? 127 : -128);
        sprintf(label, "basis%d", i);
        show_fdct_direct(label, in, q100);
    }
}

static void fixed_bits(void)
{
    static const uint32_t c1[] = { 0xFF, 0x1, 0x7F, 0x3, 0x1FF, 0xABCD, 0x0, 0xFFFF, 0x5, 0x1F,
                                   0xFF00, 0x3FF, 0x1, 0x2 };
    static const int s1[] = { 8, 1, 7, 2, 9, 16, 3, 16, 3, 5, 16, 10, 1, 2 };
    static const uint32_t c2[] = { 0xFFFFFFFF, 0x12345, 0xF, 0x0, 0xFFFF };
    static const int s2[] = { 4, 12, 0, 13, 11 };
    int i;
    show_bits("bits.a", c1, s1, 14, 4096);
    show_bits("bits.b", c2, s2, 5, 4096);
    show_bits("bits.short", c1, s1, 14, 9);
    show_bits("bits.none", c1, s1, 0, 0);
    for (i = 0; i < 3; i++) {
        uint32_t codes[40];
        int sizes[40], k;
        char label[32];
        for (k = 0; k < 40; k++) {
            sizes[k] = (int)(lcg() % 17);
            codes[k] = (i == 1) ? 0xFFFFFFFFu : lcg();
            codes[k] |= (i == 1) ? 0u : lcg() << 24;
        }
        sprintf(label, "bits.run%d", i);
        show_bits(label, codes, sizes, 40, 4096);
    }
}

static void fixed_block_code(void)
{
    int16_t zz[JE_BLOCK];
    char label[32];
    int t, k;

    for (t = 0; t < 10; t++) {
        memset(zz, 0, sizeof zz);
        switch (t) {
        case 0: break;                                          /* all zero */
        case 1: zz[0] = 1023; break;
        case 2: zz[0] = -1024; zz[63] = 1; break;               /* last coefficient non-zero */
        case 3: zz[17] = -5; zz[34] = 3; zz[63] = -1; break;    /* runs of 16 and more */
        case 4: zz[1] = 1; zz[2] = -1; zz[3] = 512; zz[4] = -1023; zz[50] = 2; break;
        case 5: for (k = 0; k < JE_BLOCK; k++) zz[k] = (int16_t)((k & 1) ? k : -k); break;
        case 6: zz[16] = 7; zz[33] = 9; zz[49] = 1; break;      /* exactly 15 zeros, then 16 */
        case 7: zz[0] = 5; zz[48] = -2; break;                  /* 47 zeros: two ZRLs */
        case 8: zz[0] = -1; zz[62] = 100; break;
        default: for (k = 0; k < JE_BLOCK; k++) zz[k] = (int16_t)((int)(lcg() % 41) - 20); break;
        }
        sprintf(label, "code%d.luma", t);
        show_block_code(label, zz, t * 100 - 400, 0);
        sprintf(label, "code%d.chroma", t);
        show_block_code(label, zz, -(t * 37), 1);
    }
}

static void fixed_params(void)
{
    static const int cases[][7] = {
        { 64, 64, 3, 2, 100, 65535, 1 }, { 1, 1, 1, 0, 1, 0, 0 }, { 0, 8, 1, 0, 50, 0, 0 },
        { 65, 8, 1, 0, 50, 0, 0 }, { 8, 0, 1, 0, 50, 0, 0 }, { 8, 65, 1, 0, 50, 0, 0 },
        { 8, 8, 2, 0, 50, 0, 0 }, { 8, 8, 0, 0, 50, 0, 0 }, { 8, 8, 4, 0, 50, 0, 0 },
        { 8, 8, 3, -1, 50, 0, 0 }, { 8, 8, 3, 3, 50, 0, 0 }, { 8, 8, 1, 3, 50, 0, 0 },
        { 8, 8, 1, -9, 50, 0, 0 }, { 8, 8, 3, 0, 0, 0, 0 }, { 8, 8, 3, 0, 101, 0, 0 },
        { 8, 8, 3, 1, 50, -1, 0 }, { 8, 8, 3, 1, 50, 65536, 0 }, { 8, 8, 3, 2, 50, 0, 2 },
        { 8, 8, 3, 2, 50, 0, -1 }, { 17, 9, 3, 1, 50, 3, 1 }, { 17, 9, 3, 2, 50, 3, 1 },
        { 17, 9, 3, 0, 50, 3, 1 }, { 17, 9, 1, 2, 50, 3, 1 }, { 64, 1, 3, 2, 77, 1, 0 },
        { 1, 64, 3, 1, 13, 2, 0 }, { 16, 16, 3, 2, 50, 0, 0 }, { 15, 17, 3, 2, 50, 0, 0 },
        { 9, 16, 3, 1, 50, 0, 0 }, { 8, 9, 1, 0, 50, 0, 0 }, { 64, 63, 3, 0, 1, 64, 1 }
    };
    je_params p;
    char label[32];
    int i;

    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        p.width = cases[i][0];
        p.height = cases[i][1];
        p.components = cases[i][2];
        p.subsampling = cases[i][3];
        p.quality = cases[i][4];
        p.restart_interval = cases[i][5];
        p.optimize = cases[i][6];
        sprintf(label, "params%d", i);
        show_params(label, &p);
    }
}

static void fixed_files(void)
{
    static const int configs[][8] = {
        /* w, h, comp, sub, quality, restart, optimize, image pattern */
        { 64, 64, 3, 2, 75, 0, 0, 0 },
        { 64, 64, 3, 2, 75, 3, 1, 0 },
        { 17, 13, 3, 0, 90, 0, 0, 3 },
        { 17, 13, 3, 1, 50, 2, 1, 3 },
        { 1, 1, 3, 2, 100, 0, 0, 3 },
        { 1, 1, 1, 0, 1, 1, 1, 3 },
        { 8, 8, 1, 0, 50, 0, 0, 6 },
        { 33, 20, 1, 0, 25, 4, 0, 4 },
        { 33, 20, 1, 0, 25, 4, 1, 4 },
        { 64, 64, 1, 0, 100, 7, 1, 3 },
        { 16, 16, 3, 0, 100, 1, 0, 5 },
        { 23, 41, 3, 2, 10, 2, 0, 5 },
        { 23, 41, 3, 1, 60, 9, 1, 0 },
        { 40, 24, 3, 2, 95, 1, 1, 2 },
        { 64, 8, 3, 1, 5, 0, 1, 7 },
        { 9, 64, 3, 0, 33, 65535, 0, 4 },
        { 48, 48, 3, 2, 80, 5, 0, 1 },
        { 3, 5, 1, 0, 70, 0, 1, 2 },
        { 64, 64, 3, 0, 85, 13, 1, 3 }
    };
    je_params p;
    char label[32];
    int i;

    for (i = 0; i < (int)(sizeof configs / sizeof configs[0]); i++) {
        p.width = configs[i][0];
        p.height = configs[i][1];
        p.components = configs[i][2];
        p.subsampling = configs[i][3];
        p.quality = configs[i][4];
        p.restart_interval = configs[i][5];
        p.optimize = configs[i][6];
        lcg_state = 1000u + (uint32_t)i;
        make_image(configs[i][7], p.width, p.height, p.components, src_lcg);
        sprintf(label, "file%d", i);
        show_encode(label, &p, image, OUT_MAX);
    }
    /* a parameter error leaves the buffer alone; a tiny buffer reports the space */
    p.width = 0;
    show_encode("file.bad", &p, image, OUT_MAX);
    p.width = 8; p.height = 8; p.components = 3; p.subsampling = 0; p.quality = 50;
    p.restart_interval = 0; p.optimize = 0;
    show_encode("file.nospace", &p, image, 0);
    show_encode("file.header_only", &p, image, 200);
}

/* ------------------------------------------------------------------ */
/* The seeded inputs                                                   */
/* ------------------------------------------------------------------ */

static void seeded_units(int pattern)
{
    static uint32_t freq[256];
    static uint8_t rgb[JE_PLANE * JE_PLANE * 3];
    uint16_t qt[JE_BLOCK];
    int16_t in[JE_BLOCK], zz[JE_BLOCK];
    int32_t cats[32];
    je_huff_spec spec;
    char label[48];
    int i, t, w, h, q;

    /* quality scaling anywhere in 1..100, and both ends */
    show_quant(rng_range(1, 100));
    show_quant(pattern < 4 ? 1 : 100);
    /* categories of any int32 value except the most negative */
    for (i = 0; i < 32; i++) {
        int shift = rng_range(33, 63);
        int64_t v = (int64_t)(rng_next() >> shift);
        if (rng_next() & 1)
            v = -v;
        cats[i] = (int32_t)(i == 0 ? 0 : v);
    }
    put_ints("seed.category_in", cats, 32);
    for (i = 0; i < 32; i++)
        cats[i] = je_category(cats[i]);
    put_ints("seed.category", cats, 32);
    /* colour conversion of an arbitrary image */
    w = rng_range(1, JE_MAX_DIM);
    h = rng_range(1, 8);
    for (i = 0; i < w * h * 3; i++)
        rgb[i] = (uint8_t)(pattern == 2 ? ((rng_next() & 1) ? 255 : 0) : rng_next());
    show_colour("seed.colour", rgb, w, h);
    /* padding and downsampling of a plane of any size */
    w = rng_range(1, JE_MAX_DIM);
    h = rng_range(1, JE_MAX_DIM);
    for (i = 0; i < JE_PLANE * JE_PLANE; i++)
        rgb[i] = (uint8_t)rng_next();
    show_resample("seed.resample", rgb, w, h, (w + 15) / 16 * 16, (h + 15) / 16 * 16);
    /* DCT and quantisation with any table (entries 1..65535) */
    for (t = 0; t < 4; t++) {
        for (i = 0; i < JE_BLOCK; i++) {
            int v;
            switch ((pattern + t) % 4) {
            case 0: v = rng_range(-128, 127); break;
            case 1: v = (rng_next() & 1) ? 127 : -128; break;
            case 2: v = rng_range(-128, -120) + (i & 7) * 31; break;
            default: v = (i == rng_range(0, 63)) ? 127 : rng_range(-3, 3); break;
            }
            in[i] = (int16_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
        }
        q = rng_range(0, 3);
        for (i = 0; i < JE_BLOCK; i++)
            qt[i] = (uint16_t)(q == 0 ? rng_range(1, 255) : q == 1 ? rng_range(1, 65535)
                               : q == 2 ? 1 : rng_range(1, 4));
        sprintf(label, "seed.dct%d", t);
        show_fdct_direct(label, in, qt);
    }
    /* an optimal table from arbitrary counts (totalling below 2^31) */
    for (t = 0; t < 3; t++) {
        int kind = (pattern + t) % 6, shift = rng_range(0, 22);
        memset(freq, 0, sizeof freq);
        for (i = 0; i < 256; i++) {
            switch (kind) {
            case 0: freq[i] = (rng_range(0, 3) == 0) ? (uint32_t)(rng_next() >> (64 - 1 - shift)) : 0; break;
            case 1: freq[i] = (uint32_t)rng_range(1, 3); break;
            case 2: freq[i] = (i < 40) ? (uint32_t)1 << (i % 23) : 0; break;
            case 3: freq[i] = (rng_range(0, 40) == 0) ? (uint32_t)rng_range(1, 1 << 22) : 0; break;
            case 4: freq[i] = (uint32_t)(rng_next() >> 41); break;
            default: freq[i] = (i == (int)(rng_next() & 255)) ? 5 : (rng_range(0, 9) == 0); break;
            }
        }
        if (rng_range(0, 4) == 0) {
            int at = rng_range(0, 255);
            freq[at] = (uint32_t)rng_range(1, 1 << 30);
        }
        sprintf(label, "seed.opt%d", t);
        show_optimal(label, freq);
    }
    /* any BITS list with any values: buildable or not */
    memset(&spec, 0, sizeof spec);
    for (i = 1; i <= 16; i++)
        spec.bits[i] = (uint8_t)(rng_range(0, 2) == 0 ? rng_range(0, (i < 9) ? (1 << i) : 255) : 0);
    for (i = 0; i < 256; i++)
        spec.vals[i] = (uint8_t)((pattern & 1) ? (uint64_t)(i * 7 + 3) : rng_next());
    show_build("seed.anytable", &spec);
    /* the bit writer with any codes, any sizes, any room */
    {
        uint32_t codes[64];
        int sizes[64], n = rng_range(0, 64);
        for (i = 0; i < n; i++) {
            sizes[i] = rng_range(0, 16);
            codes[i] = (pattern == 2) ? 0xFFFFFFFFu : (uint32_t)rng_next();
        }
        show_bits("seed.bits", codes, sizes, n, rng_range(0, 1) ? 4096 : rng_range(0, 40));
    }
    /* block coding of any block whose DC difference stays in category 11 */
    for (t = 0; t < 3; t++) {
        int density = rng_range(0, 64);
        for (i = 0; i < JE_BLOCK; i++)
            zz[i] = (int16_t)(rng_range(0, 63) < density ? rng_range(-1023, 1023) : 0);
        zz[0] = (int16_t)rng_range(-1024, 1023);
        if (t == 2)
            zz[63] = (int16_t)rng_range(1, 1023);
        sprintf(label, "seed.code%d", t);
        show_block_code(label, zz, rng_range(-1023, 1023), t & 1);
    }
}

static void seeded_params(void)
{
    je_params p;
    char label[32];
    int i;
    for (i = 0; i < 6; i++) {
        p.width = rng_range(-2, 70);
        p.height = rng_range(-2, 70);
        p.components = rng_range(0, 4);
        p.subsampling = rng_range(-1, 3);
        p.quality = rng_range(-1, 102);
        p.restart_interval = (rng_next() & 1) ? rng_range(-1, 4) : rng_range(65530, 65537);
        p.optimize = rng_range(-1, 2);
        if (i & 1) {
            p.width = rng_range(1, 64);
            p.height = rng_range(1, 64);
            p.components = (rng_next() & 1) ? 1 : 3;
            p.subsampling = rng_range(0, 2);
            p.quality = rng_range(1, 100);
            p.restart_interval = rng_range(0, 65535);
            p.optimize = rng_range(0, 1);
        }
        if (rng_range(0, 1) == 0) {
            p.restart_interval = rng_range(-1, 1) * 65536;
            p.restart_interval += rng_range(0, 1) * 65535;
        }
        sprintf(label, "seed.params%d", i);
        show_params(label, &p);
    }
}

static void seeded_files(int pattern)
{
    je_params p;
    char label[32];
    int f, nfiles = pattern == 7 ? 2 : 3;

    for (f = 0; f < nfiles; f++) {
        int mcu_w, mcu_h, nmcu;
        if (pattern == 6) {
            p.width = rng_range(1, 3);
            p.height = rng_range(1, 3);
        } else if (pattern == 7) {
            p.width = JE_MAX_DIM - rng_range(0, 1);
            p.height = JE_MAX_DIM - rng_range(0, 1);
        } else {
            p.width = rng_range(1, JE_MAX_DIM);
            p.height = rng_range(1, JE_MAX_DIM);
        }
        p.components = (rng_range(0, 3) == 0) ? 1 : 3;
        p.subsampling = (pattern == 7 && f == 0) ? JE_SUB_444 : rng_range(0, 2);
        p.quality = (f == 0) ? rng_range(1, 100) : (rng_range(0, 1) ? rng_range(90, 100) : rng_range(1, 10));
        p.optimize = rng_range(0, 1);
        mcu_w = (p.components == 3 && p.subsampling > 0) ? 16 : 8;
        mcu_h = (p.components == 3 && p.subsampling == 2) ? 16 : 8;
        nmcu = ((p.width + mcu_w - 1) / mcu_w) * ((p.height + mcu_h - 1) / mcu_h);
        switch (rng_range(0, 5)) {
        case 0: p.restart_interval = 0; break;
        case 1: p.restart_interval = 1; break;
        case 2: p.restart_interval = nmcu; break;
        case 3: p.restart_interval = nmcu > 1 ? nmcu - 1 : 1; break;
        case 4: p.restart_interval = rng_range(65000, 65535); break;
        default: p.restart_interval = rng_range(1, 12); break;
        }
        make_image(pattern == 6 || pattern == 7 ? rng_range(0, 5) : pattern, p.width, p.height,
                   p.components, src_rng);
        sprintf(label, "seed.file%d", f);
        show_encode(label, &p, image, rng_range(0, 7) == 0 ? rng_range(0, 700) : OUT_MAX);
    }
}

/* an image of one to 16 pixels a side into output buffers of 0, 1, 2 and
 * 3 bytes (too small even for the SOI marker and the first header) */
static void seeded_small_buffers(int pattern)
{
    je_params p;
    char label[32];
    int cap;

    p.width = rng_range(1, 16);
    p.height = rng_range(1, 16);
    p.components = rng_range(0, 1) ? 1 : 3;
    p.subsampling = rng_range(0, 2);
    p.quality = rng_range(1, 100);
    p.optimize = rng_range(0, 1);
    p.restart_interval = rng_range(0, 2);
    make_image(pattern == 6 || pattern == 7 ? rng_range(0, 5) : pattern, p.width, p.height, p.components,
               src_rng);
    for (cap = 0; cap < 4; cap++) {
        sprintf(label, "seed.cap%d", cap);
        show_encode(label, &p, image, cap);
    }
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8);
    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    seeded_units(pattern);
    seeded_params();
    seeded_files(pattern);
    seeded_small_buffers(pattern);
}

int main(int argc, char **argv)
{
    unsigned long long seed = 0;
    char *end = NULL;

    if (argc == 3 && strcmp(argv[1], "--seed") == 0) {
        seed = strtoull(argv[2], &end, 10);
        if (end == argv[2] || *end != '\0') {
            fprintf(stderr, "usage: %s [--seed N]: N must be a decimal number\n", argv[0]);
            return 2;
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--seed N]\n", argv[0]);
        return 2;
    }
    if (seed != 0) {
        run_seeded((uint64_t)seed);
        return 0;
    }
    fixed_tables();
    fixed_bad_tables();
    fixed_optimal();
    fixed_small_units();
    fixed_resample();
    fixed_blocks();
    fixed_bits();
    fixed_block_code();
    fixed_params();
    fixed_files();
    return 0;
}
