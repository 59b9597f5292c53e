/*
 * sha256_test.c -- test driver for sha256.c.
 *
 * The driver belongs to the harness: it feeds the messages, keys and
 * blocks, with both compression functions, and prints every constant,
 * function value, digest and MAC the design produces (in hex).  It judges
 * nothing itself; the harness compares the printed output with that of
 * the known-good design.
 *
 *   ./prog            the fixed input: the constant tables, the FIPS 180
 *                     example messages, the empty message, one million
 *                     'a' fed in irregular pieces, a digest chain over
 *                     messages of every length 0..199 (also hashed in
 *                     three pieces), the HMAC cases of RFC 4231
 *   ./prog --seed N   messages, keys, pieces and blocks generated from N
 *                     (N >= 1), with N % 8 choosing the pattern: random,
 *                     zeros, all ones, one repeated byte, alternating
 *                     bytes, a single set bit, lengths at the padding
 *                     boundaries, long messages and keys; then, for
 *                     every N, the edges: the six functions with every
 *                     operand 0, 1 or all ones, messages of 0, 1 and the
 *                     padding-boundary lengths, a stream fed empty and
 *                     one-byte pieces, HMAC with keys of 0, 1, 64 and 65
 *                     bytes on texts of 0 and 1 bytes
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SHA256_BLOCK  64
#define SHA256_DIGEST 32
#define SHA224_DIGEST 28

/* the design's interface (sha256.c) */
void sha256_constants(uint32_t *k, uint32_t *iv256, uint32_t *iv224);
uint32_t sha256_function(int which, uint32_t x, uint32_t y, uint32_t z);
void sha256_block(int unrolled, uint32_t *h, const uint8_t *block);
void sha256_hash(int digest_len, int unrolled, const uint8_t *msg, size_t len, uint8_t *out);
void sha256_begin(int stream, int digest_len, int unrolled);
void sha256_feed(int stream, const uint8_t *data, size_t len);
void sha256_end(int stream, uint8_t *digest);
void sha256_mac(int digest_len, int unrolled, const uint8_t *key, size_t key_len,
                const uint8_t *text, size_t text_len, uint8_t *mac);

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

/* SHA-256 and SHA-224 of one message with both compression functions */
static void show_digests(const char *name, const uint8_t *msg, size_t len)
{
    uint8_t out[SHA256_DIGEST];
    char label[64];
    int unrolled;
    for (unrolled = 0; unrolled < 2; unrolled++) {
        sha256_hash(SHA256_DIGEST, unrolled, msg, len, out);
        sprintf(label, "%s.sha256.%c", name, unrolled ? 'u' : 'd');
        put_bytes(label, out, SHA256_DIGEST);
        sha256_hash(SHA224_DIGEST, unrolled, msg, len, out);
        sprintf(label, "%s.sha224.%c", name, unrolled ? 'u' : 'd');
        put_bytes(label, out, SHA224_DIGEST);
    }
}

/* the message fed to the streaming interface in pieces that cycle through
 * 1..max_piece bytes starting from first */
static void show_streamed(const char *name, int stream, int digest_len, int unrolled,
                          const uint8_t *msg, size_t len, size_t first, size_t max_piece)
{
    uint8_t out[SHA256_DIGEST];
    char label[64];
    size_t done = 0, piece = first;

    sha256_begin(stream, digest_len, unrolled);
    while (done < len) {
        size_t n = piece < len - done ? piece : len - done;
        sha256_feed(stream, msg + done, n);
        done += n;
        piece = piece % max_piece + 1;
    }
    sha256_end(stream, out);
    sprintf(label, "%s.streamed.sha%d.%c", name, digest_len == SHA256_DIGEST ? 256 : 224,
            unrolled ? 'u' : 'd');
    put_bytes(label, out, digest_len);
}

static void show_macs(const char *name, const uint8_t *key, size_t key_len,
                      const uint8_t *data, size_t data_len)
{
    uint8_t mac[SHA256_DIGEST];
    char label[64];
    int unrolled;
    for (unrolled = 0; unrolled < 2; unrolled++) {
        sha256_mac(SHA256_DIGEST, unrolled, key, key_len, data, data_len, mac);
        sprintf(label, "%s.hmac256.%c", name, unrolled ? 'u' : 'd');
        put_bytes(label, mac, SHA256_DIGEST);
        sha256_mac(SHA224_DIGEST, unrolled, key, key_len, data, data_len, mac);
        sprintf(label, "%s.hmac224.%c", name, unrolled ? 'u' : 'd');
        put_bytes(label, mac, SHA224_DIGEST);
    }
}

/* ------------------------------------------------------------------ */
/* The fixed input                                                     */
/* ------------------------------------------------------------------ */

static uint32_t lcg_state;

static uint8_t lcg_byte(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (uint8_t)(lcg_state >> 24);
}

static const char *const fips_messages[4] = {
    "",
    "abc",
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
    "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
};

static void fixed_constants(void)
{
    uint32_t k[64], iv256[8], iv224[8];
    sha256_constants(k, iv256, iv224);
    put_words("K", k, 64);
    put_words("H0.sha256", iv256, 8);
    put_words("H0.sha224", iv224, 8);
    printf("functions %08lx %08lx %08lx %08lx\n",
           (unsigned long)sha256_function(4, 0x80000000u, 0, 0),
           (unsigned long)sha256_function(5, 0x00000400u, 0, 0),
           (unsigned long)sha256_function(2, 1u, 0, 0),
           (unsigned long)sha256_function(3, 1u, 0, 0));
}

/* one million repetitions of 'a', fed in pieces of 1..199 bytes */
static void fixed_million_a(void)
{
    static uint8_t chunk[200];
    uint8_t out[SHA256_DIGEST];
    size_t done = 0, piece = 1;
    int unrolled;

    memset(chunk, 'a', sizeof chunk);
    for (unrolled = 0; unrolled < 2; unrolled++) {
        sha256_begin(0, SHA256_DIGEST, unrolled);
        sha256_begin(1, SHA224_DIGEST, unrolled);
        done = 0;
        piece = 1;
        while (done < 1000000) {
            size_t n = piece < 1000000 - done ? piece : 1000000 - done;
            sha256_feed(0, chunk, n);
            sha256_feed(1, chunk, n);
            done += n;
            piece = piece % 199 + 1;
        }
        sha256_end(0, out);
        put_bytes(unrolled ? "million_a.sha256.u" : "million_a.sha256.d", out, SHA256_DIGEST);
        sha256_end(1, out);
        put_bytes(unrolled ? "million_a.sha224.u" : "million_a.sha224.d", out, SHA224_DIGEST);
    }
}

/* messages of every length 0..199; each SHA-256 digest is folded into the
 * next message, and the SHA-224 message is also hashed in three pieces */
static void fixed_length_chain(void)
{
    static uint8_t msg[SHA256_DIGEST + 200];
    uint8_t d256[SHA256_DIGEST], d224[SHA256_DIGEST];
    char label[48];
    int unrolled, len, i;

    for (unrolled = 0; unrolled < 2; unrolled++) {
        lcg_state = 0x5eed2563u;
        memset(d256, 0, sizeof d256);
        for (len = 0; len < 200; len++) {
            size_t n224 = (size_t)len + SHA256_DIGEST - 4;
            memcpy(msg, d256, SHA256_DIGEST);
            for (i = 0; i < len; i++)
                msg[SHA256_DIGEST + i] = lcg_byte();
            sha256_hash(SHA256_DIGEST, unrolled, msg, SHA256_DIGEST + (size_t)len, d256);
            sha256_hash(SHA224_DIGEST, unrolled, msg + 4, n224, d224);
            sprintf(label, "chain%d.%c.sha256", len, unrolled ? 'u' : 'd');
            put_bytes(label, d256, SHA256_DIGEST);
            sprintf(label, "chain%d.%c.sha224", len, unrolled ? 'u' : 'd');
            put_bytes(label, d224, SHA224_DIGEST);

            sha256_begin(2, SHA224_DIGEST, unrolled);
            sha256_feed(2, msg + 4, (size_t)len / 3);
            sha256_feed(2, msg + 4 + len / 3, (size_t)len / 2);
            sha256_feed(2, msg + 4 + len / 3 + len / 2, n224 - (size_t)(len / 3) - (size_t)(len / 2));
            sha256_end(2, d224);
            sprintf(label, "chain%d.%c.sha224_in_pieces", len, unrolled ? 'u' : 'd');
            put_bytes(label, d224, SHA224_DIGEST);
        }
    }
}

/* RFC 4231 test cases 1-7: key length and byte, data (or its length and byte) */
static void fixed_hmac(void)
{
    static const struct {
        int key_len;
        uint8_t key_byte;
        const char *data;
        int data_len;
        uint8_t data_byte;
    } cases[7] = {
        { 20, 0x0b, "Hi There", 8, 0 },
        { 4, 0, "what do ya want for nothing?", 28, 0 },
        { 20, 0xaa, NULL, 50, 0xdd },
        { 25, 0, NULL, 50, 0xcd },
        { 20, 0x0c, "Test With Truncation", 20, 0 },
        { 131, 0xaa, "Test Using Larger Than Block-Size Key - Hash Key First", 54, 0 },
        { 131, 0xaa, "This is a test using a larger than block-size key and a larger than "
                     "block-size data. The key needs to be hashed before being used by the "
                     "HMAC algorithm.", 152, 0 }
    };
    uint8_t key[131], data[160];
    char name[32];
    int v, i;

    for (v = 0; v < 7; v++) {
        for (i = 0; i < cases[v].key_len; i++)
            key[i] = cases[v].key_byte;
        if (v == 1)
            memcpy(key, "Jefe", 4);
        if (v == 3)
            for (i = 0; i < cases[v].key_len; i++)
                key[i] = (uint8_t)(i + 1);
        if (cases[v].data != NULL)
            memcpy(data, cases[v].data, (size_t)cases[v].data_len);
        else
            memset(data, cases[v].data_byte, (size_t)cases[v].data_len);
        sprintf(name, "rfc4231.case%d", v + 1);
        show_macs(name, key, (size_t)cases[v].key_len, data, (size_t)cases[v].data_len);
    }
}

static void run_fixed(void)
{
    char name[16];
    int v;
    fixed_constants();
    for (v = 0; v < 4; v++) {
        sprintf(name, "fips%d", v);
        show_digests(name, (const uint8_t *)fips_messages[v], strlen(fips_messages[v]));
    }
    fixed_million_a();
    fixed_length_chain();
    fixed_hmac();
}

/* ------------------------------------------------------------------ */
/* Seeded input                                                        */
/* ------------------------------------------------------------------ */

/* the seeded inputs' generator (splitmix64) */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int rng_range(int lo, int hi)
{
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

#define MAX_MESSAGE 4096

/* 0 random, 1 zeros, 2 all ones, 3 one repeated byte, 4 alternating
 * bytes, 5 a single set bit, 6 and 7 random */
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
            int at = rng_range(0, n - 1);
            p[at] = (uint8_t)(1u << rng_range(0, 7));
        }
        break;
    default:
        for (i = 0; i < n; i++)
            p[i] = (uint8_t)rng_next();
        break;
    }
}

/* message lengths: pattern 6 sits on the padding boundaries, 7 is long */
static int pattern_length(int pattern)
{
    static const int boundaries[12] = { 0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128 };
    if (pattern == 6) {
        int base = boundaries[rng_range(0, 11)];
        return base + 64 * rng_range(0, 2);
    }
    if (pattern == 7)
        return rng_range(1024, MAX_MESSAGE);
    return rng_range(0, 300);
}

static void seeded_functions(void)
{
    uint32_t vals[6 * 8];
    int f, i;
    for (f = 0; f < 6; f++)
        for (i = 0; i < 8; i++) {
            uint32_t x = i == 0 ? 0u : (i == 1 ? 0xFFFFFFFFu : (uint32_t)rng_next());
            uint32_t y = (uint32_t)rng_next(), z = (uint32_t)rng_next();
            vals[f * 8 + i] = sha256_function(f, x, y, z);
        }
    put_words("functions", vals, 6 * 8);
}

static void seeded_blocks(int pattern)
{
    uint8_t block[SHA256_BLOCK];
    uint32_t h0[8], h[8];
    char label[32];
    int k, i, unrolled;
    for (k = 0; k < 4; k++) {
        pattern_fill(k == 0 ? pattern : 0, block, SHA256_BLOCK);
        for (i = 0; i < 8; i++)
            h0[i] = (uint32_t)rng_next();
        for (unrolled = 0; unrolled < 2; unrolled++) {
            memcpy(h, h0, sizeof h);
            sha256_block(unrolled, h, block);
            sprintf(label, "block%d.%c", k, unrolled ? 'u' : 'd');
            put_words(label, h, 8);
        }
    }
}

/* the smallest operands and lengths of every interface call */
static void seeded_edges(int pattern)
{
    static const uint32_t operands[3] = { 0u, 1u, 0xFFFFFFFFu };
    static const int lengths[8] = { 0, 1, 2, 55, 56, 63, 64, 65 };
    static const int key_lengths[4] = { 0, 1, 64, 65 };
    uint32_t vals[6 * 27];
    uint8_t msg[80], key[80], out[SHA256_DIGEST];
    char name[32];
    int f, i, k, t;

    for (f = 0; f < 6; f++)
        for (i = 0; i < 27; i++)
            vals[f * 27 + i] = sha256_function(f, operands[i / 9], operands[i / 3 % 3], operands[i % 3]);
    put_words("edges.functions", vals, 6 * 27);

    pattern_fill(pattern, msg, (int)sizeof msg);
    for (i = 0; i < 8; i++) {
        sprintf(name, "edges.message_len%d", lengths[i]);
        show_digests(name, msg, (size_t)lengths[i]);
    }
    /* empty and one-byte pieces between the others */
    sha256_begin(3, SHA224_DIGEST, rng_range(0, 1));
    for (i = 0, k = 0; k < 70; i++) {
        t = i % 3 == 0 ? 0 : (i % 3 == 1 ? 1 : rng_range(2, 20));
        if (t > 70 - k)
            t = 70 - k;
        sha256_feed(3, msg + k, (size_t)t);
        k += t;
    }
    sha256_end(3, out);
    put_bytes("edges.streamed.sha224", out, SHA224_DIGEST);

    pattern_fill(pattern, key, (int)sizeof key);
    for (k = 0; k < 4; k++)
        for (t = 0; t < 2; t++) {
            sprintf(name, "edges.mac_key%d_text%d", key_lengths[k], t);
            show_macs(name, key, (size_t)key_lengths[k], msg, (size_t)t);
        }
}

static void run_seeded(uint64_t seed)
{
    static uint8_t msg[MAX_MESSAGE], key[300];
    int pattern = (int)(seed % 8), m, len, key_len;
    size_t first, max_piece;
    char name[32];

    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    seeded_functions();
    seeded_blocks(pattern);
    for (m = 0; m < 6; m++) {
        len = pattern_length(pattern);
        pattern_fill(pattern, msg, len);
        sprintf(name, "message%d", m);
        printf("%s.length %d\n", name, len);
        show_digests(name, msg, (size_t)len);
        first = (size_t)rng_range(1, 130);
        max_piece = (size_t)rng_range(1, 200);
        show_streamed(name, m & 3, m & 1 ? SHA224_DIGEST : SHA256_DIGEST, m >> 1 & 1, msg,
                      (size_t)len, first, max_piece);
    }
    for (m = 0; m < 3; m++) {
        key_len = m == 0 ? rng_range(0, 64) : (m == 1 ? rng_range(65, 300) : 64);
        len = pattern_length(pattern);
        pattern_fill(pattern, key, key_len);
        pattern_fill(m == 2 ? 0 : pattern, msg, len);
        sprintf(name, "mac%d", m);
        printf("%s.lengths %d %d\n", name, key_len, len);
        show_macs(name, key, (size_t)key_len, msg, (size_t)len);
    }
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
