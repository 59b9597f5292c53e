/*
 * inflate.c -- the Deflate decompressor (RFC 1951) with zlib (RFC 1950)
 * and gzip (RFC 1952) wrapper parsing.
 *
 * Huffman codes are decoded canonically, one bit at a time: for each
 * length the table keeps the first code of that length, how many codes it
 * has, and where its symbols start in the list of symbols sorted by
 * (length, value).  A code set is rejected when it over-subscribes the
 * code space; an incomplete set is accepted only for one code of one bit
 * (literal/length and distance codes) or no code at all (distances); the
 * code-length code must be complete.
 *
 * Every violation of the format is reported: block type 3, a stored
 * length whose complement does not match, HLIT above 286 or HDIST above
 * 30, a repeat with no previous length or past the end of the lengths, no
 * code for the end of block, codes 286/287 and distances 30/31, a
 * distance further back than the output, an input that ends early.
 */
#include "deflate.h"

#define END_BLOCK  256

typedef struct {
    uint16_t first[DF_MAX_BITS + 1];   /* first canonical code of each length */
    uint16_t count[DF_MAX_BITS + 1];   /* number of codes of each length */
    uint16_t index[DF_MAX_BITS + 1];   /* position of its first symbol in symbol[] */
    uint16_t symbol[DF_NLITLEN];
    int ncodes;
} decode_table;

typedef struct {
    const uint8_t *in;
    int n;
    int pos;            /* next input byte */
    uint32_t acc;       /* bits read ahead, the oldest in bit 0 */
    int nbits;
    uint8_t *out;
    int cap;
    int len;            /* bytes produced */
} inflater;

/* table kinds: what an incomplete set may be */
#define KIND_LENS   0
#define KIND_DISTS  1
#define KIND_CODES  2

static decode_table lit_table, dist_table, cl_table;

/* ------------------------------------------------------------------ */
/* Bit input                                                           */
/* ------------------------------------------------------------------ */

/* the next n bits (n <= 16) as a number, least significant first */
static int get_bits(inflater *s, int n, uint32_t *v)
{
    while (s->nbits < n) {
        if (s->pos >= s->n)
            return DF_ERR_EOF;
        s->acc |= (uint32_t)s->in[s->pos++] << s->nbits;
        s->nbits += 8;
    }
    *v = s->acc & (((uint32_t)1 << n) - 1);
    s->acc >>= n;
    s->nbits -= n;
    return 0;
}

/* drops the bits up to the next byte boundary and gives back whole bytes
 * read ahead, so that pos is the first byte after the deflate data */
static void realign(inflater *s)
{
    s->pos -= s->nbits / 8;
    s->acc = 0;
    s->nbits = 0;
}

static int put_out(inflater *s, int b)
{
    if (s->len >= s->cap)
        return DF_ERR_SPACE;
    s->out[s->len++] = (uint8_t)b;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Decoding tables                                                     */
/* ------------------------------------------------------------------ */

/* Builds the table of n code lengths; returns 0 or DF_ERR_DATA. */
static int build_table(decode_table *t, const uint8_t *lens, int n, int kind)
{
    uint16_t offs[DF_MAX_BITS + 1];
    int32_t left = 1;
    int len, s, code = 0, idx = 0;

    for (len = 0; len <= DF_MAX_BITS; len++)
        t->count[len] = 0;
    for (s = 0; s < n; s++)
        t->count[lens[s]]++;
    t->ncodes = n - t->count[0];
    for (len = 1; len <= DF_MAX_BITS; len++) {
        left = 2 * left - t->count[len];
        if (left < 0)
            return DF_ERR_DATA;
        t->first[len] = (uint16_t)code;
        t->index[len] = (uint16_t)idx;
        offs[len] = (uint16_t)idx;
        code = (code + t->count[len]) << 1;
        idx += t->count[len];
    }
    if (left > 0) {
        int single = t->ncodes == 1 && t->count[1] == 1;
        if (kind == KIND_CODES || !(single || (kind == KIND_DISTS && t->ncodes == 0)))
            return DF_ERR_DATA;
    }
    for (s = 0; s < n; s++)
        if (lens[s] != 0)
            t->symbol[offs[lens[s]]++] = (uint16_t)s;
    return 0;
}

/* the next symbol, or DF_ERR_DATA / DF_ERR_EOF */
static int decode(inflater *s, const decode_table *t)
{
    int code = 0, len;

    for (len = 1; len <= DF_MAX_BITS; len++) {
        uint32_t bit;
        int err = get_bits(s, 1, &bit);
        if (err < 0)
            return err;
        code = (code << 1) | (int)bit;
        if ((unsigned)(code - t->first[len]) < t->count[len])
            return t->symbol[t->index[len] + code - t->first[len]];
    }
    return DF_ERR_DATA;
}

/* ------------------------------------------------------------------ */
/* Blocks                                                              */
/* ------------------------------------------------------------------ */

static int stored_block(inflater *s)
{
    uint32_t len, nlen, b;
    int err;

    s->acc >>= s->nbits % 8;
    s->nbits -= s->nbits % 8;
    if ((err = get_bits(s, 16, &len)) < 0 || (err = get_bits(s, 16, &nlen)) < 0)
        return err;
    if (len != (nlen ^ 0xFFFFu))
        return DF_ERR_DATA;
    while (len-- > 0) {
        if ((err = get_bits(s, 8, &b)) < 0)
            return err;
        if ((err = put_out(s, (int)b)) < 0)
            return err;
    }
    return 0;
}

/* literals and matches up to the end of block */
static int codes(inflater *s, const decode_table *lt, const decode_table *dt)
{
    for (;;) {
        uint32_t extra;
        int sym = decode(s, lt), len, dist, err;
        if (sym < 0)
            return sym;
        if (sym < END_BLOCK) {
            if ((err = put_out(s, sym)) < 0)
                return err;
            continue;
        }
        if (sym == END_BLOCK)
            return 0;
        sym -= END_BLOCK + 1;
        if (sym >= 29)
            return DF_ERR_DATA;
        if ((err = get_bits(s, df_len_extra[sym], &extra)) < 0)
            return err;
        len = df_len_base[sym] + (int)extra;
        sym = decode(s, dt);
        if (sym < 0)
            return sym;
        if (sym >= DF_NDIST)
            return DF_ERR_DATA;
        if ((err = get_bits(s, df_dist_extra[sym], &extra)) < 0)
            return err;
        dist = df_dist_base[sym] + (int)extra;
        if (dist > s->len)
            return DF_ERR_DATA;
        while (len-- > 0)
            if ((err = put_out(s, s->out[s->len - dist])) < 0)
                return err;
    }
}

static int fixed_block(inflater *s)
{
    uint8_t lens[DF_NLITLEN];
    int k, err;

    for (k = 0; k < DF_NLITLEN; k++)
        lens[k] = k < 144 ? 8 : k < 256 ? 9 : k < 280 ? 7 : 8;
    if ((err = build_table(&lit_table, lens, DF_NLITLEN, KIND_LENS)) < 0)
        return err;
    for (k = 0; k < 32; k++)
        lens[k] = 5;
    if ((err = build_table(&dist_table, lens, 32, KIND_DISTS)) < 0)
        return err;
    return codes(s, &lit_table, &dist_table);
}

/* reads HCLEN code-length code lengths and the HLIT + HDIST lengths */
static int dynamic_lengths(inflater *s, uint8_t *lens, int hlit, int hdist, int hclen)
{
    static const uint8_t order[DF_NCLEN] = {
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15
    };
    uint8_t cl[DF_NCLEN];
    uint32_t v;
    int k = 0, err, total = hlit + hdist;

    for (k = 0; k < DF_NCLEN; k++)
        cl[k] = 0;
    for (k = 0; k < hclen; k++) {
        if ((err = get_bits(s, 3, &v)) < 0)
            return err;
        cl[order[k]] = (uint8_t)v;
    }
    if ((err = build_table(&cl_table, cl, DF_NCLEN, KIND_CODES)) < 0)
        return err;
    k = 0;
    while (k < total) {
        int sym = decode(s, &cl_table), rep, val = 0;
        if (sym < 0)
            return sym;
        if (sym < 16) {
            lens[k++] = (uint8_t)sym;
            continue;
        }
        if (sym == 16) {
            if (k == 0)
                return DF_ERR_DATA;
            val = lens[k - 1];
            err = get_bits(s, 2, &v);
            rep = 3 + (int)v;
        } else if (sym == 17) {
            err = get_bits(s, 3, &v);
            rep = 3 + (int)v;
        } else {
            err = get_bits(s, 7, &v);
            rep = 11 + (int)v;
        }
        if (err < 0)
            return err;
        if (k + rep > total)
            return DF_ERR_DATA;
        while (rep-- > 0)
            lens[k++] = (uint8_t)val;
    }
    return 0;
}

static int dynamic_block(inflater *s)
{
    uint8_t lens[DF_NLITLEN + DF_NDIST];
    uint32_t v;
    int hlit, hdist, hclen, err;

    if ((err = get_bits(s, 5, &v)) < 0)
        return err;
    hlit = 257 + (int)v;
    if ((err = get_bits(s, 5, &v)) < 0)
        return err;
    hdist = 1 + (int)v;
    if ((err = get_bits(s, 4, &v)) < 0)
        return err;
    hclen = 4 + (int)v;
    if (hlit > 286 || hdist > DF_NDIST)
        return DF_ERR_DATA;
    if ((err = dynamic_lengths(s, lens, hlit, hdist, hclen)) < 0)
        return err;
    if (lens[END_BLOCK] == 0)
        return DF_ERR_DATA;
    if ((err = build_table(&lit_table, lens, hlit, KIND_LENS)) < 0)
        return err;
    if ((err = build_table(&dist_table, lens + hlit, hdist, KIND_DISTS)) < 0)
        return err;
    return codes(s, &lit_table, &dist_table);
}

/* the blocks of one deflate stream; returns 0 or an error */
static int raw_blocks(inflater *s)
{
    uint32_t final = 0, type;
    int err;

    while (!final) {
        if ((err = get_bits(s, 1, &final)) < 0 || (err = get_bits(s, 2, &type)) < 0)
            return err;
        if (type == DF_BLOCK_STORED)
            err = stored_block(s);
        else if (type == DF_BLOCK_FIXED)
            err = fixed_block(s);
        else if (type == DF_BLOCK_DYNAMIC)
            err = dynamic_block(s);
        else
            err = DF_ERR_DATA;
        if (err < 0)
            return err;
    }
    realign(s);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Wrappers                                                            */
/* ------------------------------------------------------------------ */

static int next_byte(inflater *s)
{
    if (s->pos >= s->n)
        return DF_ERR_EOF;
    return s->in[s->pos++];
}

/* a little-endian (or big-endian) 32-bit field */
static int read_u32(inflater *s, int big, uint32_t *v)
{
    int i, b;

    *v = 0;
    for (i = 0; i < 4; i++) {
        if ((b = next_byte(s)) < 0)
            return b;
        if (big)
            *v = (*v << 8) | (uint32_t)b;
        else
            *v |= (uint32_t)b << (8 * i);
    }
    return 0;
}

static int zlib_header(inflater *s)
{
    int cmf, flg;

    if ((cmf = next_byte(s)) < 0 || (flg = next_byte(s)) < 0)
        return DF_ERR_EOF;
    if ((cmf & 0x0F) != 8 || (cmf >> 4) > 7)
        return DF_ERR_HEADER;
    if ((cmf * 256 + flg) % 31 != 0)
        return DF_ERR_HEADER;
    if (flg & 0x20)
        return DF_ERR_HEADER;   /* a preset dictionary is not supported */
    return 0;
}

/* skips a zero-terminated field */
static int skip_string(inflater *s)
{
    int b;

    do {
        if ((b = next_byte(s)) < 0)
            return b;
    } while (b != 0);
    return 0;
}

static int gzip_header(inflater *s)
{
    int b[10], k, flags, err;

    for (k = 0; k < 10; k++)
        if ((b[k] = next_byte(s)) < 0)
            return DF_ERR_EOF;
    if (b[0] != 0x1F || b[1] != 0x8B || b[2] != 8)
        return DF_ERR_HEADER;
    flags = b[3];
    if (flags & 0xE0)
        return DF_ERR_HEADER;
    if (flags & 0x04) {                       /* FEXTRA */
        int lo, hi, xlen;
        if ((lo = next_byte(s)) < 0 || (hi = next_byte(s)) < 0)
            return DF_ERR_EOF;
        xlen = lo | (hi << 8);
        if (s->n - s->pos < xlen)
            return DF_ERR_EOF;
        s->pos += xlen;
    }
    if ((flags & 0x08) && (err = skip_string(s)) < 0)    /* FNAME */
        return err;
    if ((flags & 0x10) && (err = skip_string(s)) < 0)    /* FCOMMENT */
        return err;
    if (flags & 0x02) {                       /* FHCRC: CRC-32 of the header, low half */
        uint32_t crc = df_crc32(0, s->in, s->pos) & 0xFFFFu;
        int lo, hi;
        if ((lo = next_byte(s)) < 0 || (hi = next_byte(s)) < 0)
            return DF_ERR_EOF;
        if ((uint32_t)(lo | (hi << 8)) != crc)
            return DF_ERR_HEADER;
    }
    return 0;
}

/* Decompresses in[0..n-1] (a raw, zlib or gzip stream) into out[0..cap-1].
 * Returns the number of bytes produced or a DF_ERR_* code; *consumed (may
 * be NULL) is set to the input bytes used, up to the error if one occurs. */
int df_inflate(const uint8_t *in, int n, int wrapper, uint8_t *out, int cap, int *consumed)
{
    inflater s;
    uint32_t check;
    int err;

    s.in = in;
    s.n = n;
    s.pos = 0;
    s.acc = 0;
    s.nbits = 0;
    s.out = out;
    s.cap = cap;
    s.len = 0;
    if (wrapper < DF_RAW || wrapper > DF_GZIP)
        err = DF_ERR_PARAM;
    else if (wrapper == DF_ZLIB)
        err = zlib_header(&s);
    else if (wrapper == DF_GZIP)
        err = gzip_header(&s);
    else
        err = 0;
    if (err == 0)
        err = raw_blocks(&s);
    if (err == 0 && wrapper == DF_ZLIB) {
        err = read_u32(&s, 1, &check);
        if (err == 0 && check != df_adler32(1, out, s.len))
            err = DF_ERR_CHECK;
    }
    if (err == 0 && wrapper == DF_GZIP) {
        err = read_u32(&s, 0, &check);
        if (err == 0 && check != df_crc32(0, out, s.len))
            err = DF_ERR_CHECK;
        if (err == 0)
            err = read_u32(&s, 0, &check);
        if (err == 0 && check != (uint32_t)s.len)
            err = DF_ERR_CHECK;
    }
    if (consumed != NULL)
        *consumed = s.pos;
    return err < 0 ? err : s.len;
}
