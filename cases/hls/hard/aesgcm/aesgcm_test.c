/*
 * aesgcm_test.c -- test driver for the AES-GCM design (aes_core.c, gf128.c,
 * gcm.c).
 *
 * The driver belongs to the harness: it feeds the inputs and prints every
 * result the design computes (S-boxes, key schedules, round states, field
 * products, hash values, counter blocks, ciphertexts, tags, status codes and
 * recovered plaintexts, in hex).  It judges nothing itself; the harness
 * compares the printed output with that of the known-good design.
 *
 *   ./prog            the fixed vectors: FIPS-197 Appendices A and C, the
 *                     test cases of the GCM specification (McGrew and Viega,
 *                     test cases 1-18, AES-128/192/256 with 96-, 64- and
 *                     480-bit IVs), truncated tags, rejected tags, streaming
 *                     in pieces, counter wrap-around, the engine's length
 *                     limits and every error code
 *   ./prog --seed N   inputs generated from N (N >= 1) by splitmix64: random
 *                     keys of every size, IVs of 1..256 bytes, AAD and text of
 *                     0 up to the engine's maximum, every tag length (valid or
 *                     not), random pieces, tampered messages, field elements
 *                     and counters, with degenerate patterns chosen by N % 8;
 *                     then, for every N, the one-shot calls with one
 *                     argument at its edge (key, IV, tag length 0 and 1;
 *                     AAD, text and IV of 0 and 1 bytes; the largest IV)
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aesgcm.h"

#define MAXBUF (GCM_MAX_TEXT + 64)

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static void put_bytes(const char *label, const uint8_t *p, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 32 == 0)
            printf("\n ");
        printf("%02x", p[i]);
    }
    printf("\n");
}

static void put_words(const char *label, const uint32_t *w, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 8 == 0)
            printf("\n");
        printf(" %08lx", (unsigned long)w[i]);
    }
    printf("\n");
}

static void put_elem(const char *label, gf128 x)
{
    printf("%s %016llx%016llx\n", label, (unsigned long long)x.hi, (unsigned long long)x.lo);
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return 0;
}

static int hex_to_bytes(const char *hex, uint8_t *out, int max)
{
    int n = 0;
    while (hex[0] != '\0' && hex[1] != '\0' && n < max) {
        out[n++] = (uint8_t)((hexval(hex[0]) << 4) | hexval(hex[1]));
        hex += 2;
    }
    return n;
}

/* the fixed vectors' pseudo-random bytes (linear congruential generator) */
static uint32_t lcg_state;

static void lcg_fill(uint8_t *p, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        lcg_state = lcg_state * 1103515245u + 12345u;
        p[i] = (uint8_t)(lcg_state >> 24);
    }
}

/* the seeded inputs' generator (splitmix64) */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int rng_below(int n)
{
    return (int)(rng_next() % (uint64_t)n);
}

static void rng_fill(uint8_t *p, int n)
{
    int i;
    for (i = 0; i < n; i++)
        p[i] = (uint8_t)rng_next();
}

/* ------------------------------------------------------------------ */
/* Checks shared by both input sets                                    */
/* ------------------------------------------------------------------ */

/* key schedule, round states and all three block paths */
static void show_aes(const char *name, const uint8_t *key, int key_len, const uint8_t *pt, int trace)
{
    aes_key ks;
    uint8_t ct[AES_BLOCK], back[AES_BLOCK], states[AES_MAX_ROUNDS + 1][AES_BLOCK];
    char label[96];
    int rc = aes_key_expand(&ks, key, key_len);

    printf("%s.expand %d\n", name, rc);
    if (rc != AES_OK)
        return;
    printf("%s.nk %d nr %d\n", name, ks.nk, ks.nr);
    sprintf(label, "%s.w", name);
    put_words(label, ks.ek, AES_MAX_RK_WORDS);
    sprintf(label, "%s.dw", name);
    put_words(label, ks.dk, AES_MAX_RK_WORDS);
    aes_encrypt_block(&ks, pt, ct);
    sprintf(label, "%s.cipher", name);
    put_bytes(label, ct, AES_BLOCK);
    aes_decrypt_block(&ks, ct, back);
    sprintf(label, "%s.invcipher", name);
    put_bytes(label, back, AES_BLOCK);
    aes_decrypt_block_eq(&ks, ct, back);
    sprintf(label, "%s.eqinvcipher", name);
    put_bytes(label, back, AES_BLOCK);
    aes_decrypt_block(&ks, pt, back);
    sprintf(label, "%s.invcipher_of_input", name);
    put_bytes(label, back, AES_BLOCK);
    aes_decrypt_block_eq(&ks, pt, back);
    sprintf(label, "%s.eqinvcipher_of_input", name);
    put_bytes(label, back, AES_BLOCK);
    if (trace) {
        aes_encrypt_trace(&ks, pt, states);
        sprintf(label, "%s.rounds", name);
        put_bytes(label, &states[0][0], (ks.nr + 1) * AES_BLOCK);
    }
}

/* both multipliers, the shifts and the single bits on one pair */
static void show_gf(const char *name, gf128 x, gf128 y)
{
    gf128_table4 t;
    char label[96];
    int i;

    sprintf(label, "%s.x", name);
    put_elem(label, x);
    sprintf(label, "%s.y", name);
    put_elem(label, y);
    sprintf(label, "%s.bitwise", name);
    put_elem(label, gf128_mul_bitwise(x, y));
    sprintf(label, "%s.bitwise_yx", name);
    put_elem(label, gf128_mul_bitwise(y, x));
    gf128_table4_init(&t, y);
    sprintf(label, "%s.table4", name);
    put_elem(label, gf128_mul_table4(&t, x));
    sprintf(label, "%s.shr1", name);
    put_elem(label, gf128_shr1(x));
    sprintf(label, "%s.shr4", name);
    put_elem(label, gf128_shr4(x));
    printf("%s.bits ", name);
    for (i = 0; i < 128; i++)
        printf("%d", gf128_bit(x, i));
    printf("\n");
}

static void show_table4(const char *name, gf128 h)
{
    gf128_table4 t;
    char label[96];
    int i;
    gf128_table4_init(&t, h);
    for (i = 0; i < 16; i++) {
        sprintf(label, "%s.m%d", name, i);
        put_elem(label, t.m[i]);
    }
}

/* GHASH over nblocks whole blocks three ways */
static void show_ghash(const char *name, const uint8_t *h, const uint8_t *x, int nblocks)
{
    uint8_t out[AES_BLOCK];
    char label[96];

    ghash_blocks(h, GF_BITWISE, x, nblocks, out);
    sprintf(label, "%s.ghash_bitwise", name);
    put_bytes(label, out, AES_BLOCK);
    ghash_blocks(h, GF_TABLE4, x, nblocks, out);
    sprintf(label, "%s.ghash_table4", name);
    put_bytes(label, out, AES_BLOCK);
    ghash_agg4(h, x, nblocks, out);
    sprintf(label, "%s.ghash_agg4", name);
    put_bytes(label, out, AES_BLOCK);
}

/* the streaming hash fed in pieces, with the padding and lengths of GCM */
static void show_ghash_stream(const char *name, const uint8_t *h, int mult, const uint8_t *a, int alen,
                              const uint8_t *c, int clen, const int *pieces, int npieces)
{
    ghash_ctx g;
    uint8_t out[AES_BLOCK];
    char label[96];
    int off, k, n;

    ghash_init(&g, h, mult);
    printf("%s.ghash_mult %d selects %d\n", name, mult, g.mult);
    off = 0;
    for (k = 0; off < alen; k++) {
        n = pieces[k % npieces];
        if (n > alen - off)
            n = alen - off;
        ghash_update(&g, a + off, n);
        off += n;
    }
    ghash_pad(&g);
    off = 0;
    for (k = 0; off < clen; k++) {
        n = pieces[(k + 1) % npieces];
        if (n > clen - off)
            n = clen - off;
        ghash_update(&g, c + off, n);
        off += n;
    }
    ghash_pad(&g);
    printf("%s.blocks_before_lengths %lu npart %d\n", name, (unsigned long)g.blocks, g.npart);
    ghash_lengths(&g, (uint64_t)alen * 8u, (uint64_t)clen * 8u);
    ghash_digest(&g, out);
    sprintf(label, "%s.ghash_stream%d", name, mult);
    put_bytes(label, out, AES_BLOCK);
}

/* the hash subkey, J0 and the first counter blocks of one key and IV */
static void show_setup(const char *name, const uint8_t *key, int key_len, int mult, const uint8_t *iv,
                       int iv_len)
{
    gcm_ctx c;
    uint8_t j0[AES_BLOCK];
    char label[96];
    int rc = gcm_init(&c, key, key_len, mult);

    printf("%s.init %d state %d\n", name, rc, c.state);
    printf("%s.init_fields used %d decrypt %d aad_len %lu text_len %lu mult %d\n", name, c.used, c.decrypt,
           (unsigned long)c.aad_len, (unsigned long)c.text_len, rc == GCM_OK ? c.gh.mult : -9);
    sprintf(label, "%s.init_blocks", name);
    put_bytes(label, c.j0, AES_BLOCK);
    put_bytes(label, c.cb, AES_BLOCK);
    put_bytes(label, c.stream, AES_BLOCK);
    if (rc != GCM_OK)
        return;
    sprintf(label, "%s.H", name);
    put_bytes(label, c.h, AES_BLOCK);
    rc = gcm_derive_j0(&c, iv, iv_len, j0);
    printf("%s.j0_rc %d\n", name, rc);
    if (rc != GCM_OK)
        return;
    sprintf(label, "%s.J0", name);
    put_bytes(label, j0, AES_BLOCK);
    gcm_inc32(j0);
    sprintf(label, "%s.inc32_J0", name);
    put_bytes(label, j0, AES_BLOCK);
}

/* one-shot seal, then open with the right tag, a damaged tag, and every
 * shorter tag length (valid or not) */
static void show_gcm(const char *name, const uint8_t *key, int key_len, int mult, const uint8_t *iv,
                     int iv_len, const uint8_t *aad, int aad_len, const uint8_t *pt, int len, int tag_len)
{
    static uint8_t ct[MAXBUF], back[MAXBUF];
    uint8_t tag[AES_BLOCK], bad[AES_BLOCK];
    char label[96];
    int rc, t, i;

    memset(tag, 0xa5, sizeof tag);
    rc = gcm_seal(key, key_len, mult, iv, iv_len, aad, aad_len, pt, len, ct, tag, tag_len);
    printf("%s.seal %d\n", name, rc);
    if (rc != GCM_OK)
        return;
    sprintf(label, "%s.C", name);
    put_bytes(label, ct, len);
    sprintf(label, "%s.T", name);
    put_bytes(label, tag, tag_len);

    memset(back, 0x5a, (size_t)len);
    rc = gcm_open(key, key_len, mult, iv, iv_len, aad, aad_len, ct, len, tag, tag_len, back);
    printf("%s.open %d\n", name, rc);
    sprintf(label, "%s.P", name);
    put_bytes(label, back, len);

    for (i = 0; i < tag_len; i++) {
        memcpy(bad, tag, AES_BLOCK);
        bad[i] ^= (uint8_t)(1u << (i % 8));
        memset(back, 0x5a, (size_t)len);
        rc = gcm_open(key, key_len, mult, iv, iv_len, aad, aad_len, ct, len, bad, tag_len, back);
        printf("%s.open_badtag%d %d", name, i, rc);
        printf(" cleared %d\n", len == 0 || (back[0] == 0 && back[len - 1] == 0));
    }
    if (len > 0) {
        ct[len - 1] ^= 0x80;
        memset(back, 0x5a, (size_t)len);
        rc = gcm_open(key, key_len, mult, iv, iv_len, aad, aad_len, ct, len, tag, tag_len, back);
        sprintf(label, "%s.open_badct %d P", name, rc);
        put_bytes(label, back, len);
        ct[len - 1] ^= 0x80;
    }
    /* the same message with every other tag length */
    for (t = 0; t <= AES_BLOCK + 1; t++) {
        uint8_t tt[AES_BLOCK + 2];
        if (t == tag_len)
            continue;
        memset(tt, 0xa5, sizeof tt);
        rc = gcm_seal(key, key_len, mult, iv, iv_len, aad, aad_len, pt, len, ct, tt, t);
        printf("%s.seal_t%d %d", name, t, rc);
        if (rc == GCM_OK) {
            for (i = 0; i < t; i++)
                printf("%s%02x", i ? "" : " ", tt[i]);
            rc = gcm_open(key, key_len, mult, iv, iv_len, aad, aad_len, ct, len, tt, t, back);
            printf(" open %d", rc);
            /* a short tag is a prefix of the full one: checking it against
             * a longer length reads the seal's own tag bytes */
            rc = gcm_open(key, key_len, mult, iv, iv_len, aad, aad_len, ct, len, tag, t, back);
            printf(" open_fulltag %d", rc);
        }
        printf("\n");
    }
}

/* the streaming engine in pieces; decrypts in place */
static void show_stream(const char *name, const uint8_t *key, int key_len, int mult, const uint8_t *iv,
                        int iv_len, const uint8_t *aad, int aad_len, const uint8_t *pt, int len,
                        const int *pieces, int npieces, int tag_len, int decrypt_flag)
{
    static uint8_t buf[MAXBUF];
    gcm_ctx c;
    uint8_t tag[AES_BLOCK], tag2[AES_BLOCK];
    char label[96];
    int off, k, n, rc;

    rc = gcm_init(&c, key, key_len, mult);
    printf("%s.stream_init %d\n", name, rc);
    if (rc != GCM_OK)
        return;
    rc = gcm_start(&c, 0, iv, iv_len);
    printf("%s.stream_start %d state %d used %d decrypt %d\n", name, rc, c.state, c.used, c.decrypt);
    if (rc != GCM_OK)
        return;
    off = 0;
    for (k = 0; off < aad_len; k++) {
        n = pieces[k % npieces];
        if (n > aad_len - off)
            n = aad_len - off;
        rc = gcm_aad(&c, aad + off, n);
        if (rc != GCM_OK)
            printf("%s.stream_aad %d at %d\n", name, rc, off);
        off += n;
    }
    printf("%s.stream_aad_len %lu npart %d\n", name, (unsigned long)c.aad_len, c.gh.npart);
    memcpy(buf, pt, (size_t)len);
    off = 0;
    for (k = 0; off < len; k++) {
        n = pieces[(k + 3) % npieces];
        if (n > len - off)
            n = len - off;
        rc = gcm_update(&c, buf + off, buf + off, n);
        if (rc != GCM_OK)
            printf("%s.stream_update %d at %d\n", name, rc, off);
        off += n;
    }
    printf("%s.stream_text_len %lu used %d state %d\n", name, (unsigned long)c.text_len, c.used, c.state);
    sprintf(label, "%s.stream_cb", name);
    put_bytes(label, c.cb, AES_BLOCK);
    sprintf(label, "%s.stream_C", name);
    put_bytes(label, buf, len);
    memset(tag, 0xa5, sizeof tag);
    rc = gcm_finish(&c, tag, tag_len);
    printf("%s.stream_finish %d state %d\n", name, rc, c.state);
    sprintf(label, "%s.stream_T", name);
    put_bytes(label, tag, tag_len);
    rc = gcm_finish(&c, tag2, tag_len);
    printf("%s.stream_finish_again %d\n", name, rc);
    rc = gcm_update(&c, buf, buf, 1);
    printf("%s.stream_update_after_finish %d\n", name, rc);

    /* decrypt in place, pieces in another order, AAD after text refused */
    rc = gcm_start(&c, decrypt_flag, iv, iv_len);
    printf("%s.stream_restart %d state %d decrypt %d used %d\n", name, rc, c.state, c.decrypt, c.used);
    rc = gcm_aad(&c, aad, aad_len);
    printf("%s.stream_dec_aad %d\n", name, rc);
    off = 0;
    for (k = 0; off < len; k++) {
        n = pieces[(npieces - 1 - k % npieces)];
        if (n > len - off)
            n = len - off;
        gcm_update(&c, buf + off, buf + off, n);
        off += n;
    }
    rc = gcm_aad(&c, aad, 1);
    printf("%s.stream_aad_after_text %d\n", name, rc);
    sprintf(label, "%s.stream_P", name);
    put_bytes(label, buf, len);
    rc = gcm_verify(&c, tag, tag_len);
    printf("%s.stream_verify %d state %d\n", name, rc, c.state);
}

static void show_counter(const char *name, const uint8_t *cb0, int steps)
{
    uint8_t cb[AES_BLOCK];
    char label[64];
    int i;
    memcpy(cb, cb0, AES_BLOCK);
    for (i = 0; i < steps; i++)
        gcm_inc32(cb);
    sprintf(label, "%s.inc32x%d", name, steps);
    put_bytes(label, cb, AES_BLOCK);
}

static void show_gctr(const char *name, const uint8_t *key, int key_len, const uint8_t *icb,
                      const uint8_t *in, int len)
{
    static uint8_t out[MAXBUF];
    gcm_ctx c;
    char label[64];
    int rc;
    gcm_init(&c, key, key_len, GF_BITWISE);
    memset(out, 0x3c, (size_t)(len > 0 ? len : 1) + 1);
    rc = gcm_gctr(&c, icb, in, out, len);
    printf("%s.gctr %d\n", name, rc);
    if (rc != GCM_OK)
        return;
    sprintf(label, "%s.gctr_out", name);
    put_bytes(label, out, len + 1);                 /* and the byte after it */
}

static void show_tag_equal(const char *name, const uint8_t *a, const uint8_t *b, int len)
{
    printf("%s.tag_equal %d\n", name, gcm_tag_equal(a, b, len));
}

/* ------------------------------------------------------------------ */
/* The fixed vectors                                                   */
/* ------------------------------------------------------------------ */

/* FIPS-197 Appendix C keys and plaintext, Appendix A keys */
static const char *fips_key[3] = {
    "000102030405060708090a0b0c0d0e0f",
    "000102030405060708090a0b0c0d0e0f1011121314151617",
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
};
static const char *fips_plain = "00112233445566778899aabbccddeeff";
static const char *appa_key[3] = {
    "2b7e151628aed2a6abf7158809cf4f3c",
    "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
};

/* the GCM specification's test cases: keys, plaintexts, AAD and IVs */
static const char *gcm_key_zero = "0000000000000000000000000000000000000000000000000000000000000000";
static const char *gcm_key_f =
    "feffe9928665731c6d6a8f9467308308" "feffe9928665731c6d6a8f9467308308";
static const char *gcm_plain =
    "d9313225f88406e5a55909c5aff5269a" "86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525" "b16aedf5aa0de657ba637b391aafd255";
static const char *gcm_aad_hex = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
static const char *gcm_iv96 = "cafebabefacedbaddecaf888";
static const char *gcm_iv64 = "cafebabefacedbad";
static const char *gcm_iv480 =
    "9313225df88406e555909c5aff5269aa" "6a7a9538534f7da1e4c303d2a318a728"
    "c3c0c95156809539fcf0e2429a6b5254" "16aedbf5a0de6a57a637b39b";

static void fixed_aes(void)
{
    static uint8_t xt[256], inv[256], sb[256], isb[256], aff[256];
    uint8_t key[32], pt[16];
    char name[64];
    int v, k, i;

    aes_init();
    for (v = 0; v < 256; v++) {
        xt[v] = aes_xtime((uint8_t)v);
        inv[v] = aes_gf8_inv((uint8_t)v);
        sb[v] = aes_sbox((uint8_t)v);
        isb[v] = aes_inv_sbox((uint8_t)v);
        aff[v] = aes_affine((uint8_t)v);
    }
    put_bytes("xtime", xt, 256);
    put_bytes("gf8_inv", inv, 256);
    put_bytes("affine", aff, 256);
    put_bytes("sbox", sb, 256);
    put_bytes("inv_sbox", isb, 256);
    printf("gf8_mul 57*83 %02x 57*13 %02x 83*57 %02x ff*ff %02x 00*ff %02x\n", aes_gf8_mul(0x57, 0x83),
           aes_gf8_mul(0x57, 0x13), aes_gf8_mul(0x83, 0x57), aes_gf8_mul(0xff, 0xff), aes_gf8_mul(0x00, 0xff));

    hex_to_bytes(fips_plain, pt, 16);
    for (k = 0; k < 3; k++) {
        sprintf(name, "fips197.c%d", k + 1);
        hex_to_bytes(fips_key[k], key, 32);
        show_aes(name, key, 16 + 8 * k, pt, 1);
        sprintf(name, "fips197.a%d", k + 1);
        hex_to_bytes(appa_key[k], key, 32);
        show_aes(name, key, 16 + 8 * k, pt, 0);
    }
    for (k = 0; k < 8; k++) {
        static const int bad_len[8] = { 0, 1, 15, 17, 20, 28, 33, -16 };
        sprintf(name, "aes.keylen%d", bad_len[k]);
        show_aes(name, key, bad_len[k], pt, 0);
    }
    lcg_state = 0x5eedu;
    for (i = 0; i < 36; i++) {
        lcg_fill(key, 32);
        lcg_fill(pt, 16);
        sprintf(name, "aes.random%d", i);
        show_aes(name, key, 16 + 8 * (i % 3), pt, i < 6);
    }
}

static gf128 elem(uint64_t hi, uint64_t lo)
{
    gf128 x;
    x.hi = hi;
    x.lo = lo;
    return x;
}

static void fixed_gf128(void)
{
    static uint8_t x[16 * 12];
    uint8_t h[16], buf[16];
    gf128 a, b, one = elem(0x8000000000000000ull, 0), hx;
    char name[64];
    int i, n;

    for (i = 0; i < 16; i++)
        printf("reduce4 %d %04x\n", i, gf128_reduce4(i));
    /* the hash subkey of GCM test cases 3-6 */
    hex_to_bytes("b83b533708bf535d0aa6e52980d53b78", h, 16);
    hx = gf128_load(h);
    gf128_store(hx, buf);
    put_bytes("gf.load_store", buf, 16);
    show_table4("gf.tc3", hx);
    show_gf("gf.zero", elem(0, 0), hx);
    show_gf("gf.one", one, hx);
    show_gf("gf.h_one", hx, one);
    show_gf("gf.x", elem(0x4000000000000000ull, 0), hx);
    show_gf("gf.x127", elem(0, 1), hx);
    show_gf("gf.x127_x127", elem(0, 1), elem(0, 1));
    show_gf("gf.x63", elem(1, 0), elem(0, 0x8000000000000000ull));
    show_gf("gf.ones", elem(~0ull, ~0ull), elem(~0ull, ~0ull));
    show_gf("gf.ones_h", elem(~0ull, ~0ull), hx);
    show_gf("gf.low_nibbles", elem(0x0f0f0f0f0f0f0f0full, 0x0f0f0f0f0f0f0f0full), hx);
    show_gf("gf.high_nibbles", elem(0xf0f0f0f0f0f0f0f0ull, 0xf0f0f0f0f0f0f0f0ull), hx);
    lcg_state = 0x6f28u;
    for (i = 0; i < 12; i++) {
        uint8_t r[32];
        lcg_fill(r, 32);
        a = gf128_load(r);
        b = gf128_load(r + 16);
        sprintf(name, "gf.random%d", i);
        show_gf(name, a, b);
    }
    {
        static const uint32_t exps[9] = { 0, 1, 2, 3, 7, 128, 0xfffffffeu, 0xffffffffu, 0x80000001u };
        for (i = 0; i < 9; i++) {
            sprintf(name, "gf.pow_h_%lu", (unsigned long)exps[i]);
            put_elem(name, gf128_pow(hx, exps[i]));
        }
        put_elem("gf.pow_x_128", gf128_pow(elem(0x4000000000000000ull, 0), 128));
        put_elem("gf.pow_zero_0", gf128_pow(elem(0, 0), 0));
    }
    /* GHASH over 0..12 blocks, three ways */
    lcg_state = 0x7a11u;
    lcg_fill(x, (int)sizeof x);
    for (n = 0; n <= 12; n++) {
        sprintf(name, "ghash.n%d", n);
        show_ghash(name, h, x, n);
    }
    {
        gf128 pw[4];
        ghash_powers(h, pw);
        for (i = 0; i < 4; i++) {
            sprintf(name, "ghash.power%d", i + 1);
            put_elem(name, pw[i]);
        }
    }
}

static void fixed_gcm_cases(void)
{
    static uint8_t key[32], pt[64], aad[20], iv96[12], iv64[8], iv480[60];
    static const int key_len[3] = { 16, 24, 32 };
    char name[64];
    int ks, mult, tc;

    hex_to_bytes(gcm_plain, pt, 64);
    hex_to_bytes(gcm_aad_hex, aad, 20);
    hex_to_bytes(gcm_iv96, iv96, 12);
    hex_to_bytes(gcm_iv64, iv64, 8);
    hex_to_bytes(gcm_iv480, iv480, 60);
    for (ks = 0; ks < 3; ks++) {
        for (mult = 0; mult < 2; mult++) {
            /* test cases 1 and 2 (7, 8; 13, 14): the zero key */
            tc = 6 * ks + 1;
            hex_to_bytes(gcm_key_zero, key, 32);
            {
                uint8_t zero[16];
                memset(zero, 0, 16);
                sprintf(name, "gcm.tc%d.m%d", tc, mult);
                show_setup(name, key, key_len[ks], mult, zero, 12);
                show_gcm(name, key, key_len[ks], mult, zero, 12, aad, 0, pt, 0, 16);
                sprintf(name, "gcm.tc%d.m%d", tc + 1, mult);
                show_gcm(name, key, key_len[ks], mult, zero, 12, aad, 0, zero, 16, 16);
            }
            /* test cases 3-6 (9-12; 15-18) */
            hex_to_bytes(gcm_key_f, key, 32);
            sprintf(name, "gcm.tc%d.m%d", tc + 2, mult);
            show_setup(name, key, key_len[ks], mult, iv96, 12);
            show_gcm(name, key, key_len[ks], mult, iv96, 12, aad, 0, pt, 64, 16);
            sprintf(name, "gcm.tc%d.m%d", tc + 3, mult);
            show_gcm(name, key, key_len[ks], mult, iv96, 12, aad, 20, pt, 60, 16);
            sprintf(name, "gcm.tc%d.m%d", tc + 4, mult);
            show_setup(name, key, key_len[ks], mult, iv64, 8);
            show_gcm(name, key, key_len[ks], mult, iv64, 8, aad, 20, pt, 60, 16);
            sprintf(name, "gcm.tc%d.m%d", tc + 5, mult);
            show_setup(name, key, key_len[ks], mult, iv480, 60);
            show_gcm(name, key, key_len[ks], mult, iv480, 60, aad, 20, pt, 60, 16);
        }
    }
    /* the hash of test case 4 through the streaming GHASH, in pieces */
    {
        static const int pieces[5] = { 1, 16, 7, 33, 5 };
        uint8_t h[16], ct[64], tag[16];
        gcm_ctx c;
        hex_to_bytes(gcm_key_f, key, 32);
        gcm_init(&c, key, 16, GF_BITWISE);
        memcpy(h, c.h, 16);
        gcm_seal(key, 16, GF_BITWISE, iv96, 12, aad, 20, pt, 60, ct, tag, 16);
        show_ghash_stream("gcm.tc4", h, GF_BITWISE, aad, 20, ct, 60, pieces, 5);
        show_ghash_stream("gcm.tc4", h, GF_TABLE4, aad, 20, ct, 60, pieces, 5);
    }
}

static void fixed_streams(void)
{
    static uint8_t key[32], pt[MAXBUF], aad[GCM_MAX_AAD + 16], iv[GCM_MAX_IV + 16];
    static const int pieces_a[6] = { 1, 15, 16, 17, 0, 31 };
    static const int pieces_b[3] = { 16, 32, 48 };
    static const int pieces_c[4] = { 3, 64, 13, 200 };
    char name[64];
    int i;

    lcg_state = 0x51a7u;
    lcg_fill(key, 32);
    lcg_fill(pt, MAXBUF);
    lcg_fill(aad, (int)sizeof aad);
    lcg_fill(iv, (int)sizeof iv);
    show_stream("stream.a", key, 16, GF_BITWISE, iv, 12, aad, 45, pt, 100, pieces_a, 6, 16, 1);
    show_stream("stream.b", key, 24, GF_TABLE4, iv, 16, aad, 32, pt, 96, pieces_b, 3, 12, 7);
    show_stream("stream.c", key, 32, GF_TABLE4, iv, 1, aad, 0, pt, 1000, pieces_c, 4, 8, -1);
    show_stream("stream.d", key, 16, GF_TABLE4, iv, 13, aad, 17, pt, 0, pieces_a, 6, 4, 1);
    show_stream("stream.e", key, 32, GF_BITWISE, iv, 255, aad, 1, pt, 1, pieces_a, 6, 13, 2);
    show_stream("stream.max", key, 16, GF_TABLE4, iv, GCM_MAX_IV, aad, GCM_MAX_AAD, pt, GCM_MAX_TEXT,
                pieces_c, 4, 16, 1);
    show_stream("stream.badtag", key, 16, GF_BITWISE, iv, 12, aad, 10, pt, 20, pieces_a, 6, 7, 1);
    show_stream("stream.badkey", key, 20, GF_BITWISE, iv, 12, aad, 10, pt, 20, pieces_a, 6, 16, 1);
    show_stream("stream.badiv", key, 16, GF_BITWISE, iv, 0, aad, 10, pt, 20, pieces_a, 6, 16, 1);

    /* one-shot calls over the length boundaries */
    for (i = 0; i < 12; i++) {
        static const int lens[12] = { 0, 1, 15, 16, 17, 31, 32, 33, 255, 1023, GCM_MAX_TEXT - 1, GCM_MAX_TEXT };
        sprintf(name, "len%d", lens[i]);
        show_gcm(name, key, 16 + 8 * (i % 3), i % 2, iv, 1 + (i * 37) % GCM_MAX_IV, aad,
                 (i * 181) % (GCM_MAX_AAD + 1), pt, lens[i], (i % 2) ? 16 : 12);
    }
    show_gcm("iv1", key, 16, GF_TABLE4, iv, 1, aad, 0, pt, 40, 16);
    show_gcm("iv16", key, 16, GF_TABLE4, iv, 16, aad, 16, pt, 40, 16);
    show_gcm("iv17", key, 24, GF_BITWISE, iv, 17, aad, 3, pt, 40, 16);
    show_gcm("iv11", key, 32, GF_BITWISE, iv, 11, aad, 3, pt, 40, 15);
    show_gcm("iv13", key, 32, GF_TABLE4, iv, 13, aad, 3, pt, 40, 14);
    show_gcm("ivmax", key, 32, GF_TABLE4, iv, GCM_MAX_IV, aad, 1, pt, 2, 16);
    show_gcm("aadmax", key, 24, GF_TABLE4, iv, 12, aad, GCM_MAX_AAD, pt, 0, 16);
}

static void fixed_errors(void)
{
    static uint8_t key[32], buf[MAXBUF], out[MAXBUF], iv[GCM_MAX_IV + 2];
    uint8_t tag[AES_BLOCK + 2];
    gcm_ctx c;
    int rc, t;

    lcg_state = 0xe770u;
    lcg_fill(key, 32);
    lcg_fill(buf, MAXBUF);
    lcg_fill(iv, (int)sizeof iv);
    for (t = -2; t <= 18; t++)
        printf("tag_len_ok %d %d\n", t, gcm_tag_len_ok(t));
    rc = gcm_seal(key, 16, 0, iv, 0, buf, 0, buf, 16, out, tag, 16);
    printf("err.seal_iv0 %d\n", rc);
    rc = gcm_seal(key, 16, 0, iv, GCM_MAX_IV + 1, buf, 0, buf, 16, out, tag, 16);
    printf("err.seal_iv_max+1 %d\n", rc);
    rc = gcm_seal(key, 16, 0, iv, -1, buf, 0, buf, 16, out, tag, 16);
    printf("err.seal_iv-1 %d\n", rc);
    rc = gcm_seal(key, 12, 0, iv, 12, buf, 0, buf, 16, out, tag, 16);
    printf("err.seal_key12 %d\n", rc);
    rc = gcm_seal(key, 16, 0, iv, 12, buf, GCM_MAX_AAD + 1, buf, 16, out, tag, 16);
    printf("err.seal_aad_max+1 %d\n", rc);
    rc = gcm_seal(key, 16, 0, iv, 12, buf, -1, buf, 16, out, tag, 16);
    printf("err.seal_aad-1 %d\n", rc);
    rc = gcm_seal(key, 16, 0, iv, 12, buf, 0, buf, GCM_MAX_TEXT + 1, out, tag, 16);
    printf("err.seal_text_max+1 %d\n", rc);
    rc = gcm_seal(key, 16, 0, iv, 12, buf, 0, buf, -5, out, tag, 16);
    printf("err.seal_text-5 %d\n", rc);
    rc = gcm_seal(key, 16, 0, iv, 0, buf, 0, buf, -5, out, tag, 3);
    printf("err.seal_all_bad %d\n", rc);
    rc = gcm_seal(key, 17, 0, iv, 0, buf, 0, buf, 5, out, tag, 16);
    printf("err.seal_key_and_iv %d\n", rc);
    rc = gcm_open(key, 16, 0, iv, 12, buf, 0, buf, 16, tag, 11, out);
    printf("err.open_tag11 %d\n", rc);
    rc = gcm_open(key, 32, 0, iv, 300, buf, 0, buf, 16, tag, 16, out);
    printf("err.open_iv300 %d\n", rc);
    rc = gcm_open(key, 8, 0, iv, 12, buf, 0, buf, 16, tag, 16, out);
    printf("err.open_key8 %d\n", rc);
    rc = gcm_gmac(key, 16, 0, iv, 12, buf, GCM_MAX_AAD + 1, tag, 16);
    printf("err.gmac_aad_max+1 %d\n", rc);
    rc = gcm_gmac(key, 16, 1, iv, 12, buf, GCM_MAX_AAD, tag, 16);
    printf("gmac_aad_max %d", rc);
    put_bytes(" T", tag, 16);
    rc = gcm_gmac(key, 24, 0, iv, 7, buf, 0, tag, 4);
    printf("gmac_empty %d", rc);
    put_bytes(" T", tag, 4);
    rc = gcm_gmac(key, 24, 0, iv, 7, buf, 0, tag, 5);
    printf("err.gmac_tag5 %d\n", rc);

    rc = gcm_init(&c, key, 40, GF_BITWISE);
    printf("err.ctx_init40 %d state %d\n", rc, c.state);
    rc = gcm_start(&c, 0, iv, 12);
    printf("err.ctx_start_nokey %d\n", rc);
    rc = gcm_init(&c, key, 32, GF_TABLE4);
    printf("ctx.init %d state %d\n", rc, c.state);
    rc = gcm_aad(&c, buf, 4);
    printf("err.ctx_aad_idle %d\n", rc);
    rc = gcm_update(&c, buf, out, 4);
    printf("err.ctx_update_idle %d\n", rc);
    rc = gcm_finish(&c, tag, 16);
    printf("err.ctx_finish_idle %d\n", rc);
    rc = gcm_start(&c, 0, iv, GCM_MAX_IV + 1);
    printf("err.ctx_start_iv %d state %d\n", rc, c.state);
    rc = gcm_start(&c, 0, iv, 12);
    printf("ctx.start %d\n", rc);
    rc = gcm_aad(&c, buf, GCM_MAX_AAD - 10);
    printf("ctx.aad %d\n", rc);
    rc = gcm_aad(&c, buf, 11);
    printf("err.ctx_aad_over %d len %lu\n", rc, (unsigned long)c.aad_len);
    rc = gcm_aad(&c, buf, 10);
    printf("ctx.aad_to_max %d len %lu\n", rc, (unsigned long)c.aad_len);
    rc = gcm_aad(&c, buf, -1);
    printf("err.ctx_aad_neg %d\n", rc);
    rc = gcm_update(&c, buf, out, GCM_MAX_TEXT - 3);
    printf("ctx.update %d\n", rc);
    rc = gcm_update(&c, buf, out + GCM_MAX_TEXT - 3, 4);
    printf("err.ctx_update_over %d len %lu\n", rc, (unsigned long)c.text_len);
    rc = gcm_update(&c, buf, out + GCM_MAX_TEXT - 3, 3);
    printf("ctx.update_to_max %d len %lu\n", rc, (unsigned long)c.text_len);
    rc = gcm_update(&c, buf, out, -2);
    printf("err.ctx_update_neg %d\n", rc);
    rc = gcm_verify(&c, tag, 16);
    printf("err.ctx_verify_encrypting %d\n", rc);
    rc = gcm_finish(&c, tag, 6);
    printf("err.ctx_finish_tag6 %d state %d\n", rc, c.state);
    rc = gcm_finish(&c, tag, 16);
    printf("ctx.finish %d state %d\n", rc, c.state);
    put_bytes("ctx.T", tag, 16);
    put_bytes("ctx.C_tail", out + GCM_MAX_TEXT - 40, 40);
    rc = gcm_aad(&c, buf, 1);
    printf("err.ctx_aad_done %d\n", rc);
    rc = gcm_start(&c, 1, iv, 12);
    printf("ctx.restart %d\n", rc);
    rc = gcm_update(&c, out, out, GCM_MAX_TEXT);
    printf("ctx.redecrypt %d\n", rc);
    rc = gcm_verify(&c, tag, 16);
    printf("ctx.verify_without_aad %d\n", rc);
    put_bytes("ctx.P_tail", out + GCM_MAX_TEXT - 40, 40);
}

static void fixed_counters(void)
{
    static uint8_t key[32], pt[600];
    uint8_t cb[16];
    static const char *ctrs[6] = {
        "000102030405060708090a0bfffffffe", "000102030405060708090a0bffffffff",
        "ffffffffffffffffffffffff0000ffff", "0000000000000000000000007fffffff",
        "cafebabefacedbaddecaf88800ffffff", "ffffffffffffffffffffffffffffffff"
    };
    char name[32];
    int i;

    lcg_state = 0xc0deu;
    lcg_fill(key, 32);
    lcg_fill(pt, 600);
    for (i = 0; i < 6; i++) {
        hex_to_bytes(ctrs[i], cb, 16);
        sprintf(name, "ctr%d", i);
        show_counter(name, cb, 1);
        show_counter(name, cb, 3);
        show_counter(name, cb, 300);
        show_gctr(name, key, 16 + 8 * (i % 3), cb, pt, 16 * i + (i % 4));
    }
    show_gctr("ctr.max", key, 32, cb, pt, 600);
    show_gctr("ctr.over", key, 32, cb, pt, GCM_MAX_TEXT + 1);
    show_gctr("ctr.neg", key, 32, cb, pt, -1);
    /* a 64-bit IV whose J0 the streaming engine then counts from */
    {
        static const int pieces[3] = { 5, 11, 16 };
        hex_to_bytes(gcm_iv64, cb, 8);
        show_stream("ctr.iv64", key, 16, GF_BITWISE, cb, 8, pt, 3, pt, 333, pieces, 3, 16, 3);
    }
}

static void fixed_tag_compare(void)
{
    uint8_t a[16], b[16];
    int i;
    lcg_state = 0x7a9u;
    lcg_fill(a, 16);
    memcpy(b, a, 16);
    show_tag_equal("cmp.same16", a, b, 16);
    show_tag_equal("cmp.same0", a, b, 0);
    show_tag_equal("cmp.negative", a, b, -1);
    show_tag_equal("cmp.negative_min", a, b, -2147483647 - 1);
    b[15] ^= 0x01;
    show_tag_equal("cmp.last", a, b, 16);
    show_tag_equal("cmp.last_outside", a, b, 15);
    b[15] ^= 0x01;
    b[0] ^= 0x80;
    show_tag_equal("cmp.first", a, b, 16);
    b[3] ^= 0x80;
    show_tag_equal("cmp.two_same_bit", a, b, 16);
    b[0] ^= 0x80;
    b[3] ^= 0x80;
    for (i = 0; i < 16; i++)
        b[i] ^= 0x11;
    show_tag_equal("cmp.all", a, b, 16);
    memcpy(b, a, 16);
    b[5] ^= 0x0f;
    b[6] ^= 0xf0;
    show_tag_equal("cmp.nibbles", a, b, 16);
}

static void run_fixed(void)
{
    fixed_aes();
    fixed_gf128();
    fixed_gcm_cases();
    fixed_streams();
    fixed_errors();
    fixed_counters();
    fixed_tag_compare();
}

/* ------------------------------------------------------------------ */
/* Seeded inputs                                                       */
/* ------------------------------------------------------------------ */

/* fills p with the seed's pattern: 0, 6, 7 random, 1 zeros, 2 all ones,
 * 3 one repeated byte, 4 alternating bytes, 5 a single set bit */
static void pattern_fill(int pattern, uint8_t *p, int n)
{
    uint8_t a = (uint8_t)rng_next(), b = (uint8_t)~a;
    int i;
    switch (pattern) {
    case 1: memset(p, 0x00, (size_t)n); break;
    case 2: memset(p, 0xff, (size_t)n); break;
    case 3: memset(p, a, (size_t)n); break;
    case 4:
        for (i = 0; i < n; i++)
            p[i] = (i & 1) ? b : a;
        break;
    case 5:
        memset(p, 0, (size_t)n);
        if (n > 0) {
            int at = rng_below(n);
            p[at] = (uint8_t)(1u << rng_below(8));
        }
        break;
    default: rng_fill(p, n); break;
    }
}

/* a length in 0..max: the boundaries, short ones and anything up to max */
static int pick_length(int max)
{
    switch (rng_below(8)) {
    case 0: return 0;
    case 1: return 1 + rng_below(2);
    case 2: return max - rng_below(2);
    case 3: {
        int blocks = 1 + rng_below(4);
        return AES_BLOCK * blocks + rng_below(3) - 1;
    }
    case 4: return rng_below(AES_BLOCK * 4);
    default: return rng_below(max + 1);
    }
}

static int pick_iv_length(void)
{
    static const int menu[8] = { 12, 12, 1, 16, 8, 60, GCM_MAX_IV, 11 };
    int r = rng_below(4);
    if (r == 0)
        return menu[rng_below(8)];
    if (r == 1)
        return 12;
    return 1 + rng_below(GCM_MAX_IV);
}

static int pick_tag_length(void)
{
    static const int valid[7] = { 16, 15, 14, 13, 12, 8, 4 };
    if (rng_below(6) == 0)
        return rng_below(20) - 1;                  /* -1 .. 18, mostly invalid */
    return valid[rng_below(7)];
}

static gf128 pick_elem(int pattern)
{
    uint8_t b[16];
    gf128 x;
    switch (rng_below(6)) {
    case 0:
        x.hi = 0;
        x.lo = 0;
        if (rng_below(2))
            x.hi = 1ull << rng_below(64);
        else
            x.lo = 1ull << rng_below(64);
        return x;
    case 1:
        pattern_fill(pattern, b, 16);
        return gf128_load(b);
    default:
        rng_fill(b, 16);
        return gf128_load(b);
    }
}

static void seeded_aes(int pattern)
{
    uint8_t key[32], pt[16];
    char name[64];
    int i;
    for (i = 0; i < 6; i++) {
        pattern_fill(i < 3 ? pattern : 0, key, 32);
        pattern_fill(i % 2 ? pattern : 0, pt, 16);
        sprintf(name, "aes%d", i);
        show_aes(name, key, i < 3 ? 16 + 8 * i : 16 + 8 * rng_below(3), pt, 1);
    }
    sprintf(name, "aes.keylen");
    show_aes(name, key, rng_below(40) - 4, pt, 0);
}

static void seeded_gf(int pattern)
{
    static uint8_t x[16 * 40];
    uint8_t h[16];
    gf128 a, b;
    char name[64];
    int i, n;

    for (i = 0; i < 10; i++) {
        a = pick_elem(pattern);
        b = pick_elem(pattern);
        sprintf(name, "gf%d", i);
        show_gf(name, a, b);
    }
    a = pick_elem(pattern);
    show_table4("gf.table", a);
    for (i = 0; i < 3; i++) {
        uint32_t e = (uint32_t)rng_next();
        if (i == 1)
            e &= 0xffu;
        sprintf(name, "gf.pow%d_%lu", i, (unsigned long)e);
        put_elem(name, gf128_pow(a, e));
    }
    pattern_fill(pattern, h, 16);
    if (rng_below(2))
        rng_fill(h, 16);
    pattern_fill(pattern, x, (int)sizeof x);
    n = rng_below(41);
    sprintf(name, "ghash.n%d", n);
    show_ghash(name, h, x, n);
    {
        int pieces[4];
        int alen = rng_below(200), clen = rng_below(200);
        for (i = 0; i < 4; i++)
            pieces[i] = rng_below(40);
        i = rng_below(4);
        pieces[i] = 1 + rng_below(20);
        show_ghash_stream("ghash", h, rng_below(2), x, alen, x + 200, clen, pieces, 4);
    }
}

static void seeded_messages(int pattern)
{
    static uint8_t key[32], pt[MAXBUF], aad[GCM_MAX_AAD + 16], iv[GCM_MAX_IV + 16];
    char name[64];
    int m;

    for (m = 0; m < 6; m++) {
        int key_len = 16 + 8 * rng_below(3);
        int iv_len = pick_iv_length(), aad_len = pick_length(GCM_MAX_AAD);
        int len = pick_length(m < 2 ? GCM_MAX_TEXT : 300), tag_len = pick_tag_length();
        int mult = rng_below(8) == 0 ? rng_below(5) - 1 : rng_below(2);
        if (rng_below(16) == 0)
            key_len = rng_below(34);
        pattern_fill(pattern, key, 32);
        pattern_fill(m % 2 ? pattern : 0, pt, len);
        pattern_fill(m % 3 ? pattern : 0, aad, aad_len);
        pattern_fill(m % 2 ? 0 : pattern, iv, iv_len);
        sprintf(name, "msg%d", m);
        printf("%s.lengths key %d iv %d aad %d text %d tag %d mult %d\n", name, key_len, iv_len, aad_len, len,
               tag_len, mult);
        show_setup(name, key, key_len, mult, iv, iv_len);
        show_gcm(name, key, key_len, mult, iv, iv_len, aad, aad_len, pt, len, tag_len);
        {
            int pieces[5], i;
            for (i = 0; i < 5; i++)
                pieces[i] = rng_below(i == 0 ? 3 : 70);
            i = rng_below(5);
            pieces[i] = 1 + rng_below(33);
            show_stream(name, key, key_len, 1 - mult, iv, iv_len, aad, aad_len, pt, len, pieces, 5,
                        gcm_tag_len_ok(tag_len) ? tag_len : 16, rng_below(5) - 1);
        }
    }
    /* tampering: one bit of the IV, the AAD, the text or the tag */
    {
        uint8_t ct[300], back[300], tag[16];
        int key_len = 16 + 8 * rng_below(3), iv_len = pick_iv_length(), aad_len = 1 + rng_below(100);
        int len = 1 + rng_below(299), mult = rng_below(2), which, rc, at;
        pattern_fill(pattern, key, 32);
        rng_fill(iv, iv_len);
        rng_fill(aad, aad_len);
        rng_fill(pt, len);
        gcm_seal(key, key_len, mult, iv, iv_len, aad, aad_len, pt, len, ct, tag, 16);
        for (which = 0; which < 4; which++) {
            uint8_t *p = which == 0 ? iv : which == 1 ? aad : which == 2 ? ct : tag;
            int n = which == 0 ? iv_len : which == 1 ? aad_len : which == 2 ? len : 16;
            at = rng_below(n);
            p[at] ^= (uint8_t)(1u << rng_below(8));
            memset(back, 0x77, sizeof back);
            rc = gcm_open(key, key_len, mult, iv, iv_len, aad, aad_len, ct, len, tag, 16, back);
            printf("tamper%d at %d rc %d", which, at, rc);
            put_bytes(" P", back, len);
            p[at] ^= (uint8_t)(1u << rng_below(8));
            rc = gcm_open(key, key_len, mult, iv, iv_len, aad, aad_len, ct, len, tag, 16, back);
            printf("tamper%d.again rc %d\n", which, rc);
        }
    }
}

static void seeded_counters(int pattern)
{
    static uint8_t key[32], pt[MAXBUF];
    uint8_t cb[16], a[16], b[16];
    char name[64];
    int i, n;

    rng_fill(key, 32);
    pattern_fill(pattern, pt, MAXBUF);
    for (i = 0; i < 4; i++) {
        pattern_fill(pattern, cb, 16);
        if (i == 0)
            rng_fill(cb, 16);
        if (i >= 2) {
            cb[12] = cb[13] = cb[14] = 0xff;
            cb[15] = (uint8_t)(0xff - rng_below(3));
            if (i == 3)
                cb[12] = (uint8_t)rng_next();
        }
        sprintf(name, "ctr%d", i);
        show_counter(name, cb, 1 + rng_below(70000));
        n = 16 + 8 * rng_below(3);
        show_gctr(name, key, n, cb, pt, pick_length(i == 1 ? GCM_MAX_TEXT : 200));
    }
    /* tags that differ in chosen places */
    for (i = 0; i < 6; i++) {
        int len = 1 + rng_below(16), k;
        rng_fill(a, 16);
        memcpy(b, a, 16);
        if (i > 0) {
            int at = rng_below(len);
            uint8_t bit = (uint8_t)(1u << rng_below(8));
            b[at] ^= bit;
            if (i >= 3 && len > 1)
                b[(at + 1 + rng_below(len - 1)) % len] ^= bit;   /* a second difference in the same bit */
            if (i == 5)
                for (k = 0; k < len; k++)
                    b[k] = (uint8_t)~a[k];
        }
        sprintf(name, "cmp%d.len%d", i, len);
        show_tag_equal(name, a, b, len);
    }
}

/* seal, open and GMAC on a valid message with one argument moved to an
 * edge of its range: lengths 0 and 1 for everything, the largest IV, the
 * shortest valid tag; the outputs start from a known filler so that a
 * call that writes nothing shows */
static void seeded_edges(int pattern)
{
    enum { KEY, IV, AAD, TEXT, TAG };
    static const int edges[][2] = {
        { KEY, 0 }, { KEY, 1 }, { IV, 0 }, { IV, 1 }, { IV, GCM_MAX_IV }, { AAD, 0 }, { AAD, 1 },
        { TEXT, 0 }, { TEXT, 1 }, { TAG, 0 }, { TAG, 1 }, { TAG, 4 }
    };
    static const char *what[] = { "key", "iv", "aad", "text", "tag" };
    static uint8_t key[32], pt[64], aad[64], iv[GCM_MAX_IV], ct[64], back[64];
    uint8_t tag[AES_BLOCK], mac[AES_BLOCK];
    char label[96];
    int e, rc;

    pattern_fill(pattern, key, 32);
    pattern_fill(pattern, pt, 64);
    rng_fill(aad, 64);
    pattern_fill(pattern, iv, GCM_MAX_IV);
    for (e = 0; e < (int)(sizeof edges / sizeof edges[0]); e++) {
        int len[5];
        int mult = rng_below(2);
        len[KEY] = 16 + 8 * rng_below(3);
        len[IV] = pick_iv_length();
        len[AAD] = 1 + rng_below(64);
        len[TEXT] = 1 + rng_below(64);
        len[TAG] = 16;
        len[edges[e][0]] = edges[e][1];
        printf("edges.%s%d key %d iv %d aad %d text %d tag %d mult %d\n", what[edges[e][0]], edges[e][1],
               len[KEY], len[IV], len[AAD], len[TEXT], len[TAG], mult);
        memset(ct, 0x3c, sizeof ct);
        memset(tag, 0xa5, sizeof tag);
        rc = gcm_seal(key, len[KEY], mult, iv, len[IV], aad, len[AAD], pt, len[TEXT], ct, tag, len[TAG]);
        sprintf(label, "edges.seal %d C", rc);
        put_bytes(label, ct, len[TEXT]);
        put_bytes("edges.seal T", tag, AES_BLOCK);
        memset(back, 0x5a, sizeof back);
        rc = gcm_open(key, len[KEY], mult, iv, len[IV], aad, len[AAD], ct, len[TEXT], tag, len[TAG], back);
        sprintf(label, "edges.open %d P", rc);
        put_bytes(label, back, len[TEXT]);
        memset(mac, 0xa5, sizeof mac);
        rc = gcm_gmac(key, len[KEY], mult, iv, len[IV], aad, len[AAD], mac, len[TAG]);
        sprintf(label, "edges.gmac %d T", rc);
        put_bytes(label, mac, AES_BLOCK);
    }
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8);
    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    aes_init();
    seeded_aes(pattern);
    seeded_gf(pattern);
    seeded_messages(pattern);
    seeded_counters(pattern);
    seeded_edges(pattern);
}

int main(int argc, char **argv)
{
    unsigned long long seed = 0;
    char *end = NULL;

    if (argc == 3 && strcmp(argv[1], "--seed") == 0) {
        seed = strtoull(argv[2], &end, 10);
        if (end == argv[2] || *end != '\0') {
            fprintf(stderr, "usage: %s [--seed N]: N must be a decimal number\n", argv[0]);
            return 2;
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--seed N]\n", argv[0]);
        return 2;
    }
    if (seed == 0)
        run_fixed();
    else
        run_seeded((uint64_t)seed);
    return 0;
}
