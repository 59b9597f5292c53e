/*
 * jpeg_test.c -- test driver for jpeg.c.
 *
 * The driver belongs to the harness: it makes the 8x8 test blocks, runs
 * the transforms and the entropy coder, and prints every table,
 * coefficient, scan byte, pixel and decoder status the design produces.
 * It judges nothing itself; the harness compares the printed output with
 * that of the known-good design.
 *
 *   ./prog            the fixed input: the zig-zag order, the Huffman
 *                     tables of K.3 and K.5, the cosine basis, 300 IDCT
 *                     trials in the manner of IEEE 1180, and 24
 *                     deterministic blocks (flat, ramps, checkerboards,
 *                     edges, a disc, noise, a high-frequency pattern)
 *                     coded with three quantisation tables, a restart
 *                     marker every 5 blocks, and decoded again
 *   ./prog --seed N   blocks, quantisation tables, restart intervals and
 *                     scans generated from N (N >= 1), with N % 8 choosing
 *                     the pattern: natural blocks, flat blocks, extremes,
 *                     full-range noise, gradients, edges and fine detail,
 *                     very short scans, long scans; every seed also codes
 *                     random coefficient blocks and decodes damaged scans;
 *                     then, for every N, the edges: scale factors 0 and 1,
 *                     the categories of 0, +-1 and the powers of two, one
 *                     block coded into buffers of 0, 1, its length - 1 and
 *                     its length, no blocks at all, and decoding from an
 *                     empty, a one-byte and a whole scan
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK      64
#define NBLOCKS    24
#define MAX_BLOCKS 48
#define NTABLES    3
#define STREAM_MAX 16384

/* the design's interface (jpeg.c) */
void jpeg_init(void);
int jpeg_huffman(int which, uint16_t *ehufco, uint8_t *ehufsi, int32_t *dec);
void jpeg_zigzag(uint8_t *order);
void jpeg_basis(int16_t *basis);
void jpeg_scale_quant(uint16_t *qt, int percent);
void jpeg_fdct(const int16_t *in, int32_t *out);
void jpeg_idct(const int32_t *in, int32_t *out);
void jpeg_quantise(const int32_t *coef, const uint16_t *qt, int16_t *zz);
void jpeg_dequantise(const int16_t *zz, const uint16_t *qt, int32_t *coef);
int jpeg_category(int32_t v);
int32_t jpeg_extend(int32_t v, int t);
int jpeg_encode(const uint8_t *px, int nblocks, const uint16_t *qt, int restart,
                uint8_t *scan, int max, int16_t *zz);
void jpeg_decode(const uint8_t *scan, int len, int nblocks, const uint16_t *qt, int restart,
                 int16_t *zz, uint8_t *px, int32_t *status);

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
    static int32_t wide[MAX_BLOCKS * BLOCK];
    int i;
    for (i = 0; i < n; i++)
        wide[i] = v[i];
    put_ints(label, wide, n);
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

static uint32_t lcg_state = 0x1234567u;

static uint32_t rnd(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (lcg_state >> 8) & 0xFFFFFFu;
}

/* columns 5 and 6 of the rounded cosine basis of A.3.3 (2^13 scale): the
 * high-frequency pattern of the fixed blocks */
static const int16_t cos_col5[8] = { 2276, -4017, 799, 3406, -3406, -799, 4017, -2276 };
static const int16_t cos_col6[8] = { 1567, -3784, 3784, -1567, -1567, 3784, -3784, 1567 };

/* Block b of the fixed test image (8x8 samples, 0..255); kind = b % 12. */
static void make_block(int b, int kind, uint8_t *px)
{
    int x, y;
    int c0, c1, c2, c3;

    c0 = (int)(rnd() & 255);
    c1 = (int)(rnd() & 255);
    c2 = (int)(rnd() & 255);
    c3 = (int)(rnd() & 255);
    for (y = 0; y < 8; y++)
        for (x = 0; x < 8; x++) {
            int v;
            switch (kind) {
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
                if (b < 12)
                    v = 128 + (cos_col5[x] * cos_col6[y]) / 262144;
                else
                    v = (x * y * 4 + c0) & 255;
                break;
            }
            px[y * 8 + x] = (uint8_t)v;
        }
}

/* the seeded inputs' generator (splitmix64) */
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
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------------------------ */
/* Runs shared by both input sets                                      */
/* ------------------------------------------------------------------ */

static uint8_t pixels[MAX_BLOCKS * BLOCK], decoded_px[MAX_BLOCKS * BLOCK];
static int16_t enc_zz[MAX_BLOCKS * BLOCK], dec_zz[MAX_BLOCKS * BLOCK];
static uint8_t scan[STREAM_MAX];
static int32_t status[2 + 2 * MAX_BLOCKS];

static void show_decode(const char *name, int len, int nblocks, const uint16_t *qt, int restart)
{
    char label[64];
    jpeg_decode(scan, len, nblocks, qt, restart, dec_zz, decoded_px, status);
    sprintf(label, "%s.decoded_coefficients", name);
    put_shorts(label, dec_zz, nblocks * BLOCK);
    sprintf(label, "%s.decoded_pixels", name);
    put_bytes(label, decoded_px, nblocks * BLOCK);
    sprintf(label, "%s.decoder_status", name);
    put_ints(label, status, 2 + 2 * nblocks);
}

/* encodes the blocks in pixels[], prints the scan, decodes it again */
static int show_codec(const char *name, int nblocks, const uint16_t *qt, int restart)
{
    int32_t q32[BLOCK];
    char label[64];
    int len, i;

    for (i = 0; i < BLOCK; i++)
        q32[i] = qt[i];
    sprintf(label, "%s.quant", name);
    put_ints(label, q32, BLOCK);
    sprintf(label, "%s.pixels", name);
    put_bytes(label, pixels, nblocks * BLOCK);
    len = jpeg_encode(pixels, nblocks, qt, restart, scan, STREAM_MAX, enc_zz);
    sprintf(label, "%s.coefficients", name);
    put_shorts(label, enc_zz, nblocks * BLOCK);
    printf("%s.scan_length %d\n", name, len);
    if (len < 0)
        return len;
    sprintf(label, "%s.scan", name);
    put_bytes(label, scan, len);
    show_decode(name, len, nblocks, qt, restart);
    return len;
}

static void show_tables(void)
{
    uint16_t ehufco[256];
    uint8_t ehufsi[256], order[BLOCK];
    int32_t dec[49], wide[256];
    int16_t basis[BLOCK];
    char label[32];
    int which, i;

    jpeg_zigzag(order);
    put_bytes("zigzag", order, BLOCK);
    for (which = 0; which < 2; which++) {
        int n = jpeg_huffman(which, ehufco, ehufsi, dec);
        printf("huffman%d.count %d\n", which, n);
        for (i = 0; i < 256; i++)
            wide[i] = ehufco[i];
        sprintf(label, "huffman%d.ehufco", which);
        put_ints(label, wide, 256);
        sprintf(label, "huffman%d.ehufsi", which);
        put_bytes(label, ehufsi, 256);
        sprintf(label, "huffman%d.decoder", which);
        put_ints(label, dec, 49);
    }
    jpeg_basis(basis);
    put_shorts("basis", basis, BLOCK);
}

/* inverse transforms of sparse random coefficient blocks (values in
 * -range..range), in the manner of the IEEE 1180 test */
static void show_idct_trial(const char *name, const int32_t *in)
{
    int32_t out[BLOCK];
    jpeg_idct(in, out);
    put_ints(name, out, BLOCK);
}

/* ------------------------------------------------------------------ */
/* The fixed input                                                     */
/* ------------------------------------------------------------------ */

static void fixed_idct(void)
{
    int32_t in[BLOCK];
    char label[32];
    int t, i;
    for (t = 0; t < 300; t++) {
        int range = (t % 3 == 0) ? 300 : (t % 3 == 1) ? 40 : 5;
        for (i = 0; i < BLOCK; i++) {
            int32_t r = (int32_t)(rnd() % (uint32_t)(2 * range + 1)) - range;
            in[i] = ((rnd() & 3) == 0 || i < 6) ? r : 0;
        }
        sprintf(label, "idct%d", t);
        show_idct_trial(label, in);
    }
}

static void run_fixed(void)
{
    static const int percent[NTABLES] = { 100, 25, 1 };
    uint16_t qt[BLOCK];
    char name[32];
    int ti, b;

    show_tables();
    fixed_idct();
    for (ti = 0; ti < NTABLES; ti++) {
        jpeg_scale_quant(qt, percent[ti]);
        lcg_state = 0x1234567u + 77u * (uint32_t)ti;
        for (b = 0; b < NBLOCKS; b++)
            make_block(b, b % 12, pixels + b * BLOCK);
        sprintf(name, "table%d", ti);
        show_codec(name, NBLOCKS, qt, 5);
    }
}

/* ------------------------------------------------------------------ */
/* Seeded input                                                        */
/* ------------------------------------------------------------------ */

/* 0 natural blocks of every kind, 1 flat blocks, 2 extremes (0/255
 * patterns), 3 full-range noise, 4 gradients, 5 edges and fine detail,
 * 6 very short scans, 7 long scans */
static void seeded_block(int pattern, uint8_t *px)
{
    int x, y, a = rng_range(0, 255), c = rng_range(0, 255), period = rng_range(1, 8);
    for (y = 0; y < 8; y++)
        for (x = 0; x < 8; x++) {
            int v;
            switch (pattern) {
            case 1: v = a; break;
            case 2: v = ((x / period + y) & 1) ? 255 : (rng_range(0, 3) == 0 ? 255 : 0); break;
            case 3: v = rng_range(0, 255); break;
            case 4: v = (a * (7 - x) + c * x) / 7 + (y - 4) * (c - a) / 16; break;
            case 5: v = (x * period + y * (8 - period)) % 16 < 8 ? a : c; break;
            default: v = -1; break;
            }
            px[y * 8 + x] = (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
        }
    if (pattern == 0 || pattern >= 6)
        make_block(rng_range(0, 23), rng_range(0, 11), px);
}

static void seeded_quant(uint16_t *qt)
{
    static const int percents[8] = { 1, 5, 25, 50, 100, 200, 400, 5000 };
    int i, kind = rng_range(0, 9);
    if (kind < 8) {
        jpeg_scale_quant(qt, percents[kind]);
    } else {
        for (i = 0; i < BLOCK; i++)
            qt[i] = (uint16_t)(kind == 8 ? rng_range(1, 255) : 1 + (i % 2) * 254);
    }
}

static void seeded_transforms(void)
{
    int16_t lv[BLOCK];
    int32_t coef[BLOCK], back[BLOCK], in[BLOCK], vals[32];
    uint16_t qt[BLOCK];
    int16_t zz[BLOCK];
    int i, t;

    for (t = 0; t < 8; t++) {
        char label[48];
        for (i = 0; i < BLOCK; i++)
            lv[i] = (int16_t)(t == 0 ? -128 : (t == 1 ? 127 : rng_range(-128, 127)));
        jpeg_fdct(lv, coef);
        sprintf(label, "fdct%d", t);
        put_ints(label, coef, BLOCK);
        seeded_quant(qt);
        jpeg_quantise(coef, qt, zz);
        sprintf(label, "quantised%d", t);
        put_shorts(label, zz, BLOCK);
        jpeg_dequantise(zz, qt, back);
        sprintf(label, "dequantised%d", t);
        put_ints(label, back, BLOCK);
        for (i = 0; i < BLOCK; i++) {
            int range = t < 4 ? 2048 : 40;
            in[i] = (rng_range(0, 3) == 0 || i < 6) ? rng_range(-range, range) : 0;
        }
        sprintf(label, "idct%d", t);
        show_idct_trial(label, in);
    }
    for (i = 0; i < 32; i++)
        vals[i] = jpeg_category(i < 2 ? (i ? -32767 : 32767) : rng_range(-32767, 32767));
    put_ints("category", vals, 32);
    for (i = 0; i < 32; i++) {
        int s = rng_range(0, 15);
        vals[i] = jpeg_extend(rng_range(0, (1 << s) - 1), s);
    }
    put_ints("extend", vals, 32);
}

/* decodes the scan with a few bytes damaged; the all-ones quantisation
 * table keeps every decoded coefficient inside the IDCT's range */
static void seeded_damaged_scan(int len, int nblocks, int restart)
{
    static const uint16_t ones[BLOCK] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                          1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                          1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                          1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    int i, damage = rng_range(1, 4);
    if (len <= 0)
        return;
    for (i = 0; i < damage; i++) {
        int at = rng_range(0, len - 1);
        scan[at] = (uint8_t)(scan[at] ^ (1u << rng_range(0, 7)));
    }
    show_decode("damaged", len, nblocks, ones, restart);
    /* cut right after the last 0xFF byte: the byte that says stuffing or marker is missing */
    for (i = len - 1; i >= 0 && scan[i] != 0xFF; i--)
        ;
    if (i >= 0)
        show_decode("cut_after_ff", i + 1, nblocks, ones, restart);
    len = rng_range(0, len);
    show_decode("truncated", len, nblocks, ones, restart);
}

/* the smallest arguments of each call, after the pattern's scan */
static void seeded_edges(int pattern)
{
    static const int percents[5] = { 0, 1, 2, 5000, 10000 };
    static const int32_t values[16] = { 0, 1, -1, 2, -2, 3, 4, -4, 255, 256, 1023, -1024, 2047, 2048,
                                        32767, -32768 };
    uint16_t qt[BLOCK];
    int32_t q32[BLOCK], vals[16];
    char label[48];
    int i, k, len, rc, restart = rng_range(0, 2);
    int max[4];

    for (k = 0; k < 5; k++) {
        for (i = 0; i < BLOCK; i++)
            qt[i] = 0xbeef;
        jpeg_scale_quant(qt, percents[k]);
        for (i = 0; i < BLOCK; i++)
            q32[i] = qt[i];
        sprintf(label, "edges.quant%d", percents[k]);
        put_ints(label, q32, BLOCK);
    }
    for (i = 0; i < 16; i++)
        vals[i] = jpeg_category(values[i]);
    put_ints("edges.category", vals, 16);

    seeded_block(pattern, pixels);
    seeded_block(pattern, pixels + BLOCK);
    seeded_quant(qt);
    len = jpeg_encode(pixels, 2, qt, restart, scan, STREAM_MAX, enc_zz);
    printf("edges.layout 2 blocks restart %d scan_length %d\n", restart, len);
    max[0] = 0;
    max[1] = 1;
    max[2] = len - 1;
    max[3] = len;
    for (k = 0; k < 4; k++) {
        memset(scan, 0x5a, 8);
        rc = jpeg_encode(pixels, 2, qt, restart, scan, max[k], enc_zz);
        sprintf(label, "edges.encode_max%d %d", k, rc);
        put_bytes(label, scan, rc > 8 ? rc : 8);
    }
    rc = jpeg_encode(pixels, 0, qt, restart, scan, STREAM_MAX, enc_zz);
    printf("edges.encode_no_blocks %d\n", rc);

    for (k = 0; k < 3; k++) {
        for (i = 0; i < 2 + 2 * 2; i++)
            status[i] = -7;
        memset(dec_zz, 0x5a, 2 * BLOCK * sizeof dec_zz[0]);
        memset(decoded_px, 0x5a, 2 * BLOCK);
        sprintf(label, "edges.decode_len%d", k == 0 ? 0 : (k == 1 ? 1 : len));
        show_decode(label, k == 0 ? 0 : (k == 1 ? 1 : len), 2, qt, restart);
    }
    for (i = 0; i < 2; i++)
        status[i] = -7;
    jpeg_decode(scan, len, 0, qt, restart, dec_zz, decoded_px, status);
    put_ints("edges.decode_no_blocks.status", status, 2);
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8), nblocks, restart, b, len;
    uint16_t qt[BLOCK];

    rng_state = seed;
    lcg_state = (uint32_t)rng_next();
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    seeded_transforms();
    nblocks = pattern == 6 ? rng_range(1, 3) : (pattern == 7 ? rng_range(32, MAX_BLOCKS)
                                                             : rng_range(4, 24));
    restart = pattern == 6 ? 1 : rng_range(0, 9);
    printf("layout %d blocks restart %d\n", nblocks, restart);
    for (b = 0; b < nblocks; b++)
        seeded_block(pattern, pixels + b * BLOCK);
    seeded_quant(qt);
    len = show_codec("scan", nblocks, qt, restart);
    seeded_damaged_scan(len, nblocks, restart);
    seeded_edges(pattern);
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
    jpeg_init();
    if (seed == 0)
        run_fixed();
    else
        run_seeded((uint64_t)seed);
    return 0;
}
