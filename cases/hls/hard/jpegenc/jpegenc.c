/*
 * jpegenc.c -- baseline sequential DCT JPEG encoder (ITU-T T.81), top level.
 *
 * je_encode turns a greyscale or RGB image of up to 64 x 64 pixels into a
 * complete JFIF file:
 *
 *   SOI, APP0 (JFIF 1.02, no thumbnail), DQT (one or two 8-bit tables in
 *   zig-zag order), SOF0 (8-bit precision, component ids 1..3), DHT (two or
 *   four tables), DRI (when restart markers are asked for), SOS (one scan,
 *   all components, Ss = 0, Se = 63, Ah = Al = 0), the entropy-coded
 *   segments with RST0..RST7 between restart intervals, EOI.
 *
 * Colour images are converted to YCbCr and may have their chroma
 * subsampled 4:2:2 (luminance sampled H = 2, V = 1) or 4:2:0 (H = V = 2);
 * the scan is then interleaved, MCU by MCU: the luminance blocks of the MCU
 * row by row, then one Cb and one Cr block.  A greyscale image is one
 * non-interleaved component whose MCU is a single block.  Planes are
 * padded to whole MCUs by edge replication before any downsampling.
 *
 * With optimize set, a first pass over the quantised blocks gathers the
 * statistics of every DC and AC table, and the tables written and used are
 * the optimal ones of Annex K.2; otherwise the tables of Annex K.3 are used.
 */
#include "jpegenc.h"

#define M_SOI   0xD8
#define M_EOI   0xD9
#define M_APP0  0xE0
#define M_DQT   0xDB
#define M_SOF0  0xC0
#define M_DHT   0xC4
#define M_DRI   0xDD
#define M_SOS   0xDA
#define M_RST0  0xD0

#define MAX_COMP     3
#define MAX_BLOCKS   (3 * (JE_PLANE / 8) * (JE_PLANE / 8))
#define EOB          0x00
#define ZRL          0xF0

typedef struct {
    int id;              /* component identifier in SOF and SOS */
    int h, v;            /* sampling factors */
    int tq;              /* quantisation table */
    int dc, ac;          /* Huffman tables (JE_DC_* / JE_AC_*) */
} component;

typedef struct {
    int ncomp;
    component comp[MAX_COMP];
    int hmax, vmax;
    int mcus_x, mcus_y;
    int blocks_per_mcu;
} layout;

static uint8_t planes[MAX_COMP][JE_PLANE * JE_PLANE];
static uint8_t reduced[MAX_COMP][JE_PLANE * JE_PLANE];
static int16_t coefs[MAX_BLOCKS][JE_BLOCK];
static uint8_t block_comp[MAX_BLOCKS];
static uint16_t qtables[2][JE_BLOCK];
static je_huff_spec specs[4];
static je_huff_code codes[4];
static uint32_t freqs[4][257];

/* ------------------------------------------------------------------ */
/* Parameters and geometry                                             */
/* ------------------------------------------------------------------ */

/* 0 when every parameter is in range, else JE_ERR_PARAM */
int je_check_params(const je_params *p)
{
    if (p->width < 1 || p->width > JE_MAX_DIM)
        return JE_ERR_PARAM;
    if (p->height < 1 || p->height > JE_MAX_DIM)
        return JE_ERR_PARAM;
    if (p->components != 1 && p->components != 3)
        return JE_ERR_PARAM;
    if (p->components == 3 && (p->subsampling < JE_SUB_444 || p->subsampling > JE_SUB_420))
        return JE_ERR_PARAM;
    if (p->quality < 1 || p->quality > 100)
        return JE_ERR_PARAM;
    if (p->restart_interval < 0 || p->restart_interval > JE_MAX_RESTART)
        return JE_ERR_PARAM;
    if (p->optimize != 0 && p->optimize != 1)
        return JE_ERR_PARAM;
    return 0;
}

static int ceil_div(int a, int b)
{
    return (a + b - 1) / b;
}

/* Fills the component table and the MCU geometry; returns 0, or
 * JE_ERR_PARAM. */
static int make_layout(const je_params *p, layout *lo)
{
    int c;

    if (je_check_params(p) != 0)
        return JE_ERR_PARAM;
    lo->ncomp = p->components;
    lo->hmax = 1;
    lo->vmax = 1;
    if (p->components == 3) {
        if (p->subsampling != JE_SUB_444)
            lo->hmax = 2;
        if (p->subsampling == JE_SUB_420)
            lo->vmax = 2;
    }
    for (c = 0; c < lo->ncomp; c++) {
        component *cp = &lo->comp[c];
        cp->id = c + 1;
        cp->h = c == 0 ? lo->hmax : 1;
        cp->v = c == 0 ? lo->vmax : 1;
        cp->tq = c == 0 ? 0 : 1;
        cp->dc = c == 0 ? JE_DC_LUMA : JE_DC_CHROMA;
        cp->ac = c == 0 ? JE_AC_LUMA : JE_AC_CHROMA;
    }
    lo->mcus_x = ceil_div(p->width, 8 * lo->hmax);
    lo->mcus_y = ceil_div(p->height, 8 * lo->vmax);
    lo->blocks_per_mcu = 0;
    for (c = 0; c < lo->ncomp; c++)
        lo->blocks_per_mcu += lo->comp[c].h * lo->comp[c].v;
    return 0;
}

int je_mcu_layout(const je_params *p, int *mcus_x, int *mcus_y, int *blocks_per_mcu)
{
    layout lo;
    int err = make_layout(p, &lo);

    if (err != 0)
        return err;
    *mcus_x = lo.mcus_x;
    *mcus_y = lo.mcus_y;
    *blocks_per_mcu = lo.blocks_per_mcu;
    return lo.ncomp;
}

/* ------------------------------------------------------------------ */
/* Sample preparation and transform                                    */
/* ------------------------------------------------------------------ */

/* Loads the image into planes[], pads to whole MCUs and downsamples the
 * chroma into reduced[] (component 0 is copied unchanged). */
static void prepare_planes(const je_params *p, const layout *lo, const uint8_t *pixels)
{
    int pw = lo->mcus_x * 8 * lo->hmax;
    int ph = lo->mcus_y * 8 * lo->vmax;
    int c, x, y;

    if (lo->ncomp == 1) {
        for (y = 0; y < p->height; y++)
            for (x = 0; x < p->width; x++)
                planes[0][y * JE_PLANE + x] = pixels[y * p->width + x];
    } else {
        je_rgb_to_ycc(pixels, p->width, p->height, planes[0], planes[1], planes[2]);
    }
    for (c = 0; c < lo->ncomp; c++) {
        const component *cp = &lo->comp[c];
        je_pad_plane(planes[c], p->width, p->height, pw, ph);
        je_downsample(planes[c], pw, ph, lo->hmax / cp->h, lo->vmax / cp->v, reduced[c]);
    }
}

/* DCT and quantisation of every block, stored in scan order */
static void transform_blocks(const layout *lo)
{
    int16_t samples[JE_BLOCK];
    int32_t coef[JE_BLOCK];
    int mx, my, c, bx, by, n = 0;

    for (my = 0; my < lo->mcus_y; my++) {
        for (mx = 0; mx < lo->mcus_x; mx++) {
            for (c = 0; c < lo->ncomp; c++) {
                const component *cp = &lo->comp[c];
                for (by = 0; by < cp->v; by++) {
                    for (bx = 0; bx < cp->h; bx++) {
                        je_load_block(reduced[c], mx * cp->h + bx, my * cp->v + by, samples);
                        je_fdct(samples, coef);
                        je_quantise(coef, qtables[cp->tq], coefs[n]);
                        block_comp[n] = (uint8_t)c;
                        n++;
                    }
                }
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Entropy coding                                                      */
/* ------------------------------------------------------------------ */

/* codes (bw != NULL) or counts (bw == NULL) one Huffman symbol */
static void put_symbol(je_bitwriter *bw, const je_huff_code *table, uint32_t *freq, int sym)
{
    if (bw == NULL)
        freq[sym]++;
    else
        je_bw_bits(bw, table->code[sym], table->size[sym]);
}

/* the 'size' low bits that follow a category: v itself when positive,
 * v - 1 (its one's complement) when negative (F.1.2.1); the writer keeps
 * only the low 'size' bits */
static void put_extra(je_bitwriter *bw, int32_t v, int size)
{
    if (bw != NULL)
        je_bw_bits(bw, (uint32_t)(v < 0 ? v - 1 : v), size);
}

/* Codes one quantised block (zig-zag order): the DC difference against
 * *pred, then the AC coefficients as run/size symbols with ZRL for every
 * 16 zeros before a coefficient and EOB after the last one.  With
 * bw == NULL the symbols are only counted in dc_freq / ac_freq.  Returns
 * the number of Huffman symbols. */
int je_encode_block(const int16_t *zz, int *pred, const je_huff_code *dc,
                    const je_huff_code *ac, je_bitwriter *bw, uint32_t *dc_freq, uint32_t *ac_freq)
{
    int32_t diff = zz[0] - *pred;
    int s = je_category(diff);
    int k, run = 0, nsym = 1;

    *pred = zz[0];
    put_symbol(bw, dc, dc_freq, s);
    put_extra(bw, diff, s);
    for (k = 1; k < JE_BLOCK; k++) {
        int32_t v = zz[k];
        if (v == 0) {
            run++;
            continue;
        }
        while (run > 15) {
            put_symbol(bw, ac, ac_freq, ZRL);
            run -= 16;
            nsym++;
        }
        s = je_category(v);
        put_symbol(bw, ac, ac_freq, (run << 4) + s);
        put_extra(bw, v, s);
        run = 0;
        nsym++;
    }
    if (run > 0) {
        put_symbol(bw, ac, ac_freq, EOB);
        nsym++;
    }
    return nsym;
}

/* One pass over the scan: codes it into bw, or counts the symbols into
 * freqs[] when bw == NULL.  A restart interval ends after every
 * 'restart' MCUs except the last: the bits are padded, RSTm is written
 * (m counting 0..7) and the DC predictions start again from 0. */
static void code_scan(const layout *lo, int restart, je_bitwriter *bw)
{
    int pred[MAX_COMP];
    int nmcu = lo->mcus_x * lo->mcus_y;
    int m, b, c, n = 0, marker = 0;

    for (c = 0; c < lo->ncomp; c++)
        pred[c] = 0;
    for (m = 0; m < nmcu; m++) {
        if (restart > 0 && m > 0 && m % restart == 0) {
            if (bw != NULL) {
                je_bw_flush(bw);
                je_bw_marker(bw, M_RST0 + (marker & 7));
            }
            marker++;
            for (c = 0; c < lo->ncomp; c++)
                pred[c] = 0;
        }
        for (b = 0; b < lo->blocks_per_mcu; b++, n++) {
            const component *cp = &lo->comp[block_comp[n]];
            je_encode_block(coefs[n], &pred[block_comp[n]], &codes[cp->dc], &codes[cp->ac],
                            bw, freqs[cp->dc], freqs[cp->ac]);
        }
    }
    if (bw != NULL)
        je_bw_flush(bw);
}

/* The Huffman tables of the scan: standard, or optimal from a counting
 * pass over the same restart intervals (every table the scan uses then
 * has symbols, as every block codes a DC category and at least one AC
 * symbol).  Tables the scan does not use are left empty. */
static void make_tables(const layout *lo, int optimize, int restart)
{
    static const je_huff_spec no_table;
    int ntab = lo->ncomp == 1 ? 2 : 4;
    int t, i;

    for (t = 0; t < 4; t++) {
        for (i = 0; i < 257; i++)
            freqs[t][i] = 0;
        if (t < ntab)
            je_std_spec(t, &specs[t]);
        else
            specs[t] = no_table;
    }
    if (optimize) {
        code_scan(lo, restart, NULL);
        for (t = 0; t < ntab; t++)
            je_huff_optimal(freqs[t], &specs[t]);
    }
    for (t = 0; t < 4; t++)
        je_huff_build(&specs[t], &codes[t]);
}

/* ------------------------------------------------------------------ */
/* Marker segments                                                     */
/* ------------------------------------------------------------------ */

static void write_app0(je_bitwriter *bw)
{
    static const char ident[] = "JFIF";
    int i;

    je_bw_marker(bw, M_APP0);
    je_bw_u16(bw, 16);
    for (i = 0; i < 5; i++)      /* the identifier with its terminating zero */
        je_bw_byte(bw, ident[i]);
    je_bw_byte(bw, 1);          /* version 1.02 */
    je_bw_byte(bw, 2);
    je_bw_byte(bw, 0);          /* no units: aspect ratio only */
    je_bw_u16(bw, 1);
    je_bw_u16(bw, 1);
    je_bw_byte(bw, 0);          /* no thumbnail */
    je_bw_byte(bw, 0);
}

/* one DQT segment holding table 0 and, for colour, table 1 */
static void write_dqt(je_bitwriter *bw, int ntables)
{
    int t, k;

    je_bw_marker(bw, M_DQT);
    je_bw_u16(bw, 2 + ntables * (1 + JE_BLOCK));
    for (t = 0; t < ntables; t++) {
        je_bw_byte(bw, t);      /* Pq = 0 (8-bit), Tq = t */
        for (k = 0; k < JE_BLOCK; k++)
            je_bw_byte(bw, qtables[t][je_zigzag(k)]);
    }
}

static void write_sof0(je_bitwriter *bw, const je_params *p, const layout *lo)
{
    int c;

    je_bw_marker(bw, M_SOF0);
    je_bw_u16(bw, 8 + 3 * lo->ncomp);
    je_bw_byte(bw, 8);
    je_bw_u16(bw, p->height);
    je_bw_u16(bw, p->width);
    je_bw_byte(bw, lo->ncomp);
    for (c = 0; c < lo->ncomp; c++) {
        je_bw_byte(bw, lo->comp[c].id);
        je_bw_byte(bw, (lo->comp[c].h << 4) + lo->comp[c].v);
        je_bw_byte(bw, lo->comp[c].tq);
    }
}

/* one DHT segment with every table the scan uses: Tc = 0 for DC, 1 for
 * AC; Th = 0 for luminance, 1 for chrominance */
static void write_dht(je_bitwriter *bw, int ntab)
{
    int t, l, k, len = 2;

    for (t = 0; t < ntab; t++)
        len += 17 + je_spec_count(&specs[t]);
    je_bw_marker(bw, M_DHT);
    je_bw_u16(bw, len);
    for (t = 0; t < ntab; t++) {
        int n = je_spec_count(&specs[t]);
        je_bw_byte(bw, ((t & 1) << 4) + (t >> 1));
        for (l = 1; l <= 16; l++)
            je_bw_byte(bw, specs[t].bits[l]);
        for (k = 0; k < n; k++)
            je_bw_byte(bw, specs[t].vals[k]);
    }
}

static void write_dri(je_bitwriter *bw, int restart)
{
    je_bw_marker(bw, M_DRI);
    je_bw_u16(bw, 4);
    je_bw_u16(bw, restart);
}

static void write_sos(je_bitwriter *bw, const layout *lo)
{
    int c;

    je_bw_marker(bw, M_SOS);
    je_bw_u16(bw, 6 + 2 * lo->ncomp);
    je_bw_byte(bw, lo->ncomp);
    for (c = 0; c < lo->ncomp; c++) {
        const component *cp = &lo->comp[c];
        je_bw_byte(bw, cp->id);
        je_bw_byte(bw, ((cp->dc >> 1) << 4) + (cp->ac >> 1));
    }
    je_bw_byte(bw, 0);          /* Ss */
    je_bw_byte(bw, 63);         /* Se */
    je_bw_byte(bw, 0);          /* Ah, Al */
}

/* ------------------------------------------------------------------ */
/* The encoder                                                         */
/* ------------------------------------------------------------------ */

/* Encodes the image (greyscale: width*height samples; colour: RGB
 * triplets, row by row) into out[0..cap-1].  Returns the file length,
 * JE_ERR_PARAM or JE_ERR_SPACE (the file would need more than cap bytes).
 * When 'used' is not NULL it receives the four Huffman
 * tables (greyscale: the chrominance entries are empty). */
int je_encode(const je_params *p, const uint8_t *pixels, uint8_t *out, int cap,
              je_huff_spec *used)
{
    je_bitwriter bw;
    layout lo;
    int t, ntab;

    if (make_layout(p, &lo) != 0)
        return JE_ERR_PARAM;
    ntab = lo.ncomp == 1 ? 2 : 4;
    je_quant_table(p->quality, 0, qtables[0]);
    je_quant_table(p->quality, 1, qtables[1]);
    prepare_planes(p, &lo, pixels);
    transform_blocks(&lo);
    make_tables(&lo, p->optimize, p->restart_interval);
    if (used != NULL)
        for (t = 0; t < 4; t++)
            used[t] = specs[t];

    je_bw_init(&bw, out, cap);
    je_bw_marker(&bw, M_SOI);
    write_app0(&bw);
    write_dqt(&bw, lo.ncomp == 1 ? 1 : 2);
    write_sof0(&bw, p, &lo);
    write_dht(&bw, ntab);
    if (p->restart_interval > 0)
        write_dri(&bw, p->restart_interval);
    write_sos(&bw, &lo);
    code_scan(&lo, p->restart_interval, &bw);
    je_bw_marker(&bw, M_EOI);
    if (bw.pos > cap)
        return JE_ERR_SPACE;
    return bw.pos;
}
