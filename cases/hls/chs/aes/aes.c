/*
 * aes.c -- AES (Rijndael) block cipher with 128-, 192- and 256-bit keys,
 * encryption and decryption, plus the common modes of operation.
 *
 * Specification implemented:
 *   FIPS PUB 197, "Advanced Encryption Standard (AES)", NIST, November 2001
 *     Sec. 4.2    multiplication in GF(2^8), xtime()
 *     Sec. 5.1    Cipher: SubBytes, ShiftRows, MixColumns, AddRoundKey
 *     Sec. 5.2    KeyExpansion (Nk = 4, 6, 8)
 *     Sec. 5.3    InvCipher: InvShiftRows, InvSubBytes, InvMixColumns
 *     Sec. 5.3.5  Equivalent Inverse Cipher (modified decryption key schedule)
 *   NIST SP 800-38A, "Recommendation for Block Cipher Modes of Operation",
 *     2001: ECB, CBC, CFB128, OFB and CTR modes.
 *   The table-driven ("T-table") encryption variant follows the
 *   implementation notes of the Rijndael proposal (Daemen and Rijmen).
 *
 * This file is the design.  Its interface (the functions at the end, all
 * named aes_*) is exercised by the test driver aes_test.c, which feeds the
 * test vectors and prints every result; the harness compares that output
 * with the output of the known-good design.
 */
#include <stdint.h>
#include <string.h>

#define NB        4                      /* columns of the state */
#define MAX_NK    8                      /* 256-bit key = 8 words */
#define MAX_NR    14                     /* rounds for AES-256 */
#define MAX_WORDS (NB * (MAX_NR + 1))    /* 60 round-key words */
#define BLOCK     16                     /* bytes per block */

typedef uint8_t state_t[4][NB];          /* state[row][column], Sec. 3.4 */

typedef struct {
    int nk;                              /* key length in 32-bit words */
    int nr;                              /* number of rounds */
    uint32_t w[MAX_WORDS];               /* expanded key, Sec. 5.2 */
    uint32_t dw[MAX_WORDS];              /* key for the equivalent inverse cipher */
} aes_ctx;


/* ------------------------------------------------------------------ */
/* Substitution tables (Fig. 7 and Fig. 14 of FIPS-197)                */
/* ------------------------------------------------------------------ */
static const uint8_t sbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16
};
static const uint8_t inv_sbox[256] = {
    0x52, 0x09, 0x6a, 0xd5, 0x30, 0x36, 0xa5, 0x38, 0xbf, 0x40, 0xa3, 0x9e, 0x81, 0xf3, 0xd7, 0xfb,
    0x7c, 0xe3, 0x39, 0x82, 0x9b, 0x2f, 0xff, 0x87, 0x34, 0x8e, 0x43, 0x44, 0xc4, 0xde, 0xe9, 0xcb,
    0x54, 0x7b, 0x94, 0x32, 0xa6, 0xc2, 0x23, 0x3d, 0xee, 0x4c, 0x95, 0x0b, 0x42, 0xfa, 0xc3, 0x4e,
    0x08, 0x2e, 0xa1, 0x66, 0x28, 0xd9, 0x24, 0xb2, 0x76, 0x5b, 0xa2, 0x49, 0x6d, 0x8b, 0xd1, 0x25,
    0x72, 0xf8, 0xf6, 0x64, 0x86, 0x68, 0x98, 0x16, 0xd4, 0xa4, 0x5c, 0xcc, 0x5d, 0x65, 0xb6, 0x92,
    0x6c, 0x70, 0x48, 0x50, 0xfd, 0xed, 0xb9, 0xda, 0x5e, 0x15, 0x46, 0x57, 0xa7, 0x8d, 0x9d, 0x84,
    0x90, 0xd8, 0xab, 0x00, 0x8c, 0xbc, 0xd3, 0x0a, 0xf7, 0xe4, 0x58, 0x05, 0xb8, 0xb3, 0x45, 0x06,
    0xd0, 0x2c, 0x1e, 0x8f, 0xca, 0x3f, 0x0f, 0x02, 0xc1, 0xaf, 0xbd, 0x03, 0x01, 0x13, 0x8a, 0x6b,
    0x3a, 0x91, 0x11, 0x41, 0x4f, 0x67, 0xdc, 0xea, 0x97, 0xf2, 0xcf, 0xce, 0xf0, 0xb4, 0xe6, 0x73,
    0x96, 0xac, 0x74, 0x22, 0xe7, 0xad, 0x35, 0x85, 0xe2, 0xf9, 0x37, 0xe8, 0x1c, 0x75, 0xdf, 0x6e,
    0x47, 0xf1, 0x1a, 0x71, 0x1d, 0x29, 0xc5, 0x89, 0x6f, 0xb7, 0x62, 0x0e, 0xaa, 0x18, 0xbe, 0x1b,
    0xfc, 0x56, 0x3e, 0x4b, 0xc6, 0xd2, 0x79, 0x20, 0x9a, 0xdb, 0xc0, 0xfe, 0x78, 0xcd, 0x5a, 0xf4,
    0x1f, 0xdd, 0xa8, 0x33, 0x88, 0x07, 0xc7, 0x31, 0xb1, 0x12, 0x10, 0x59, 0x27, 0x80, 0xec, 0x5f,
    0x60, 0x51, 0x7f, 0xa9, 0x19, 0xb5, 0x4a, 0x0d, 0x2d, 0xe5, 0x7a, 0x9f, 0x93, 0xc9, 0x9c, 0xef,
    0xa0, 0xe0, 0x3b, 0x4d, 0xae, 0x2a, 0xf5, 0xb0, 0xc8, 0xeb, 0xbb, 0x3c, 0x83, 0x53, 0x99, 0x61,
    0x17, 0x2b, 0x04, 0x7e, 0xba, 0x77, 0xd6, 0x26, 0xe1, 0x69, 0x14, 0x63, 0x55, 0x21, 0x0c, 0x7d
};

/* Round constants Rcon[i] = x^(i-1) in GF(2^8), Sec. 5.2 (index 0 unused) */
static const uint8_t rcon[11] = {
    0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36
};

/* InvMixColumns coefficient matrix, Sec. 5.3.3 */
static const uint8_t inv_mix_matrix[4][4] = {
    { 0x0e, 0x0b, 0x0d, 0x09 },
    { 0x09, 0x0e, 0x0b, 0x0d },
    { 0x0d, 0x09, 0x0e, 0x0b },
    { 0x0b, 0x0d, 0x09, 0x0e }
};

/* T-tables for the table-driven encryption, filled by build_ttables() */
static uint32_t te0[256], te1[256], te2[256], te3[256];

/* ------------------------------------------------------------------ */
/* Arithmetic in GF(2^8) with the polynomial x^8 + x^4 + x^3 + x + 1   */
/* ------------------------------------------------------------------ */

/* multiplication by x (Sec. 4.2.1) */
static uint8_t xtime(uint8_t b)
{
    uint8_t r = (uint8_t)(b << 1);
    if (b & 0x80)
        r ^= 0x1b;
    return r;
}

/* general multiplication by repeated xtime (Sec. 4.2.1) */
static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    int bit;
    for (bit = 0; bit < 8; bit++) {
        if (b & 1)
            p ^= a;
        a = xtime(a);
        b >>= 1;
    }
    return p;
}

/* multiplicative inverse: a^254, since a^255 = 1 for every a != 0 */
static uint8_t gf_inv(uint8_t a)
{
    uint8_t result = 1;
    uint8_t base = a;
    unsigned e;
    if (a == 0)
        return 0;
    for (e = 254; e > 0; e >>= 1) {
        if (e & 1)
            result = gf_mul(result, base);
        base = gf_mul(base, base);
    }
    return result;
}

static uint8_t rotl8(uint8_t x, int n)
{
    return (uint8_t)((x << n) | (x >> (8 - n)));
}

/* S-box entry from its definition (Sec. 5.1.1): inverse, then affine map */
static uint8_t sbox_from_definition(uint8_t x)
{
    uint8_t b = gf_inv(x);
    return (uint8_t)(b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63);
}

/* ------------------------------------------------------------------ */
/* State conversion, Sec. 3.4: s[r][c] = in[r + 4c]                    */
/* ------------------------------------------------------------------ */

static void load_state(state_t s, const uint8_t *in)
{
    int r, c;
    for (c = 0; c < NB; c++)
        for (r = 0; r < 4; r++)
            s[r][c] = in[r + 4 * c];
}

static void store_state(uint8_t *out, state_t s)
{
    int r, c;
    for (c = 0; c < NB; c++)
        for (r = 0; r < 4; r++)
            out[r + 4 * c] = s[r][c];
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

/* ------------------------------------------------------------------ */
/* Key expansion, Sec. 5.2                                             */
/* ------------------------------------------------------------------ */

static uint32_t sub_word(uint32_t w)
{
    return ((uint32_t)sbox[(w >> 24) & 0xff] << 24) |
           ((uint32_t)sbox[(w >> 16) & 0xff] << 16) |
           ((uint32_t)sbox[(w >> 8) & 0xff] << 8) |
           (uint32_t)sbox[w & 0xff];
}

static uint32_t rot_word(uint32_t w)
{
    return (w << 8) | (w >> 24);
}

static void inv_mix_columns(state_t s);

/* Sec. 5.3.5: apply InvMixColumns to round keys 1 .. Nr-1 */
static void make_decryption_key(aes_ctx *ctx)
{
    int i, round, c;
    int total = NB * (ctx->nr + 1);
    for (i = 0; i < total; i++)
        ctx->dw[i] = ctx->w[i];
    for (round = 1; round < ctx->nr; round++) {
        state_t s;
        for (c = 0; c < NB; c++) {
            uint32_t k = ctx->dw[round * NB + c];
            s[0][c] = (uint8_t)(k >> 24);
            s[1][c] = (uint8_t)(k >> 16);
            s[2][c] = (uint8_t)(k >> 8);
            s[3][c] = (uint8_t)k;
        }
        inv_mix_columns(s);
        for (c = 0; c < NB; c++)
            ctx->dw[round * NB + c] = ((uint32_t)s[0][c] << 24) | ((uint32_t)s[1][c] << 16) |
                                      ((uint32_t)s[2][c] << 8) | (uint32_t)s[3][c];
    }
}

static int aes_set_key(aes_ctx *ctx, const uint8_t *key, int key_bits)
{
    int i, total;
    uint32_t temp;

    switch (key_bits) {
    case 128: ctx->nk = 4; break;
    case 192: ctx->nk = 6; break;
    case 256: ctx->nk = 8; break;
    default:  return -1;
    }
    ctx->nr = ctx->nk + 6;
    total = NB * (ctx->nr + 1);

    for (i = 0; i < ctx->nk; i++)
        ctx->w[i] = load_be32(key + 4 * i);

    for (i = ctx->nk; i < total; i++) {
        temp = ctx->w[i - 1];
        if (i % ctx->nk == 0)
            temp = sub_word(rot_word(temp)) ^ ((uint32_t)rcon[i / ctx->nk] << 24);
        else if (ctx->nk > 6 && i % ctx->nk == 4)
            temp = sub_word(temp);
        ctx->w[i] = ctx->w[i - ctx->nk] ^ temp;
    }
    make_decryption_key(ctx);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Round transformations, Sec. 5.1 and 5.3                             */
/* ------------------------------------------------------------------ */

static void add_round_key(state_t s, const uint32_t *w, int round)
{
    int c;
    for (c = 0; c < NB; c++) {
        uint32_t k = w[round * NB + c];
        s[0][c] ^= (uint8_t)(k >> 24);
        s[1][c] ^= (uint8_t)(k >> 16);
        s[2][c] ^= (uint8_t)(k >> 8);
        s[3][c] ^= (uint8_t)k;
    }
}

static void sub_bytes(state_t s)
{
    int r, c;
    for (r = 0; r < 4; r++)
        for (c = 0; c < NB; c++)
            s[r][c] = sbox[s[r][c]];
}

static void inv_sub_bytes(state_t s)
{
    int r, c;
    for (r = 0; r < 4; r++)
        for (c = 0; c < NB; c++)
            s[r][c] = inv_sbox[s[r][c]];
}

/* row r is rotated left by r positions */
static void shift_rows(state_t s)
{
    uint8_t tmp[NB];
    int r, c;
    for (r = 1; r < 4; r++) {
        for (c = 0; c < NB; c++)
            tmp[c] = s[r][(c + r) % NB];
        for (c = 0; c < NB; c++)
            s[r][c] = tmp[c];
    }
}

/* row r is rotated right by r positions */
static void inv_shift_rows(state_t s)
{
    uint8_t tmp[NB];
    int r, c;
    for (r = 1; r < 4; r++) {
        for (c = 0; c < NB; c++)
            tmp[(c + r) % NB] = s[r][c];
        for (c = 0; c < NB; c++)
            s[r][c] = tmp[c];
    }
}

/* each column is multiplied by {03}x^3 + {01}x^2 + {01}x + {02} */
static void mix_columns(state_t s)
{
    int c;
    for (c = 0; c < NB; c++) {
        uint8_t a0 = s[0][c], a1 = s[1][c], a2 = s[2][c], a3 = s[3][c];
        s[0][c] = (uint8_t)(xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3);
        s[1][c] = (uint8_t)(a0 ^ xtime(a1) ^ xtime(a2) ^ a2 ^ a3);
        s[2][c] = (uint8_t)(a0 ^ a1 ^ xtime(a2) ^ xtime(a3) ^ a3);
        s[3][c] = (uint8_t)(xtime(a0) ^ a0 ^ a1 ^ a2 ^ xtime(a3));
    }
}

/* each column is multiplied by {0b}x^3 + {0d}x^2 + {09}x + {0e} */
static void inv_mix_columns(state_t s)
{
    uint8_t col[4];
    int r, c, k;
    for (c = 0; c < NB; c++) {
        for (r = 0; r < 4; r++)
            col[r] = s[r][c];
        for (r = 0; r < 4; r++) {
            uint8_t acc = 0;
            for (k = 0; k < 4; k++)
                acc ^= gf_mul(inv_mix_matrix[r][k], col[k]);
            s[r][c] = acc;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Block cipher: Cipher, InvCipher, Equivalent Inverse Cipher          */
/* ------------------------------------------------------------------ */

static void aes_encrypt_block(const aes_ctx *ctx, const uint8_t *in, uint8_t *out)
{
    state_t s;
    int round;

    load_state(s, in);
    add_round_key(s, ctx->w, 0);
    for (round = 1; round < ctx->nr; round++) {
        sub_bytes(s);
        shift_rows(s);
        mix_columns(s);
        add_round_key(s, ctx->w, round);
    }
    sub_bytes(s);
    shift_rows(s);
    add_round_key(s, ctx->w, ctx->nr);
    store_state(out, s);
}

static void aes_decrypt_block(const aes_ctx *ctx, const uint8_t *in, uint8_t *out)
{
    state_t s;
    int round;

    load_state(s, in);
    add_round_key(s, ctx->w, ctx->nr);
    for (round = ctx->nr - 1; round > 0; round--) {
        inv_shift_rows(s);
        inv_sub_bytes(s);
        add_round_key(s, ctx->w, round);
        inv_mix_columns(s);
    }
    inv_shift_rows(s);
    inv_sub_bytes(s);
    add_round_key(s, ctx->w, 0);
    store_state(out, s);
}

/* Sec. 5.3.5: same sequence of steps as the Cipher, uses ctx->dw */
static void aes_eq_decrypt_block(const aes_ctx *ctx, const uint8_t *in, uint8_t *out)
{
    state_t s;
    int round;

    load_state(s, in);
    add_round_key(s, ctx->dw, ctx->nr);
    for (round = ctx->nr - 1; round > 0; round--) {
        inv_sub_bytes(s);
        inv_shift_rows(s);
        inv_mix_columns(s);
        add_round_key(s, ctx->dw, round);
    }
    inv_sub_bytes(s);
    inv_shift_rows(s);
    add_round_key(s, ctx->dw, 0);
    store_state(out, s);
}

/* ------------------------------------------------------------------ */
/* Table-driven encryption: one round = 16 lookups + XORs              */
/* te0[x] = (2.S[x], S[x], S[x], 3.S[x]); te1..te3 are byte rotations  */
/* ------------------------------------------------------------------ */

static uint32_t ror32(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static void build_ttables(void)
{
    int x;
    for (x = 0; x < 256; x++) {
        uint8_t s = sbox[x];
        uint8_t s2 = xtime(s);
        uint8_t s3 = (uint8_t)(s2 ^ s);
        uint32_t t = ((uint32_t)s2 << 24) | ((uint32_t)s << 16) | ((uint32_t)s << 8) | s3;
        te0[x] = t;
        te1[x] = ror32(t, 8);
        te2[x] = ror32(t, 16);
        te3[x] = ror32(t, 24);
    }
}

static void aes_encrypt_block_tt(const aes_ctx *ctx, const uint8_t *in, uint8_t *out)
{
    const uint32_t *rk = ctx->w;
    uint32_t s0, s1, s2, s3, t0, t1, t2, t3;
    int round;

    s0 = load_be32(in) ^ rk[0];
    s1 = load_be32(in + 4) ^ rk[1];
    s2 = load_be32(in + 8) ^ rk[2];
    s3 = load_be32(in + 12) ^ rk[3];
    for (round = 1; round < ctx->nr; round++) {
        rk += 4;
        t0 = te0[s0 >> 24] ^ te1[(s1 >> 16) & 0xff] ^ te2[(s2 >> 8) & 0xff] ^ te3[s3 & 0xff] ^ rk[0];
        t1 = te0[s1 >> 24] ^ te1[(s2 >> 16) & 0xff] ^ te2[(s3 >> 8) & 0xff] ^ te3[s0 & 0xff] ^ rk[1];
        t2 = te0[s2 >> 24] ^ te1[(s3 >> 16) & 0xff] ^ te2[(s0 >> 8) & 0xff] ^ te3[s1 & 0xff] ^ rk[2];
        t3 = te0[s3 >> 24] ^ te1[(s0 >> 16) & 0xff] ^ te2[(s1 >> 8) & 0xff] ^ te3[s2 & 0xff] ^ rk[3];
        s0 = t0;
        s1 = t1;
        s2 = t2;
        s3 = t3;
    }
    rk += 4;
    t0 = ((uint32_t)sbox[s0 >> 24] << 24) | ((uint32_t)sbox[(s1 >> 16) & 0xff] << 16) |
         ((uint32_t)sbox[(s2 >> 8) & 0xff] << 8) | (uint32_t)sbox[s3 & 0xff];
    t1 = ((uint32_t)sbox[s1 >> 24] << 24) | ((uint32_t)sbox[(s2 >> 16) & 0xff] << 16) |
         ((uint32_t)sbox[(s3 >> 8) & 0xff] << 8) | (uint32_t)sbox[s0 & 0xff];
    t2 = ((uint32_t)sbox[s2 >> 24] << 24) | ((uint32_t)sbox[(s3 >> 16) & 0xff] << 16) |
         ((uint32_t)sbox[(s0 >> 8) & 0xff] << 8) | (uint32_t)sbox[s1 & 0xff];
    t3 = ((uint32_t)sbox[s3 >> 24] << 24) | ((uint32_t)sbox[(s0 >> 16) & 0xff] << 16) |
         ((uint32_t)sbox[(s1 >> 8) & 0xff] << 8) | (uint32_t)sbox[s2 & 0xff];
    store_be32(out, t0 ^ rk[0]);
    store_be32(out + 4, t1 ^ rk[1]);
    store_be32(out + 8, t2 ^ rk[2]);
    store_be32(out + 12, t3 ^ rk[3]);
}

/* ------------------------------------------------------------------ */
/* Modes of operation, SP 800-38A                                      */
/* ------------------------------------------------------------------ */

static void ecb_encrypt(const aes_ctx *ctx, const uint8_t *in, uint8_t *out, int nblocks)
{
    int b;
    for (b = 0; b < nblocks; b++)
        aes_encrypt_block(ctx, in + b * BLOCK, out + b * BLOCK);
}

static void ecb_decrypt(const aes_ctx *ctx, const uint8_t *in, uint8_t *out, int nblocks)
{
    int b;
    for (b = 0; b < nblocks; b++)
        aes_decrypt_block(ctx, in + b * BLOCK, out + b * BLOCK);
}

/* C[j] = E(P[j] xor C[j-1]), C[0-1] = IV */
static void cbc_encrypt(const aes_ctx *ctx, const uint8_t *iv, const uint8_t *in,
                        uint8_t *out, int nblocks)
{
    uint8_t chain[BLOCK], x[BLOCK];
    int b, i;
    memcpy(chain, iv, BLOCK);
    for (b = 0; b < nblocks; b++) {
        for (i = 0; i < BLOCK; i++)
            x[i] = in[b * BLOCK + i] ^ chain[i];
        aes_encrypt_block(ctx, x, out + b * BLOCK);
        memcpy(chain, out + b * BLOCK, BLOCK);
    }
}

/* P[j] = D(C[j]) xor C[j-1]; works in place (in == out) */
static void cbc_decrypt(const aes_ctx *ctx, const uint8_t *iv, const uint8_t *in,
                        uint8_t *out, int nblocks)
{
    uint8_t prev[BLOCK], cur[BLOCK], x[BLOCK];
    int b, i;
    memcpy(prev, iv, BLOCK);
    for (b = 0; b < nblocks; b++) {
        memcpy(cur, in + b * BLOCK, BLOCK);
        aes_decrypt_block(ctx, cur, x);
        for (i = 0; i < BLOCK; i++)
            out[b * BLOCK + i] = x[i] ^ prev[i];
        memcpy(prev, cur, BLOCK);
    }
}

/* CFB with a 128-bit segment; the feedback is always the ciphertext */
static void cfb128_crypt(const aes_ctx *ctx, const uint8_t *iv, const uint8_t *in,
                         uint8_t *out, int nbytes, int decrypt)
{
    uint8_t reg[BLOCK], ks[BLOCK];
    int n, i, len;
    memcpy(reg, iv, BLOCK);
    for (n = 0; n < nbytes; n += BLOCK) {
        aes_encrypt_block(ctx, reg, ks);
        len = (nbytes - n < BLOCK) ? nbytes - n : BLOCK;
        for (i = 0; i < len; i++) {
            uint8_t c_in = in[n + i];
            out[n + i] = c_in ^ ks[i];
            reg[i] = decrypt ? c_in : out[n + i];
        }
    }
}

/* OFB: O[j] = E(O[j-1]), output = input xor O[j]; same for both directions */
static void ofb_crypt(const aes_ctx *ctx, const uint8_t *iv, const uint8_t *in,
                      uint8_t *out, int nbytes)
{
    uint8_t reg[BLOCK];
    int n, i, len;
    memcpy(reg, iv, BLOCK);
    for (n = 0; n < nbytes; n += BLOCK) {
        aes_encrypt_block(ctx, reg, reg);
        len = (nbytes - n < BLOCK) ? nbytes - n : BLOCK;
        for (i = 0; i < len; i++)
            out[n + i] = in[n + i] ^ reg[i];
    }
}

/* 128-bit big-endian counter increment (SP 800-38A, Appendix B.1) */
static void ctr_increment(uint8_t *ctr)
{
    int i;
    for (i = BLOCK - 1; i >= 0; i--) {
        ctr[i]++;
        if (ctr[i] != 0)
            break;
    }
}

static void ctr_crypt(const aes_ctx *ctx, const uint8_t *icb, const uint8_t *in,
                      uint8_t *out, int nbytes)
{
    uint8_t ctr[BLOCK], ks[BLOCK];
    int n, i, len;
    memcpy(ctr, icb, BLOCK);
    for (n = 0; n < nbytes; n += BLOCK) {
        aes_encrypt_block(ctx, ctr, ks);
        ctr_increment(ctr);
        len = (nbytes - n < BLOCK) ? nbytes - n : BLOCK;
        for (i = 0; i < len; i++)
            out[n + i] = in[n + i] ^ ks[i];
    }
}

/* ------------------------------------------------------------------ */
/* Interface of the design (used by the test driver)                   */
/* ------------------------------------------------------------------ */

static aes_ctx active;                   /* the key schedule set by aes_load_key */

/* builds the T-tables; called once before the first T-table encryption */
void aes_init(void)
{
    build_ttables();
}

uint8_t aes_xtime(uint8_t b)
{
    return xtime(b);
}

uint8_t aes_gf_mul(uint8_t a, uint8_t b)
{
    return gf_mul(a, b);
}

uint8_t aes_gf_inv(uint8_t a)
{
    return gf_inv(a);
}

/* the S-box re-derived from its definition (Sec. 5.1.1) and its inverse
 * permutation; entries no input maps to stay 0 */
void aes_derive_sboxes(uint8_t *fwd, uint8_t *inv)
{
    int v;

    for (v = 0; v < 256; v++)
        inv[v] = 0;
    for (v = 0; v < 256; v++) {
        fwd[v] = sbox_from_definition((uint8_t)v);
        inv[fwd[v]] = (uint8_t)v;
    }
}

/* the stored substitution tables and the four T-tables (te0..te3, 256 words each) */
void aes_tables(uint8_t *fwd, uint8_t *inv, uint32_t *tt)
{
    memcpy(fwd, sbox, sizeof sbox);
    memcpy(inv, inv_sbox, sizeof inv_sbox);
    memcpy(tt, te0, sizeof te0);
    memcpy(tt + 256, te1, sizeof te1);
    memcpy(tt + 512, te2, sizeof te2);
    memcpy(tt + 768, te3, sizeof te3);
}

/* expands key (key_bits = 128, 192 or 256); 0 on success, -1 for other sizes */
int aes_load_key(const uint8_t *key, int key_bits)
{
    return aes_set_key(&active, key, key_bits);
}

int aes_rounds(void)
{
    return active.nr;
}

/* copies the NB * (Nr + 1) words of both key schedules */
void aes_round_keys(uint32_t *w, uint32_t *dw)
{
    int i;
    for (i = 0; i < NB * (active.nr + 1); i++) {
        w[i] = active.w[i];
        dw[i] = active.dw[i];
    }
}

/* one round transformation on a 16-byte block (in FIPS-197 byte order):
 * 0 AddRoundKey(w, round), 1 SubBytes, 2 ShiftRows, 3 MixColumns,
 * 4 InvSubBytes, 5 InvShiftRows, 6 InvMixColumns, 7 AddRoundKey(dw, round) */
void aes_round_step(int step, uint8_t *block, int round)
{
    state_t s;
    load_state(s, block);
    switch (step) {
    case 0: add_round_key(s, active.w, round); break;
    case 1: sub_bytes(s); break;
    case 2: shift_rows(s); break;
    case 3: mix_columns(s); break;
    case 4: inv_sub_bytes(s); break;
    case 5: inv_shift_rows(s); break;
    case 6: inv_mix_columns(s); break;
    case 7: add_round_key(s, active.dw, round); break;
    default: break;
    }
    store_state(block, s);
}

void aes_encrypt(const uint8_t *in, uint8_t *out)
{
    aes_encrypt_block(&active, in, out);
}

void aes_encrypt_tt(const uint8_t *in, uint8_t *out)
{
    aes_encrypt_block_tt(&active, in, out);
}

void aes_decrypt(const uint8_t *in, uint8_t *out)
{
    aes_decrypt_block(&active, in, out);
}

void aes_eq_decrypt(const uint8_t *in, uint8_t *out)
{
    aes_eq_decrypt_block(&active, in, out);
}

void aes_ecb(int decrypt, const uint8_t *in, uint8_t *out, int nblocks)
{
    if (decrypt)
        ecb_decrypt(&active, in, out, nblocks);
    else
        ecb_encrypt(&active, in, out, nblocks);
}

/* decryption may work in place (in == out) */
void aes_cbc(int decrypt, const uint8_t *iv, const uint8_t *in, uint8_t *out, int nblocks)
{
    if (decrypt)
        cbc_decrypt(&active, iv, in, out, nblocks);
    else
        cbc_encrypt(&active, iv, in, out, nblocks);
}

void aes_cfb128(int decrypt, const uint8_t *iv, const uint8_t *in, uint8_t *out, int nbytes)
{
    cfb128_crypt(&active, iv, in, out, nbytes, decrypt);
}

void aes_ofb(const uint8_t *iv, const uint8_t *in, uint8_t *out, int nbytes)
{
    ofb_crypt(&active, iv, in, out, nbytes);
}

void aes_ctr(const uint8_t *icb, const uint8_t *in, uint8_t *out, int nbytes)
{
    ctr_crypt(&active, icb, in, out, nbytes);
}

void aes_ctr_increment(uint8_t *ctr)
{
    ctr_increment(ctr);
}
