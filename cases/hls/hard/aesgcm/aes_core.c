/*
 * aes_core.c -- the AES block cipher of FIPS PUB 197 for 128-, 192- and
 * 256-bit keys.
 *
 * The state is the 4x4 byte array of Sec. 3.4 stored column by column:
 * s[r + 4c] is row r of column c, which is also the order of the input and
 * output bytes.  The S-box is not a constant table: aes_init() derives it
 * from its definition (Sec. 5.1.1), the multiplicative inverse in GF(2^8)
 * followed by the affine transformation, and the round constants are
 * successive powers of x (Sec. 5.2).
 */
#include "aesgcm.h"

static uint8_t sbox[256];
static uint8_t inv_sbox[256];
static int sbox_ready = 0;

/* ------------------------------------------------------------------ */
/* GF(2^8) modulo x^8 + x^4 + x^3 + x + 1                              */
/* ------------------------------------------------------------------ */

uint8_t aes_xtime(uint8_t b)
{
    uint8_t r = (uint8_t)(b << 1);
    if (b & 0x80)
        r ^= 0x1b;
    return r;
}

uint8_t aes_gf8_mul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    int i;
    for (i = 0; i < 8; i++) {
        if (b & 1)
            p ^= a;
        a = aes_xtime(a);
        b >>= 1;
    }
    return p;
}

/* a^254 by square-and-multiply: the inverse of a, and 0 for a = 0 */
uint8_t aes_gf8_inv(uint8_t a)
{
    uint8_t result = 1, base = a;
    int e;
    for (e = 254; e > 0; e >>= 1) {
        if (e & 1)
            result = aes_gf8_mul(result, base);
        base = aes_gf8_mul(base, base);
    }
    return result;
}

static uint8_t rotl8(uint8_t x, int n)
{
    return (uint8_t)((x << n) | (x >> (8 - n)));
}

/* the affine transformation of Sec. 5.1.1 */
uint8_t aes_affine(uint8_t b)
{
    uint8_t s = b;
    int k;
    for (k = 1; k <= 4; k++)
        s ^= rotl8(b, k);
    return (uint8_t)(s ^ 0x63);
}

void aes_init(void)
{
    int v;
    for (v = 0; v < 256; v++) {
        uint8_t s = aes_affine(aes_gf8_inv((uint8_t)v));
        sbox[v] = s;
        inv_sbox[s] = (uint8_t)v;
    }
    sbox_ready = 1;
}

uint8_t aes_sbox(uint8_t b)
{
    return sbox[b];
}

uint8_t aes_inv_sbox(uint8_t b)
{
    return inv_sbox[b];
}

/* ------------------------------------------------------------------ */
/* Round transformations                                               */
/* ------------------------------------------------------------------ */

static void add_round_key(uint8_t *s, const uint32_t *w)
{
    int c;
    for (c = 0; c < 4; c++) {
        s[4 * c]     ^= (uint8_t)(w[c] >> 24);
        s[4 * c + 1] ^= (uint8_t)(w[c] >> 16);
        s[4 * c + 2] ^= (uint8_t)(w[c] >> 8);
        s[4 * c + 3] ^= (uint8_t)w[c];
    }
}

static void sub_bytes(uint8_t *s)
{
    int i;
    for (i = 0; i < AES_BLOCK; i++)
        s[i] = sbox[s[i]];
}

static void inv_sub_bytes(uint8_t *s)
{
    int i;
    for (i = 0; i < AES_BLOCK; i++)
        s[i] = inv_sbox[s[i]];
}

/* row r moves r columns to the left */
static void shift_rows(uint8_t *s)
{
    uint8_t t[AES_BLOCK];
    int r, c;
    for (c = 0; c < 4; c++)
        for (r = 0; r < 4; r++)
            t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];
    for (c = 0; c < AES_BLOCK; c++)
        s[c] = t[c];
}

/* row r moves r columns to the right */
static void inv_shift_rows(uint8_t *s)
{
    uint8_t t[AES_BLOCK];
    int r, c;
    for (c = 0; c < 4; c++)
        for (r = 0; r < 4; r++)
            t[r + 4 * ((c + r) % 4)] = s[r + 4 * c];
    for (c = 0; c < AES_BLOCK; c++)
        s[c] = t[c];
}

/* one column times the matrix {02 03 01 01} of Sec. 5.1.3 */
static void mix_column(uint8_t *col)
{
    uint8_t a0 = col[0], a1 = col[1], a2 = col[2], a3 = col[3];
    col[0] = (uint8_t)(aes_xtime(a0) ^ aes_xtime(a1) ^ a1 ^ a2 ^ a3);
    col[1] = (uint8_t)(a0 ^ aes_xtime(a1) ^ aes_xtime(a2) ^ a2 ^ a3);
    col[2] = (uint8_t)(a0 ^ a1 ^ aes_xtime(a2) ^ aes_xtime(a3) ^ a3);
    col[3] = (uint8_t)(aes_xtime(a0) ^ a0 ^ a1 ^ a2 ^ aes_xtime(a3));
}

/* one column times the matrix {0e 0b 0d 09} of Sec. 5.3.3: row r of the
 * matrix is the first row rotated right by r */
static const uint8_t inv_mix_coef[4] = { 0x0e, 0x0b, 0x0d, 0x09 };

static void inv_mix_column(uint8_t *col)
{
    uint8_t a[4], acc;
    int r, k;
    for (k = 0; k < 4; k++)
        a[k] = col[k];
    for (r = 0; r < 4; r++) {
        acc = 0;
        for (k = 0; k < 4; k++)
            acc ^= aes_gf8_mul(inv_mix_coef[(k - r + 4) % 4], a[k]);
        col[r] = acc;
    }
}

static void mix_columns(uint8_t *s)
{
    int c;
    for (c = 0; c < 4; c++)
        mix_column(s + 4 * c);
}

static void inv_mix_columns(uint8_t *s)
{
    int c;
    for (c = 0; c < 4; c++)
        inv_mix_column(s + 4 * c);
}

/* ------------------------------------------------------------------ */
/* KeyExpansion (Sec. 5.2) and the decryption key schedule (Sec. 5.3.5) */
/* ------------------------------------------------------------------ */

static uint32_t load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static uint32_t sub_word(uint32_t w)
{
    return ((uint32_t)sbox[(w >> 24) & 0xff] << 24) | ((uint32_t)sbox[(w >> 16) & 0xff] << 16)
         | ((uint32_t)sbox[(w >> 8) & 0xff] << 8) | (uint32_t)sbox[w & 0xff];
}

static uint32_t rot_word(uint32_t w)
{
    return (w << 8) | (w >> 24);
}

/* InvMixColumns applied to one round-key word */
static uint32_t inv_mix_word(uint32_t w)
{
    uint8_t col[4];
    col[0] = (uint8_t)(w >> 24);
    col[1] = (uint8_t)(w >> 16);
    col[2] = (uint8_t)(w >> 8);
    col[3] = (uint8_t)w;
    inv_mix_column(col);
    return load_be32(col);
}

int aes_key_expand(aes_key *ks, const uint8_t *key, int key_len)
{
    int nk, i, total;
    uint32_t temp;
    uint8_t rcon = 0x01;

    if (!sbox_ready)
        aes_init();
    if (key_len == 16)
        nk = 4;
    else if (key_len == 24)
        nk = 6;
    else if (key_len == 32)
        nk = 8;
    else
        return AES_ERR_KEYLEN;
    ks->nk = nk;
    ks->nr = nk + 6;
    total = 4 * (ks->nr + 1);

    for (i = 0; i < nk; i++)
        ks->ek[i] = load_be32(key + 4 * i);
    for (i = nk; i < total; i++) {
        temp = ks->ek[i - 1];
        if (i % nk == 0) {
            temp = sub_word(rot_word(temp)) ^ ((uint32_t)rcon << 24);
            rcon = aes_xtime(rcon);
        } else if (nk > 6 && i % nk == 4) {
            temp = sub_word(temp);
        }
        ks->ek[i] = ks->ek[i - nk] ^ temp;
    }

    /* dw: the first and last round keys as they are, InvMixColumns on the others */
    for (i = 0; i < total; i++) {
        if (i < 4 || i >= 4 * ks->nr)
            ks->dk[i] = ks->ek[i];
        else
            ks->dk[i] = inv_mix_word(ks->ek[i]);
    }
    for (i = total; i < AES_MAX_RK_WORDS; i++) {
        ks->ek[i] = 0;
        ks->dk[i] = 0;
    }
    return AES_OK;
}

/* ------------------------------------------------------------------ */
/* Cipher, InvCipher, Equivalent Inverse Cipher                        */
/* ------------------------------------------------------------------ */

static void copy_block(uint8_t *dst, const uint8_t *src)
{
    int i;
    for (i = 0; i < AES_BLOCK; i++)
        dst[i] = src[i];
}

/* the Cipher of Sec. 5.1; when trace is given, trace[r] receives the state
 * after round r (trace[0]: after the initial AddRoundKey) */
static void cipher(const aes_key *ks, const uint8_t *in, uint8_t *out, uint8_t trace[][AES_BLOCK])
{
    uint8_t s[AES_BLOCK];
    int round;

    copy_block(s, in);
    add_round_key(s, ks->ek);
    if (trace)
        copy_block(trace[0], s);
    for (round = 1; round < ks->nr; round++) {
        sub_bytes(s);
        shift_rows(s);
        mix_columns(s);
        add_round_key(s, ks->ek + 4 * round);
        if (trace)
            copy_block(trace[round], s);
    }
    sub_bytes(s);
    shift_rows(s);
    add_round_key(s, ks->ek + 4 * ks->nr);
    if (trace)
        copy_block(trace[ks->nr], s);
    copy_block(out, s);
}

void aes_encrypt_block(const aes_key *ks, const uint8_t *in, uint8_t *out)
{
    cipher(ks, in, out, 0);
}

void aes_encrypt_trace(const aes_key *ks, const uint8_t *in, uint8_t trace[][AES_BLOCK])
{
    uint8_t out[AES_BLOCK];
    cipher(ks, in, out, trace);
}

/* the InvCipher of Sec. 5.3 */
void aes_decrypt_block(const aes_key *ks, const uint8_t *in, uint8_t *out)
{
    uint8_t s[AES_BLOCK];
    int round;

    copy_block(s, in);
    add_round_key(s, ks->ek + 4 * ks->nr);
    for (round = ks->nr - 1; round > 0; round--) {
        inv_shift_rows(s);
        inv_sub_bytes(s);
        add_round_key(s, ks->ek + 4 * round);
        inv_mix_columns(s);
    }
    inv_shift_rows(s);
    inv_sub_bytes(s);
    add_round_key(s, ks->ek);
    copy_block(out, s);
}

/* the Equivalent Inverse Cipher of Sec. 5.3.5, with the schedule dw */
void aes_decrypt_block_eq(const aes_key *ks, const uint8_t *in, uint8_t *out)
{
    uint8_t s[AES_BLOCK];
    int round;

    copy_block(s, in);
    add_round_key(s, ks->dk + 4 * ks->nr);
    for (round = ks->nr - 1; round > 0; round--) {
        inv_sub_bytes(s);
        inv_shift_rows(s);
        inv_mix_columns(s);
        add_round_key(s, ks->dk + 4 * round);
    }
    inv_sub_bytes(s);
    inv_shift_rows(s);
    add_round_key(s, ks->dk);
    copy_block(out, s);
}
