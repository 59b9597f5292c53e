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
 * The program is self-checking.  It verifies
 *   - the S-box and inverse S-box tables against the algebraic definition
 *     of Sec. 5.1.1 (multiplicative inverse followed by the affine map),
 *   - the GF(2^8) multiplication examples of Sec. 4.2,
 *   - the key expansion examples of FIPS-197 Appendix A,
 *   - the round-by-round trace and the cipher examples of Appendix C
 *     for all three key sizes (normal and equivalent inverse cipher),
 *   - the mode examples of SP 800-38A Appendix F,
 *   - chained (Monte-Carlo style) encryptions and a long CBC/CTR round
 *     trip over a pseudo-random buffer whose expected digests were
 *     computed once with an independently verified implementation.
 * It prints the number of mismatching bytes/words and returns that number
 * (saturated to 255) as its exit status; 0 means every check passed.
 */
#include <stdio.h>
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

static int mismatches = 0;               /* failed bytes / words over all checks */
static int checks = 0;                   /* number of checks performed */

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
/* Helpers for test vectors and result checking                        */
/* ------------------------------------------------------------------ */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 0;
}

/* parse a hex string (spaces allowed between bytes) into at most max bytes */
static int hex_to_bytes(const char *hex, uint8_t *out, int max)
{
    int n = 0;
    while (hex[0] != '\0' && n < max) {
        if (hex[0] == ' ') {
            hex++;
            continue;
        }
        if (hex[1] == '\0')
            break;
        out[n++] = (uint8_t)((hexval(hex[0]) << 4) | hexval(hex[1]));
        hex += 2;
    }
    return n;
}

static void check_bytes(const char *what, const uint8_t *got, const uint8_t *expect, int n)
{
    int i, bad = 0;
    for (i = 0; i < n; i++)
        if (got[i] != expect[i])
            bad++;
    checks++;
    if (bad) {
        printf("FAIL %-34s %d of %d bytes differ\n", what, bad, n);
        mismatches += bad;
    }
}

/* compare n bytes against a hex string that must describe exactly n bytes */
static void check_hex(const char *what, const uint8_t *got, const char *hex, int n)
{
    uint8_t expect[64];
    int len = hex_to_bytes(hex, expect, (int)sizeof expect);
    if (len != n) {
        printf("FAIL %-34s bad reference length %d\n", what, len);
        mismatches++;
        return;
    }
    check_bytes(what, got, expect, n);
}

static void check_word(const char *what, uint32_t got, uint32_t expect)
{
    checks++;
    if (got != expect) {
        printf("FAIL %-34s got %08lx expected %08lx\n", what,
               (unsigned long)got, (unsigned long)expect);
        mismatches++;
    }
}

/* CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) used as a digest */
static uint32_t crc32_update(uint32_t crc, const uint8_t *p, int n)
{
    int i, k;
    crc = ~crc;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* deterministic pseudo-random bytes (linear congruential generator) */
static uint32_t lcg_state;

static void lcg_seed(uint32_t seed)
{
    lcg_state = seed;
}

static uint8_t lcg_byte(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (uint8_t)(lcg_state >> 24);
}

static void lcg_fill(uint8_t *p, int n)
{
    int i;
    for (i = 0; i < n; i++)
        p[i] = lcg_byte();
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
/* Test vectors                                                        */
/* ------------------------------------------------------------------ */

typedef struct {
    int key_bits;
    const char *key;
    const char *plain;
    const char *cipher;
} block_vector;

/* FIPS-197 Appendix C.1, C.2, C.3 */
static const block_vector fips197_vectors[3] = {
    { 128, "000102030405060708090a0b0c0d0e0f",
      "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a" },
    { 192, "000102030405060708090a0b0c0d0e0f1011121314151617",
      "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191" },
    { 256, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089" }
};

/* FIPS-197 Appendix A: selected words of the expanded keys */
typedef struct {
    int key_bits;
    const char *key;
    int index[6];
    uint32_t word[6];
} expansion_vector;

static const expansion_vector expansion_vectors[3] = {
    { 128, "2b7e151628aed2a6abf7158809cf4f3c",
      { 4, 5, 10, 40, 42, 43 },
      { 0xa0fafe17u, 0x88542cb1u, 0x5935807au, 0xd014f9a8u, 0xe13f0cc8u, 0xb6630ca6u } },
    { 192, "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
      { 6, 7, 13, 48, 50, 51 },
      { 0xfe0c91f7u, 0x2402f5a5u, 0x69b54118u, 0xe98ba06fu, 0x8ecc7204u, 0x01002202u } },
    { 256, "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
      { 8, 9, 15, 56, 58, 59 },
      { 0x9ba35411u, 0x8e6925afu, 0xb75d5b9au, 0xfe4890d1u, 0x046df344u, 0x706c631eu } }
};

/* SP 800-38A Appendix F: the common four-block plaintext */
static const char *sp_plain =
    "6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710";

static const char *sp_key[3] = {
    "2b7e151628aed2a6abf7158809cf4f3c",
    "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
};

static const char *sp_iv  = "000102030405060708090a0b0c0d0e0f";
static const char *sp_icb = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* F.1.1 / F.1.3 / F.1.5: ECB-AES128/192/256 */
static const char *sp_ecb[3] = {
    "3ad77bb40d7a3660a89ecaf32466ef97" "f5d3d58503b9699de785895a96fdbaaf"
        "43b1cd7f598ece23881b00e3ed030688" "7b0c785e27e8ad3f8223207104725dd4",
    "bd334f1d6e45f25ff712a214571fa5cc" "974104846d0ad3ad7734ecb3ecee4eef"
        "ef7afd2270e2e60adce0ba2face6444e" "9a4b41ba738d6c72fb16691603c18e0e",
    "f3eed1bdb5d2a03c064b5a7e3db181f8" "591ccb10d410ed26dc5ba74a31362870"
        "b6ed21b99ca6f4f9f153e7b1beafed1d" "23304b7a39f9f3ff067d8d8f9e24ecc7"
};

/* F.2.1 / F.2.3 / F.2.5: CBC-AES128/192/256 */
static const char *sp_cbc[3] = {
    "7649abac8119b246cee98e9b12e9197d" "5086cb9b507219ee95db113a917678b2"
        "73bed6b8e3c1743b7116e69e22229516" "3ff1caa1681fac09120eca307586e1a7",
    "4f021db243bc633d7178183a9fa071e8" "b4d9ada9ad7dedf4e5e738763f69145a"
        "571b242012fb7ae07fa9baac3df102e0" "08b0e27988598881d920a9e64f5615cd",
    "f58c4c04d6e5f1ba779eabfb5f7bfbd6" "9cfc4e967edb808d679f777bc6702c7d"
        "39f23369a9d9bacfa530e26304231461" "b2eb05e2c39be9fcda6c19078c6a9d1b"
};

/* F.3.13 / F.3.15 / F.3.17: CFB128-AES128/192/256 */
static const char *sp_cfb[3] = {
    "3b3fd92eb72dad20333449f8e83cfb4a" "c8a64537a0b3a93fcde3cdad9f1ce58b"
        "26751f67a3cbb140b1808cf187a4f4df" "c04b05357c5d1c0eeac4c66f9ff7f2e6",
    "cdc80d6fddf18cab34c25909c99a4174" "67ce7f7f81173621961a2b70171d3d7a"
        "2e1e8a1dd59b88b1c8e60fed1efac4c9" "c05f9f9ca9834fa042ae8fba584b09ff",
    "dc7e84bfda79164b7ecd8486985d3860" "39ffed143b28b1c832113c6331e5407b"
        "df10132415e54b92a13ed0a8267ae2f9" "75a385741ab9cef82031623d55b1e471"
};

/* F.4.1 / F.4.3 / F.4.5: OFB-AES128/192/256 */
static const char *sp_ofb[3] = {
    "3b3fd92eb72dad20333449f8e83cfb4a" "7789508d16918f03f53c52dac54ed825"
        "9740051e9c5fecf64344f7a82260edcc" "304c6528f659c77866a510d9c1d6ae5e",
    "cdc80d6fddf18cab34c25909c99a4174" "fcc28b8d4c63837c09e81700c1100401"
        "8d9a9aeac0f6596f559c6d4daf59a5f2" "6d9f200857ca6c3e9cac524bd9acc92a",
    "dc7e84bfda79164b7ecd8486985d3860" "4febdc6740d20b3ac88f6ad82a4fb08d"
        "71ab47a086e86eedf39d1c5bba97c408" "0126141d67f37be8538f5a8be740e484"
};

/* F.5.1 / F.5.3 / F.5.5: CTR-AES128/192/256 */
static const char *sp_ctr[3] = {
    "874d6191b620e3261bef6864990db6ce" "9806f66b7970fdff8617187bb9fffdff"
        "5ae4df3edbd5d35e5b4f09020db03eab" "1e031dda2fbe03d1792170a0f3009cee",
    "1abc932417521ca24f2b0459fe7e6e0b" "090339ec0aa6faefd5ccc2c6f4ce8e94"
        "1e36b26bd1ebc670d1bd1d665620abf7" "4f78a7f6d29809585a97daec58c6b050",
    "601ec313775789a5b7a7f504bbf3d228" "f443e3ca4d62b59aca84e990cacaf5c5"
        "2b0930daa23de94ce87017ba2d84988d" "dfc9c58db67aada613c2dd08457941a6"
};

/* ------------------------------------------------------------------ */
/* Individual tests                                                    */
/* ------------------------------------------------------------------ */

static void test_tables(void)
{
    int bad_entries = 0;
    int v;

    for (v = 0; v < 256; v++) {
        if (sbox[v] != sbox_from_definition((uint8_t)v))
            bad_entries++;
        if (inv_sbox[sbox[v]] != v)
            bad_entries++;
    }
    checks++;
    if (bad_entries) {
        printf("FAIL %-34s %d entries\n", "S-box definition", bad_entries);
        mismatches += bad_entries;
    }

    /* Sec. 4.2: {57}*{83} = {c1}; Sec. 4.2.1: xtime chain and {57}*{13} = {fe} */
    check_word("gf_mul 57*83", gf_mul(0x57, 0x83), 0xc1);
    check_word("gf_mul 57*13", gf_mul(0x57, 0x13), 0xfe);
    check_word("xtime 57", xtime(0x57), 0xae);
    check_word("xtime ae", xtime(0xae), 0x47);
    check_word("xtime 47", xtime(0x47), 0x8e);
    check_word("xtime 8e", xtime(0x8e), 0x07);
    check_word("gf_inv 53", gf_inv(0x53), 0xca);
}

static void test_key_expansion(void)
{
    aes_ctx ctx;
    uint8_t key[32];
    char name[48];
    int v, j;

    for (v = 0; v < 3; v++) {
        const expansion_vector *ev = &expansion_vectors[v];
        hex_to_bytes(ev->key, key, (int)sizeof key);
        aes_set_key(&ctx, key, ev->key_bits);
        check_word("Nr", (uint32_t)ctx.nr, (uint32_t)(ev->key_bits / 32 + 6));
        for (j = 0; j < 6; j++) {
            sprintf(name, "KeyExpansion-%d w[%d]", ev->key_bits, ev->index[j]);
            check_word(name, ctx.w[ev->index[j]], ev->word[j]);
        }
    }
}

/* FIPS-197 Appendix C.1: intermediate values of the first round */
static void test_round_trace(void)
{
    aes_ctx ctx;
    uint8_t key[16], in[16], out[16];
    state_t s;

    hex_to_bytes(fips197_vectors[0].key, key, 16);
    hex_to_bytes(fips197_vectors[0].plain, in, 16);
    aes_set_key(&ctx, key, 128);

    load_state(s, in);
    add_round_key(s, ctx.w, 0);
    store_state(out, s);
    check_hex("C.1 round[1].start", out, "00102030405060708090a0b0c0d0e0f0", 16);
    sub_bytes(s);
    store_state(out, s);
    check_hex("C.1 round[1].s_box", out, "63cab7040953d051cd60e0e7ba70e18c", 16);
    shift_rows(s);
    store_state(out, s);
    check_hex("C.1 round[1].s_row", out, "6353e08c0960e104cd70b751bacad0e7", 16);
    mix_columns(s);
    store_state(out, s);
    check_hex("C.1 round[1].m_col", out, "5f72641557f5bc92f7be3b291db9f91a", 16);
    add_round_key(s, ctx.w, 1);
    store_state(out, s);
    check_hex("C.1 round[2].start", out, "89d810e8855ace682d1843d8cb128fe4", 16);

    /* inverse cipher, first inverse round */
    hex_to_bytes(fips197_vectors[0].cipher, in, 16);
    load_state(s, in);
    add_round_key(s, ctx.w, ctx.nr);
    store_state(out, s);
    check_hex("C.1 round[1].istart", out, "7ad5fda789ef4e272bca100b3d9ff59f", 16);
    inv_shift_rows(s);
    store_state(out, s);
    check_hex("C.1 round[1].is_row", out, "7a9f102789d5f50b2beffd9f3dca4ea7", 16);
    inv_sub_bytes(s);
    store_state(out, s);
    check_hex("C.1 round[1].is_box", out, "bd6e7c3df2b5779e0b61216e8b10b689", 16);
    add_round_key(s, ctx.w, ctx.nr - 1);
    store_state(out, s);
    check_hex("C.1 round[1].ik_add", out, "e9f74eec023020f61bf2ccf2353c21c7", 16);
    inv_mix_columns(s);
    store_state(out, s);
    check_hex("C.1 round[2].istart", out, "54d990a16ba09ab596bbf40ea111702f", 16);
}

static void test_fips197(void)
{
    aes_ctx ctx;
    uint8_t key[32], pt[16], ct[16], out[16];
    char name[48];
    int v;

    for (v = 0; v < 3; v++) {
        const block_vector *bv = &fips197_vectors[v];
        hex_to_bytes(bv->key, key, (int)sizeof key);
        hex_to_bytes(bv->plain, pt, 16);
        hex_to_bytes(bv->cipher, ct, 16);
        aes_set_key(&ctx, key, bv->key_bits);

        aes_encrypt_block(&ctx, pt, out);
        sprintf(name, "FIPS-197 AES-%d Cipher", bv->key_bits);
        check_bytes(name, out, ct, 16);

        aes_encrypt_block_tt(&ctx, pt, out);
        sprintf(name, "FIPS-197 AES-%d T-table", bv->key_bits);
        check_bytes(name, out, ct, 16);

        aes_decrypt_block(&ctx, ct, out);
        sprintf(name, "FIPS-197 AES-%d InvCipher", bv->key_bits);
        check_bytes(name, out, pt, 16);

        aes_eq_decrypt_block(&ctx, ct, out);
        sprintf(name, "FIPS-197 AES-%d EqInvCipher", bv->key_bits);
        check_bytes(name, out, pt, 16);
    }
}

static void test_modes(void)
{
    aes_ctx ctx;
    uint8_t key[32], iv[16], icb[16], pt[64], buf[64], back[64];
    char name[48];
    int k, bits;

    hex_to_bytes(sp_plain, pt, 64);
    hex_to_bytes(sp_iv, iv, 16);
    hex_to_bytes(sp_icb, icb, 16);

    for (k = 0; k < 3; k++) {
        bits = 128 + 64 * k;
        hex_to_bytes(sp_key[k], key, (int)sizeof key);
        aes_set_key(&ctx, key, bits);

        ecb_encrypt(&ctx, pt, buf, 4);
        sprintf(name, "SP800-38A ECB-AES%d encrypt", bits);
        check_hex(name, buf, sp_ecb[k], 64);
        ecb_decrypt(&ctx, buf, back, 4);
        sprintf(name, "SP800-38A ECB-AES%d decrypt", bits);
        check_bytes(name, back, pt, 64);

        cbc_encrypt(&ctx, iv, pt, buf, 4);
        sprintf(name, "SP800-38A CBC-AES%d encrypt", bits);
        check_hex(name, buf, sp_cbc[k], 64);
        cbc_decrypt(&ctx, iv, buf, back, 4);
        sprintf(name, "SP800-38A CBC-AES%d decrypt", bits);
        check_bytes(name, back, pt, 64);

        cfb128_crypt(&ctx, iv, pt, buf, 64, 0);
        sprintf(name, "SP800-38A CFB128-AES%d encrypt", bits);
        check_hex(name, buf, sp_cfb[k], 64);
        cfb128_crypt(&ctx, iv, buf, back, 64, 1);
        sprintf(name, "SP800-38A CFB128-AES%d decrypt", bits);
        check_bytes(name, back, pt, 64);

        ofb_crypt(&ctx, iv, pt, buf, 64);
        sprintf(name, "SP800-38A OFB-AES%d encrypt", bits);
        check_hex(name, buf, sp_ofb[k], 64);
        ofb_crypt(&ctx, iv, buf, back, 64);
        sprintf(name, "SP800-38A OFB-AES%d decrypt", bits);
        check_bytes(name, back, pt, 64);

        ctr_crypt(&ctx, icb, pt, buf, 64);
        sprintf(name, "SP800-38A CTR-AES%d encrypt", bits);
        check_hex(name, buf, sp_ctr[k], 64);
        ctr_crypt(&ctx, icb, buf, back, 64);
        sprintf(name, "SP800-38A CTR-AES%d decrypt", bits);
        check_bytes(name, back, pt, 64);
    }
}

/* counter wrap-around and partial final blocks */
static void test_mode_edges(void)
{
    aes_ctx ctx;
    uint8_t key[16], icb[16], iv[16], pt[64], buf[64], back[64];
    uint8_t ctr[16];
    int i;

    hex_to_bytes(sp_key[0], key, 16);
    aes_set_key(&ctx, key, 128);
    for (i = 0; i < 64; i++)
        pt[i] = (uint8_t)(i * 7 + 3);

    /* the carry must ripple through the whole 128-bit counter */
    memset(ctr, 0xff, 16);
    ctr[15] = 0xfe;
    ctr_increment(ctr);
    ctr_increment(ctr);
    check_hex("CTR counter wrap", ctr, "00000000000000000000000000000000", 16);

    hex_to_bytes("00000000ffffffffffffffffffffffff", icb, 16);
    ctr_crypt(&ctx, icb, pt, buf, 53);
    check_hex("CTR carry, 53 bytes", buf,
              "3060632dd960838e00739bc87d116ea8a99c831114b565b50e3f82074332b47524611373c99c67c7107fd42efdce51a77827d22ab8", 53);
    ctr_crypt(&ctx, icb, buf, back, 53);
    check_bytes("CTR carry round trip", back, pt, 53);

    hex_to_bytes(sp_iv, iv, 16);
    cfb128_crypt(&ctx, iv, pt, buf, 37, 0);
    check_hex("CFB128 37 bytes", buf,
              "53f476d4864b1f82e14b7eb9ccf1890cccefdded555a83f9596b3ab85341eb6485c058b589", 37);
    cfb128_crypt(&ctx, iv, buf, back, 37, 1);
    check_bytes("CFB128 37 bytes round trip", back, pt, 37);

    ofb_crypt(&ctx, iv, pt, buf, 21);
    check_hex("OFB 21 bytes", buf, "53f476d4864b1f82e14b7eb9ccf1890caade5b5287", 21);
}

/* Monte-Carlo style chains: 250 encryptions under a fixed key and back,
 * then a chain in which the key is updated from the ciphertext */
static void test_chains(void)
{
    static const char *fixed_key_result[3] = {
        "a2f59deccf334da86bb590386e968aae",
        "7a18415c2473f176c35952994f98c277",
        "070375a9797476a473be279f1c0a4050"
    };
    static const char *rekey_result[3] = {
        "e77e61a183c37bec4b5bdcd59835fc53",
        "b1c565d7ff7e8bb83426689ed7fdae9c",
        "2b1e828cadd39af91b5814fcdff91128"
    };
    aes_ctx ctx;
    uint8_t key[32], start[16], blk[16];
    char name[48];
    int v, it, outer, j, bits, klen;

    for (v = 0; v < 3; v++) {
        bits = fips197_vectors[v].key_bits;
        klen = bits / 8;
        hex_to_bytes(fips197_vectors[v].key, key, (int)sizeof key);
        hex_to_bytes(fips197_vectors[v].plain, start, 16);
        aes_set_key(&ctx, key, bits);

        memcpy(blk, start, 16);
        for (it = 0; it < 250; it++)
            aes_encrypt_block(&ctx, blk, blk);
        sprintf(name, "chain AES-%d 250 x Cipher", bits);
        check_hex(name, blk, fixed_key_result[v], 16);
        for (it = 0; it < 250; it++)
            aes_eq_decrypt_block(&ctx, blk, blk);
        sprintf(name, "chain AES-%d 250 x EqInvCipher", bits);
        check_bytes(name, blk, start, 16);

        memcpy(blk, start, 16);
        for (outer = 0; outer < 4; outer++) {
            for (it = 0; it < 100; it++)
                aes_encrypt_block(&ctx, blk, blk);
            for (j = 0; j < klen; j++)
                key[j] ^= blk[j % 16];
            aes_set_key(&ctx, key, bits);
        }
        sprintf(name, "chain AES-%d with rekeying", bits);
        check_hex(name, blk, rekey_result[v], 16);
    }
}

/* random keys and blocks: all implementations must agree, and the
 * collected ciphertexts must have the recorded digest */
static void test_random_blocks(void)
{
    aes_ctx ctx;
    uint8_t key[32], pt[16], ct[16], ct2[16], back[16], back2[16];
    uint32_t crc = 0;
    int i, bits, disagree = 0;

    lcg_seed(0x0197u);
    for (i = 0; i < 96; i++) {
        bits = 128 + 64 * (i % 3);
        lcg_fill(key, 32);
        lcg_fill(pt, 16);
        aes_set_key(&ctx, key, bits);
        aes_encrypt_block(&ctx, pt, ct);
        aes_encrypt_block_tt(&ctx, pt, ct2);
        aes_decrypt_block(&ctx, ct, back);
        aes_eq_decrypt_block(&ctx, ct, back2);
        if (memcmp(ct, ct2, 16) != 0)
            disagree++;
        if (memcmp(back, pt, 16) != 0)
            disagree++;
        if (memcmp(back2, pt, 16) != 0)
            disagree++;
        crc = crc32_update(crc, ct, 16);
    }
    checks++;
    if (disagree) {
        printf("FAIL %-34s %d disagreements\n", "random blocks", disagree);
        mismatches += disagree;
    }
    check_word("random blocks digest", crc, 0x46b0474bu);
}

/* long buffers: CBC (in place), CTR with a partial block, ECB */
#define LONG_BLOCKS 64
static uint8_t long_orig[LONG_BLOCKS * BLOCK];
static uint8_t long_buf[LONG_BLOCKS * BLOCK];
static uint8_t long_tmp[LONG_BLOCKS * BLOCK];

static void test_long_buffers(void)
{
    aes_ctx ctx;
    uint8_t key[32], iv[16];
    int total = LONG_BLOCKS * BLOCK;
    int ctr_len = LONG_BLOCKS * BLOCK - 37;

    lcg_seed(0x2001u);
    lcg_fill(key, 32);
    lcg_fill(iv, 16);
    lcg_fill(long_orig, total);

    aes_set_key(&ctx, key, 256);
    cbc_encrypt(&ctx, iv, long_orig, long_buf, LONG_BLOCKS);
    check_word("CBC-AES256 1 KiB digest", crc32_update(0, long_buf, total), 0xd641865eu);
    cbc_decrypt(&ctx, iv, long_buf, long_buf, LONG_BLOCKS);
    check_bytes("CBC-AES256 1 KiB in place", long_buf, long_orig, total);

    ctr_crypt(&ctx, iv, long_orig, long_buf, ctr_len);
    check_word("CTR-AES256 987 B digest", crc32_update(0, long_buf, ctr_len), 0x4fd6c37eu);
    ctr_crypt(&ctx, iv, long_buf, long_tmp, ctr_len);
    check_bytes("CTR-AES256 987 B round trip", long_tmp, long_orig, ctr_len);

    aes_set_key(&ctx, key, 192);
    ecb_encrypt(&ctx, long_orig, long_buf, LONG_BLOCKS);
    check_word("ECB-AES192 1 KiB digest", crc32_update(0, long_buf, total), 0x8435d9a0u);
    ecb_decrypt(&ctx, long_buf, long_tmp, LONG_BLOCKS);
    check_bytes("ECB-AES192 1 KiB round trip", long_tmp, long_orig, total);
}

int main(void)
{
    build_ttables();

    test_tables();
    test_key_expansion();
    test_round_trace();
    test_fips197();
    test_modes();
    test_mode_edges();
    test_chains();
    test_random_blocks();
    test_long_buffers();

    printf("AES self-test: %d checks\n", checks);
    printf("mismatches = %d\n", mismatches);
    return mismatches > 255 ? 255 : mismatches;
}
