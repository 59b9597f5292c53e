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
 * (the usual hardware-friendly form).  Every test is run with both.
 *
 * Self-check: the constant tables are re-derived from the primes, then the
 * FIPS 180 example messages ("abc", the 448- and 896-bit messages, one
 * million 'a'), the empty message, irregular streaming splits, a digest
 * chain over pseudo-random messages of every length 0..199 (expected value
 * computed once with an independently verified implementation) and the
 * HMAC vectors of RFC 4231 are checked.  The program prints the number of
 * mismatching digest bytes and returns it (saturated to 255).
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <math.h>

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

static int mismatches = 0;
static int checks = 0;

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
/* Checking helpers                                                    */
/* ------------------------------------------------------------------ */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return 0;
}

static void check_hex(const char *what, const uint8_t *got, const char *hex, int n)
{
    int i, bad = 0;
    if ((int)strlen(hex) != 2 * n) {
        printf("FAIL %-36s bad reference length\n", what);
        mismatches++;
        return;
    }
    for (i = 0; i < n; i++) {
        uint8_t e = (uint8_t)((hexval(hex[2 * i]) << 4) | hexval(hex[2 * i + 1]));
        if (got[i] != e)
            bad++;
    }
    checks++;
    if (bad) {
        printf("FAIL %-36s %d of %d bytes differ\n", what, bad, n);
        mismatches += bad;
    }
}

static void check_word(const char *what, uint32_t got, uint32_t expect)
{
    checks++;
    if (got != expect) {
        printf("FAIL %-36s got %08lx expected %08lx\n", what,
               (unsigned long)got, (unsigned long)expect);
        mismatches++;
    }
}

static uint32_t lcg_state;

static uint8_t lcg_byte(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (uint8_t)(lcg_state >> 24);
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static int is_prime(int n)
{
    int d;
    if (n < 2)
        return 0;
    for (d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

/* re-derive K and the SHA-256 initial value from the primes */
static void test_constants(void)
{
    int n = 2, found = 0, bad = 0;
    while (found < 64) {
        if (is_prime(n)) {
            double r = cbrt((double)n);
            uint32_t k = (uint32_t)((r - floor(r)) * 4294967296.0);
            if (k != K[found])
                bad++;
            if (found < 8) {
                double s = sqrt((double)n);
                uint32_t iv = (uint32_t)((s - floor(s)) * 4294967296.0);
                if (iv != sha256_iv[found])
                    bad++;
            }
            found++;
        }
        n++;
    }
    checks++;
    if (bad) {
        printf("FAIL %-36s %d constants differ\n", "K / H(0) from primes", bad);
        mismatches += bad;
    }
    check_word("small_sigma0(0x80000000)", small_sigma0(0x80000000u), 0x11002000u);
    check_word("small_sigma1(0x00000400)", small_sigma1(0x00000400u), 0x02800001u);
    check_word("big_sigma0(1)", big_sigma0(1u), 0x40080400u);
    check_word("big_sigma1(1)", big_sigma1(1u), 0x04200080u);
}

static const char *msg_abc = "abc";
static const char *msg_448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char *msg_896 =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
    "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

typedef struct {
    const char *name;
    const char *msg;
    const char *sha256;
    const char *sha224;
} digest_vector;

static const digest_vector digest_vectors[4] = {
    { "empty", "", 
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f" },
    { "abc", NULL, 
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7" },
    { "448-bit", NULL, 
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
      "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525" },
    { "896-bit", NULL, 
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
      "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3" }
};

static void test_examples(int unrolled)
{
    uint8_t out[SHA256_DIGEST];
    char name[64];
    const char *m;
    int v;

    for (v = 0; v < 4; v++) {
        m = digest_vectors[v].msg;
        if (v == 1) m = msg_abc;
        if (v == 2) m = msg_448;
        if (v == 3) m = msg_896;
        sha_digest(SHA256_DIGEST, unrolled, (const uint8_t *)m, strlen(m), out);
        sprintf(name, "SHA-256 %s (%s)", digest_vectors[v].name, unrolled ? "unrolled" : "direct");
        check_hex(name, out, digest_vectors[v].sha256, SHA256_DIGEST);
        sha_digest(SHA224_DIGEST, unrolled, (const uint8_t *)m, strlen(m), out);
        sprintf(name, "SHA-224 %s (%s)", digest_vectors[v].name, unrolled ? "unrolled" : "direct");
        check_hex(name, out, digest_vectors[v].sha224, SHA224_DIGEST);
    }
}

/* one million repetitions of 'a', fed in irregular pieces */
static void test_million_a(int unrolled)
{
    static uint8_t chunk[200];
    sha256_ctx c256, c224;
    uint8_t out[SHA256_DIGEST];
    size_t done = 0, piece = 1;

    memset(chunk, 'a', sizeof chunk);
    sha_init(&c256, SHA256_DIGEST, unrolled);
    sha_init(&c224, SHA224_DIGEST, unrolled);
    while (done < 1000000) {
        size_t n = piece;
        if (n > 1000000 - done)
            n = 1000000 - done;
        sha_update(&c256, chunk, n);
        sha_update(&c224, chunk, n);
        done += n;
        piece = piece % 199 + 1;
    }
    sha_final(&c256, out);
    check_hex(unrolled ? "SHA-256 million a (unrolled)" : "SHA-256 million a (direct)",
              out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", SHA256_DIGEST);
    sha_final(&c224, out);
    check_hex(unrolled ? "SHA-224 million a (unrolled)" : "SHA-224 million a (direct)",
              out, "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67", SHA224_DIGEST);
}

/* messages of every length 0..199 around the padding boundaries; each
 * digest is folded into the next message so that one value covers all */
static void test_length_chain(int unrolled)
{
    static uint8_t msg[SHA256_DIGEST + 200];
    uint8_t d256[SHA256_DIGEST], d224[SHA256_DIGEST];
    sha256_ctx split;
    uint8_t split_out[SHA256_DIGEST];
    int len, i, split_bad = 0;

    lcg_state = 0x5eed2563u;
    memset(d256, 0, sizeof d256);
    memset(d224, 0, sizeof d224);
    for (len = 0; len < 200; len++) {
        memcpy(msg, d256, SHA256_DIGEST);
        for (i = 0; i < len; i++)
            msg[SHA256_DIGEST + i] = lcg_byte();
        sha_digest(SHA256_DIGEST, unrolled, msg, SHA256_DIGEST + (size_t)len, d256);
        sha_digest(SHA224_DIGEST, unrolled, msg + 4, (size_t)len + SHA256_DIGEST - 4, d224);

        /* the same message hashed in three pieces must give the same digest */
        sha_init(&split, SHA224_DIGEST, unrolled);
        sha_update(&split, msg + 4, (size_t)len / 3);
        sha_update(&split, msg + 4 + len / 3, (size_t)len / 2);
        sha_update(&split, msg + 4 + len / 3 + len / 2, (size_t)(len - len / 3 - len / 2) + SHA256_DIGEST - 4);
        sha_final(&split, split_out);
        if (memcmp(split_out, d224, SHA224_DIGEST) != 0)
            split_bad++;
    }
    check_hex(unrolled ? "SHA-256 length chain (unrolled)" : "SHA-256 length chain (direct)",
              d256, "97515712c375f09f56cabf3c947dd42e2f631dd7c78c7077e315bab8b1075314", SHA256_DIGEST);
    check_hex(unrolled ? "SHA-224 length chain (unrolled)" : "SHA-224 length chain (direct)",
              d224, "99821f551d7c29421a61e5ea295c3df67fd84a6c2b3fe48f637ed008", SHA224_DIGEST);
    checks++;
    if (split_bad) {
        printf("FAIL %-36s %d lengths\n", "split updates", split_bad);
        mismatches += split_bad;
    }
}

/* RFC 4231 test cases 1-7 */
typedef struct {
    int key_len;
    uint8_t key_byte;           /* keys are runs of one byte, except case 2 and 4 */
    const char *data;
    int data_len;
    uint8_t data_byte;          /* used when data == NULL */
    int mac_len;                /* bytes compared (case 5 is truncated to 128 bits) */
    const char *hmac256;
    const char *hmac224;
} hmac_vector;

static const hmac_vector hmac_vectors[7] = {
    { 20, 0x0b, "Hi There", 8, 0, 32, 
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
      "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22" },
    { 4, 0, "what do ya want for nothing?", 28, 0, 32, 
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
      "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44" },
    { 20, 0xaa, NULL, 50, 0xdd, 32, 
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
      "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea" },
    { 25, 0, NULL, 50, 0xcd, 32, 
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
      "6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a" },
    { 20, 0x0c, "Test With Truncation", 20, 0, 16, 
      "a3b6167473100ee06e0c796c2955552b",
      "0e2aea68a90c8d37c988bcdb9fca6fa8" },
    { 131, 0xaa, "Test Using Larger Than Block-Size Key - Hash Key First", 54, 0, 32, 
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
      "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e" },
    { 131, 0xaa, "This is a test using a larger than block-size key and a larger than "
                 "block-size data. The key needs to be hashed before being used by the "
                 "HMAC algorithm.", 152, 0, 32, 
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
      "3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1" }
};

static void test_hmac(int unrolled)
{
    uint8_t key[131], data[160], mac[SHA256_DIGEST];
    char name[64];
    int v, i;

    for (v = 0; v < 7; v++) {
        const hmac_vector *hv = &hmac_vectors[v];
        for (i = 0; i < hv->key_len; i++)
            key[i] = hv->key_byte;
        if (v == 1)
            memcpy(key, "Jefe", 4);
        if (v == 3)
            for (i = 0; i < hv->key_len; i++)
                key[i] = (uint8_t)(i + 1);
        if (hv->data != NULL)
            memcpy(data, hv->data, (size_t)hv->data_len);
        else
            memset(data, hv->data_byte, (size_t)hv->data_len);

        hmac(SHA256_DIGEST, unrolled, key, (size_t)hv->key_len, data, (size_t)hv->data_len, mac);
        sprintf(name, "HMAC-SHA-256 RFC4231 case %d (%c)", v + 1, unrolled ? 'u' : 'd');
        check_hex(name, mac, hv->hmac256, hv->mac_len);
        hmac(SHA224_DIGEST, unrolled, key, (size_t)hv->key_len, data, (size_t)hv->data_len, mac);
        sprintf(name, "HMAC-SHA-224 RFC4231 case %d (%c)", v + 1, unrolled ? 'u' : 'd');
        check_hex(name, mac, hv->hmac224, hv->mac_len < SHA224_DIGEST ? hv->mac_len : SHA224_DIGEST);
    }
}

int main(void)
{
    int unrolled;

    test_constants();
    for (unrolled = 0; unrolled < 2; unrolled++) {
        test_examples(unrolled);
        test_million_a(unrolled);
        test_length_chain(unrolled);
        test_hmac(unrolled);
    }
    printf("SHA-256/224 self-test: %d checks\n", checks);
    printf("mismatches = %d\n", mismatches);
    return mismatches > 255 ? 255 : mismatches;
}
