/*
 * gcm.c -- the Galois/Counter Mode of NIST SP 800-38D on top of aes_core.c
 * and gf128.c.
 *
 *   H  = CIPH_K(0^128)                                   (the hash subkey)
 *   J0 = IV || 0^31 || 1                                  (96-bit IV)
 *   J0 = GHASH_H(IV || 0^(s+64) || [len(IV)]64)           (any other length)
 *   C  = GCTR_K(inc32(J0), P)
 *   S  = GHASH_H(A || 0^v || C || 0^u || [len(A)]64 || [len(C)]64)
 *   T  = MSB_t(GCTR_K(J0, S))
 *
 * The engine is streaming: gcm_start loads the IV, gcm_aad takes the AAD
 * and gcm_update the text in pieces of any size (in place allowed), and
 * gcm_finish / gcm_verify produce or check the tag.  Tags of 16, 15, 14, 13,
 * 12, 8 and 4 bytes are accepted (Sec. 5.2.1.2).  Lengths are bounded by the
 * engine's buffers (GCM_MAX_IV, GCM_MAX_AAD, GCM_MAX_TEXT).
 */
#include "aesgcm.h"

static uint32_t load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void store_be32(uint32_t v, uint8_t *p)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void copy16(uint8_t *dst, const uint8_t *src)
{
    int i;
    for (i = 0; i < AES_BLOCK; i++)
        dst[i] = src[i];
}

/* Sec. 5.2.1.2: 128, 120, 112, 104 or 96 bits, or 64 and 32 bits for
 * applications that bound their use */
int gcm_tag_len_ok(int tag_len)
{
    if (tag_len >= 12 && tag_len <= AES_BLOCK)
        return 1;
    return tag_len == 8 || tag_len == 4;
}

/* inc32: the rightmost 32 bits of the block plus one, modulo 2^32 */
void gcm_inc32(uint8_t *cb)
{
    uint32_t ctr = load_be32(cb + 12);
    ctr = ctr + 1u;
    store_be32(ctr, cb + 12);
}

int gcm_init(gcm_ctx *c, const uint8_t *key, int key_len, int mult)
{
    uint8_t zero[AES_BLOCK];
    int i;

    for (i = 0; i < AES_BLOCK; i++) {
        zero[i] = 0;
        c->j0[i] = 0;
        c->cb[i] = 0;
        c->stream[i] = 0;
    }
    c->used = AES_BLOCK;
    c->decrypt = 0;
    c->aad_len = 0;
    c->text_len = 0;
    if (aes_key_expand(&c->ks, key, key_len) != AES_OK) {
        c->state = GCM_NOKEY;
        return GCM_ERR_KEY;
    }
    aes_encrypt_block(&c->ks, zero, c->h);
    ghash_init(&c->gh, c->h, mult);
    c->state = GCM_IDLE;
    return GCM_OK;
}

/* the pre-counter block J0 of Sec. 7.1 step 2 */
int gcm_derive_j0(const gcm_ctx *c, const uint8_t *iv, int iv_len, uint8_t *j0)
{
    ghash_ctx g;
    uint64_t iv_bits;
    int i;

    if (iv_len < 1 || iv_len > GCM_MAX_IV)
        return GCM_ERR_IV;
    if (iv_len == 12) {
        for (i = 0; i < 12; i++)
            j0[i] = iv[i];
        j0[12] = 0;
        j0[13] = 0;
        j0[14] = 0;
        j0[15] = 1;
        return GCM_OK;
    }
    /* IV, zero padding to a whole block, then 0^64 || [len(IV)]64 */
    iv_bits = (uint64_t)iv_len * 8u;
    g = c->gh;
    ghash_reset(&g);
    ghash_update(&g, iv, iv_len);
    ghash_pad(&g);
    ghash_lengths(&g, 0, iv_bits);
    ghash_digest(&g, j0);
    return GCM_OK;
}

/* GCTR_K(ICB, X) of Algorithm 3; the last block may be partial */
int gcm_gctr(const gcm_ctx *c, const uint8_t *icb, const uint8_t *in, uint8_t *out, int len)
{
    uint8_t cb[AES_BLOCK], ks[AES_BLOCK];
    int off, i, n;

    if (len < 0 || len > GCM_MAX_TEXT)
        return GCM_ERR_LENGTH;
    copy16(cb, icb);
    for (off = 0; off < len; off += AES_BLOCK) {
        aes_encrypt_block(&c->ks, cb, ks);
        n = len - off;
        if (n > AES_BLOCK)
            n = AES_BLOCK;
        for (i = 0; i < n; i++)
            out[off + i] = (uint8_t)(in[off + i] ^ ks[i]);
        gcm_inc32(cb);
    }
    return GCM_OK;
}

/* ------------------------------------------------------------------ */
/* The streaming engine                                                */
/* ------------------------------------------------------------------ */

int gcm_start(gcm_ctx *c, int decrypt, const uint8_t *iv, int iv_len)
{
    int rc;

    if (c->state == GCM_NOKEY)
        return GCM_ERR_STATE;
    rc = gcm_derive_j0(c, iv, iv_len, c->j0);
    if (rc != GCM_OK)
        return rc;
    copy16(c->cb, c->j0);
    c->used = AES_BLOCK;
    ghash_reset(&c->gh);
    c->aad_len = 0;
    c->text_len = 0;
    c->decrypt = decrypt ? 1 : 0;
    c->state = GCM_AAD;
    return GCM_OK;
}

int gcm_aad(gcm_ctx *c, const uint8_t *aad, int len)
{
    if (c->state != GCM_AAD)
        return GCM_ERR_STATE;
    if (len < 0 || len > GCM_MAX_AAD - (int)c->aad_len)
        return GCM_ERR_LENGTH;
    ghash_update(&c->gh, aad, len);
    c->aad_len += (uint32_t)len;
    return GCM_OK;
}

/* encrypts or decrypts len bytes; the hash always takes the ciphertext */
int gcm_update(gcm_ctx *c, const uint8_t *in, uint8_t *out, int len)
{
    uint8_t hashed[AES_BLOCK];
    uint8_t b, o;
    int done, n, i;

    if (c->state != GCM_AAD && c->state != GCM_TEXT)
        return GCM_ERR_STATE;
    if (len < 0 || len > GCM_MAX_TEXT - (int)c->text_len)
        return GCM_ERR_LENGTH;
    if (c->state == GCM_AAD) {
        ghash_pad(&c->gh);                  /* the AAD ends here: 0^v */
        c->state = GCM_TEXT;
    }
    done = 0;
    while (done < len) {
        if (c->used == AES_BLOCK) {
            gcm_inc32(c->cb);
            aes_encrypt_block(&c->ks, c->cb, c->stream);
            c->used = 0;
        }
        n = AES_BLOCK - c->used;
        if (n > len - done)
            n = len - done;
        for (i = 0; i < n; i++) {
            b = in[done + i];               /* read before out may overwrite it */
            o = (uint8_t)(b ^ c->stream[c->used + i]);
            hashed[i] = c->decrypt ? b : o;
            out[done + i] = o;
        }
        ghash_update(&c->gh, hashed, n);
        c->used += n;
        done += n;
    }
    c->text_len += (uint32_t)len;
    return GCM_OK;
}

/* S and T = MSB_t(GCTR_K(J0, S)); the message ends */
int gcm_finish(gcm_ctx *c, uint8_t *tag, int tag_len)
{
    uint8_t s[AES_BLOCK], ekj0[AES_BLOCK];
    int i;

    if (c->state != GCM_AAD && c->state != GCM_TEXT)
        return GCM_ERR_STATE;
    if (!gcm_tag_len_ok(tag_len))
        return GCM_ERR_TAGLEN;
    ghash_pad(&c->gh);                      /* 0^v (no text) or 0^u */
    ghash_lengths(&c->gh, (uint64_t)c->aad_len * 8u, (uint64_t)c->text_len * 8u);
    ghash_digest(&c->gh, s);
    aes_encrypt_block(&c->ks, c->j0, ekj0);
    for (i = 0; i < tag_len; i++)
        tag[i] = (uint8_t)(s[i] ^ ekj0[i]);
    c->state = GCM_DONE;
    return GCM_OK;
}

/* every byte is compared, whatever the first difference */
int gcm_tag_equal(const uint8_t *a, const uint8_t *b, int len)
{
    uint8_t diff = 0;
    int i;
    for (i = 0; i < len; i++)
        diff |= (uint8_t)(a[i] ^ b[i]);
    return diff == 0;
}

/* the end of a decryption: GCM_OK when the received tag matches */
int gcm_verify(gcm_ctx *c, const uint8_t *tag, int tag_len)
{
    uint8_t expect[AES_BLOCK];
    int rc;

    if (!c->decrypt)
        return GCM_ERR_STATE;
    rc = gcm_finish(c, expect, tag_len);
    if (rc != GCM_OK)
        return rc;
    if (!gcm_tag_equal(expect, tag, tag_len))
        return GCM_AUTH_FAIL;
    return GCM_OK;
}

/* ------------------------------------------------------------------ */
/* One-shot interfaces                                                 */
/* ------------------------------------------------------------------ */

/* the checks every one-shot call makes first, in this order */
static int check_args(int tag_len, int aad_len, int len)
{
    if (!gcm_tag_len_ok(tag_len))
        return GCM_ERR_TAGLEN;
    if (aad_len < 0 || aad_len > GCM_MAX_AAD)
        return GCM_ERR_LENGTH;
    if (len < 0 || len > GCM_MAX_TEXT)
        return GCM_ERR_LENGTH;
    return GCM_OK;
}

/* GCM-AE (Algorithm 4): ciphertext and tag */
int gcm_seal(const uint8_t *key, int key_len, int mult, const uint8_t *iv, int iv_len,
             const uint8_t *aad, int aad_len, const uint8_t *pt, int len,
             uint8_t *ct, uint8_t *tag, int tag_len)
{
    gcm_ctx c;
    int rc;

    rc = check_args(tag_len, aad_len, len);
    if (rc != GCM_OK)
        return rc;
    rc = gcm_init(&c, key, key_len, mult);
    if (rc != GCM_OK)
        return rc;
    rc = gcm_start(&c, 0, iv, iv_len);
    if (rc != GCM_OK)
        return rc;
    gcm_aad(&c, aad, aad_len);
    gcm_update(&c, pt, ct, len);
    return gcm_finish(&c, tag, tag_len);
}

/* GCM-AD (Algorithm 5): the plaintext only when the tag matches; on a
 * mismatch the output is cleared and GCM_AUTH_FAIL returned */
int gcm_open(const uint8_t *key, int key_len, int mult, const uint8_t *iv, int iv_len,
             const uint8_t *aad, int aad_len, const uint8_t *ct, int len,
             const uint8_t *tag, int tag_len, uint8_t *pt)
{
    gcm_ctx c;
    int rc, i;

    rc = check_args(tag_len, aad_len, len);
    if (rc != GCM_OK)
        return rc;
    rc = gcm_init(&c, key, key_len, mult);
    if (rc != GCM_OK)
        return rc;
    rc = gcm_start(&c, 1, iv, iv_len);
    if (rc != GCM_OK)
        return rc;
    gcm_aad(&c, aad, aad_len);
    gcm_update(&c, ct, pt, len);
    rc = gcm_verify(&c, tag, tag_len);
    if (rc != GCM_OK) {
        for (i = 0; i < len; i++)
            pt[i] = 0;
    }
    return rc;
}

/* GMAC: GCM with the message in the AAD and no text */
int gcm_gmac(const uint8_t *key, int key_len, int mult, const uint8_t *iv, int iv_len,
             const uint8_t *aad, int aad_len, uint8_t *tag, int tag_len)
{
    gcm_ctx c;
    int rc;

    rc = check_args(tag_len, aad_len, 0);
    if (rc != GCM_OK)
        return rc;
    rc = gcm_init(&c, key, key_len, mult);
    if (rc != GCM_OK)
        return rc;
    rc = gcm_start(&c, 0, iv, iv_len);
    if (rc != GCM_OK)
        return rc;
    gcm_aad(&c, aad, aad_len);
    return gcm_finish(&c, tag, tag_len);
}
