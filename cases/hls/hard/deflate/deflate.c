/*
 * deflate.c -- the Deflate compressor (RFC 1951) with zlib (RFC 1950) and
 * gzip (RFC 1952) wrappers.
 *
 * The input is parsed into LZ77 tokens (lz77.c) and cut into blocks of at
 * most 'block_tokens' tokens.  For every block the exact size of each of
 * the three encodings is computed:
 *
 *   stored   the raw bytes in chunks of at most 65535, each with a 3-bit
 *            header, padding to a byte boundary, LEN and NLEN
 *   fixed    the codes of RFC 1951, 3.2.6
 *   dynamic  codes built from the block's own statistics (huffman.c),
 *            sent as HLIT, HDIST, HCLEN, the code-length code lengths in
 *            the permuted order of 3.2.7 and the run-length coded
 *            sequence of literal/length and distance code lengths (one
 *            sequence: runs may cross from one table into the other)
 *
 * and the block is written in the smallest one (fixed on a tie with
 * dynamic, stored only when strictly smaller), unless a type is forced.
 * Bits are written least significant first; Huffman codes are stored
 * bit-reversed (huffman.c), so they come out most significant bit first.
 */
#include "deflate.h"

#define STORED_MAX   65535
#define END_BLOCK    256

typedef struct {
    uint8_t *buf;
    int cap;
    int pos;            /* bytes produced, counted on past cap */
    uint32_t acc;       /* pending bits, the oldest in bit 0 */
    int nbits;
} bitwriter;

/* the permuted order of the code-length code lengths (3.2.7) */
static const uint8_t cl_order[DF_NCLEN] = {
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
};

/* extra bits after each code-length symbol: only the repeats have any */
static const uint8_t cl_extra_bits[DF_NCLEN] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7
};

static df_token tokens[DF_MAX_INPUT + 1];

static uint8_t fixed_lit_lens[DF_NLITLEN], fixed_dist_lens[DF_NDIST];
static uint16_t fixed_lit_codes[DF_NLITLEN], fixed_dist_codes[DF_NDIST];
static int fixed_ready = 0;

/* the statistics and codes of the block being written */
typedef struct {
    uint32_t lit_freq[DF_NLITLEN], dist_freq[DF_NDIST];
    uint8_t lit_lens[DF_NLITLEN], dist_lens[DF_NDIST];
    uint16_t lit_codes[DF_NLITLEN], dist_codes[DF_NDIST];
    int hlit, hdist, hclen;
    uint8_t cl_sym[DF_NLITLEN + DF_NDIST];
    uint8_t cl_extra[DF_NLITLEN + DF_NDIST];
    int ncl;
    uint32_t cl_freq[DF_NCLEN];
    uint8_t cl_lens[DF_NCLEN];
    uint16_t cl_codes[DF_NCLEN];
} block_codes;

static block_codes blk;

/* ------------------------------------------------------------------ */
/* Bit output                                                          */
/* ------------------------------------------------------------------ */

/* stores the low byte of b if it fits, counts it in any case */
static void put_byte(bitwriter *bw, int b)
{
    if (bw->pos < bw->cap)
        bw->buf[bw->pos] = (uint8_t)b;
    bw->pos++;
}

/* appends the n bits of value (value < 2^n, n <= 16), least significant
 * first; put_byte keeps the low byte of the accumulator */
static void put_bits(bitwriter *bw, uint32_t value, int n)
{
    bw->acc |= value << bw->nbits;
    bw->nbits += n;
    while (bw->nbits >= 8) {
        put_byte(bw, (int)bw->acc);
        bw->acc >>= 8;
        bw->nbits -= 8;
    }
}

/* pads with zero bits to the next byte boundary */
static void align_byte(bitwriter *bw)
{
    if (bw->nbits > 0)
        put_bits(bw, 0, 8 - bw->nbits);
}

/* ------------------------------------------------------------------ */
/* Code tables                                                         */
/* ------------------------------------------------------------------ */

/* the fixed literal/length and distance codes (3.2.6) */
static void make_fixed(void)
{
    int s;

    for (s = 0; s < DF_NLITLEN; s++) {
        if (s < 144)
            fixed_lit_lens[s] = 8;
        else if (s < 256)
            fixed_lit_lens[s] = 9;
        else if (s < 280)
            fixed_lit_lens[s] = 7;
        else
            fixed_lit_lens[s] = 8;
    }
    for (s = 0; s < DF_NDIST; s++)
        fixed_dist_lens[s] = 5;
    df_huff_codes(fixed_lit_lens, DF_NLITLEN, fixed_lit_codes);
    df_huff_codes(fixed_dist_lens, DF_NDIST, fixed_dist_codes);
    fixed_ready = 1;
}

/* symbol counts of tokens[first .. first+count-1] plus the end of block */
static void count_symbols(int first, int count)
{
    int i, eb, ev;

    for (i = 0; i < DF_NLITLEN; i++)
        blk.lit_freq[i] = 0;
    for (i = 0; i < DF_NDIST; i++)
        blk.dist_freq[i] = 0;
    for (i = first; i < first + count; i++) {
        const df_token *t = &tokens[i];
        if (t->dist) {
            blk.lit_freq[df_length_code(t->len, &eb, &ev)]++;
            blk.dist_freq[df_dist_code(t->dist, &eb, &ev)]++;
        } else {
            blk.lit_freq[t->len]++;
        }
    }
    blk.lit_freq[END_BLOCK]++;
}

/* bits of the block's symbols and extra bits under the given lengths */
static uint32_t symbol_bits(const uint8_t *lit_lens, const uint8_t *dist_lens)
{
    uint32_t bits = 0;
    int s;

    for (s = 0; s < DF_NLITLEN; s++) {
        bits += blk.lit_freq[s] * lit_lens[s];
        if (s > END_BLOCK && s < END_BLOCK + 30)
            bits += blk.lit_freq[s] * df_len_extra[s - END_BLOCK - 1];
    }
    for (s = 0; s < DF_NDIST; s++)
        bits += blk.dist_freq[s] * (uint32_t)(dist_lens[s] + df_dist_extra[s]);
    return bits;
}

/* appends one code-length symbol with its extra value */
static void add_cl(int sym, int extra)
{
    blk.cl_sym[blk.ncl] = (uint8_t)sym;
    blk.cl_extra[blk.ncl] = (uint8_t)extra;
    blk.ncl++;
    blk.cl_freq[sym]++;
}

/* Run-length codes the HLIT + HDIST code lengths (3.2.7): 16 repeats the
 * previous length 3..6 times, 17 codes 3..10 zeros, 18 codes 11..138. */
static void run_length_code(void)
{
    uint8_t all[DF_NLITLEN + DF_NDIST + 1];
    int total = blk.hlit + blk.hdist;
    int i = 0, k;

    for (k = 0; k < blk.hlit; k++)
        all[k] = blk.lit_lens[k];
    for (k = 0; k < blk.hdist; k++)
        all[blk.hlit + k] = blk.dist_lens[k];
    all[total] = 0xFF;      /* no length: ends every run */
    blk.ncl = 0;
    for (k = 0; k < DF_NCLEN; k++)
        blk.cl_freq[k] = 0;
    while (i < total) {
        int v = all[i], run = 1;
        while (all[i + run] == v)
            run++;
        i += run;
        if (v == 0) {
            while (run >= 11) {
                int r = run > 138 ? 138 : run;
                add_cl(18, r - 11);
                run -= r;
            }
            if (run >= 3) {
                add_cl(17, run - 3);
                run = 0;
            }
        } else {
            add_cl(v, 0);
            run--;
            while (run >= 3) {
                int r = run > 6 ? 6 : run;
                add_cl(16, r - 3);
                run -= r;
            }
        }
        while (run-- > 0)
            add_cl(v, 0);
    }
}

/* Builds the dynamic codes of the block; returns the header size in bits
 * (HLIT .. the coded code lengths). */
static uint32_t build_dynamic(void)
{
    uint32_t bits;
    int k;

    df_huff_lengths(blk.lit_freq, DF_NLITLEN, DF_MAX_BITS, blk.lit_lens);
    df_huff_lengths(blk.dist_freq, DF_NDIST, DF_MAX_BITS, blk.dist_lens);
    df_huff_codes(blk.lit_lens, DF_NLITLEN, blk.lit_codes);
    df_huff_codes(blk.dist_lens, DF_NDIST, blk.dist_codes);
    /* the end-of-block code always has a length, so HLIT stays >= 257 */
    for (blk.hlit = 286; blk.lit_lens[blk.hlit - 1] == 0; blk.hlit--)
        ;
    for (blk.hdist = 30; blk.hdist > 1 && blk.dist_lens[blk.hdist - 1] == 0; blk.hdist--)
        ;
    run_length_code();
    df_huff_lengths(blk.cl_freq, DF_NCLEN, DF_MAX_CL_BITS, blk.cl_lens);
    df_huff_codes(blk.cl_lens, DF_NCLEN, blk.cl_codes);
    for (blk.hclen = DF_NCLEN; blk.hclen > 4 && blk.cl_lens[cl_order[blk.hclen - 1]] == 0; blk.hclen--)
        ;
    bits = 5 + 5 + 4 + 3 * (uint32_t)blk.hclen;
    for (k = 0; k < blk.ncl; k++)
        bits += (uint32_t)blk.cl_lens[blk.cl_sym[k]] + cl_extra_bits[blk.cl_sym[k]];
    return bits;
}

/* size in bits of 'bytes' bytes as stored blocks, starting 'bitpos' bits
 * into a byte */
static uint32_t stored_bits(int bytes, int bitpos)
{
    uint32_t bits = 0;
    int left = bytes, first = 1;

    do {
        int chunk = left > STORED_MAX ? STORED_MAX : left;
        int at = first ? bitpos : 0;
        bits += 3;
        bits += (uint32_t)((8 - (at + 3) % 8) % 8);
        bits += 32 + 8 * (uint32_t)chunk;
        left -= chunk;
        first = 0;
    } while (left > 0);
    return bits;
}

/* ------------------------------------------------------------------ */
/* Block output                                                        */
/* ------------------------------------------------------------------ */

static void write_stored(bitwriter *bw, const uint8_t *data, int bytes, int final)
{
    int left = bytes, i;

    do {
        int chunk = left > STORED_MAX ? STORED_MAX : left;
        left -= chunk;
        put_bits(bw, (final && left == 0) ? 1 : 0, 1);
        put_bits(bw, DF_BLOCK_STORED, 2);
        align_byte(bw);
        put_bits(bw, (uint32_t)chunk, 16);
        put_bits(bw, (uint32_t)chunk ^ 0xFFFFu, 16);
        for (i = 0; i < chunk; i++)
            put_byte(bw, data[i]);
        data += chunk;
    } while (left > 0);
}

static void write_tokens(bitwriter *bw, int first, int count, const uint8_t *lit_lens,
                         const uint16_t *lit_codes, const uint8_t *dist_lens,
                         const uint16_t *dist_codes)
{
    int i, eb, ev;

    for (i = first; i < first + count; i++) {
        const df_token *t = &tokens[i];
        if (t->dist) {
            int sym = df_length_code(t->len, &eb, &ev);
            put_bits(bw, lit_codes[sym], lit_lens[sym]);
            put_bits(bw, (uint32_t)ev, eb);
            sym = df_dist_code(t->dist, &eb, &ev);
            put_bits(bw, dist_codes[sym], dist_lens[sym]);
            put_bits(bw, (uint32_t)ev, eb);
        } else {
            put_bits(bw, lit_codes[t->len], lit_lens[t->len]);
        }
    }
    put_bits(bw, lit_codes[END_BLOCK], lit_lens[END_BLOCK]);
}

static void write_dynamic_header(bitwriter *bw)
{
    int k;

    put_bits(bw, (uint32_t)(blk.hlit - 257), 5);
    put_bits(bw, (uint32_t)(blk.hdist - 1), 5);
    put_bits(bw, (uint32_t)(blk.hclen - 4), 4);
    for (k = 0; k < blk.hclen; k++)
        put_bits(bw, blk.cl_lens[cl_order[k]], 3);
    for (k = 0; k < blk.ncl; k++) {
        int sym = blk.cl_sym[k];
        put_bits(bw, blk.cl_codes[sym], blk.cl_lens[sym]);
        put_bits(bw, blk.cl_extra[k], cl_extra_bits[sym]);
    }
}

/* Writes tokens[first .. first+count-1], which cover 'bytes' input bytes
 * starting at data, as one block (or a run of stored blocks).  Returns the
 * block type used; cost[] receives the size in bits of each encoding
 * (indexed by block type). */
static int write_block(bitwriter *bw, int first, int count, const uint8_t *data, int bytes,
                       int final, int forced, uint32_t *cost)
{
    int type = DF_BLOCK_FIXED;

    count_symbols(first, count);
    cost[DF_BLOCK_FIXED] = 3 + symbol_bits(fixed_lit_lens, fixed_dist_lens);
    cost[DF_BLOCK_DYNAMIC] = 3 + build_dynamic() + symbol_bits(blk.lit_lens, blk.dist_lens);
    cost[DF_BLOCK_STORED] = stored_bits(bytes, bw->nbits);
    if (cost[DF_BLOCK_DYNAMIC] < cost[type])
        type = DF_BLOCK_DYNAMIC;
    if (cost[DF_BLOCK_STORED] < cost[type])
        type = DF_BLOCK_STORED;
    if (forced != DF_BLOCK_AUTO)
        type = forced;
    if (type == DF_BLOCK_STORED) {
        write_stored(bw, data, bytes, final);
        return type;
    }
    put_bits(bw, (uint32_t)final, 1);
    put_bits(bw, (uint32_t)type, 2);
    if (type == DF_BLOCK_FIXED) {
        write_tokens(bw, first, count, fixed_lit_lens, fixed_lit_codes, fixed_dist_lens,
                     fixed_dist_codes);
    } else {
        write_dynamic_header(bw);
        write_tokens(bw, first, count, blk.lit_lens, blk.lit_codes, blk.dist_lens, blk.dist_codes);
    }
    return type;
}

/* ------------------------------------------------------------------ */
/* Wrappers and the compressor                                         */
/* ------------------------------------------------------------------ */

int df_check_params(const df_params *p)
{
    if (p->level < 0 || p->level > 9)
        return DF_ERR_PARAM;
    if (p->block_type < DF_BLOCK_AUTO || p->block_type > DF_BLOCK_DYNAMIC)
        return DF_ERR_PARAM;
    if (p->block_tokens < 1 || p->block_tokens > DF_MAX_BLOCK)
        return DF_ERR_PARAM;
    if (p->wrapper < DF_RAW || p->wrapper > DF_GZIP)
        return DF_ERR_PARAM;
    return 0;
}

static void put_u32_le(bitwriter *bw, uint32_t v)
{
    int i;
    for (i = 0; i < 4; i++)
        put_byte(bw, (int)(v >> (8 * i)));
}

/* CMF = deflate with a 32 KiB window; FLG = the level class and FCHECK */
static void zlib_header(bitwriter *bw, int level)
{
    int cmf = 0x78;
    int flevel = level < 2 ? 0 : level < 6 ? 1 : level < 7 ? 2 : 3;
    int flg = flevel << 6;
    int rem = (cmf * 256 + flg) % 31;

    flg += 31 - rem;        /* rem is never 0 for CMF 0x78 and these levels */
    put_byte(bw, cmf);
    put_byte(bw, flg);
}

/* ID1 ID2 CM FLG, MTIME 0, XFL (2: strongest, 4: fastest), OS unknown */
static void gzip_header(bitwriter *bw, int level)
{
    put_byte(bw, 0x1F);
    put_byte(bw, 0x8B);
    put_byte(bw, 8);
    put_byte(bw, 0);
    put_u32_le(bw, 0);
    put_byte(bw, level > 8 ? 2 : level == 1 ? 4 : 0);
    put_byte(bw, 255);
}

/* Compresses in[0..n-1] (0 <= n <= DF_MAX_INPUT) into out[0..cap-1].
 * Returns the length written, DF_ERR_PARAM or DF_ERR_SPACE (the stream
 * needs more than cap bytes).  info (may be NULL) receives the token
 * count, and for every block its type and the size of each encoding. */
int df_compress(const df_params *p, const uint8_t *in, int n, uint8_t *out, int cap, df_info *info)
{
    bitwriter bw;
    int ntok, first = 0, consumed = 0, nblocks = 0;

    if (df_check_params(p) != 0 || n < 0 || n > DF_MAX_INPUT)
        return DF_ERR_PARAM;
    if (!fixed_ready)
        make_fixed();
    bw.buf = out;
    bw.cap = cap;
    bw.pos = 0;
    bw.acc = 0;
    bw.nbits = 0;
    if (p->wrapper == DF_ZLIB)
        zlib_header(&bw, p->level);
    else if (p->wrapper == DF_GZIP)
        gzip_header(&bw, p->level);
    ntok = df_lz77(in, n, p->level, tokens, DF_MAX_INPUT + 1);
    do {
        int count = ntok - first < p->block_tokens ? ntok - first : p->block_tokens;
        int bytes = 0, i, type;
        uint32_t cost[3];
        for (i = first; i < first + count; i++)
            bytes += tokens[i].dist ? tokens[i].len : 1;
        type = write_block(&bw, first, count, in + consumed, bytes, first + count == ntok,
                           p->block_type, cost);
        if (info != NULL && nblocks < DF_MAX_LOG) {
            info->types[nblocks] = (uint8_t)type;
            for (i = 0; i < 3; i++)
                info->cost[nblocks][i] = cost[i];
        }
        nblocks++;
        first += count;
        consumed += bytes;
    } while (first < ntok);
    align_byte(&bw);
    if (p->wrapper == DF_ZLIB) {
        uint32_t adler = df_adler32(1, in, n);
        put_byte(&bw, (int)(adler >> 24));
        put_byte(&bw, (int)(adler >> 16));
        put_byte(&bw, (int)(adler >> 8));
        put_byte(&bw, (int)adler);
    } else if (p->wrapper == DF_GZIP) {
        put_u32_le(&bw, df_crc32(0, in, n));
        put_u32_le(&bw, (uint32_t)n);
    }
    if (info != NULL) {
        info->tokens = ntok;
        info->blocks = nblocks;
    }
    if (bw.pos > cap)
        return DF_ERR_SPACE;
    return bw.pos;
}
