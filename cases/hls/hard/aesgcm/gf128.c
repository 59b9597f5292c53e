/*
 * gf128.c -- GF(2^128) arithmetic and the GHASH function of NIST SP 800-38D.
 *
 * Field elements use the bit order of SP 800-38D Sec. 6.3: the 128-bit block
 * X0 X1 ... X127 is the polynomial X0 + X1 x + ... + X127 x^127, so the
 * coefficient of x^0 is the most significant bit of the first byte.  With
 * that order, multiplying by x is a right shift, and the reduction modulo
 * x^128 + x^7 + x^2 + x + 1 folds the bit shifted out of x^127 back in as
 * R = 11100001 || 0^120.
 *
 * Two multipliers are provided: the bitwise one of Algorithm 1 and a 4-bit
 * table multiplier that precomputes i * H for every 4-bit i and consumes the
 * other operand one nibble at a time (Horner's rule in x^4), with a 16-entry
 * table that reduces the four bits each step shifts out.
 */
#include "aesgcm.h"

#define GF128_R 0xe100000000000000ull   /* R = 11100001 || 0^120, top 64 bits */

static uint16_t reduce4_table[16];
static int reduce4_ready = 0;

/* ------------------------------------------------------------------ */
/* Blocks and elements                                                 */
/* ------------------------------------------------------------------ */

static uint64_t load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    int i;
    for (i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

static void store_be64(uint64_t v, uint8_t *p)
{
    int i;
    for (i = 7; i >= 0; i--) {
        p[i] = (uint8_t)v;
        v >>= 8;
    }
}

gf128 gf128_load(const uint8_t *b)
{
    gf128 x;
    x.hi = load_be64(b);
    x.lo = load_be64(b + 8);
    return x;
}

void gf128_store(gf128 x, uint8_t *b)
{
    store_be64(x.hi, b);
    store_be64(x.lo, b + 8);
}

gf128 gf128_xor(gf128 a, gf128 b)
{
    gf128 r;
    r.hi = a.hi ^ b.hi;
    r.lo = a.lo ^ b.lo;
    return r;
}

/* bit i of the block, i = 0 being the leftmost (the x^0 coefficient) */
int gf128_bit(gf128 x, int i)
{
    if (i < 64)
        return (int)((x.hi >> (63 - i)) & 1);
    return (int)((x.lo >> (127 - i)) & 1);
}

/* v * x: shift towards x^127 and reduce the bit that leaves x^127 */
gf128 gf128_shr1(gf128 v)
{
    uint64_t carry = v.lo & 1;
    v.lo = (v.lo >> 1) | (v.hi << 63);
    v.hi >>= 1;
    if (carry)
        v.hi ^= GF128_R;
    return v;
}

/* the reduction of the four bits x^4 shifts out of an element: bit k of rem
 * (value 1 << k, the coefficient of x^(127 - k)) lands on x^(131 - k), which
 * is R * x^(3 - k), in the top 16 bits of the element */
static void reduce4_init(void)
{
    int rem, k;
    uint16_t v;
    for (rem = 0; rem < 16; rem++) {
        v = 0;
        for (k = 0; k < 4; k++) {
            if ((rem >> k) & 1)
                v ^= (uint16_t)(0xe100u >> (3 - k));
        }
        reduce4_table[rem] = v;
    }
    reduce4_ready = 1;
}

uint16_t gf128_reduce4(int rem)
{
    if (!reduce4_ready)
        reduce4_init();
    return reduce4_table[rem & 15];
}

/* v * x^4 */
gf128 gf128_shr4(gf128 v)
{
    int rem = (int)(v.lo & 0x0f);
    v.lo = (v.lo >> 4) | (v.hi << 60);
    v.hi = (v.hi >> 4) ^ ((uint64_t)gf128_reduce4(rem) << 48);
    return v;
}

/* ------------------------------------------------------------------ */
/* Multipliers                                                         */
/* ------------------------------------------------------------------ */

/* Algorithm 1 of SP 800-38D: Z = sum of x_i * (Y * x^i) */
gf128 gf128_mul_bitwise(gf128 x, gf128 y)
{
    gf128 z, v;
    int i;
    z.hi = 0;
    z.lo = 0;
    v = y;
    for (i = 0; i < 128; i++) {
        if (gf128_bit(x, i))
            z = gf128_xor(z, v);
        v = gf128_shr1(v);
    }
    return z;
}

/* m[8] = H, m[4] = H x, m[2] = H x^2, m[1] = H x^3, the rest by linearity */
void gf128_table4_init(gf128_table4 *t, gf128 h)
{
    int i, j;
    t->m[0].hi = 0;
    t->m[0].lo = 0;
    t->m[8] = h;
    t->m[4] = gf128_shr1(t->m[8]);
    t->m[2] = gf128_shr1(t->m[4]);
    t->m[1] = gf128_shr1(t->m[2]);
    for (i = 2; i < 16; i <<= 1)
        for (j = 1; j < i; j++)
            t->m[i + j] = gf128_xor(t->m[i], t->m[j]);
}

/* X * H by Horner's rule over the 32 nibbles of X, from the one holding
 * x^124..x^127 (the low nibble of the last byte) back to the first */
gf128 gf128_mul_table4(const gf128_table4 *t, gf128 x)
{
    uint8_t b[AES_BLOCK];
    gf128 z;
    int i;

    gf128_store(x, b);
    z.hi = 0;
    z.lo = 0;
    for (i = AES_BLOCK - 1; i >= 0; i--) {
        z = gf128_shr4(z);
        z = gf128_xor(z, t->m[b[i] & 0x0f]);
        z = gf128_shr4(z);
        z = gf128_xor(z, t->m[b[i] >> 4]);
    }
    return z;
}

/* x^e by square-and-multiply (x^0 = 1, the block 80 00 .. 00) */
gf128 gf128_pow(gf128 x, uint32_t e)
{
    gf128 r, base;
    r.hi = 0x8000000000000000ull;
    r.lo = 0;
    base = x;
    while (e != 0) {
        if (e & 1u)
            r = gf128_mul_bitwise(r, base);
        base = gf128_mul_bitwise(base, base);
        e >>= 1;
    }
    return r;
}

/* ------------------------------------------------------------------ */
/* GHASH (Algorithm 2) with streaming input                            */
/* ------------------------------------------------------------------ */

static gf128 ghash_mul(const ghash_ctx *g, gf128 x)
{
    if (g->mult == GF_TABLE4)
        return gf128_mul_table4(&g->t4, x);
    return gf128_mul_bitwise(x, g->h);
}

/* a new hash under the same key (part[] is always written before it is read) */
void ghash_reset(ghash_ctx *g)
{
    g->y.hi = 0;
    g->y.lo = 0;
    g->npart = 0;
    g->blocks = 0;
}

void ghash_init(ghash_ctx *g, const uint8_t *h, int mult)
{
    g->mult = mult == GF_TABLE4 ? GF_TABLE4 : GF_BITWISE;
    g->h = gf128_load(h);
    gf128_table4_init(&g->t4, g->h);
    ghash_reset(g);
}

/* Y = (Y xor X) * H for one complete block X */
void ghash_block(ghash_ctx *g, const uint8_t *block)
{
    g->y = ghash_mul(g, gf128_xor(g->y, gf128_load(block)));
    g->blocks++;
}

/* absorbs len bytes; a block is hashed once all its 16 bytes are there */
void ghash_update(ghash_ctx *g, const uint8_t *data, int len)
{
    int i = 0;

    /* complete a block begun by an earlier call */
    while (i < len && g->npart > 0) {
        g->part[g->npart] = data[i];
        g->npart++;
        i++;
        if (g->npart == AES_BLOCK) {
            ghash_block(g, g->part);
            g->npart = 0;
        }
    }
    /* whole blocks straight from the input */
    while (len - i >= AES_BLOCK) {
        ghash_block(g, data + i);
        i += AES_BLOCK;
    }
    /* keep the tail for later */
    while (i < len) {
        g->part[g->npart] = data[i];
        g->npart++;
        i++;
    }
}

/* ends a field (AAD or ciphertext): a partial block is padded with zeros */
void ghash_pad(ghash_ctx *g)
{
    int i;
    if (g->npart == 0)
        return;
    for (i = g->npart; i < AES_BLOCK; i++)
        g->part[i] = 0;
    ghash_block(g, g->part);
    g->npart = 0;
}

/* the final block [len(A)]64 || [len(C)]64 */
void ghash_lengths(ghash_ctx *g, uint64_t a_bits, uint64_t c_bits)
{
    uint8_t block[AES_BLOCK];
    store_be64(a_bits, block);
    store_be64(c_bits, block + 8);
    ghash_block(g, block);
}

void ghash_digest(const ghash_ctx *g, uint8_t *out)
{
    gf128_store(g->y, out);
}

/* GHASH_H(X) of Algorithm 2 over nblocks complete blocks */
void ghash_blocks(const uint8_t *h, int mult, const uint8_t *x, int nblocks, uint8_t *out)
{
    ghash_ctx g;
    int b;
    ghash_init(&g, h, mult);
    for (b = 0; b < nblocks; b++)
        ghash_block(&g, x + AES_BLOCK * b);
    ghash_digest(&g, out);
}

/* ------------------------------------------------------------------ */
/* Aggregated GHASH: four blocks per step, one reduction chain          */
/* ------------------------------------------------------------------ */

/* pw[k] = H^(k + 1) for k = 0..3 */
void ghash_powers(const uint8_t *h, gf128 *pw)
{
    gf128 hx = gf128_load(h);
    int k;
    for (k = 0; k < 4; k++)
        pw[k] = gf128_pow(hx, (uint32_t)(k + 1));
}

/* the same GHASH_H(X) as ghash_blocks, restructured for a pipeline:
 * Y' = (Y xor X1) H^4 xor X2 H^3 xor X3 H^2 xor X4 H, the four products being
 * independent; the blocks after the last group of four go one at a time */
void ghash_agg4(const uint8_t *h, const uint8_t *x, int nblocks, uint8_t *out)
{
    gf128 pw[4], y, acc, xb;
    int b, k;

    ghash_powers(h, pw);
    y.hi = 0;
    y.lo = 0;
    for (b = 0; b + 4 <= nblocks; b += 4) {
        acc.hi = 0;
        acc.lo = 0;
        for (k = 0; k < 4; k++) {
            xb = gf128_load(x + AES_BLOCK * (b + k));
            if (k == 0)
                xb = gf128_xor(xb, y);
            acc = gf128_xor(acc, gf128_mul_bitwise(xb, pw[3 - k]));
        }
        y = acc;
    }
    for (; b < nblocks; b++)
        y = gf128_mul_bitwise(gf128_xor(y, gf128_load(x + AES_BLOCK * b)), pw[0]);
    gf128_store(y, out);
}
