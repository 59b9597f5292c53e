/*
 * aesgcm.h -- AES-128/192/256 (FIPS-197) and the Galois/Counter Mode of
 * NIST SP 800-38D, written for a high-level-synthesis flow: fixed-size
 * buffers, bounded loops, no dynamic memory and no recursion.
 *
 * The design is split over three files:
 *   aes_core.c  GF(2^8) arithmetic, the S-box derived from its definition,
 *               KeyExpansion, the Cipher, the InvCipher and the Equivalent
 *               Inverse Cipher
 *   gf128.c     GF(2^128) in the bit order of SP 800-38D (bit 0 is the most
 *               significant bit of byte 0), a bitwise multiplier
 *               (Algorithm 1), a 4-bit table multiplier and GHASH with
 *               streaming input
 *   gcm.c       J0 derivation, inc32, GCTR, the streaming GCM-AE / GCM-AD
 *               engine, one-shot authenticated encryption and decryption,
 *               truncated tags and GMAC
 */
#ifndef AESGCM_H
#define AESGCM_H

#include <stdint.h>

/* ------------------------------------------------------------------ */
/* AES                                                                 */
/* ------------------------------------------------------------------ */

#define AES_BLOCK        16
#define AES_MAX_ROUNDS   14
#define AES_MAX_RK_WORDS (4 * (AES_MAX_ROUNDS + 1))   /* 60 words */

#define AES_OK           0
#define AES_ERR_KEYLEN  (-1)

typedef struct {
    int nk;                         /* key length in 32-bit words: 4, 6 or 8 */
    int nr;                         /* number of rounds: 10, 12 or 14 */
    uint32_t ek[AES_MAX_RK_WORDS];  /* encryption round keys w[] */
    uint32_t dk[AES_MAX_RK_WORDS];  /* Equivalent Inverse Cipher round keys dw[] */
} aes_key;

void aes_init(void);
uint8_t aes_xtime(uint8_t b);
uint8_t aes_gf8_mul(uint8_t a, uint8_t b);
uint8_t aes_gf8_inv(uint8_t a);
uint8_t aes_affine(uint8_t b);
uint8_t aes_sbox(uint8_t b);
uint8_t aes_inv_sbox(uint8_t b);
int aes_key_expand(aes_key *ks, const uint8_t *key, int key_len);
void aes_encrypt_block(const aes_key *ks, const uint8_t *in, uint8_t *out);
void aes_encrypt_trace(const aes_key *ks, const uint8_t *in, uint8_t trace[][AES_BLOCK]);
void aes_decrypt_block(const aes_key *ks, const uint8_t *in, uint8_t *out);
void aes_decrypt_block_eq(const aes_key *ks, const uint8_t *in, uint8_t *out);

/* ------------------------------------------------------------------ */
/* GF(2^128) and GHASH                                                 */
/* ------------------------------------------------------------------ */

/* one field element: hi holds bytes 0..7 of the block, lo bytes 8..15,
 * both big-endian, so x^0 is the top bit of hi and x^127 the bottom bit of lo */
typedef struct {
    uint64_t hi;
    uint64_t lo;
} gf128;

/* the multiples i * H for every 4-bit i (bit 3 of i is the x^0 coefficient) */
typedef struct {
    gf128 m[16];
} gf128_table4;

#define GF_BITWISE  0           /* Algorithm 1 of SP 800-38D, one bit at a time */
#define GF_TABLE4   1           /* 16-entry table of H multiples, four bits at a time */

typedef struct {
    int mult;                   /* GF_BITWISE or GF_TABLE4 */
    gf128 h;                    /* the hash subkey */
    gf128_table4 t4;            /* its table (GF_TABLE4) */
    gf128 y;                    /* the running hash */
    uint8_t part[AES_BLOCK];    /* bytes of a block not hashed yet */
    int npart;                  /* how many of them */
    uint32_t blocks;            /* blocks hashed so far */
} ghash_ctx;

gf128 gf128_load(const uint8_t *b);
void gf128_store(gf128 x, uint8_t *b);
gf128 gf128_xor(gf128 a, gf128 b);
int gf128_bit(gf128 x, int i);
gf128 gf128_shr1(gf128 v);
gf128 gf128_shr4(gf128 v);
uint16_t gf128_reduce4(int rem);
gf128 gf128_mul_bitwise(gf128 x, gf128 y);
void gf128_table4_init(gf128_table4 *t, gf128 h);
gf128 gf128_mul_table4(const gf128_table4 *t, gf128 x);
gf128 gf128_pow(gf128 x, uint32_t e);

void ghash_init(ghash_ctx *g, const uint8_t *h, int mult);
void ghash_reset(ghash_ctx *g);
void ghash_block(ghash_ctx *g, const uint8_t *block);
void ghash_update(ghash_ctx *g, const uint8_t *data, int len);
void ghash_pad(ghash_ctx *g);
void ghash_lengths(ghash_ctx *g, uint64_t a_bits, uint64_t c_bits);
void ghash_digest(const ghash_ctx *g, uint8_t *out);
void ghash_blocks(const uint8_t *h, int mult, const uint8_t *x, int nblocks, uint8_t *out);
void ghash_powers(const uint8_t *h, gf128 *pw);
void ghash_agg4(const uint8_t *h, const uint8_t *x, int nblocks, uint8_t *out);

/* ------------------------------------------------------------------ */
/* GCM                                                                 */
/* ------------------------------------------------------------------ */

/* the sizes this engine is built for (its buffers and loop bounds) */
#define GCM_MAX_IV     256      /* bytes of IV; at least 1 */
#define GCM_MAX_AAD    2048     /* bytes of additional authenticated data */
#define GCM_MAX_TEXT   4096     /* bytes of plaintext or ciphertext */

#define GCM_OK            0
#define GCM_ERR_KEY     (-1)    /* key length not 16, 24 or 32 bytes */
#define GCM_ERR_IV      (-2)    /* IV length outside 1..GCM_MAX_IV */
#define GCM_ERR_TAGLEN  (-3)    /* tag length not one of 4, 8, 12..16 bytes */
#define GCM_ERR_LENGTH  (-4)    /* AAD or text longer than the engine allows, or negative */
#define GCM_ERR_STATE   (-5)    /* call out of order */
#define GCM_AUTH_FAIL   (-6)    /* authenticated decryption: the tag does not match */

/* states of the streaming engine */
#define GCM_NOKEY (-1)          /* no valid key loaded */
#define GCM_IDLE   0            /* key loaded, no message started */
#define GCM_AAD    1            /* IV loaded, taking AAD */
#define GCM_TEXT   2            /* taking plaintext or ciphertext */
#define GCM_DONE   3            /* tag produced; a new message needs gcm_start */

typedef struct {
    aes_key ks;
    int state;
    int decrypt;                /* 1: the text is ciphertext */
    uint8_t h[AES_BLOCK];       /* hash subkey E(K, 0^128) */
    uint8_t j0[AES_BLOCK];      /* pre-counter block */
    uint8_t cb[AES_BLOCK];      /* counter block of the current keystream block */
    uint8_t stream[AES_BLOCK];  /* keystream block E(K, cb) */
    int used;                   /* bytes of stream already used (16: none left) */
    ghash_ctx gh;
    uint32_t aad_len;           /* bytes of AAD taken */
    uint32_t text_len;          /* bytes of text taken */
} gcm_ctx;

int gcm_tag_len_ok(int tag_len);
void gcm_inc32(uint8_t *cb);
int gcm_init(gcm_ctx *c, const uint8_t *key, int key_len, int mult);
int gcm_derive_j0(const gcm_ctx *c, const uint8_t *iv, int iv_len, uint8_t *j0);
int gcm_gctr(const gcm_ctx *c, const uint8_t *icb, const uint8_t *in, uint8_t *out, int len);
int gcm_start(gcm_ctx *c, int decrypt, const uint8_t *iv, int iv_len);
int gcm_aad(gcm_ctx *c, const uint8_t *aad, int len);
int gcm_update(gcm_ctx *c, const uint8_t *in, uint8_t *out, int len);
int gcm_finish(gcm_ctx *c, uint8_t *tag, int tag_len);
int gcm_verify(gcm_ctx *c, const uint8_t *tag, int tag_len);
int gcm_tag_equal(const uint8_t *a, const uint8_t *b, int len);
int gcm_seal(const uint8_t *key, int key_len, int mult, const uint8_t *iv, int iv_len,
             const uint8_t *aad, int aad_len, const uint8_t *pt, int len,
             uint8_t *ct, uint8_t *tag, int tag_len);
int gcm_open(const uint8_t *key, int key_len, int mult, const uint8_t *iv, int iv_len,
             const uint8_t *aad, int aad_len, const uint8_t *ct, int len,
             const uint8_t *tag, int tag_len, uint8_t *pt);
int gcm_gmac(const uint8_t *key, int key_len, int mult, const uint8_t *iv, int iv_len,
             const uint8_t *aad, int aad_len, uint8_t *tag, int tag_len);

#endif
