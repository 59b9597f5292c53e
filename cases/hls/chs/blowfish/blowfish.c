/*
 * blowfish.c -- Blowfish block cipher (64-bit block, 32..448-bit key) with
 * ECB, CBC, CFB64 and OFB64 modes.
 *
 * Specification implemented:
 *   B. Schneier, "Description of a New Variable-Length Key, 64-Bit Block
 *   Cipher (Blowfish)", Fast Software Encryption, Cambridge Security
 *   Workshop, LNCS 809, Springer, 1994: 16-round Feistel network, the
 *   function F(x) = ((S1[a] + S2[b]) XOR S3[c]) + S4[d], and the key
 *   schedule that starts from the hexadecimal digits of pi and encrypts
 *   the all-zero block 521 times to replace the P-array and S-boxes.
 *   Modes of operation as in NIST SP 800-38A (CBC, 64-bit CFB, OFB).
 *
 * The 18 P-array words and the 4 x 256 S-box words are the first 8336
 * hexadecimal digits of the fractional part of pi.  They are not stored:
 * they are computed at start-up by summing the Bailey-Borwein-Plouffe series
 *     pi = sum_k 16^-k (4/(8k+1) - 2/(8k+4) - 1/(8k+5) - 1/(8k+6))
 * in multi-precision fixed-point arithmetic (30-bit limbs, exact long
 * division by the small denominators).
 *
 *
 * This file is the design.  Its interface (the functions at the end, all
 * named blowfish_*) is exercised by the test driver blowfish_test.c, which
 * feeds the test vectors and prints every result; the harness compares
 * that output with the output of the known-good design.
 */
#include <stdint.h>
#include <string.h>

#define BF_ROUNDS    16
#define BF_PWORDS    (BF_ROUNDS + 2)                 /* 18 */
#define BF_SWORDS    (4 * 256)                       /* 1024 */
#define PI_WORDS     (BF_PWORDS + BF_SWORDS)         /* 1042 32-bit words */
#define LIMB_BITS    30
#define GUARD_BITS   64
#define PI_LIMBS     ((32 * PI_WORDS + GUARD_BITS + LIMB_BITS - 1) / LIMB_BITS)

typedef struct {
    uint32_t P[BF_PWORDS];
    uint32_t S[4][256];
} bf_ctx;

/* pi_acc[0] is the integer part, pi_acc[1..PI_LIMBS] the 30-bit fraction limbs */
static int64_t pi_acc[PI_LIMBS + 1];
static uint32_t pi_words[PI_WORDS];

/* initial P-array and S-boxes (hexadecimal digits of pi) */
static uint32_t init_P[BF_PWORDS];
static uint32_t init_S[4][256];

/* ------------------------------------------------------------------ */
/* Hexadecimal digits of pi, BBP series in fixed point                 */
/* ------------------------------------------------------------------ */

/*
 * Add sign * num * 16^-k / den to the accumulator.  16^-k = 2^-(4k) is a
 * single bit at fraction bit 4k; it lies in limb q+1 with weight
 * 2^(30-r) where q = 4k / 30 and r = 4k mod 30.  The quotient limbs are
 * produced by ordinary long division, most significant first; carries
 * between limbs are resolved later by pi_normalize().
 */
static void bbp_add_term(int k, uint64_t num, uint64_t den, int sign)
{
    int q = (4 * k) / LIMB_BITS;
    int r = (4 * k) % LIMB_BITS;
    uint64_t rem = num << (LIMB_BITS - r);
    int j;

    for (j = q + 1; j <= PI_LIMBS && rem != 0; j++) {
        uint64_t quot = rem / den;
        rem -= quot * den;
        if (sign > 0)
            pi_acc[j] += (int64_t)quot;
        else
            pi_acc[j] -= (int64_t)quot;
        rem <<= LIMB_BITS;
    }
}

/* bring every fraction limb into 0 .. 2^30-1, pushing carries upwards */
static void pi_normalize(void)
{
    int j;
    for (j = PI_LIMBS; j >= 1; j--) {
        int64_t v = pi_acc[j];
        int64_t carry = v / (1LL << LIMB_BITS);
        if (v - carry * (1LL << LIMB_BITS) < 0)
            carry--;
        pi_acc[j] = v - carry * (1LL << LIMB_BITS);
        pi_acc[j - 1] += carry;
    }
}

/* regroup the 30-bit fraction limbs into big-endian 32-bit words */
static void pi_extract_words(void)
{
    uint64_t bits = 0;
    int nbits = 0, j, w = 0;

    for (j = 1; j <= PI_LIMBS && w < PI_WORDS; j++) {
        bits = (bits << LIMB_BITS) | (uint64_t)pi_acc[j];
        nbits += LIMB_BITS;
        if (nbits >= 32) {
            nbits -= 32;
            pi_words[w++] = (uint32_t)(bits >> nbits);
            bits &= ((uint64_t)1 << nbits) - 1;
        }
    }
}

/*
 * pi = sum_k 16^-k [ (16k+14) / ((8k+1)(8k+4)) - (16k+11) / ((8k+5)(8k+6)) ]
 * which is the BBP series with its four fractions combined in pairs, so
 * that each term costs two long divisions instead of four.
 */
static void compute_pi_words(void)
{
    int k, kmax;

    memset(pi_acc, 0, sizeof pi_acc);
    kmax = (LIMB_BITS * PI_LIMBS) / 4;
    for (k = 0; k <= kmax; k++) {
        uint64_t k8 = 8u * (uint64_t)k;
        bbp_add_term(k, 16u * (uint64_t)k + 14u, (k8 + 1u) * (k8 + 4u), +1);
        bbp_add_term(k, 16u * (uint64_t)k + 11u, (k8 + 5u) * (k8 + 6u), -1);
    }
    pi_normalize();
    pi_extract_words();
}

static void load_initial_state(void)
{
    int i, j;
    for (i = 0; i < BF_PWORDS; i++)
        init_P[i] = pi_words[i];
    for (i = 0; i < 4; i++)
        for (j = 0; j < 256; j++)
            init_S[i][j] = pi_words[BF_PWORDS + 256 * i + j];
}

/* ------------------------------------------------------------------ */
/* The cipher                                                          */
/* ------------------------------------------------------------------ */

static uint32_t bf_f(const bf_ctx *ctx, uint32_t x)
{
    uint32_t a = (x >> 24) & 0xff;
    uint32_t b = (x >> 16) & 0xff;
    uint32_t c = (x >> 8) & 0xff;
    uint32_t d = x & 0xff;
    return ((ctx->S[0][a] + ctx->S[1][b]) ^ ctx->S[2][c]) + ctx->S[3][d];
}

static void bf_encrypt_words(const bf_ctx *ctx, uint32_t *xl, uint32_t *xr)
{
    uint32_t L = *xl, R = *xr, t;
    int i;

    for (i = 0; i < BF_ROUNDS; i++) {
        L ^= ctx->P[i];
        R ^= bf_f(ctx, L);
        t = L;
        L = R;
        R = t;
    }
    t = L;          /* undo the last swap */
    L = R;
    R = t;
    R ^= ctx->P[BF_ROUNDS];
    L ^= ctx->P[BF_ROUNDS + 1];
    *xl = L;
    *xr = R;
}

static void bf_decrypt_words(const bf_ctx *ctx, uint32_t *xl, uint32_t *xr)
{
    uint32_t L = *xl, R = *xr, t;
    int i;

    for (i = BF_ROUNDS + 1; i > 1; i--) {
        L ^= ctx->P[i];
        R ^= bf_f(ctx, L);
        t = L;
        L = R;
        R = t;
    }
    t = L;
    L = R;
    R = t;
    R ^= ctx->P[1];
    L ^= ctx->P[0];
    *xl = L;
    *xr = R;
}

/* key: 1..56 bytes, used cyclically */
static void bf_set_key(bf_ctx *ctx, const uint8_t *key, int keylen)
{
    int i, j, k;
    uint32_t data, l, r;

    memcpy(ctx->P, init_P, sizeof ctx->P);
    memcpy(ctx->S, init_S, sizeof ctx->S);

    j = 0;
    for (i = 0; i < BF_PWORDS; i++) {
        data = 0;
        for (k = 0; k < 4; k++) {
            data = (data << 8) | key[j];
            j++;
            if (j >= keylen)
                j = 0;
        }
        ctx->P[i] ^= data;
    }

    l = 0;
    r = 0;
    for (i = 0; i < BF_PWORDS; i += 2) {
        bf_encrypt_words(ctx, &l, &r);
        ctx->P[i] = l;
        ctx->P[i + 1] = r;
    }
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 256; j += 2) {
            bf_encrypt_words(ctx, &l, &r);
            ctx->S[i][j] = l;
            ctx->S[i][j + 1] = r;
        }
    }
}

static uint32_t load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
           ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void bf_encrypt_block(const bf_ctx *ctx, const uint8_t *in, uint8_t *out)
{
    uint32_t l = load_be32(in), r = load_be32(in + 4);
    bf_encrypt_words(ctx, &l, &r);
    store_be32(out, l);
    store_be32(out + 4, r);
}

static void bf_decrypt_block(const bf_ctx *ctx, const uint8_t *in, uint8_t *out)
{
    uint32_t l = load_be32(in), r = load_be32(in + 4);
    bf_decrypt_words(ctx, &l, &r);
    store_be32(out, l);
    store_be32(out + 4, r);
}

/* ------------------------------------------------------------------ */
/* Modes of operation                                                  */
/* ------------------------------------------------------------------ */

static void bf_ecb(const bf_ctx *ctx, const uint8_t *in, uint8_t *out, int nblocks, int encrypt)
{
    int b;
    for (b = 0; b < nblocks; b++) {
        if (encrypt)
            bf_encrypt_block(ctx, in + 8 * b, out + 8 * b);
        else
            bf_decrypt_block(ctx, in + 8 * b, out + 8 * b);
    }
}

/* CBC; a partial final block is zero padded, so out must hold
 * the length rounded up to a multiple of 8 */
static void bf_cbc_encrypt(const bf_ctx *ctx, const uint8_t *iv, const uint8_t *in,
                           uint8_t *out, int len)
{
    uint8_t chain[8], blk[8];
    int n, i, take;

    memcpy(chain, iv, 8);
    for (n = 0; n < len; n += 8) {
        take = (len - n < 8) ? len - n : 8;
        for (i = 0; i < 8; i++)
            blk[i] = (uint8_t)(((i < take) ? in[n + i] : 0) ^ chain[i]);
        bf_encrypt_block(ctx, blk, out + n);
        memcpy(chain, out + n, 8);
    }
}

/* CBC decryption of len bytes (len a multiple of 8); in place allowed */
static void bf_cbc_decrypt(const bf_ctx *ctx, const uint8_t *iv, const uint8_t *in,
                           uint8_t *out, int len)
{
    uint8_t prev[8], save[8], blk[8];
    int n, i;

    memcpy(prev, iv, 8);
    for (n = 0; n < len; n += 8) {
        memcpy(save, in + n, 8);
        bf_decrypt_block(ctx, save, blk);
        for (i = 0; i < 8; i++)
            out[n + i] = blk[i] ^ prev[i];
        memcpy(prev, save, 8);
    }
}

/*
 * 64-bit CFB.  The register and the byte position *num persist between
 * calls, so a stream may be processed in pieces of any size.
 */
static void bf_cfb64(const bf_ctx *ctx, uint8_t *reg, int *num, const uint8_t *in,
                     uint8_t *out, int len, int encrypt)
{
    int n = *num, i;
    uint8_t c;

    for (i = 0; i < len; i++) {
        if (n == 0)
            bf_encrypt_block(ctx, reg, reg);
        if (encrypt) {
            c = in[i] ^ reg[n];
            out[i] = c;
            reg[n] = c;
        } else {
            c = in[i];
            out[i] = c ^ reg[n];
            reg[n] = c;
        }
        n = (n + 1) & 7;
    }
    *num = n;
}

/* 64-bit OFB; same operation in both directions */
static void bf_ofb64(const bf_ctx *ctx, uint8_t *reg, int *num, const uint8_t *in,
                     uint8_t *out, int len)
{
    int n = *num, i;

    for (i = 0; i < len; i++) {
        if (n == 0)
            bf_encrypt_block(ctx, reg, reg);
        out[i] = in[i] ^ reg[n];
        n = (n + 1) & 7;
    }
    *num = n;
}

/* ------------------------------------------------------------------ */
/* Interface of the design (used by the test driver)                   */
/* ------------------------------------------------------------------ */

static bf_ctx active;                    /* the key schedule set by blowfish_set_key */

/* generates the digits of pi and the initial P-array and S-boxes */
void blowfish_init(void)
{
    compute_pi_words();
    load_initial_state();
}

/* the integer part of pi and its first PI_WORDS (1042) fraction words */
long blowfish_pi(uint32_t *words)
{
    memcpy(words, pi_words, sizeof pi_words);
    return (long)pi_acc[0];
}

/* the initial state: 18 P-array words, then the 4 x 256 S-box words */
void blowfish_initial_state(uint32_t *p, uint32_t *s)
{
    memcpy(p, init_P, sizeof init_P);
    memcpy(s, init_S, sizeof init_S);
}

/* key: 1..56 bytes */
void blowfish_set_key(const uint8_t *key, int keylen)
{
    bf_set_key(&active, key, keylen);
}

/* the key-dependent state: 18 P-array words, then the 4 x 256 S-box words */
void blowfish_state(uint32_t *p, uint32_t *s)
{
    memcpy(p, active.P, sizeof active.P);
    memcpy(s, active.S, sizeof active.S);
}

uint32_t blowfish_f(uint32_t x)
{
    return bf_f(&active, x);
}

void blowfish_encrypt_words(uint32_t *xl, uint32_t *xr)
{
    bf_encrypt_words(&active, xl, xr);
}

void blowfish_decrypt_words(uint32_t *xl, uint32_t *xr)
{
    bf_decrypt_words(&active, xl, xr);
}

void blowfish_ecb(const uint8_t *in, uint8_t *out, int nblocks, int encrypt)
{
    bf_ecb(&active, in, out, nblocks, encrypt);
}

/* out holds len rounded up to a multiple of 8 (zero padding) */
void blowfish_cbc_encrypt(const uint8_t *iv, const uint8_t *in, uint8_t *out, int len)
{
    bf_cbc_encrypt(&active, iv, in, out, len);
}

/* len a multiple of 8; in place allowed */
void blowfish_cbc_decrypt(const uint8_t *iv, const uint8_t *in, uint8_t *out, int len)
{
    bf_cbc_decrypt(&active, iv, in, out, len);
}

/* reg (8 bytes) and *num (0..7) persist between the pieces of a stream */
void blowfish_cfb64(uint8_t *reg, int *num, const uint8_t *in, uint8_t *out, int len, int encrypt)
{
    bf_cfb64(&active, reg, num, in, out, len, encrypt);
}

void blowfish_ofb64(uint8_t *reg, int *num, const uint8_t *in, uint8_t *out, int len)
{
    bf_ofb64(&active, reg, num, in, out, len);
}
