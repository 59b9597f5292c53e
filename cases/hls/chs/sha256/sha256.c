/*
 * sha256.c -- SHA-256 and SHA-224 message digests and HMAC-SHA-256/224.
 *
 * Specification implemented:
 *   FIPS PUB 180-4, "Secure Hash Standard (SHS)", NIST, August 2015
 *     Sec. 4.1.2  functions Ch, Maj, Sigma0, Sigma1, sigma0, sigma1
 *     Sec. 4.2.2  constants K[0..63] (cube roots of the first 64 primes)
 *     Sec. 5.1.1  padding, Sec. 5.2.1 parsing into 512-bit blocks
 *     Sec. 5.3.2 / 5.3.3  initial hash values of SHA-224 and SHA-256
 *     Sec. 6.2 / 6.3  SHA-256 and SHA-224 hash computation
 *   FIPS PUB 198-1 / RFC 2104, HMAC; test cases from RFC 4231.
 *
 * Two compression functions are provided: a direct transcription of
 * Sec. 6.2.2 with a 64-word message schedule, and a variant that keeps the
 * schedule in a 16-word circular buffer and unrolls the rounds by eight
 * (the usual hardware-friendly form).  The driver runs every test with both.
 *
 * This file is the design.  Its interface (the functions at the end, all
 * named sha256_*) is exercised by the test driver sha256_test.c, which
 * feeds the messages and prints every digest, MAC and intermediate value;
 * the harness compares that output with the output of the known-good
 * design.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SHA256_BLOCK   64
#define SHA256_DIGEST  32
#define SHA224_DIGEST  28

typedef struct {
    uint32_t h[8];               /* intermediate hash value H(i) */
    uint64_t total_len;          /* message length so far, in bytes */
    uint8_t buf[SHA256_BLOCK];   /* partial block */
    size_t buflen;               /* bytes in buf */
    int digest_len;              /* 32 for SHA-256, 28 for SHA-224 */
    int unrolled;                /* which compression function to use */
} sha256_ctx;

/* Sec. 4.2.2: first 32 bits of the fractional parts of the cube roots of
 * the first sixty-four prime numbers */
static const uint32_t K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u,
    0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u,
    0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu,
    0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u,
    0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u,
    0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u,
    0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u
};

/* Sec. 5.3.3: first 32 bits of the fractional parts of the square roots of
 * the first eight primes */
static const uint32_t sha256_iv[8] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u
};

/* Sec. 5.3.2: second 32 bits of the fractional parts of the square roots of
 * the 9th through 16th primes */
static const uint32_t sha224_iv[8] = {
    0xc1059ed8u, 0x367cd507u, 0x3070dd17u, 0xf70e5939u,
    0xffc00b31u, 0x68581511u, 0x64f98fa7u, 0xbefa4fa4u
};

/* ------------------------------------------------------------------ */
/* Sec. 4.1.2 functions                                                */
/* ------------------------------------------------------------------ */

static uint32_t rotr(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static uint32_t ch(uint32_t x, uint32_t y, uint32_t z)
{
    return (x & y) ^ (~x & z);
}

static uint32_t maj(uint32_t x, uint32_t y, uint32_t z)
{
    return (x & y) ^ (x & z) ^ (y & z);
}

static uint32_t big_sigma0(uint32_t x)
{
    return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22);
}

static uint32_t big_sigma1(uint32_t x)
{
    return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25);
}

static uint32_t small_sigma0(uint32_t x)
{
    return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3);
}

static uint32_t small_sigma1(uint32_t x)
{
    return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10);
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
/* Compression function, Sec. 6.2.2 (64-word schedule)                 */
/* ------------------------------------------------------------------ */

static void sha256_compress(uint32_t h[8], const uint8_t *block)
{
    uint32_t W[64];
    uint32_t a, b, c, d, e, f, g, hh, T1, T2;
    int t;

    for (t = 0; t < 16; t++)
        W[t] = load_be32(block + 4 * t);
    for (t = 16; t < 64; t++)
        W[t] = small_sigma1(W[t - 2]) + W[t - 7] + small_sigma0(W[t - 15]) + W[t - 16];

    a = h[0]; b = h[1]; c = h[2]; d = h[3];
    e = h[4]; f = h[5]; g = h[6]; hh = h[7];

    for (t = 0; t < 64; t++) {
        T1 = hh + big_sigma1(e) + ch(e, f, g) + K[t] + W[t];
        T2 = big_sigma0(a) + maj(a, b, c);
        hh = g;
        g = f;
        f = e;
        e = d + T1;
        d = c;
        c = b;
        b = a;
        a = T1 + T2;
    }

    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

/* ------------------------------------------------------------------ */
/* Compression with a 16-word circular schedule, rounds unrolled by 8  */
/* The working variables rotate through v[] instead of being moved.    */
/* ------------------------------------------------------------------ */

static void round_step(uint32_t v[8], int ia, uint32_t kw)
{
    /* v[ia..ia+7] (mod 8) hold a, b, c, d, e, f, g, h of this round */
    uint32_t *pa = &v[ia & 7], *pb = &v[(ia + 1) & 7], *pc = &v[(ia + 2) & 7];
    uint32_t *pd = &v[(ia + 3) & 7], *pe = &v[(ia + 4) & 7], *pf = &v[(ia + 5) & 7];
    uint32_t *pg = &v[(ia + 6) & 7], *ph = &v[(ia + 7) & 7];
    uint32_t T1 = *ph + big_sigma1(*pe) + ch(*pe, *pf, *pg) + kw;
    uint32_t T2 = big_sigma0(*pa) + maj(*pa, *pb, *pc);
    *pd += T1;            /* becomes the new e */
    *ph = T1 + T2;        /* becomes the new a */
}

static uint32_t schedule_word(uint32_t X[16], int t)
{
    if (t >= 16)
        X[t & 15] += small_sigma1(X[(t - 2) & 15]) + X[(t - 7) & 15] +
                     small_sigma0(X[(t - 15) & 15]);
    return X[t & 15];
}

static void sha256_compress_unrolled(uint32_t h[8], const uint8_t *block)
{
    uint32_t X[16];
    uint32_t v[8];
    int t, i;

    for (i = 0; i < 16; i++)
        X[i] = load_be32(block + 4 * i);
    for (i = 0; i < 8; i++)
        v[i] = h[i];

    /* round t uses a = v[(-t) mod 8]; eight rounds bring it back to v[0] */
    for (t = 0; t < 64; t += 8) {
        round_step(v, 0, K[t + 0] + schedule_word(X, t + 0));
        round_step(v, 7, K[t + 1] + schedule_word(X, t + 1));
        round_step(v, 6, K[t + 2] + schedule_word(X, t + 2));
        round_step(v, 5, K[t + 3] + schedule_word(X, t + 3));
        round_step(v, 4, K[t + 4] + schedule_word(X, t + 4));
        round_step(v, 3, K[t + 5] + schedule_word(X, t + 5));
        round_step(v, 2, K[t + 6] + schedule_word(X, t + 6));
        round_step(v, 1, K[t + 7] + schedule_word(X, t + 7));
    }

    for (i = 0; i < 8; i++)
        h[i] += v[i];
}

/* ------------------------------------------------------------------ */
/* Streaming interface                                                 */
/* ------------------------------------------------------------------ */

static void process_block(sha256_ctx *ctx, const uint8_t *block)
{
    if (ctx->unrolled)
        sha256_compress_unrolled(ctx->h, block);
    else
        sha256_compress(ctx->h, block);
}

static void sha_init(sha256_ctx *ctx, int digest_len, int unrolled)
{
    int i;
    const uint32_t *iv = (digest_len == SHA224_DIGEST) ? sha224_iv : sha256_iv;
    for (i = 0; i < 8; i++)
        ctx->h[i] = iv[i];
    ctx->total_len = 0;
    ctx->buflen = 0;
    ctx->digest_len = digest_len;
    ctx->unrolled = unrolled;
}

static void sha_update(sha256_ctx *ctx, const uint8_t *data, size_t len)
{
    ctx->total_len += len;
    while (len > 0) {
        size_t take = SHA256_BLOCK - ctx->buflen;
        if (take > len)
            take = len;
        memcpy(ctx->buf + ctx->buflen, data, take);
        ctx->buflen += take;
        data += take;
        len -= take;
        if (ctx->buflen == SHA256_BLOCK) {
            process_block(ctx, ctx->buf);
            ctx->buflen = 0;
        }
    }
}

/* Sec. 5.1.1: append '1', zeros, and the 64-bit big-endian bit length */
static void sha_final(sha256_ctx *ctx, uint8_t *digest)
{
    uint64_t bit_len = ctx->total_len << 3;
    int i;

    ctx->buf[ctx->buflen++] = 0x80;
    if (ctx->buflen > SHA256_BLOCK - 8) {
        while (ctx->buflen < SHA256_BLOCK)
            ctx->buf[ctx->buflen++] = 0;
        process_block(ctx, ctx->buf);
        ctx->buflen = 0;
    }
    while (ctx->buflen < SHA256_BLOCK - 8)
        ctx->buf[ctx->buflen++] = 0;
    for (i = 0; i < 8; i++)
        ctx->buf[SHA256_BLOCK - 1 - i] = (uint8_t)(bit_len >> (8 * i));
    process_block(ctx, ctx->buf);

    for (i = 0; i < ctx->digest_len / 4; i++)
        store_be32(digest + 4 * i, ctx->h[i]);
}

static void sha_digest(int digest_len, int unrolled, const uint8_t *msg, size_t len, uint8_t *out)
{
    sha256_ctx ctx;
    sha_init(&ctx, digest_len, unrolled);
    sha_update(&ctx, msg, len);
    sha_final(&ctx, out);
}

/* ------------------------------------------------------------------ */
/* HMAC (FIPS 198-1): H((K0 ^ opad) || H((K0 ^ ipad) || text))          */
/* ------------------------------------------------------------------ */

static void hmac(int digest_len, int unrolled, const uint8_t *key, size_t key_len,
                 const uint8_t *text, size_t text_len, uint8_t *mac)
{
    uint8_t k0[SHA256_BLOCK];
    uint8_t k_ipad[SHA256_BLOCK], k_opad[SHA256_BLOCK];
    uint8_t inner[SHA256_DIGEST];
    sha256_ctx ctx;
    int i;

    memset(k0, 0, sizeof k0);
    if (key_len > SHA256_BLOCK)
        sha_digest(digest_len, unrolled, key, key_len, k0);
    else
        memcpy(k0, key, key_len);

    for (i = 0; i < SHA256_BLOCK; i++) {
        k_ipad[i] = k0[i] ^ 0x36;
        k_opad[i] = k0[i] ^ 0x5c;
    }

    sha_init(&ctx, digest_len, unrolled);
    sha_update(&ctx, k_ipad, SHA256_BLOCK);
    sha_update(&ctx, text, text_len);
    sha_final(&ctx, inner);

    sha_init(&ctx, digest_len, unrolled);
    sha_update(&ctx, k_opad, SHA256_BLOCK);
    sha_update(&ctx, inner, (size_t)digest_len);
    sha_final(&ctx, mac);
}

/* ------------------------------------------------------------------ */
/* Interface of the design (used by the test driver)                   */
/* digest_len is SHA256_DIGEST (32) or SHA224_DIGEST (28); unrolled    */
/* picks the compression function.                                    */
/* ------------------------------------------------------------------ */

#define STREAMS 4
static sha256_ctx streams[STREAMS];      /* contexts of the streaming interface */

void sha256_constants(uint32_t *k, uint32_t *iv256, uint32_t *iv224)
{
    memcpy(k, K, sizeof K);
    memcpy(iv256, sha256_iv, sizeof sha256_iv);
    memcpy(iv224, sha224_iv, sizeof sha224_iv);
}

/* Sec. 4.1.2: 0 Ch(x,y,z), 1 Maj(x,y,z), 2 Sigma0(x), 3 Sigma1(x),
 * 4 sigma0(x), 5 sigma1(x) */
uint32_t sha256_function(int which, uint32_t x, uint32_t y, uint32_t z)
{
    switch (which) {
    case 0: return ch(x, y, z);
    case 1: return maj(x, y, z);
    case 2: return big_sigma0(x);
    case 3: return big_sigma1(x);
    case 4: return small_sigma0(x);
    case 5: return small_sigma1(x);
    default: return 0;
    }
}

/* one compression of a 64-byte block into h[8] */
void sha256_block(int unrolled, uint32_t *h, const uint8_t *block)
{
    if (unrolled)
        sha256_compress_unrolled(h, block);
    else
        sha256_compress(h, block);
}

void sha256_hash(int digest_len, int unrolled, const uint8_t *msg, size_t len, uint8_t *out)
{
    sha_digest(digest_len, unrolled, msg, len, out);
}

/* streaming: up to STREAMS (4) messages in progress at once */
void sha256_begin(int stream, int digest_len, int unrolled)
{
    sha_init(&streams[stream % STREAMS], digest_len, unrolled);
}

void sha256_feed(int stream, const uint8_t *data, size_t len)
{
    sha_update(&streams[stream % STREAMS], data, len);
}

void sha256_end(int stream, uint8_t *digest)
{
    sha_final(&streams[stream % STREAMS], digest);
}

void sha256_mac(int digest_len, int unrolled, const uint8_t *key, size_t key_len,
                const uint8_t *text, size_t text_len, uint8_t *mac)
{
    hmac(digest_len, unrolled, key, key_len, text, text_len, mac);
}
