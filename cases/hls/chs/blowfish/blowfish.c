/*
 * blowfish.c -- Blowfish block cipher (64-bit block, 32..448-bit key) with
 * ECB, CBC, CFB64 and OFB64 modes.
 *
 * Specification implemented:
 *   B. Schneier, "Description of a New Variable-Length Key, 64-Bit Block
 *   Cipher (Blowfish)", Fast Software Encryption, Cambridge Security
 *   Workshop, LNCS 809, Springer, 1994: 16-round Feistel network, the
 *   function F(x) = ((S1[a] + S2[b]) XOR S3[c]) + S4[d], and the key
 *   schedule that starts from the hexadecimal digits of pi and encrypts
 *   the all-zero block 521 times to replace the P-array and S-boxes.
 *   Modes of operation as in NIST SP 800-38A (CBC, 64-bit CFB, OFB).
 *
 * The 18 P-array words and the 4 x 256 S-box words are the first 8336
 * hexadecimal digits of the fractional part of pi.  They are not stored:
 * they are computed at start-up by summing the Bailey-Borwein-Plouffe series
 *     pi = sum_k 16^-k (4/(8k+1) - 2/(8k+4) - 1/(8k+5) - 1/(8k+6))
 * in multi-precision fixed-point arithmetic (30-bit limbs, exact long
 * division by the small denominators).
 *
 * Self-check: the generated digits are compared with the published first
 * words of the P-array and S-boxes and with a digest of all 1042 words;
 * then Eric Young's public Blowfish ECB test vectors, the variable key
 * length ("set_key") vectors, his CBC/CFB64/OFB64 vectors, round trips,
 * chained encryptions and long multi-mode buffers with recorded digests
 * are checked.  The program prints the number of mismatches and returns it
 * (saturated to 255) as exit status.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define BF_ROUNDS    16
#define BF_PWORDS    (BF_ROUNDS + 2)                 /* 18 */
#define BF_SWORDS    (4 * 256)                       /* 1024 */
#define PI_WORDS     (BF_PWORDS + BF_SWORDS)         /* 1042 32-bit words */
#define LIMB_BITS    30
#define GUARD_BITS   64
#define PI_LIMBS     ((32 * PI_WORDS + GUARD_BITS + LIMB_BITS - 1) / LIMB_BITS)

typedef struct {
    uint32_t P[BF_PWORDS];
    uint32_t S[4][256];
} bf_ctx;

static int mismatches = 0;
static int checks = 0;

/* pi_acc[0] is the integer part, pi_acc[1..PI_LIMBS] the 30-bit fraction limbs */
static int64_t pi_acc[PI_LIMBS + 1];
static uint32_t pi_words[PI_WORDS];

/* initial P-array and S-boxes (hexadecimal digits of pi) */
static uint32_t init_P[BF_PWORDS];
static uint32_t init_S[4][256];

/* ------------------------------------------------------------------ */
/* Hexadecimal digits of pi, BBP series in fixed point                 */
/* ------------------------------------------------------------------ */

/*
 * Add sign * num * 16^-k / den to the accumulator.  16^-k = 2^-(4k) is a
 * single bit at fraction bit 4k; it lies in limb q+1 with weight
 * 2^(30-r) where q = 4k / 30 and r = 4k mod 30.  The quotient limbs are
 * produced by ordinary long division, most significant first; carries
 * between limbs are resolved later by pi_normalize().
 */
static void bbp_add_term(int k, uint64_t num, uint64_t den, int sign)
{
    int q = (4 * k) / LIMB_BITS;
    int r = (4 * k) % LIMB_BITS;
    uint64_t rem = num << (LIMB_BITS - r);
    int j;

    for (j = q + 1; j <= PI_LIMBS && rem != 0; j++) {
        uint64_t quot = rem / den;
        rem -= quot * den;
        if (sign > 0)
            pi_acc[j] += (int64_t)quot;
        else
            pi_acc[j] -= (int64_t)quot;
        rem <<= LIMB_BITS;
    }
}

/* bring every fraction limb into 0 .. 2^30-1, pushing carries upwards */
static void pi_normalize(void)
{
    int j;
    for (j = PI_LIMBS; j >= 1; j--) {
        int64_t v = pi_acc[j];
        int64_t carry = v / (1LL << LIMB_BITS);
        if (v - carry * (1LL << LIMB_BITS) < 0)
            carry--;
        pi_acc[j] = v - carry * (1LL << LIMB_BITS);
        pi_acc[j - 1] += carry;
    }
}

/* regroup the 30-bit fraction limbs into big-endian 32-bit words */
static void pi_extract_words(void)
{
    uint64_t bits = 0;
    int nbits = 0, j, w = 0;

    for (j = 1; j <= PI_LIMBS && w < PI_WORDS; j++) {
        bits = (bits << LIMB_BITS) | (uint64_t)pi_acc[j];
        nbits += LIMB_BITS;
        if (nbits >= 32) {
            nbits -= 32;
            pi_words[w++] = (uint32_t)(bits >> nbits);
            bits &= ((uint64_t)1 << nbits) - 1;
        }
    }
}

/*
 * pi = sum_k 16^-k [ (16k+14) / ((8k+1)(8k+4)) - (16k+11) / ((8k+5)(8k+6)) ]
 * which is the BBP series with its four fractions combined in pairs, so
 * that each term costs two long divisions instead of four.
 */
static void compute_pi_words(void)
{
    int k, kmax;

    memset(pi_acc, 0, sizeof pi_acc);
    kmax = (LIMB_BITS * PI_LIMBS) / 4;
    for (k = 0; k <= kmax; k++) {
        uint64_t k8 = 8u * (uint64_t)k;
        bbp_add_term(k, 16u * (uint64_t)k + 14u, (k8 + 1u) * (k8 + 4u), +1);
        bbp_add_term(k, 16u * (uint64_t)k + 11u, (k8 + 5u) * (k8 + 6u), -1);
    }
    pi_normalize();
    pi_extract_words();
}

static void load_initial_state(void)
{
    int i, j;
    for (i = 0; i < BF_PWORDS; i++)
        init_P[i] = pi_words[i];
    for (i = 0; i < 4; i++)
        for (j = 0; j < 256; j++)
            init_S[i][j] = pi_words[BF_PWORDS + 256 * i + j];
}

/* ------------------------------------------------------------------ */
/* The cipher                                                          */
/* ------------------------------------------------------------------ */

static uint32_t bf_f(const bf_ctx *ctx, uint32_t x)
{
    uint32_t a = (x >> 24) & 0xff;
    uint32_t b = (x >> 16) & 0xff;
    uint32_t c = (x >> 8) & 0xff;
    uint32_t d = x & 0xff;
    return ((ctx->S[0][a] + ctx->S[1][b]) ^ ctx->S[2][c]) + ctx->S[3][d];
}

static void bf_encrypt_words(const bf_ctx *ctx, uint32_t *xl, uint32_t *xr)
{
    uint32_t L = *xl, R = *xr, t;
    int i;

    for (i = 0; i < BF_ROUNDS; i++) {
        L ^= ctx->P[i];
        R ^= bf_f(ctx, L);
        t = L;
        L = R;
        R = t;
    }
    t = L;          /* undo the last swap */
    L = R;
    R = t;
    R ^= ctx->P[BF_ROUNDS];
    L ^= ctx->P[BF_ROUNDS + 1];
    *xl = L;
    *xr = R;
}

static void bf_decrypt_words(const bf_ctx *ctx, uint32_t *xl, uint32_t *xr)
{
    uint32_t L = *xl, R = *xr, t;
    int i;

    for (i = BF_ROUNDS + 1; i > 1; i--) {
        L ^= ctx->P[i];
        R ^= bf_f(ctx, L);
        t = L;
        L = R;
        R = t;
    }
    t = L;
    L = R;
    R = t;
    R ^= ctx->P[1];
    L ^= ctx->P[0];
    *xl = L;
    *xr = R;
}

/* key: 1..56 bytes, used cyclically */
static void bf_set_key(bf_ctx *ctx, const uint8_t *key, int keylen)
{
    int i, j, k;
    uint32_t data, l, r;

    memcpy(ctx->P, init_P, sizeof ctx->P);
    memcpy(ctx->S, init_S, sizeof ctx->S);

    j = 0;
    for (i = 0; i < BF_PWORDS; i++) {
        data = 0;
        for (k = 0; k < 4; k++) {
            data = (data << 8) | key[j];
            j++;
            if (j >= keylen)
                j = 0;
        }
        ctx->P[i] ^= data;
    }

    l = 0;
    r = 0;
    for (i = 0; i < BF_PWORDS; i += 2) {
        bf_encrypt_words(ctx, &l, &r);
        ctx->P[i] = l;
        ctx->P[i + 1] = r;
    }
    for (i = 0; i < 4; i++) {
        for (j = 0; j < 256; j += 2) {
            bf_encrypt_words(ctx, &l, &r);
            ctx->S[i][j] = l;
            ctx->S[i][j + 1] = r;
        }
    }
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

static void bf_encrypt_block(const bf_ctx *ctx, const uint8_t *in, uint8_t *out)
{
    uint32_t l = load_be32(in), r = load_be32(in + 4);
    bf_encrypt_words(ctx, &l, &r);
    store_be32(out, l);
    store_be32(out + 4, r);
}

static void bf_decrypt_block(const bf_ctx *ctx, const uint8_t *in, uint8_t *out)
{
    uint32_t l = load_be32(in), r = load_be32(in + 4);
    bf_decrypt_words(ctx, &l, &r);
    store_be32(out, l);
    store_be32(out + 4, r);
}

/* ------------------------------------------------------------------ */
/* Modes of operation                                                  */
/* ------------------------------------------------------------------ */

static void bf_ecb(const bf_ctx *ctx, const uint8_t *in, uint8_t *out, int nblocks, int encrypt)
{
    int b;
    for (b = 0; b < nblocks; b++) {
        if (encrypt)
            bf_encrypt_block(ctx, in + 8 * b, out + 8 * b);
        else
            bf_decrypt_block(ctx, in + 8 * b, out + 8 * b);
    }
}

/* CBC; a partial final block is zero padded, so out must hold
 * the length rounded up to a multiple of 8 */
static void bf_cbc_encrypt(const bf_ctx *ctx, const uint8_t *iv, const uint8_t *in,
                           uint8_t *out, int len)
{
    uint8_t chain[8], blk[8];
    int n, i, take;

    memcpy(chain, iv, 8);
    for (n = 0; n < len; n += 8) {
        take = (len - n < 8) ? len - n : 8;
        for (i = 0; i < 8; i++)
            blk[i] = (uint8_t)(((i < take) ? in[n + i] : 0) ^ chain[i]);
        bf_encrypt_block(ctx, blk, out + n);
        memcpy(chain, out + n, 8);
    }
}

/* CBC decryption of len bytes (len a multiple of 8); in place allowed */
static void bf_cbc_decrypt(const bf_ctx *ctx, const uint8_t *iv, const uint8_t *in,
                           uint8_t *out, int len)
{
    uint8_t prev[8], save[8], blk[8];
    int n, i;

    memcpy(prev, iv, 8);
    for (n = 0; n < len; n += 8) {
        memcpy(save, in + n, 8);
        bf_decrypt_block(ctx, save, blk);
        for (i = 0; i < 8; i++)
            out[n + i] = blk[i] ^ prev[i];
        memcpy(prev, save, 8);
    }
}

/*
 * 64-bit CFB.  The register and the byte position *num persist between
 * calls, so a stream may be processed in pieces of any size.
 */
static void bf_cfb64(const bf_ctx *ctx, uint8_t *reg, int *num, const uint8_t *in,
                     uint8_t *out, int len, int encrypt)
{
    int n = *num, i;
    uint8_t c;

    for (i = 0; i < len; i++) {
        if (n == 0)
            bf_encrypt_block(ctx, reg, reg);
        if (encrypt) {
            c = in[i] ^ reg[n];
            out[i] = c;
            reg[n] = c;
        } else {
            c = in[i];
            out[i] = c ^ reg[n];
            reg[n] = c;
        }
        n = (n + 1) & 7;
    }
    *num = n;
}

/* 64-bit OFB; same operation in both directions */
static void bf_ofb64(const bf_ctx *ctx, uint8_t *reg, int *num, const uint8_t *in,
                     uint8_t *out, int len)
{
    int n = *num, i;

    for (i = 0; i < len; i++) {
        if (n == 0)
            bf_encrypt_block(ctx, reg, reg);
        out[i] = in[i] ^ reg[n];
        n = (n + 1) & 7;
    }
    *num = n;
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

static void check_bytes(const char *what, const uint8_t *got, const uint8_t *expect, int n)
{
    int i, bad = 0;
    for (i = 0; i < n; i++)
        if (got[i] != expect[i])
            bad++;
    checks++;
    if (bad) {
        printf("FAIL %-32s %d of %d bytes differ\n", what, bad, n);
        mismatches += bad;
    }
}

static void check_hex(const char *what, const uint8_t *got, const char *hex, int n)
{
    uint8_t expect[64];
    if (hex_to_bytes(hex, expect, (int)sizeof expect) != n) {
        printf("FAIL %-32s bad reference length\n", what);
        mismatches++;
        return;
    }
    check_bytes(what, got, expect, n);
}

static void check_word(const char *what, uint32_t got, uint32_t expect)
{
    checks++;
    if (got != expect) {
        printf("FAIL %-32s got %08lx expected %08lx\n", what,
               (unsigned long)got, (unsigned long)expect);
        mismatches++;
    }
}

/* CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) used for digests */
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

static uint32_t crc32_words(uint32_t crc, const uint32_t *w, int n)
{
    uint8_t b[4];
    int i;
    for (i = 0; i < n; i++) {
        store_be32(b, w[i]);
        crc = crc32_update(crc, b, 4);
    }
    return crc;
}

static uint32_t lcg_state;

static uint8_t lcg_byte(void)
{
    lcg_state = lcg_state * 22695477u + 1u;
    return (uint8_t)(lcg_state >> 16);
}

/* ------------------------------------------------------------------ */
/* Test data                                                           */
/* ------------------------------------------------------------------ */

/* Eric Young's Blowfish ECB test vectors: key, plaintext, ciphertext */
static const char *ecb_vectors[][3] = {
    { "0000000000000000", "0000000000000000", "4EF997456198DD78" },
    { "FFFFFFFFFFFFFFFF", "FFFFFFFFFFFFFFFF", "51866FD5B85ECB8A" },
    { "3000000000000000", "1000000000000001", "7D856F9A613063F2" },
    { "1111111111111111", "1111111111111111", "2466DD878B963C9D" },
    { "0123456789ABCDEF", "1111111111111111", "61F9C3802281B096" },
    { "1111111111111111", "0123456789ABCDEF", "7D0CC630AFDA1EC7" },
    { "FEDCBA9876543210", "0123456789ABCDEF", "0ACEAB0FC6A0A28D" },
    { "7CA110454A1A6E57", "01A1D6D039776742", "59C68245EB05282B" },
    { "0131D9619DC1376E", "5CD54CA83DEF57DA", "B1B8CC0B250F09A0" },
    { "07A1133E4A0B2686", "0248D43806F67172", "1730E5778BEA1DA4" },
    { "3849674C2602319E", "51454B582DDF440A", "A25E7856CF2651EB" },
    { "04B915BA43FEB5B6", "42FD443059577FA2", "353882B109CE8F1A" },
    { "0113B970FD34F2CE", "059B5E0851CF143A", "48F4D0884C379918" },
    { "0170F175468FB5E6", "0756D8E0774761D2", "432193B78951FC98" },
    { "43297FAD38E373FE", "762514B829BF486A", "13F04154D69D1AE5" },
    { "07A7137045DA2A16", "3BDD119049372802", "2EEDDA93FFD39C79" },
    { "04689104C2FD3B2F", "26955F6835AF609A", "D887E0393C2DA6E3" },
    { "37D06BB516CB7546", "164D5E404F275232", "5F99D04F5B163969" },
    { "1F08260D1AC2465E", "6B056E18759F5CCA", "4A057A3B24D3977B" },
    { "584023641ABA6176", "004BD6EF09176062", "452031C1E4FADA8E" },
    { "025816164629B007", "480D39006EE762F2", "7555AE39F59B87BD" },
    { "49793EBC79B3258F", "437540C8698F3CFA", "53C55F9CB49FC019" },
    { "4FB05E1515AB73A7", "072D43A077075292", "7A8E7BFA937E89A3" },
    { "49E95D6D4CA229BF", "02FE55778117F12A", "CF9C5D7A4986ADB5" },
    { "018310DC409B26D6", "1D9D5C5018F728C2", "D1ABB290658BC778" },
    { "1C587F1C13924FEF", "305532286D6F295A", "55CB3774D13EF201" },
    { "0101010101010101", "0123456789ABCDEF", "FA34EC4847B268B2" },
    { "1F1F1F1F0E0E0E0E", "0123456789ABCDEF", "A790795108EA3CAE" },
    { "E0FEE0FEF1FEF1FE", "0123456789ABCDEF", "C39E072D9FAC631D" },
    { "0000000000000000", "FFFFFFFFFFFFFFFF", "014933E0CDAFF6E4" },
    { "FFFFFFFFFFFFFFFF", "0000000000000000", "F21E9A77B71C49BC" },
    { "0123456789ABCDEF", "0000000000000000", "245946885754369A" },
    { "FEDCBA9876543210", "FFFFFFFFFFFFFFFF", "6B5C5A9C5D9E0A5A" }
};
#define N_ECB_VECTORS ((int)(sizeof ecb_vectors / sizeof ecb_vectors[0]))

/* variable key length: key = first n bytes of set_key_bytes, n = 1..24 */
static const char *set_key_bytes = "F0E1D2C3B4A5968778695A4B3C2D1E0F0011223344556677";
static const char *set_key_plain = "FEDCBA9876543210";
static const char *set_key_cipher[24] = {
    "F9AD597C49DB005E",
    "E91D21C1D961A6D6",
    "E9C2B70A1BC65CF3",
    "BE1E639408640F05",
    "B39E44481BDB1E6E",
    "9457AA83B1928C0D",
    "8BB77032F960629D",
    "E87A244E2CC85E82",
    "15750E7A4F4EC577",
    "122BA70B3AB64AE0",
    "3A833C9AFFC537F6",
    "9409DA87A90F6BF2",
    "884F80625060B8B4",
    "1F85031C19E11968",
    "79D9373A714CA34F",
    "93142887EE3BE15C",
    "03429E838CE2D14B",
    "A4299E27469FF67B",
    "AFD5AED1C1BC96A8",
    "10851C0E3858DA9F",
    "E6F51ED79B9DB21F",
    "64A6E14AFD36B46F",
    "80C7D7D45A5479AD",
    "05044B62FA52D080"
};

/* Eric Young's chaining-mode vectors */
static const char *mode_key = "0123456789ABCDEFF0E1D2C3B4A59687";
static const char *mode_iv = "FEDCBA9876543210";
static const char *mode_data = "7654321 Now is the time for ";   /* plus its NUL: 29 bytes */
static const char *cbc_cipher = "6B77B4D63006DEE605B156E27403979358DEB9E7154616D959F1652BD5FF92CC";
static const char *cfb_cipher = "E73214A2822139CAF26ECF6D2EB9E76E3DA3DE04D1517200519D57A6C3";
static const char *ofb_cipher = "E73214A2822139CA62B343CC5B65587310DD908D0C241B2263C2CF80DA";

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static void test_pi_digits(void)
{
    check_word("pi integer part", (uint32_t)pi_acc[0], 3u);
    check_word("P[0]", init_P[0], 0x243F6A88u);
    check_word("P[1]", init_P[1], 0x85A308D3u);
    check_word("P[2]", init_P[2], 0x13198A2Eu);
    check_word("P[3]", init_P[3], 0x03707344u);
    check_word("P[17]", init_P[17], 0x8979FB1Bu);
    check_word("S1[0]", init_S[0][0], 0xD1310BA6u);
    check_word("S1[1]", init_S[0][1], 0x98DFB5ACu);
    check_word("S2[0]", init_S[1][0], 0x4B7A70E9u);
    check_word("S3[0]", init_S[2][0], 0xE93D5A68u);
    check_word("S4[0]", init_S[3][0], 0x3A39CE37u);
    check_word("S4[255]", init_S[3][255], 0x3AC372E6u);
    check_word("digest of all pi words", crc32_words(0, pi_words, PI_WORDS), 0x83336cd0u);
}

static void test_ecb_vectors(void)
{
    bf_ctx ctx;
    uint8_t key[8], pt[8], ct[8], out[8];
    char name[48];
    int v;

    for (v = 0; v < N_ECB_VECTORS; v++) {
        hex_to_bytes(ecb_vectors[v][0], key, 8);
        hex_to_bytes(ecb_vectors[v][1], pt, 8);
        hex_to_bytes(ecb_vectors[v][2], ct, 8);
        bf_set_key(&ctx, key, 8);
        bf_encrypt_block(&ctx, pt, out);
        sprintf(name, "ECB vector %d encrypt", v + 1);
        check_bytes(name, out, ct, 8);
        bf_decrypt_block(&ctx, ct, out);
        sprintf(name, "ECB vector %d decrypt", v + 1);
        check_bytes(name, out, pt, 8);
    }
}

static void test_set_key(void)
{
    bf_ctx ctx;
    uint8_t key[24], pt[8], out[8];
    char name[48];
    int n;

    hex_to_bytes(set_key_bytes, key, 24);
    hex_to_bytes(set_key_plain, pt, 8);
    for (n = 1; n <= 24; n++) {
        bf_set_key(&ctx, key, n);
        bf_encrypt_block(&ctx, pt, out);
        sprintf(name, "set_key length %d", n);
        check_hex(name, out, set_key_cipher[n - 1], 8);
    }
}

static void test_modes(void)
{
    bf_ctx ctx;
    uint8_t key[16], iv[8], reg[8], data[32], out[32], back[32];
    int len = (int)strlen(mode_data) + 1;
    int num;

    hex_to_bytes(mode_key, key, 16);
    hex_to_bytes(mode_iv, iv, 8);
    memset(data, 0, sizeof data);
    memcpy(data, mode_data, (size_t)len);
    bf_set_key(&ctx, key, 16);

    /* CBC: 29 bytes, the last block zero padded -> 32 bytes */
    bf_cbc_encrypt(&ctx, iv, data, out, len);
    check_hex("CBC encrypt", out, cbc_cipher, 32);
    bf_cbc_decrypt(&ctx, iv, out, back, 32);
    check_bytes("CBC decrypt", back, data, 32);

    /* CFB64 in two pieces (13 + 16 bytes) */
    memcpy(reg, iv, 8);
    num = 0;
    bf_cfb64(&ctx, reg, &num, data, out, 13, 1);
    bf_cfb64(&ctx, reg, &num, data + 13, out + 13, len - 13, 1);
    check_hex("CFB64 encrypt", out, cfb_cipher, len);
    memcpy(reg, iv, 8);
    num = 0;
    bf_cfb64(&ctx, reg, &num, out, back, 5, 0);
    bf_cfb64(&ctx, reg, &num, out + 5, back + 5, len - 5, 0);
    check_bytes("CFB64 decrypt", back, data, len);

    /* OFB64 in three pieces */
    memcpy(reg, iv, 8);
    num = 0;
    bf_ofb64(&ctx, reg, &num, data, out, 3);
    bf_ofb64(&ctx, reg, &num, data + 3, out + 3, 8);
    bf_ofb64(&ctx, reg, &num, data + 11, out + 11, len - 11);
    check_hex("OFB64 encrypt", out, ofb_cipher, len);
    memcpy(reg, iv, 8);
    num = 0;
    bf_ofb64(&ctx, reg, &num, out, back, len);
    check_bytes("OFB64 decrypt", back, data, len);
}

/* the complete key-dependent state after one key schedule */
static void test_key_schedule_state(void)
{
    static const char *key_text = "Blowfish 448-bit key: 56 bytes of ASCII text, abcdefghij";
    bf_ctx ctx;
    uint32_t crc;
    int i;

    bf_set_key(&ctx, (const uint8_t *)key_text, 56);
    crc = crc32_words(0, ctx.P, BF_PWORDS);
    for (i = 0; i < 4; i++)
        crc = crc32_words(crc, ctx.S[i], 256);
    check_word("key schedule state digest", crc, 0x7a446dd5u);
    check_word("key schedule P[0]", ctx.P[0], 0x6a8f49b5u);
    check_word("key schedule S4[255]", ctx.S[3][255], 0xe568ba5du);
}

/* 10000 chained encryptions and the way back */
static void test_chain(void)
{
    bf_ctx ctx;
    uint32_t l = 0x01234567u, r = 0x89ABCDEFu;
    int it;

    bf_set_key(&ctx, (const uint8_t *)"chained blowfish", 16);
    for (it = 0; it < 10000; it++)
        bf_encrypt_words(&ctx, &l, &r);
    check_word("chain 10000 x encrypt (left)", l, 0x2cdbd917u);
    check_word("chain 10000 x encrypt (right)", r, 0xf6b4e578u);
    for (it = 0; it < 10000; it++)
        bf_decrypt_words(&ctx, &l, &r);
    check_word("chain back (left)", l, 0x01234567u);
    check_word("chain back (right)", r, 0x89ABCDEFu);
}

/* 4 KiB buffers through every mode, random keys of several lengths */
#define LONG_LEN 4096
static uint8_t long_plain[LONG_LEN];
static uint8_t long_ct[LONG_LEN];
static uint8_t long_back[LONG_LEN];

static void test_long_buffers(void)
{
    static const uint32_t expect[4] = { 0xe71aa441u, 0x45d4e792u, 0xb328dfcau, 0x44c07736u };
    bf_ctx ctx;
    uint8_t key[56], iv[8], reg[8];
    int i, pass, keylen, num, pos, piece;
    uint32_t crc;
    char name[48];

    lcg_state = 0xB10F15Bu;
    for (i = 0; i < LONG_LEN; i++)
        long_plain[i] = lcg_byte();

    for (pass = 0; pass < 4; pass++) {
        keylen = 4 + 17 * pass;            /* 4, 21, 38, 55 bytes */
        for (i = 0; i < keylen; i++)
            key[i] = lcg_byte();
        for (i = 0; i < 8; i++)
            iv[i] = lcg_byte();
        bf_set_key(&ctx, key, keylen);

        switch (pass) {
        case 0:
            bf_ecb(&ctx, long_plain, long_ct, LONG_LEN / 8, 1);
            bf_ecb(&ctx, long_ct, long_back, LONG_LEN / 8, 0);
            break;
        case 1:
            bf_cbc_encrypt(&ctx, iv, long_plain, long_ct, LONG_LEN);
            memcpy(long_back, long_ct, LONG_LEN);
            bf_cbc_decrypt(&ctx, iv, long_back, long_back, LONG_LEN);
            break;
        case 2:
            memcpy(reg, iv, 8);
            num = 0;
            for (pos = 0, piece = 1; pos < LONG_LEN; pos += piece, piece = piece % 23 + 1) {
                if (piece > LONG_LEN - pos)
                    piece = LONG_LEN - pos;
                bf_cfb64(&ctx, reg, &num, long_plain + pos, long_ct + pos, piece, 1);
            }
            memcpy(reg, iv, 8);
            num = 0;
            bf_cfb64(&ctx, reg, &num, long_ct, long_back, LONG_LEN, 0);
            break;
        default:
            memcpy(reg, iv, 8);
            num = 0;
            for (pos = 0, piece = 7; pos < LONG_LEN; pos += piece, piece = piece % 31 + 2) {
                if (piece > LONG_LEN - pos)
                    piece = LONG_LEN - pos;
                bf_ofb64(&ctx, reg, &num, long_plain + pos, long_ct + pos, piece);
            }
            memcpy(reg, iv, 8);
            num = 0;
            bf_ofb64(&ctx, reg, &num, long_ct, long_back, LONG_LEN);
            break;
        }
        crc = crc32_update(0, long_ct, LONG_LEN);
        sprintf(name, "4 KiB pass %d digest", pass);
        check_word(name, crc, expect[pass]);
        sprintf(name, "4 KiB pass %d round trip", pass);
        check_bytes(name, long_back, long_plain, LONG_LEN);
    }
}

int main(void)
{
    compute_pi_words();
    load_initial_state();

    test_pi_digits();
    test_ecb_vectors();
    test_set_key();
    test_modes();
    test_key_schedule_state();
    test_chain();
    test_long_buffers();

    printf("Blowfish self-test: %d checks\n", checks);
    printf("mismatches = %d\n", mismatches);
    return mismatches > 255 ? 255 : mismatches;
}
