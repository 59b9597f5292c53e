/*
 * blowfish_test.c -- test driver for blowfish.c.
 *
 * The driver belongs to the harness: it feeds the inputs and prints every
 * result the design computes (the pi words, initial and key-dependent
 * state, F values, blocks and mode outputs, in hex).  It judges nothing
 * itself; the harness compares the printed output with that of the
 * known-good design.
 *
 *   ./prog            the fixed vectors: Eric Young's ECB, variable key
 *                     length and CBC/CFB64/OFB64 vectors, a 448-bit key
 *                     schedule, 10000 chained encryptions and back, 4 KiB
 *                     buffers through every mode in pieces
 *   ./prog --seed N   inputs generated from N (N >= 1): random keys of
 *                     every length, data, IVs, stream positions and piece
 *                     sizes, and degenerate patterns chosen by N % 8
 *                     (zeros, all ones, repeated and alternating bytes,
 *                     single bits, one-byte and 56-byte keys, short and
 *                     long messages); then, for every N, F on the
 *                     values 0, 1 and each single byte lane, every mode
 *                     on messages of 0, 1, 7, 8 and 9 bytes, and the
 *                     stream modes one byte at a time from every position
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the design's interface (blowfish.c) */
void blowfish_init(void);
long blowfish_pi(uint32_t *words);
void blowfish_initial_state(uint32_t *p, uint32_t *s);
void blowfish_set_key(const uint8_t *key, int keylen);
void blowfish_state(uint32_t *p, uint32_t *s);
uint32_t blowfish_f(uint32_t x);
void blowfish_encrypt_words(uint32_t *xl, uint32_t *xr);
void blowfish_decrypt_words(uint32_t *xl, uint32_t *xr);
void blowfish_ecb(const uint8_t *in, uint8_t *out, int nblocks, int encrypt);
void blowfish_cbc_encrypt(const uint8_t *iv, const uint8_t *in, uint8_t *out, int len);
void blowfish_cbc_decrypt(const uint8_t *iv, const uint8_t *in, uint8_t *out, int len);
void blowfish_cfb64(uint8_t *reg, int *num, const uint8_t *in, uint8_t *out, int len, int encrypt);
void blowfish_ofb64(uint8_t *reg, int *num, const uint8_t *in, uint8_t *out, int len);

#define PWORDS   18
#define SWORDS   1024
#define PI_WORDS (PWORDS + SWORDS)
#define LONG_LEN 4096

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

static void put_state(const char *label)
{
    static uint32_t p[PWORDS], s[SWORDS];
    char name[64];
    blowfish_state(p, s);
    sprintf(name, "%s.P", label);
    put_words(name, p, PWORDS);
    sprintf(name, "%s.S", label);
    put_words(name, s, SWORDS);
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
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

static uint32_t lcg_state;

static uint8_t lcg_byte(void)
{
    lcg_state = lcg_state * 22695477u + 1u;
    return (uint8_t)(lcg_state >> 16);
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

/* ------------------------------------------------------------------ */
/* Runs shared by both input sets (key loaded)                         */
/* ------------------------------------------------------------------ */

static uint8_t plain[LONG_LEN], ct[LONG_LEN + 8], back[LONG_LEN + 8];

static void show_block(const char *name, const uint8_t *pt)
{
    uint8_t out[8], out2[8];
    char label[64];
    blowfish_ecb(pt, out, 1, 1);
    sprintf(label, "%s.encrypt", name);
    put_bytes(label, out, 8);
    blowfish_ecb(out, out2, 1, 0);
    sprintf(label, "%s.decrypt", name);
    put_bytes(label, out2, 8);
    blowfish_ecb(pt, out2, 1, 0);
    sprintf(label, "%s.decrypt_of_input", name);
    put_bytes(label, out2, 8);
}

/* a stream mode over len bytes in pieces of 1..max_piece bytes (the
 * piece sizes cycle from first); mode 0 = CFB64, 1 = OFB64 */
static void stream_in_pieces(int mode, const uint8_t *iv, int num0, const uint8_t *in,
                             uint8_t *out, int len, int first, int max_piece, int encrypt)
{
    uint8_t reg[8];
    int num = num0, pos, piece;
    memcpy(reg, iv, 8);
    for (pos = 0, piece = first; pos < len; pos += piece, piece = piece % max_piece + 1) {
        if (piece > len - pos)
            piece = len - pos;
        if (mode == 0)
            blowfish_cfb64(reg, &num, in + pos, out + pos, piece, encrypt);
        else
            blowfish_ofb64(reg, &num, in + pos, out + pos, piece);
    }
}

/* fills an output buffer (ct or back) with 0xa5, so a byte a mode fails
 * to write, or writes past the end of its output, shows in the output */
static void poison(uint8_t *p)
{
    memset(p, 0xa5, LONG_LEN + 8);
}

/* every mode, encrypted and decrypted back; stream modes in pieces; each
 * output buffer is poisoned first, and CBC encryption's 8 bytes past the
 * padded length are printed (the interface allows it that length only) */
static void show_modes(const char *name, const uint8_t *iv, int num0, const uint8_t *in, int len,
                       int first, int max_piece)
{
    int padded = (len + 7) / 8 * 8;
    char label[64];

    poison(ct);
    blowfish_ecb(in, ct, len / 8, 1);
    sprintf(label, "%s.ecb.enc", name);
    put_bytes(label, ct, len / 8 * 8);
    poison(back);
    blowfish_ecb(ct, back, len / 8, 0);
    sprintf(label, "%s.ecb.dec", name);
    put_bytes(label, back, len / 8 * 8);

    poison(ct);
    blowfish_cbc_encrypt(iv, in, ct, len);
    sprintf(label, "%s.cbc.enc", name);
    put_bytes(label, ct, padded);
    sprintf(label, "%s.cbc.enc_tail", name);
    put_bytes(label, ct + padded, 8);
    poison(back);
    blowfish_cbc_decrypt(iv, ct, back, padded);
    sprintf(label, "%s.cbc.dec", name);
    put_bytes(label, back, padded);
    blowfish_cbc_decrypt(iv, ct, ct, padded);
    sprintf(label, "%s.cbc.dec_in_place", name);
    put_bytes(label, ct, padded);

    poison(ct);
    stream_in_pieces(0, iv, num0, in, ct, len, first, max_piece, 1);
    sprintf(label, "%s.cfb.enc", name);
    put_bytes(label, ct, len);
    poison(back);
    stream_in_pieces(0, iv, num0, ct, back, len, len > 0 ? len : 1, len > 0 ? len : 1, 0);
    sprintf(label, "%s.cfb.dec", name);
    put_bytes(label, back, len);

    poison(ct);
    stream_in_pieces(1, iv, num0, in, ct, len, first, max_piece, 1);
    sprintf(label, "%s.ofb.enc", name);
    put_bytes(label, ct, len);
    poison(back);
    stream_in_pieces(1, iv, num0, ct, back, len, len > 0 ? len : 1, len > 0 ? len : 1, 1);
    sprintf(label, "%s.ofb.dec", name);
    put_bytes(label, back, len);
}

static void show_chain(const char *name, uint32_t l, uint32_t r, int n)
{
    int it;
    for (it = 0; it < n; it++)
        blowfish_encrypt_words(&l, &r);
    printf("%s.chain_enc %08lx %08lx\n", name, (unsigned long)l, (unsigned long)r);
    for (it = 0; it < n; it++)
        blowfish_decrypt_words(&l, &r);
    printf("%s.chain_dec %08lx %08lx\n", name, (unsigned long)l, (unsigned long)r);
}

/* ------------------------------------------------------------------ */
/* The fixed vectors                                                   */
/* ------------------------------------------------------------------ */

/* Eric Young's Blowfish ECB test vectors: key, plaintext */
static const char *ecb_vectors[][2] = {
    { "0000000000000000", "0000000000000000" }, { "FFFFFFFFFFFFFFFF", "FFFFFFFFFFFFFFFF" },
    { "3000000000000000", "1000000000000001" }, { "1111111111111111", "1111111111111111" },
    { "0123456789ABCDEF", "1111111111111111" }, { "1111111111111111", "0123456789ABCDEF" },
    { "FEDCBA9876543210", "0123456789ABCDEF" }, { "7CA110454A1A6E57", "01A1D6D039776742" },
    { "0131D9619DC1376E", "5CD54CA83DEF57DA" }, { "07A1133E4A0B2686", "0248D43806F67172" },
    { "3849674C2602319E", "51454B582DDF440A" }, { "04B915BA43FEB5B6", "42FD443059577FA2" },
    { "0113B970FD34F2CE", "059B5E0851CF143A" }, { "0170F175468FB5E6", "0756D8E0774761D2" },
    { "43297FAD38E373FE", "762514B829BF486A" }, { "07A7137045DA2A16", "3BDD119049372802" },
    { "04689104C2FD3B2F", "26955F6835AF609A" }, { "37D06BB516CB7546", "164D5E404F275232" },
    { "1F08260D1AC2465E", "6B056E18759F5CCA" }, { "584023641ABA6176", "004BD6EF09176062" },
    { "025816164629B007", "480D39006EE762F2" }, { "49793EBC79B3258F", "437540C8698F3CFA" },
    { "4FB05E1515AB73A7", "072D43A077075292" }, { "49E95D6D4CA229BF", "02FE55778117F12A" },
    { "018310DC409B26D6", "1D9D5C5018F728C2" }, { "1C587F1C13924FEF", "305532286D6F295A" },
    { "0101010101010101", "0123456789ABCDEF" }, { "1F1F1F1F0E0E0E0E", "0123456789ABCDEF" },
    { "E0FEE0FEF1FEF1FE", "0123456789ABCDEF" }, { "0000000000000000", "FFFFFFFFFFFFFFFF" },
    { "FFFFFFFFFFFFFFFF", "0000000000000000" }, { "0123456789ABCDEF", "0000000000000000" },
    { "FEDCBA9876543210", "FFFFFFFFFFFFFFFF" }
};
#define N_ECB_VECTORS ((int)(sizeof ecb_vectors / sizeof ecb_vectors[0]))

/* variable key length: key = first n bytes of set_key_bytes, n = 1..24 */
static const char *set_key_bytes = "F0E1D2C3B4A5968778695A4B3C2D1E0F0011223344556677";
static const char *set_key_plain = "FEDCBA9876543210";

/* the chaining-mode vectors: key, IV, and the 29-byte message with its NUL */
static const char *mode_key = "0123456789ABCDEFF0E1D2C3B4A59687";
static const char *mode_iv = "FEDCBA9876543210";
static const char *mode_data = "7654321 Now is the time for ";

static void fixed_pi(void)
{
    static uint32_t words[PI_WORDS], p[PWORDS], s[SWORDS];
    long integer_part = blowfish_pi(words);
    printf("pi.integer_part %ld\n", integer_part);
    put_words("pi.words", words, PI_WORDS);
    blowfish_initial_state(p, s);
    put_words("initial.P", p, PWORDS);
    put_words("initial.S", s, SWORDS);
}

static void fixed_vectors(void)
{
    uint8_t key[24], pt[8];
    char name[32];
    int v, n;

    for (v = 0; v < N_ECB_VECTORS; v++) {
        hex_to_bytes(ecb_vectors[v][0], key, 8);
        hex_to_bytes(ecb_vectors[v][1], pt, 8);
        blowfish_set_key(key, 8);
        sprintf(name, "ecb%d", v + 1);
        show_block(name, pt);
    }
    hex_to_bytes(set_key_bytes, key, 24);
    hex_to_bytes(set_key_plain, pt, 8);
    for (n = 1; n <= 24; n++) {
        blowfish_set_key(key, n);
        sprintf(name, "set_key%d", n);
        show_block(name, pt);
    }
}

static void fixed_modes(void)
{
    uint8_t key[16], iv[8], data[32];
    int len = (int)strlen(mode_data) + 1;

    hex_to_bytes(mode_key, key, 16);
    hex_to_bytes(mode_iv, iv, 8);
    memset(data, 0, sizeof data);
    memcpy(data, mode_data, (size_t)len);
    blowfish_set_key(key, 16);
    show_modes("modes29", iv, 0, data, len, 13, 16);
    show_modes("modes29_bytewise", iv, 0, data, len, 1, 1);
}

static void fixed_key_schedule(void)
{
    static const char *key_text = "Blowfish 448-bit key: 56 bytes of ASCII text, abcdefghij";
    uint32_t x = 0x01234567u;
    int i;
    blowfish_set_key((const uint8_t *)key_text, 56);
    put_state("key448");
    printf("key448.F");
    for (i = 0; i < 16; i++) {
        printf(" %08lx", (unsigned long)blowfish_f(x));
        x = x * 2654435761u + 0x9e3779b9u;
    }
    printf("\n");
    blowfish_set_key((const uint8_t *)"chained blowfish", 16);
    show_chain("chain10000", 0x01234567u, 0x89ABCDEFu, 10000);
}

static void fixed_long_buffers(void)
{
    uint8_t key[56], iv[8];
    char name[32];
    int i, pass, keylen;

    lcg_state = 0xB10F15Bu;
    for (i = 0; i < LONG_LEN; i++)
        plain[i] = lcg_byte();
    for (pass = 0; pass < 4; pass++) {
        keylen = 4 + 17 * pass;
        for (i = 0; i < keylen; i++)
            key[i] = lcg_byte();
        for (i = 0; i < 8; i++)
            iv[i] = lcg_byte();
        blowfish_set_key(key, keylen);
        sprintf(name, "long%d", pass);
        show_modes(name, iv, 0, plain, LONG_LEN, 1 + 6 * pass, 23 + 8 * pass);
    }
}

static void run_fixed(void)
{
    blowfish_init();
    fixed_pi();
    fixed_vectors();
    fixed_modes();
    fixed_key_schedule();
    fixed_long_buffers();
}

/* ------------------------------------------------------------------ */
/* Seeded inputs                                                       */
/* ------------------------------------------------------------------ */

/* 0 random, 1 zeros, 2 all ones, 3 one repeated byte, 4 alternating
 * bytes, 5 a single set bit, 6 and 7 random (short and long messages) */
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
    default:
        for (i = 0; i < n; i++)
            p[i] = (uint8_t)rng_next();
        break;
    }
}

static void seeded_key(int pattern, int k)
{
    static const int fixed_lengths[4] = { 1, 8, 56, 16 };
    uint8_t key[56], iv[8], blk[8];
    int keylen = k < 4 && pattern != 0 ? fixed_lengths[k] : 1 + rng_below(56);
    int len = pattern == 6 ? rng_below(20) : (pattern == 7 ? LONG_LEN - rng_below(8)
                                                           : rng_below(300));
    int first = 1 + rng_below(40), max_piece = 1 + rng_below(40), i;
    uint32_t l, r;
    char name[32];

    sprintf(name, "key%d", k);
    pattern_fill(pattern, key, keylen);
    pattern_fill(pattern, iv, 8);
    pattern_fill(pattern, plain, len);
    printf("%s.layout %d %d %d %d\n", name, keylen, len, first, max_piece);
    put_bytes("key", key, keylen);
    blowfish_set_key(key, keylen);
    if (k == 0)
        put_state(name);
    for (i = 0; i < 4; i++) {
        char blkname[40];
        pattern_fill(i == 0 ? pattern : 0, blk, 8);
        sprintf(blkname, "%s.block%d", name, i);
        show_block(blkname, blk);
    }
    printf("%s.F", name);
    for (i = 0; i < 8; i++)
        printf(" %08lx", (unsigned long)blowfish_f(i < 2 ? (uint32_t)(0u - (uint32_t)i)
                                                         : (uint32_t)rng_next()));
    printf("\n");
    show_modes(name, iv, rng_below(8), plain, len, first, max_piece);
    l = (uint32_t)rng_next();
    r = (uint32_t)rng_next();
    show_chain(name, l, r, 1 + rng_below(300));
}

/* under the last key: F where one input byte (one S-box index) is 1 or
 * all others are 0, every mode on the shortest messages, and the stream
 * modes in one-byte pieces from each starting position */
static void seeded_edges(int pattern)
{
    static const uint32_t f_inputs[10] = {
        0u, 1u, 2u, 0x100u, 0x10000u, 0x1000000u, 0x01010101u, 0x80000000u, 0x7fffffffu, 0xffffffffu
    };
    static const int lengths[5] = { 0, 1, 7, 8, 9 };
    uint8_t iv[8];
    char name[32];
    int i;

    printf("edges.F");
    for (i = 0; i < 10; i++)
        printf(" %08lx", (unsigned long)blowfish_f(f_inputs[i]));
    printf("\n");
    pattern_fill(pattern, iv, 8);
    pattern_fill(pattern, plain, 16);
    for (i = 0; i < 5; i++) {
        sprintf(name, "edges.len%d", lengths[i]);
        show_modes(name, iv, rng_below(8), plain, lengths[i], 1, 1);
    }
    for (i = 0; i < 8; i++) {
        sprintf(name, "edges.num%d", i);
        show_modes(name, iv, i, plain, 1 + rng_below(16), 1, 1);
    }
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8), k;
    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    blowfish_init();
    for (k = 0; k < 5; k++)
        seeded_key(pattern, k);
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
