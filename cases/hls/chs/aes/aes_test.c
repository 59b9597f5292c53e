/*
 * aes_test.c -- test driver for aes.c.
 *
 * The driver belongs to the harness: it feeds the inputs and prints every
 * result the design computes (tables, key schedules, round states, blocks
 * and mode outputs, in hex).  It judges nothing itself; the harness
 * compares the printed output with that of the known-good design.
 *
 *   ./prog            the fixed vectors: FIPS-197 Appendices A and C,
 *                     SP 800-38A Appendix F, counter wrap-around, partial
 *                     blocks, chains, pseudo-random blocks, 1 KiB buffers
 *   ./prog --seed N   inputs generated from N (N >= 1): random keys, data,
 *                     IVs and lengths, and degenerate patterns chosen by
 *                     N % 8 (zeros, all ones, repeated and alternating
 *                     bytes, single bits, counters about to wrap, short
 *                     and long messages); then, for every N, key sizes
 *                     the design must reject and every mode on messages
 *                     of 0, 1, 15, 16 and 17 bytes under a fresh key
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the design's interface (aes.c) */
void aes_init(void);
uint8_t aes_xtime(uint8_t b);
uint8_t aes_gf_mul(uint8_t a, uint8_t b);
uint8_t aes_gf_inv(uint8_t a);
void aes_derive_sboxes(uint8_t *fwd, uint8_t *inv);
void aes_tables(uint8_t *fwd, uint8_t *inv, uint32_t *tt);
int aes_load_key(const uint8_t *key, int key_bits);
int aes_rounds(void);
void aes_round_keys(uint32_t *w, uint32_t *dw);
void aes_round_step(int step, uint8_t *block, int round);
void aes_encrypt(const uint8_t *in, uint8_t *out);
void aes_encrypt_tt(const uint8_t *in, uint8_t *out);
void aes_decrypt(const uint8_t *in, uint8_t *out);
void aes_eq_decrypt(const uint8_t *in, uint8_t *out);
void aes_ecb(int decrypt, const uint8_t *in, uint8_t *out, int nblocks);
void aes_cbc(int decrypt, const uint8_t *iv, const uint8_t *in, uint8_t *out, int nblocks);
void aes_cfb128(int decrypt, const uint8_t *iv, const uint8_t *in, uint8_t *out, int nbytes);
void aes_ofb(const uint8_t *iv, const uint8_t *in, uint8_t *out, int nbytes);
void aes_ctr(const uint8_t *icb, const uint8_t *in, uint8_t *out, int nbytes);
void aes_ctr_increment(uint8_t *ctr);

enum { ADD_KEY, SUB_BYTES, SHIFT_ROWS, MIX_COLUMNS, INV_SUB_BYTES, INV_SHIFT_ROWS,
       INV_MIX_COLUMNS, ADD_DEC_KEY };

#define BLOCK     16
#define MAX_WORDS 60
#define LONG      1024                   /* bytes of the long-buffer checks */

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

static void show_key_schedule(const char *name, const uint8_t *key, int bits)
{
    uint32_t w[MAX_WORDS], dw[MAX_WORDS];
    char label[64];
    int status = aes_load_key(key, bits);
    printf("%s.load %d rounds %d\n", name, status, aes_rounds());
    aes_round_keys(w, dw);
    sprintf(label, "%s.w", name);
    put_words(label, w, 4 * (aes_rounds() + 1));
    sprintf(label, "%s.dw", name);
    put_words(label, dw, 4 * (aes_rounds() + 1));
}

/* every decryption path and the T-table cipher on one block (key loaded) */
static void show_block(const char *name, const uint8_t *pt)
{
    uint8_t ct[BLOCK], out[BLOCK];
    char label[64];
    aes_encrypt(pt, ct);
    sprintf(label, "%s.cipher", name);
    put_bytes(label, ct, BLOCK);
    aes_encrypt_tt(pt, out);
    sprintf(label, "%s.ttable", name);
    put_bytes(label, out, BLOCK);
    aes_decrypt(ct, out);
    sprintf(label, "%s.invcipher", name);
    put_bytes(label, out, BLOCK);
    aes_eq_decrypt(ct, out);
    sprintf(label, "%s.eqinvcipher", name);
    put_bytes(label, out, BLOCK);
    aes_decrypt(pt, out);
    sprintf(label, "%s.invcipher_of_input", name);
    put_bytes(label, out, BLOCK);
}

/* all five modes, each encrypted and decrypted back (key loaded) */
static void show_modes(const char *name, const uint8_t *iv, const uint8_t *icb,
                       const uint8_t *pt, int nbytes)
{
    static uint8_t buf[LONG], back[LONG];
    int nblocks = nbytes / BLOCK;
    char label[64];

    aes_ecb(0, pt, buf, nblocks);
    sprintf(label, "%s.ecb.enc", name);
    put_bytes(label, buf, nblocks * BLOCK);
    aes_ecb(1, buf, back, nblocks);
    sprintf(label, "%s.ecb.dec", name);
    put_bytes(label, back, nblocks * BLOCK);

    aes_cbc(0, iv, pt, buf, nblocks);
    sprintf(label, "%s.cbc.enc", name);
    put_bytes(label, buf, nblocks * BLOCK);
    aes_cbc(1, iv, buf, back, nblocks);
    sprintf(label, "%s.cbc.dec", name);
    put_bytes(label, back, nblocks * BLOCK);
    aes_cbc(1, iv, buf, buf, nblocks);
    sprintf(label, "%s.cbc.dec_in_place", name);
    put_bytes(label, buf, nblocks * BLOCK);

    aes_cfb128(0, iv, pt, buf, nbytes);
    sprintf(label, "%s.cfb.enc", name);
    put_bytes(label, buf, nbytes);
    aes_cfb128(1, iv, buf, back, nbytes);
    sprintf(label, "%s.cfb.dec", name);
    put_bytes(label, back, nbytes);

    aes_ofb(iv, pt, buf, nbytes);
    sprintf(label, "%s.ofb.enc", name);
    put_bytes(label, buf, nbytes);
    aes_ofb(iv, buf, back, nbytes);
    sprintf(label, "%s.ofb.dec", name);
    put_bytes(label, back, nbytes);

    aes_ctr(icb, pt, buf, nbytes);
    sprintf(label, "%s.ctr.enc", name);
    put_bytes(label, buf, nbytes);
    aes_ctr(icb, buf, back, nbytes);
    sprintf(label, "%s.ctr.dec", name);
    put_bytes(label, back, nbytes);
}

static void trace_step(const char *name, const char *path, int step, uint8_t *s, int round)
{
    char label[64];
    aes_round_step(step, s, round);
    sprintf(label, "%s.%s.round%d.step%d", name, path, round, step);
    put_bytes(label, s, BLOCK);
}

/* the Cipher, the InvCipher and the Equivalent Inverse Cipher traced one
 * transformation at a time (key loaded) */
static void show_trace(const char *name, const uint8_t *in)
{
    uint8_t s[BLOCK], ct[BLOCK];
    int nr = aes_rounds(), round;

    memcpy(s, in, BLOCK);
    trace_step(name, "enc", ADD_KEY, s, 0);
    for (round = 1; round < nr; round++) {
        trace_step(name, "enc", SUB_BYTES, s, round);
        trace_step(name, "enc", SHIFT_ROWS, s, round);
        trace_step(name, "enc", MIX_COLUMNS, s, round);
        trace_step(name, "enc", ADD_KEY, s, round);
    }
    trace_step(name, "enc", SUB_BYTES, s, nr);
    trace_step(name, "enc", SHIFT_ROWS, s, nr);
    trace_step(name, "enc", ADD_KEY, s, nr);
    memcpy(ct, s, BLOCK);

    trace_step(name, "dec", ADD_KEY, s, nr);
    for (round = nr - 1; round > 0; round--) {
        trace_step(name, "dec", INV_SHIFT_ROWS, s, round);
        trace_step(name, "dec", INV_SUB_BYTES, s, round);
        trace_step(name, "dec", ADD_KEY, s, round);
        trace_step(name, "dec", INV_MIX_COLUMNS, s, round);
    }
    trace_step(name, "dec", INV_SHIFT_ROWS, s, 0);
    trace_step(name, "dec", INV_SUB_BYTES, s, 0);
    trace_step(name, "dec", ADD_KEY, s, 0);

    memcpy(s, ct, BLOCK);
    trace_step(name, "eqdec", ADD_DEC_KEY, s, nr);
    for (round = nr - 1; round > 0; round--) {
        trace_step(name, "eqdec", INV_SUB_BYTES, s, round);
        trace_step(name, "eqdec", INV_SHIFT_ROWS, s, round);
        trace_step(name, "eqdec", INV_MIX_COLUMNS, s, round);
        trace_step(name, "eqdec", ADD_DEC_KEY, s, round);
    }
    trace_step(name, "eqdec", INV_SUB_BYTES, s, 0);
    trace_step(name, "eqdec", INV_SHIFT_ROWS, s, 0);
    trace_step(name, "eqdec", ADD_DEC_KEY, s, 0);
}

/* n encryptions in a row, then as many equivalent-inverse decryptions,
 * then four times m encryptions each followed by re-keying from the
 * ciphertext (key loaded; key[] has bits / 8 bytes) */
static void show_chain(const char *name, uint8_t *key, int bits, const uint8_t *start, int n, int m)
{
    uint8_t blk[BLOCK];
    char label[64];
    int it, outer, j;

    memcpy(blk, start, BLOCK);
    for (it = 0; it < n; it++)
        aes_encrypt(blk, blk);
    sprintf(label, "%s.chain_enc", name);
    put_bytes(label, blk, BLOCK);
    for (it = 0; it < n; it++)
        aes_eq_decrypt(blk, blk);
    sprintf(label, "%s.chain_dec", name);
    put_bytes(label, blk, BLOCK);

    memcpy(blk, start, BLOCK);
    for (outer = 0; outer < 4; outer++) {
        for (it = 0; it < m; it++)
            aes_encrypt(blk, blk);
        for (j = 0; j < bits / 8; j++)
            key[j] ^= blk[j % BLOCK];
        aes_load_key(key, bits);
    }
    sprintf(label, "%s.chain_rekey", name);
    put_bytes(label, blk, BLOCK);
}

static void show_counter(const char *name, const uint8_t *ctr0, int steps)
{
    uint8_t ctr[BLOCK];
    char label[64];
    int i;
    memcpy(ctr, ctr0, BLOCK);
    for (i = 0; i < steps; i++)
        aes_ctr_increment(ctr);
    sprintf(label, "%s.counter+%d", name, steps);
    put_bytes(label, ctr, BLOCK);
}

/* ------------------------------------------------------------------ */
/* The fixed vectors                                                   */
/* ------------------------------------------------------------------ */

/* FIPS-197 Appendix C.1, C.2, C.3 and Appendix A keys */
static const char *fips_key[3] = {
    "000102030405060708090a0b0c0d0e0f",
    "000102030405060708090a0b0c0d0e0f1011121314151617",
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
};
static const char *fips_plain = "00112233445566778899aabbccddeeff";

/* SP 800-38A Appendix F keys (also the FIPS-197 Appendix A expansion examples) */
static const char *sp_key[3] = {
    "2b7e151628aed2a6abf7158809cf4f3c",
    "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
};
static const char *sp_plain =
    "6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710";
static const char *sp_iv  = "000102030405060708090a0b0c0d0e0f";
static const char *sp_icb = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static void fixed_tables(void)
{
    static uint8_t fwd[256], inv[256], dfwd[256], dinv[256], xt[256], gi[256];
    static uint32_t tt[1024];
    int v;

    aes_tables(fwd, inv, tt);
    put_bytes("sbox", fwd, 256);
    put_bytes("inv_sbox", inv, 256);
    put_words("ttables", tt, 1024);
    aes_derive_sboxes(dfwd, dinv);
    put_bytes("sbox_from_definition", dfwd, 256);
    put_bytes("inverse_of_definition", dinv, 256);
    for (v = 0; v < 256; v++) {
        xt[v] = aes_xtime((uint8_t)v);
        gi[v] = aes_gf_inv((uint8_t)v);
    }
    put_bytes("xtime", xt, 256);
    put_bytes("gf_inv", gi, 256);
    /* Sec. 4.2 examples */
    printf("gf_mul 57*83 %02x 57*13 %02x\n", aes_gf_mul(0x57, 0x83), aes_gf_mul(0x57, 0x13));
}

static void fixed_ciphers(void)
{
    uint8_t key[32], pt[64], iv[16], icb[16];
    char name[32];
    int k;

    hex_to_bytes(fips_plain, pt, 16);
    for (k = 0; k < 3; k++) {
        sprintf(name, "fips197.aes%d", 128 + 64 * k);
        hex_to_bytes(fips_key[k], key, 32);
        show_key_schedule(name, key, 128 + 64 * k);
        show_block(name, pt);
        show_trace(name, pt);
    }
    hex_to_bytes(sp_plain, pt, 64);
    hex_to_bytes(sp_iv, iv, 16);
    hex_to_bytes(sp_icb, icb, 16);
    for (k = 0; k < 3; k++) {
        sprintf(name, "sp800_38a.aes%d", 128 + 64 * k);
        hex_to_bytes(sp_key[k], key, 32);
        show_key_schedule(name, key, 128 + 64 * k);
        show_modes(name, iv, icb, pt, 64);
    }
}

/* counter wrap-around and partial final blocks */
static void fixed_edges(void)
{
    uint8_t key[16], ctr[16], iv[16], pt[64], buf[64], back[64];
    int i;

    hex_to_bytes(sp_key[0], key, 16);
    aes_load_key(key, 128);
    for (i = 0; i < 64; i++)
        pt[i] = (uint8_t)(i * 7 + 3);

    memset(ctr, 0xff, 16);
    ctr[15] = 0xfe;
    show_counter("wrap", ctr, 2);

    hex_to_bytes("00000000ffffffffffffffffffffffff", ctr, 16);
    aes_ctr(ctr, pt, buf, 53);
    put_bytes("ctr_carry_53", buf, 53);
    aes_ctr(ctr, buf, back, 53);
    put_bytes("ctr_carry_53.dec", back, 53);

    hex_to_bytes(sp_iv, iv, 16);
    aes_cfb128(0, iv, pt, buf, 37);
    put_bytes("cfb_37", buf, 37);
    aes_cfb128(1, iv, buf, back, 37);
    put_bytes("cfb_37.dec", back, 37);
    aes_ofb(iv, pt, buf, 21);
    put_bytes("ofb_21", buf, 21);
}

static void fixed_chains(void)
{
    uint8_t key[32], start[16];
    char name[32];
    int k;

    hex_to_bytes(fips_plain, start, 16);
    for (k = 0; k < 3; k++) {
        sprintf(name, "chain.aes%d", 128 + 64 * k);
        hex_to_bytes(fips_key[k], key, 32);
        aes_load_key(key, 128 + 64 * k);
        show_chain(name, key, 128 + 64 * k, start, 250, 100);
    }
}

static void fixed_random_blocks(void)
{
    uint8_t key[32], pt[16];
    char name[32];
    int i;

    lcg_state = 0x0197u;
    for (i = 0; i < 96; i++) {
        lcg_fill(key, 32);
        lcg_fill(pt, 16);
        aes_load_key(key, 128 + 64 * (i % 3));
        sprintf(name, "random%d", i);
        show_block(name, pt);
    }
}

static void fixed_long_buffers(void)
{
    static uint8_t orig[LONG];
    uint8_t key[32], iv[16];

    lcg_state = 0x2001u;
    lcg_fill(key, 32);
    lcg_fill(iv, 16);
    lcg_fill(orig, LONG);
    aes_load_key(key, 256);
    show_modes("long.aes256", iv, iv, orig, LONG - 37);
    aes_load_key(key, 192);
    show_modes("long.aes192", iv, iv, orig, LONG);
}

static void run_fixed(void)
{
    aes_init();
    fixed_tables();
    fixed_ciphers();
    fixed_edges();
    fixed_chains();
    fixed_random_blocks();
    fixed_long_buffers();
}

/* ------------------------------------------------------------------ */
/* Seeded inputs                                                       */
/* ------------------------------------------------------------------ */

/* fills p with the seed's pattern: 0 random, 1 zeros, 2 all ones,
 * 3 one repeated byte, 4 alternating bytes, 5 a single set bit,
 * 6 and 7 random (short and long messages) */
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

static int pattern_length(int pattern)
{
    if (pattern == 6)
        return rng_below(BLOCK + 2);             /* 0 .. 17 bytes */
    if (pattern == 7)
        return LONG - rng_below(BLOCK);          /* about 1 KiB */
    return rng_below(4 * BLOCK * 4 + 1);         /* 0 .. 256 bytes */
}

static void seeded_gf(void)
{
    uint8_t a[64], b[64], p[64];
    int i;
    rng_fill(a, 64);
    rng_fill(b, 64);
    for (i = 0; i < 64; i++)
        p[i] = aes_gf_mul(a[i], b[i]);
    put_bytes("gf_mul.a", a, 64);
    put_bytes("gf_mul.b", b, 64);
    put_bytes("gf_mul.ab", p, 64);
}

static void seeded_key_size(int pattern, int bits)
{
    static uint8_t pt[LONG];
    uint8_t key[32], iv[16], icb[16], blk[16];
    char name[32];
    int n = pattern_length(pattern), i;

    sprintf(name, "aes%d", bits);
    pattern_fill(pattern, key, 32);
    pattern_fill(pattern, pt, LONG);
    pattern_fill(pattern, iv, 16);
    memcpy(icb, iv, 16);
    if (pattern == 3 || pattern == 5)
        memset(icb + 8, 0xff, 8);                /* the carry crosses 64 bits */
    show_key_schedule(name, key, bits);
    for (i = 0; i < 4; i++) {
        char blkname[40];
        pattern_fill(i == 0 ? pattern : 0, blk, BLOCK);
        sprintf(blkname, "%s.block%d", name, i);
        show_block(blkname, blk);
        if (i == 0)
            show_trace(blkname, blk);
    }
    printf("%s.message_length %d\n", name, n);
    show_modes(name, iv, icb, pt, n);
    show_counter(name, icb, 1 + rng_below(600));
    n = 16 + rng_below(16);
    show_chain(name, key, bits, pt, n, n / 2);
}

/* key sizes outside 128/192/256 must be refused (the loaded schedule
 * stays), then the shortest messages in every mode, and each stream mode
 * alone on one byte with its own IV into a cleared buffer (with one IV
 * for all, the first keystream block of CFB, OFB and CTR is the same) */
static void seeded_edges(int pattern)
{
    static const int bad_bits[] = { 0, 1, 8, 64, 127, 129, 160, 255, 257, 512, -128 };
    static const int lengths[] = { 0, 1, BLOCK - 1, BLOCK, BLOCK + 1 };
    uint8_t key[32], iv[16], icb[16], pt[2 * BLOCK], one[2];
    char name[32];
    int i, bits = 128 + 64 * rng_below(3);

    pattern_fill(pattern, key, 32);
    pattern_fill(pattern, iv, 16);
    pattern_fill(pattern, pt, 2 * BLOCK);
    rng_fill(icb, 16);
    show_key_schedule("edges", key, bits);
    for (i = 0; i < (int)(sizeof bad_bits / sizeof bad_bits[0]); i++)
        printf("edges.load_bits %d status %d rounds %d\n", bad_bits[i],
               aes_load_key(key, bad_bits[i]), aes_rounds());
    for (i = 0; i < (int)(sizeof lengths / sizeof lengths[0]); i++) {
        sprintf(name, "edges.len%d", lengths[i]);
        show_modes(name, iv, icb, pt, lengths[i]);
    }
    for (i = 0; i < 3; i++) {
        rng_fill(iv, 16);
        memset(one, 0, sizeof one);
        if (i == 0)
            aes_cfb128(0, iv, pt, one, 1);
        else if (i == 1)
            aes_ofb(iv, pt, one, 1);
        else
            aes_ctr(iv, pt, one, 1);
        sprintf(name, "edges.%s.one_byte", i == 0 ? "cfb" : (i == 1 ? "ofb" : "ctr"));
        put_bytes(name, one, 2);
    }
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8), bits;
    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    aes_init();
    seeded_gf();
    for (bits = 128; bits <= 256; bits += 64)
        seeded_key_size(pattern, bits);
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
