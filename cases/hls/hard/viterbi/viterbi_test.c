/*
 * viterbi_test.c -- test driver for the convolutional codec pair.
 *
 * The driver belongs to the harness: it feeds the inputs and prints every
 * result the design computes (trellis tables, free distances, coded and
 * punctured streams, channel outputs, path metrics step by step, survivor
 * decisions, decoded frames and their statistics).  It judges nothing
 * itself; the harness compares the printed output with that of the
 * known-good design.
 *
 *   ./prog            the fixed vectors: the K=7 (171, 133) and K=3 (7, 5)
 *                     codes, every K=3 and K=4 generator pair, every
 *                     termination, metric and puncturing rate, traceback
 *                     depths 1..120, frames of 0..1024 bits, noiseless and
 *                     over every channel
 *   ./prog --seed N   inputs generated from N (N >= 1): random codes of
 *                     every constraint length, configurations, frames,
 *                     channels and received symbols, with degenerate
 *                     patterns chosen by N % 8 (zeros, ones, alternating,
 *                     single bits, bursts, shortest and longest frames)
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "link.h"

#define ZERO_HASH_SEED 0x873fe25bu       /* the seed whose hash is 0 in ch_seed */

static uint8_t bits_in[CC_MAX_BITS], bits_out[CC_MAX_BITS];
static uint8_t coded[CC_MAX_CODED], punct[CC_MAX_CODED], rx[CC_MAX_CODED], sym[CC_MAX_CODED];

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

/* bits as hex digits, four bits a digit, first bit in the top bit */
static void put_bits(const char *label, const uint8_t *b, int n)
{
    int i;

    printf("%s %d", label, n);
    for (i = 0; i < n; i += 4) {
        int v = 0, j;
        for (j = 0; j < 4; j++)
            v = (v << 1) | (i + j < n ? (b[i + j] & 1) : 0);
        if (i % 256 == 0)
            printf("\n ");
        printf("%x", v);
    }
    printf("\n");
}

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

static void put_u16s(const char *label, const uint16_t *p, int n)
{
    int i;

    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 16 == 0)
            printf("\n");
        printf(" %u", p[i]);
    }
    printf("\n");
}

static void put_result(const char *label, const vit_result *r)
{
    printf("%s nbits %d steps %d final %d flush %d metric %lu norms %d corrected %d cost %lu\n", label,
           r->nbits, r->steps, r->final_state, r->flush_state, (unsigned long)r->metric, r->norm_count,
           r->corrected, (unsigned long)r->path_cost);
}

static void put_stats(const char *label, const ch_stats *st)
{
    printf("%s errors %d first %d last %d longest %d bursts %d\n", label, st->errors, st->first, st->last,
           st->longest, st->bursts);
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

/* the fixed vectors' pseudo-random values (linear congruential generator) */
static uint32_t lcg_state = 12345u;

static uint32_t lcg_next(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return lcg_state;
}

static void lcg_bits(uint8_t *b, int n)
{
    int i;

    for (i = 0; i < n; i++)
        b[i] = (uint8_t)((lcg_next() >> 16) & 1u);
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

/* a value in lo..hi, the ends themselves one time in eight */
static int rng_range(int lo, int hi)
{
    int pick = rng_below(16);

    if (pick == 0)
        return lo;
    if (pick == 1)
        return hi;
    return lo + rng_below(hi - lo + 1);
}

/* a frame's bits in one of the degenerate patterns (0 random, 1 zeros, 2 ones,
 * 3 alternating, 4 one set bit, 5 bursts of ones, 6 and 7 random) */
static void pattern_bits(int pattern, uint8_t *b, int n)
{
    int i, at = n > 0 ? rng_below(n) : 0, len = 1 + rng_below(12);

    for (i = 0; i < n; i++) {
        switch (pattern) {
        case 1:
            b[i] = 0;
            break;
        case 2:
            b[i] = 1;
            break;
        case 3:
            b[i] = (uint8_t)((i + at) & 1);
            break;
        case 4:
            b[i] = (uint8_t)(i == at);
            break;
        case 5:
            b[i] = (uint8_t)((i / len) % 3 == 0);
            break;
        default:
            b[i] = (uint8_t)(rng_next() >> 63);
            break;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Codes and the encoder                                               */
/* ------------------------------------------------------------------ */

static void show_parity(void)
{
    static const uint32_t words[] = { 0u, 1u, 2u, 3u, 0x10u, 0x100u, 0x10000u, 0x80000000u, 0xffffffffu,
                                      0x7fffffffu, 0x12345678u, 0x0f0f0f0fu, 0xf0000001u, 0x00ff00ffu };
    int i;

    printf("parity");
    for (i = 0; i < (int)(sizeof words / sizeof words[0]); i++)
        printf(" %d", cc_parity(words[i]));
    for (i = 0; i < 64; i++)
        printf(" %d", cc_parity(lcg_next()));
    printf("\n");
}

static void show_code(const char *name, const cc_code *c)
{
    static const int horizons[] = { 64, 40, 12, 8, 7, 6, 5, 3, 2, 1, 0, 65 };
    int s, h, len;

    printf("%s k %d states %d poly %o %o catastrophic %d\n", name, c->k, c->nstates, c->poly[0], c->poly[1],
           cc_catastrophic(c));
    for (s = 0; s < c->nstates; s++)
        printf("%s.state %d next %d %d out %d %d\n", name, s, c->next[s][0], c->next[s][1], c->out[s][0],
               c->out[s][1]);
    for (h = 0; h < (int)(sizeof horizons / sizeof horizons[0]); h++) {
        int d;
        len = -7;
        d = cc_free_distance(c, horizons[h], &len);
        printf("%s.dfree horizon %d distance %d length %d\n", name, horizons[h], d, len);
    }
}

/* cc_init over every generator pair of a constraint length */
static void show_all_pairs(int k)
{
    unsigned g0, g1;
    cc_code c;

    printf("pairs k %d\n", k);
    for (g0 = 0; g0 <= (1u << k); g0++) {
        printf(" g0 %o:", g0);
        for (g1 = 0; g1 <= (1u << k); g1++) {
            int rc = cc_init(&c, k, g0, g1), len = 0, d = 0;
            if (rc == 0)
                d = cc_free_distance(&c, CC_MAX_FREE, &len);
            printf(" %d/%d/%d/%d", rc, d, len, rc == 0 ? cc_catastrophic(&c) : -1);
        }
        printf("\n");
    }
}

static void show_init_errors(void)
{
    static const int args[][3] = { { 2, 07, 05 }, { 8, 0171, 0133 }, { 0, 1, 1 }, { -1, 1, 1 }, { 3, 0, 5 },
                                   { 3, 8, 5 }, { 3, 7, 0 }, { 3, 7, 8 }, { 3, 3, 1 }, { 3, 6, 4 }, { 3, 4, 1 },
                                   { 7, 0100, 0001 }, { 7, 0200, 0133 }, { 7, 0177, 0177 }, { 6, 077, 040 } };
    cc_code c;
    int i;

    for (i = 0; i < (int)(sizeof args / sizeof args[0]); i++)
        printf("init k %d g %o %o rc %d\n", args[i][0], args[i][1], args[i][2],
               cc_init(&c, args[i][0], (unsigned)args[i][1], (unsigned)args[i][2]));
}

static void show_polys(void)
{
    unsigned a, b;

    printf("degree");
    for (a = 0; a < 20; a++)
        printf(" %d", cc_degree(a));
    printf(" %d %d %d\n", cc_degree(0x80000000u), cc_degree(0xffffffffu), cc_degree(0x10000u));
    for (a = 0; a < 16; a++) {
        printf("gcd %u:", a);
        for (b = 0; b < 16; b++)
            printf(" %u", cc_poly_gcd(a, b));
        printf("\n");
    }
    for (a = 0; a < 32; a++) {
        printf("mod %u:", a);
        for (b = 1; b < 12; b++)
            printf(" %u", cc_poly_mod(a, b));
        printf("\n");
    }
    printf("gcd wide %u %u %u\n", cc_poly_gcd(0171u, 0133u), cc_poly_gcd(0x1234567u, 0x89abu),
           cc_poly_gcd(0xc0000000u, 0x60000000u));
}

/* encodes a frame in every termination and prints stream and end state */
static void show_encode(const char *name, const cc_code *c, const uint8_t *b, int n)
{
    char label[96];
    int term;

    for (term = -1; term <= 3; term++) {
        int end = -9, len = cc_encode(c, term, b, n, coded, &end);
        printf("%s.encode n %d term %d len %d end %d coded_len %d\n", name, n, term, len, end,
               cc_coded_len(c, term, n));
        if (len > 0) {
            sprintf(label, "%s.coded.t%d.n%d", name, term, n);
            put_bits(label, coded, len);
        }
    }
    printf("%s.tb_state n %d %d\n", name, n, cc_tb_state(c, b, n));
}

/* the stream encoded in two pieces equals the stream encoded at once */
static void show_encode_pieces(const char *name, const cc_code *c, const uint8_t *b, int n, int cut)
{
    int state = 5 % c->nstates, first, second;

    first = cc_encode_run(c, &state, b, cut, coded);
    printf("%s.pieces cut %d state %d", name, cut, state);
    second = cc_encode_run(c, &state, b + cut, n - cut, coded + first);
    printf(" state %d len %d\n", state, first + second);
    put_bits("pieces", coded, first + second);
}

static void fixed_codes(void)
{
    static const int lengths[] = { 0, 1, 2, 3, 5, 6, 7, 8, 13, 64 };
    cc_code k7, k3, cat;
    int i, j;

    cc_k7(&k7);
    cc_k3(&k3);
    show_parity();
    show_code("k7", &k7);
    show_code("k3", &k3);
    if (cc_init(&cat, 3, 06u, 05u) == 0)
        show_code("k3cat", &cat);
    if (cc_init(&cat, 5, 023u, 035u) == 0)
        show_code("k5", &cat);
    if (cc_init(&cat, 4, 017u, 013u) == 0)
        show_code("k4", &cat);
    if (cc_init(&cat, 6, 053u, 075u) == 0)
        show_code("k6", &cat);
    show_all_pairs(3);
    show_all_pairs(4);
    show_init_errors();
    show_polys();

    for (i = 0; i < (int)(sizeof lengths / sizeof lengths[0]); i++) {
        int n = lengths[i];
        memset(bits_in, 0, sizeof bits_in);
        if (n > 0)
            bits_in[0] = 1;
        show_encode("k7.impulse", &k7, bits_in, n);
        show_encode("k3.impulse", &k3, bits_in, n);
        memset(bits_in, 1, (size_t)n);
        show_encode("k7.ones", &k7, bits_in, n);
        lcg_bits(bits_in, n);
        show_encode("k7.lcg", &k7, bits_in, n);
        show_encode("k3.lcg", &k3, bits_in, n);
    }
    for (i = 1; i <= 12; i++) {
        for (j = 0; j < 4; j++) {
            lcg_bits(bits_in, i);
            printf("tb_state k7 n %d %d k3 %d\n", i, cc_tb_state(&k7, bits_in, i), cc_tb_state(&k3, bits_in, i));
        }
    }
    memset(bits_in, 0, 8);
    printf("tb_state n 0 %d\n", cc_tb_state(&k7, bits_in, 0));
    printf("encode too long %d %d\n", cc_encode(&k7, CC_TRUNC, bits_in, CC_MAX_BITS + 1, coded, 0),
           cc_coded_len(&k7, CC_ZERO_TERM, -1));
    lcg_bits(bits_in, CC_MAX_BITS);
    show_encode("k7.max", &k7, bits_in, CC_MAX_BITS);
    show_encode_pieces("k7", &k7, bits_in, 100, 37);
    show_encode_pieces("k3", &k3, bits_in, 30, 0);
    bits_in[3] = 0xfe;                          /* only bit 0 of an input byte counts */
    show_encode("k7.bytes", &k7, bits_in, 8);
}

/* ------------------------------------------------------------------ */
/* Puncturing                                                          */
/* ------------------------------------------------------------------ */

static void fixed_puncture(void)
{
    int rate, pos, n, phase, num, den;

    for (rate = -1; rate <= 4; rate++) {
        num = -5;
        den = -5;
        printf("rate %d period %d kept %d ratio %d", rate, pc_period(rate), pc_kept(rate),
               pc_ratio(rate, &num, &den));
        printf(" %d/%d keep", num, den);
        for (pos = -1; pos < 22; pos++)
            printf(" %d", pc_keep(rate, pos));
        printf("\n");
        for (phase = -1; phase < 12; phase++) {
            printf("rate %d phase %d lens", rate, phase);
            for (n = -1; n < 26; n++)
                printf(" %d", pc_punctured_len(rate, n, phase));
            printf("\n");
        }
    }
    lcg_bits(coded, 200);
    for (rate = -1; rate <= 4; rate++) {
        for (phase = 0; phase < 11; phase += 3) {
            int sent = pc_puncture(rate, phase, coded, 97, punct), used, i;
            char label[64];
            printf("puncture rate %d phase %d sent %d\n", rate, phase, sent);
            if (sent < 0)
                continue;
            sprintf(label, "punct.r%d.p%d", rate, phase);
            put_bits(label, punct, sent);
            used = pc_depuncture(rate, phase, punct, sent, sym, 97);
            printf("depuncture used %d", used);
            for (i = 0; i < 97; i++)
                printf("%s", sym[i] == SYM_ERASED ? "x" : (sym[i] ? "1" : "0"));
            printf("\n");
            printf("depuncture short %d\n", pc_depuncture(rate, phase, punct, sent - 1, sym, 97));
            printf("depuncture exact-prefix %d %d\n", pc_depuncture(rate, phase, punct, sent, sym, 0),
                   pc_depuncture(rate, phase, punct, 0, sym, 1));
        }
    }
    printf("puncture errors %d %d %d %d\n", pc_puncture(0, -1, coded, 4, punct), pc_puncture(0, 0, coded, -1, punct),
           pc_depuncture(1, -1, coded, 4, sym, 4), pc_depuncture(1, 0, coded, 4, sym, -1));
}

/* ------------------------------------------------------------------ */
/* The channel                                                         */
/* ------------------------------------------------------------------ */

static void fixed_channel(void)
{
    static const uint32_t seeds[] = { 0u, 1u, 2u, 0xffffffffu, ZERO_HASH_SEED, 0x80000000u };
    static const uint32_t belows[] = { 0u, 1u, 2u, 3u, 10u, 1000u, 0x80000000u, 0xffffffffu };
    static const int32_t ys[] = { 0, 1, -1, 2147483647, -2147483647 - 1, 1000000, -1000000 };
    static const int32_t steps[] = { -5, 0, 1, 2, 3, 5, 64, 2147483647 };
    static const uint32_t bursts[][4] = { { 0, 0, 0, 0 }, { 65536, 65536, 0, 65536 }, { 3000, 20000, 100, 40000 },
                                          { 65536, 0, 0, 30000 }, { 500, 65535, 65535, 1 } };
    ch_rng r;
    ch_stats st;
    int i, j, a, b;
    int32_t sum = 0;
    int64_t sq = 0;

    for (i = 0; i < (int)(sizeof seeds / sizeof seeds[0]); i++) {
        ch_seed(&r, seeds[i]);
        printf("rng seed %lu state %lu:", (unsigned long)seeds[i], (unsigned long)r.s);
        for (j = 0; j < 8; j++)
            printf(" %08lx", (unsigned long)ch_next(&r));
        printf("\n");
    }
    ch_seed(&r, 7u);
    printf("below");
    for (i = 0; i < (int)(sizeof belows / sizeof belows[0]); i++)
        for (j = 0; j < 4; j++)
            printf(" %lu", (unsigned long)ch_below(&r, belows[i]));
    printf("\n");
    for (a = -13; a <= 13; a++) {
        printf("floordiv %d:", a);
        for (b = 1; b <= 5; b++)
            printf(" %ld", (long)ch_floordiv(a, b));
        printf("\n");
    }
    printf("floordiv extremes %ld %ld %ld %ld\n", (long)ch_floordiv(-2147483647 - 1, 1),
           (long)ch_floordiv(-2147483647 - 1, 2147483647), (long)ch_floordiv(2147483647, 2),
           (long)ch_floordiv(-2147483647, 2));
    ch_seed(&r, 99u);
    printf("gauss");
    for (i = 0; i < 24; i++)
        printf(" %ld", (long)ch_gauss(&r));
    printf("\n");
    for (i = 0; i < 4096; i++) {
        int32_t g = ch_gauss(&r);
        sum += g;
        sq += (int64_t)g * g;
    }
    printf("gauss sum %ld sumsq %lld\n", (long)sum, (long long)sq);
    for (j = 0; j < (int)(sizeof steps / sizeof steps[0]); j++) {
        printf("quantize step %ld:", (long)steps[j]);
        for (a = -30; a <= 30; a++)
            printf(" %d", ch_quantize(a, steps[j]));
        for (i = 0; i < (int)(sizeof ys / sizeof ys[0]); i++)
            printf(" %d", ch_quantize(ys[i], steps[j]));
        printf("\n");
    }

    lcg_bits(coded, 300);
    for (i = 0; i < 5; i++) {
        static const uint32_t ps[] = { 0u, 1u, 6553u, 65535u, 65536u };
        int f;
        ch_seed(&r, (uint32_t)i);
        f = ch_bsc(&r, ps[i], coded, 300, rx);
        printf("bsc p %lu flips %d\n", (unsigned long)ps[i], f);
        put_bits("bsc", rx, 300);
        ch_count_errors(coded, rx, 300, &st);
        put_stats("bsc.stats", &st);
    }
    for (i = 0; i < (int)(sizeof bursts / sizeof bursts[0]); i++) {
        int f;
        ch_seed(&r, 100u + (uint32_t)i);
        f = ch_burst(&r, bursts[i], coded, 300, rx);
        printf("burst %d flips %d\n", i, f);
        put_bits("burst", rx, 300);
        ch_count_errors(coded, rx, 300, &st);
        put_stats("burst.stats", &st);
    }
    for (i = 0; i < 6; i++) {
        static const int32_t amps[] = { 100, 100, 100, 0, 1000000, 7 };
        static const int32_t sigmas[] = { 0, 40, 150, 100, 1000000, 3 };
        static const int32_t qsteps[] = { 50, 50, 30, 1, 250000, 0 };
        int raw;
        ch_seed(&r, 200u + (uint32_t)i);
        raw = ch_awgn(&r, amps[i], sigmas[i], qsteps[i], coded, 300, rx);
        printf("awgn amp %ld sigma %ld step %ld raw %d\n", (long)amps[i], (long)sigmas[i], (long)qsteps[i], raw);
        put_bytes("awgn", rx, 300);
        rx[5] = SYM_ERASED;
        ch_hard(rx, 300, punct);
        put_bytes("hard", punct, 300);
    }
    {
        static const uint8_t x[] = { 0, 1, 1, 0, 1, 1, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1 };
        static const uint8_t y[] = { 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0 };
        for (i = 0; i <= 16; i += 4) {
            ch_count_errors(x, y, i, &st);
            put_stats("count", &st);
        }
        ch_count_errors(x, x, 16, &st);
        put_stats("count.same", &st);
        ch_count_errors(x + 1, y, 15, &st);
        put_stats("count.shift", &st);
    }
}

/* ------------------------------------------------------------------ */
/* Survivor memory and traceback                                       */
/* ------------------------------------------------------------------ */

static void show_walk(const char *name, const tb_mem *m, int k, int state, int t, int count)
{
    uint8_t out[VIT_RING + 2];
    int end;

    memset(out, 0xee, sizeof out);
    end = tb_walk(m, k, state, t, count, out);
    printf("%s walk k %d state %d t %d count %d end %d nobits %d\n", name, k, state, t, count, end,
           tb_walk(m, k, state, t, count, 0));
    if (end >= 0)
        put_bits(name, out, count);
}

static void fixed_traceback(void)
{
    static tb_mem m;
    uint16_t pm[CC_MAX_STATES];
    int k, s, i;

    for (k = CC_MIN_K; k <= CC_MAX_K; k++) {
        printf("prev k %d:", k);
        for (s = 0; s < (1 << (k - 1)); s++)
            printf(" %d,%d,%d", tb_prev(s, 0, k), tb_prev(s, 1, k), tb_bit(s, k));
        printf("\n");
    }
    for (s = 0; s < CC_MAX_STATES; s++)
        pm[s] = (uint16_t)(100 + (s * 37) % 11);
    printf("best %d %d %d", tb_best(pm, 64), tb_best(pm, 1), tb_best(pm, 5));
    pm[40] = 3;
    pm[50] = 3;
    pm[63] = 2;
    printf(" %d %d %d", tb_best(pm, 64), tb_best(pm, 63), tb_best(pm, 45));
    pm[0] = 2;
    printf(" %d %d\n", tb_best(pm, 64), tb_best(pm, 2));

    memset(&m, 0x5a, sizeof m);
    tb_clear(&m);
    printf("tb clear count %d dec %llx %llx\n", m.count, (unsigned long long)m.dec[0],
           (unsigned long long)m.dec[VIT_RING - 1]);
    show_walk("tb.empty", &m, 7, 5, 0, 1);
    show_walk("tb.none", &m, 7, 5, -1, 0);
    for (i = 0; i < 40; i++) {
        uint64_t w = (uint64_t)lcg_next() << 32;
        tb_store(&m, w ^ lcg_next());
    }
    printf("tb count %d decisions", m.count);
    for (i = 0; i < 40; i += 13)
        for (s = 0; s < 64; s += 21)
            printf(" %d", tb_decision(&m, i, s));
    printf("\n");
    show_walk("tb.a", &m, 7, 63, 39, 40);
    show_walk("tb.b", &m, 7, 17, 39, 41);
    show_walk("tb.c", &m, 3, 2, 20, 10);
    show_walk("tb.d", &m, 5, 9, 40, 3);
    show_walk("tb.e", &m, 6, 31, 0, 1);
    show_walk("tb.f", &m, 4, 7, 12, 0);
    show_walk("tb.g", &m, 7, 40, 10, -1);
    for (i = 0; i < 100; i++) {
        uint64_t w = (uint64_t)lcg_next() << 32;
        tb_store(&m, w ^ lcg_next());
    }
    show_walk("tb.h", &m, 7, 33, 139, 128);
    show_walk("tb.i", &m, 7, 33, 139, 129);
    show_walk("tb.j", &m, 7, 1, 11, 0);
    show_walk("tb.k", &m, 7, 1, 12, 1);
    show_walk("tb.l", &m, 7, 62, 100, 89);
    show_walk("tb.m", &m, 7, 62, 100, 90);
}

/* ------------------------------------------------------------------ */
/* The decoder                                                         */
/* ------------------------------------------------------------------ */

static void fixed_metrics(void)
{
    static const uint8_t syms[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x7f, 0x80, 0xfe, 0xff };
    uint16_t bm[4];
    uint8_t pair[2];
    int metric, i, j;

    for (metric = -1; metric <= 2; metric++) {
        printf("bm metric %d:", metric);
        for (i = 0; i < (int)sizeof syms; i++)
            printf(" %d,%d", vit_branch_metric(metric, syms[i], 0), vit_branch_metric(metric, syms[i], 1));
        printf(" %d %d %d %d\n", vit_branch_metric(metric, 3, 2), vit_branch_metric(metric, 3, -1),
               vit_branch_metric(metric, 0, -1), vit_branch_metric(metric, 0, 2));
    }
    for (metric = 0; metric <= 1; metric++) {
        for (i = 0; i < (int)sizeof syms; i++) {
            printf("bt metric %d sym %02x:", metric, syms[i]);
            for (j = 0; j < (int)sizeof syms; j++) {
                pair[0] = syms[i];
                pair[1] = syms[j];
                vit_branch_table(metric, pair, bm);
                printf(" %u/%u/%u/%u", bm[0], bm[1], bm[2], bm[3]);
            }
            printf("\n");
        }
    }
}

static void fixed_check(void)
{
    cc_code k7, k3, bad;
    vit_cfg base, c;
    int i, rc;

    cc_k7(&k7);
    cc_k3(&k3);
    base.code = &k7;
    base.metric = VIT_SOFT;
    base.term = CC_TAIL_BITE;
    base.depth = 35;
    base.wrap = 20;
    base.norm = 512;
    printf("check base %d %d %d %d %d\n", vit_check(&base, 1), vit_check(&base, 0), vit_check(&base, -1),
           vit_check(&base, CC_MAX_BITS), vit_check(&base, CC_MAX_BITS + 1));
    c = base;
    c.term = CC_TRUNC;
    printf("check trunc n0 %d\n", vit_check(&c, 0));
    c.term = CC_ZERO_TERM;
    printf("check zt n0 %d n-1 %d\n", vit_check(&c, 0), vit_check(&c, -1));
    for (i = -2; i <= 3; i++) {
        c = base;
        c.term = i;
        rc = vit_check(&c, 10);
        printf("check term %d %d", i, rc);
        c = base;
        c.metric = i;
        printf(" metric %d", vit_check(&c, 10));
        printf("\n");
    }
    for (i = -1; i <= 2; i++) {
        c = base;
        c.depth = i;
        printf("check depth %d %d", i, vit_check(&c, 10));
        c.depth = VIT_MAX_DEPTH - 1 + i;
        printf(" depth %d %d", c.depth, vit_check(&c, 10));
        c = base;
        c.wrap = i;
        printf(" wrap %d %d", i, vit_check(&c, 10));
        c.wrap = VIT_MAX_DEPTH - 1 + i;
        printf(" wrap %d %d\n", c.wrap, vit_check(&c, 10));
    }
    c = base;
    c.norm = 0xc000;
    printf("check norm %d", vit_check(&c, 5));
    c.norm = 0xc001;
    printf(" %d", vit_check(&c, 5));
    c.norm = 0xffff;
    printf(" %d", vit_check(&c, 5));
    c.norm = 0;
    printf(" %d\n", vit_check(&c, 5));
    c = base;
    c.code = 0;
    printf("check null %d\n", vit_check(&c, 5));
    for (i = 1; i <= 9; i++) {
        bad = k3;
        bad.k = i;
        c = base;
        c.code = &bad;
        printf("check k %d %d\n", i, vit_check(&c, 5));
    }
    c = base;
    c.depth = 0;
    c.wrap = -1;
    printf("check decode rc %d\n", vit_decode(&c, sym, 5, bits_out, 0));
    c = base;
    c.code = &k3;
    printf("check decode_punctured rc %d %d\n", vit_decode_punctured(&c, PC_RATE_3_4, 0, rx, 3, 5, bits_out, 0),
           vit_decode_punctured(&c, PC_RATE_3_4, 0, rx, 100, -1, bits_out, 0));
}

/* steps the decoder by hand, printing every metric and decision word */
static void trace_steps(const char *name, const vit_cfg *cfg, int start, const uint8_t *pairs, int nsteps)
{
    uint16_t pm[CC_MAX_STATES];
    int t, rc;

    rc = vit_begin(cfg, start);
    printf("%s begin start %d rc %d last %llx\n", name, start, rc, (unsigned long long)vit_last_decisions());
    if (rc != 0)
        return;
    vit_metrics(pm);
    put_u16s(name, pm, cfg->code->nstates);
    for (t = 0; t < nsteps; t++) {
        char label[64];
        vit_step(pairs + 2 * t);
        vit_metrics(pm);
        sprintf(label, "%s.t%d dec %llx offset %lu", name, t, (unsigned long long)vit_last_decisions(),
                (unsigned long)vit_offset());
        put_u16s(label, pm, cfg->code->nstates);
    }
}

static void fixed_traces(void)
{
    static const uint8_t hard[] = { 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0xff, 1, 1, 0xff,
                                    0, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 1 };
    static const uint8_t soft[] = { 7, 6, 5, 1, 0, 2, 3, 4, 6, 7, 0, 5, 7, 1, 3, 3, 6, 4, 2, 0, 0xff, 7, 5, 0xff,
                                    0, 1, 9, 0, 200, 7, 4, 4, 3, 3, 7, 0 };
    static const uint16_t norms[] = { 0, 1, 2, 3, 4, 7, 12, 300, 0xc000 };
    static uint8_t wide[2 * 40];
    cc_code k7, k3;
    vit_cfg c;
    int i;

    cc_k7(&k7);
    cc_k3(&k3);
    c.code = &k3;
    c.term = CC_TRUNC;
    c.depth = 10;
    c.wrap = 0;
    for (i = 0; i < (int)(sizeof norms / sizeof norms[0]); i++) {
        char name[32];
        c.norm = norms[i];
        c.metric = VIT_HARD;
        sprintf(name, "trace.hard.n%u", norms[i]);
        trace_steps(name, &c, 0, hard, 18);
        c.metric = VIT_SOFT;
        sprintf(name, "trace.soft.n%u", norms[i]);
        trace_steps(name, &c, 0, soft, 18);
    }
    c.norm = 5;
    c.metric = VIT_SOFT;
    trace_steps("trace.start-1", &c, -1, soft, 6);
    trace_steps("trace.start3", &c, 3, soft, 6);
    trace_steps("trace.start4", &c, 4, soft, 6);
    trace_steps("trace.start100", &c, 100, soft, 1);
    trace_steps("trace.start-2", &c, -2, soft, 1);
    c.code = &k7;
    trace_steps("trace.k7.start63", &c, 63, soft, 18);
    trace_steps("trace.k7.start64", &c, 64, soft, 2);
    c.norm = 0;
    for (i = 0; i < 80; i++)
        wide[i] = (uint8_t)(lcg_next() >> 29);
    trace_steps("trace.k7.wide", &c, 0, wide, 40);
    c.metric = VIT_HARD;
    c.norm = 3;
    for (i = 0; i < 80; i++)
        wide[i] = (uint8_t)((lcg_next() >> 20) % 3 == 0 ? SYM_ERASED : (lcg_next() >> 31));
    trace_steps("trace.k7.hard", &c, -1, wide, 40);
}

/* encodes a frame, optionally damages it, decodes it and prints everything */
static void decode_frame(const char *name, const vit_cfg *c, const uint8_t *b, int n, int flips, int soft_levels)
{
    vit_result res;
    ch_stats st;
    int len = cc_encode(c->code, c->term, b, n, coded, 0), i, rc;
    char label[128];

    for (i = 0; i < len; i++)
        sym[i] = soft_levels ? (uint8_t)(coded[i] ? SOFT_MAX : 0) : coded[i];
    for (i = 0; i < flips && len > 0; i++) {
        int at = (int)(lcg_next() % (uint32_t)len);
        sym[at] = soft_levels ? (uint8_t)((lcg_next() >> 16) % 8) : (uint8_t)(sym[at] ^ 1);
    }
    memset(bits_out, 0xee, sizeof bits_out);
    memset(&res, 0xee, sizeof res);
    rc = vit_decode(c, sym, n, bits_out, &res);
    sprintf(label, "%s.m%d.t%d.d%d.w%d.r%u.n%d.f%d", name, c->metric, c->term, c->depth, c->wrap, c->norm, n, flips);
    printf("%s rc %d\n", label, rc);
    if (rc != 0)
        return;
    put_result(label, &res);
    put_bits(label, bits_out, n);
    ch_count_errors(b, bits_out, n, &st);
    put_stats(label, &st);
}

static void fixed_decode(void)
{
    static const int lengths[] = { 0, 1, 2, 3, 6, 7, 9, 40, 131 };
    static const int depths[] = { 1, 2, 5, 6, 35, 120 };
    cc_code codes[2];
    vit_cfg c;
    int ci, term, metric, di, li;

    cc_k3(&codes[0]);
    cc_k7(&codes[1]);
    for (ci = 0; ci < 2; ci++) {
        c.code = &codes[ci];
        for (term = 0; term < 3; term++) {
            for (metric = 0; metric < 2; metric++) {
                for (di = 0; di < (int)(sizeof depths / sizeof depths[0]); di++) {
                    for (li = 0; li < (int)(sizeof lengths / sizeof lengths[0]); li++) {
                        int n = lengths[li];
                        c.term = term;
                        c.metric = metric;
                        c.depth = depths[di];
                        c.wrap = (di * 7) % 25;
                        c.norm = (uint16_t)(di * 13);
                        lcg_bits(bits_in, n);
                        decode_frame(ci ? "k7" : "k3", &c, bits_in, n, 0, metric);
                        decode_frame(ci ? "k7" : "k3", &c, bits_in, n, 1 + n / 12, metric);
                    }
                }
            }
        }
    }
    /* long frames with many errors, big depths, tail-biting wrap limits */
    c.code = &codes[1];
    for (term = 0; term < 3; term++) {
        for (metric = 0; metric < 2; metric++) {
            c.term = term;
            c.metric = metric;
            c.depth = 120;
            c.wrap = 120;
            c.norm = 0xc000;
            lcg_bits(bits_in, CC_MAX_BITS);
            decode_frame("k7.max", &c, bits_in, CC_MAX_BITS, 90, metric);
            c.depth = 42;
            c.wrap = 1;
            c.norm = 1;
            decode_frame("k7.max", &c, bits_in, CC_MAX_BITS, 300, metric);
            c.depth = 119;
            c.wrap = 119;
            c.norm = 100;
            decode_frame("k7.long", &c, bits_in, 500, 40, metric);
            c.wrap = 0;
            decode_frame("k7.long", &c, bits_in, 500, 40, metric);
        }
    }
    /* garbage that no encoder made */
    c.code = &codes[1];
    c.term = CC_TAIL_BITE;
    c.metric = VIT_SOFT;
    c.depth = 30;
    c.wrap = 50;
    c.norm = 64;
    {
        vit_result res;
        int i;
        for (i = 0; i < 2 * 200; i++)
            sym[i] = (uint8_t)(lcg_next() >> 24);
        memset(bits_out, 0xee, sizeof bits_out);
        printf("garbage rc %d\n", vit_decode(&c, sym, 200, bits_out, &res));
        put_result("garbage", &res);
        put_bits("garbage", bits_out, 200);
        c.metric = VIT_HARD;
        printf("garbage.hard rc %d\n", vit_decode(&c, sym, 200, bits_out, &res));
        put_result("garbage.hard", &res);
        put_bits("garbage.hard", bits_out, 200);
    }
}

/* one frame through the whole chain */
static void run_link(const char *name, const link_cfg *lc, const vit_cfg *vc, const uint8_t *b, int n)
{
    link_result res;
    char label[160];
    int rc;

    memset(bits_out, 0xee, sizeof bits_out);
    memset(&res, 0xee, sizeof res);
    rc = link_run(lc, vc, b, n, bits_out, &res);
    sprintf(label, "%s.ch%d.s%lu.r%d.p%d.m%d.t%d.d%d.w%d.k%d", name, lc->channel, (unsigned long)lc->seed, lc->rate,
            lc->phase, vc->metric, vc->term, vc->depth, vc->wrap, vc->code->k);
    printf("%s rc %d\n", label, rc);
    if (rc != 0)
        return;
    printf("%s coded %d sent %d end %d raw %d used %d\n", label, res.coded, res.sent, res.end_state, res.raw_errors,
           res.used);
    put_result(label, &res.dec);
    put_bits(label, bits_out, n);
    put_stats(label, &res.errs);
}

static void fixed_link(void)
{
    static const link_cfg chans[] = {
        { LINK_NONE, 1, { 0, 0, 0, 0 }, 0, 0, 0, 0, 0 },
        { LINK_BSC, 2, { 2000, 0, 0, 0 }, 0, 0, 0, 0, 0 },
        { LINK_BSC, 3, { 5000, 0, 0, 0 }, 0, 0, 0, 0, 0 },
        { LINK_BURST, 4, { 800, 9000, 50, 25000 }, 0, 0, 0, 0, 0 },
        { LINK_AWGN, 5, { 0, 0, 0, 0 }, 100, 70, 40, 0, 0 },
        { LINK_AWGN, 6, { 0, 0, 0, 0 }, 100, 110, 35, 0, 0 },
        { LINK_AWGN, ZERO_HASH_SEED, { 0, 0, 0, 0 }, 100, 90, 40, 0, 0 },
        { 9, 7, { 0, 0, 0, 0 }, 0, 0, 0, 0, 0 },
    };
    cc_code k7, k3;
    vit_cfg vc;
    link_cfg lc;
    int i, rate, term, metric;

    cc_k7(&k7);
    cc_k3(&k3);
    for (i = 0; i < (int)(sizeof chans / sizeof chans[0]); i++) {
        for (rate = 0; rate < 4; rate++) {
            for (term = 0; term < 3; term++) {
                for (metric = 0; metric < 2; metric++) {
                    lc = chans[i];
                    lc.rate = rate;
                    lc.phase = (i + term) % 7;
                    vc.code = (i + rate) % 3 == 2 ? &k3 : &k7;
                    vc.metric = metric;
                    vc.term = term;
                    vc.depth = 20 + 15 * rate;
                    vc.wrap = 8 * (term + i);
                    vc.norm = (uint16_t)(37 * i);
                    lcg_bits(bits_in, 240);
                    run_link("link", &lc, &vc, bits_in, 240);
                }
            }
        }
    }
    lc = chans[5];
    vc.code = &k7;
    vc.metric = VIT_SOFT;
    vc.term = CC_ZERO_TERM;
    vc.depth = 96;
    vc.wrap = 0;
    vc.norm = 1000;
    lcg_bits(bits_in, CC_MAX_BITS);
    run_link("link.max", &lc, &vc, bits_in, CC_MAX_BITS);
    lc.rate = 4;
    run_link("link.badrate", &lc, &vc, bits_in, 10);
    lc.rate = 0;
    run_link("link.toolong", &lc, &vc, bits_in, CC_MAX_BITS + 1);
    vc.depth = 0;
    run_link("link.baddepth", &lc, &vc, bits_in, 10);
}

static void run_fixed(void)
{
    fixed_codes();
    fixed_puncture();
    fixed_channel();
    fixed_traceback();
    fixed_metrics();
    fixed_check();
    fixed_traces();
    fixed_decode();
    fixed_link();
}

/* ------------------------------------------------------------------ */
/* Seeded inputs                                                       */
/* ------------------------------------------------------------------ */

/* a random code: a preset, or any generator pair cc_init accepts */
static void seeded_code(cc_code *c)
{
    int pick = rng_below(4);

    if (pick == 0) {
        cc_k7(c);
    } else if (pick == 1) {
        cc_k3(c);
    } else {
        int k = rng_range(CC_MIN_K, CC_MAX_K), rc;
        do {
            unsigned g0 = (unsigned)rng_below(1 << k);
            unsigned g1 = (unsigned)rng_below(1 << k);
            rc = cc_init(c, k, g0, g1);
        } while (rc != 0);
    }
}

static uint16_t seeded_norm(void)
{
    switch (rng_below(6)) {
    case 0:
        return 0;
    case 1:
        return (uint16_t)rng_range(1, 8);
    case 2:
        return 0xc000;
    case 3:
        return (uint16_t)rng_below(64);
    default:
        return (uint16_t)rng_below(0xc001);
    }
}

static int seeded_length(int pattern, int term)
{
    int lo = term == CC_TAIL_BITE ? 1 : 0;

    if (pattern == 6)
        return rng_range(lo, 9);
    if (pattern == 7)
        return rng_range(CC_MAX_BITS - 40, CC_MAX_BITS);
    return rng_range(lo, rng_below(3) == 0 ? CC_MAX_BITS : 200);
}

static void seeded_units(int pattern)
{
    cc_code c;
    uint8_t pair[2];
    uint16_t bm[4];
    int i;

    printf("parity");
    for (i = 0; i < 32; i++)
        printf(" %d", cc_parity((uint32_t)rng_next()));
    printf("\n");
    for (i = 0; i < 24; i++) {
        int k = rng_range(1, 9), len = 0;
        unsigned g0 = (unsigned)rng_below(300), g1 = (unsigned)rng_below(300);
        int rc = cc_init(&c, k, g0, g1);
        printf("init k %d g %o %o rc %d", k, g0, g1, rc);
        if (rc == 0) {
            int d = cc_free_distance(&c, rng_range(0, 65), &len);
            printf(" dfree %d len %d cat %d", d, len, cc_catastrophic(&c));
        }
        printf("\n");
    }
    printf("gcd");
    for (i = 0; i < 16; i++) {
        unsigned a = (unsigned)rng_next(), b = (unsigned)rng_next();
        b >>= rng_below(32);
        printf(" %u,%u", cc_poly_gcd(a, b), b ? cc_poly_mod(a, b) : 0u);
    }
    printf("\n");
    printf("quantize");
    for (i = 0; i < 32; i++) {
        int32_t y = (int32_t)(uint32_t)rng_next();
        int32_t step = rng_below(2) ? (int32_t)(uint32_t)rng_next() : rng_range(-3, 40);
        if (rng_below(2))
            y >>= rng_below(31);
        printf(" %d", ch_quantize(y, step));
    }
    printf("\nfloordiv");
    for (i = 0; i < 16; i++) {
        int32_t a = (int32_t)(uint32_t)rng_next();
        int32_t b = rng_below(2) ? (int32_t)(rng_next() >> 33) + 1 : rng_range(1, 9);
        printf(" %ld", (long)ch_floordiv(a, b));
    }
    printf("\nmetrics");
    for (i = 0; i < 24; i++) {
        int metric = rng_below(2);
        pair[0] = rng_below(4) == 0 ? SYM_ERASED : (uint8_t)rng_below(pattern == 5 ? 256 : 9);
        pair[1] = rng_below(4) == 0 ? SYM_ERASED : (uint8_t)rng_below(9);
        vit_branch_table(metric, pair, bm);
        printf(" %u/%u/%u/%u", bm[0], bm[1], bm[2], bm[3]);
    }
    printf("\n");
}

/* a configuration that vit_check may refuse */
static void seeded_check(void)
{
    cc_code c;
    vit_cfg v;
    int i;

    cc_k3(&c);
    for (i = 0; i < 12; i++) {
        int n = rng_range(-2, CC_MAX_BITS + 2);
        v.code = &c;
        c.k = rng_below(8) == 0 ? rng_range(0, 9) : 3;
        v.metric = rng_range(-1, 2);
        v.term = rng_range(-1, 3);
        v.depth = rng_range(-1, VIT_MAX_DEPTH + 1);
        v.wrap = rng_range(-1, VIT_MAX_DEPTH + 1);
        v.norm = (uint16_t)rng_range(0xbfff, 0xc002);
        printf("check n %d k %d m %d t %d d %d w %d r %u -> %d\n", n, c.k, v.metric, v.term, v.depth, v.wrap, v.norm,
               vit_check(&v, n));
    }
}

/* stepping by hand with random symbols and configurations */
static void seeded_trace(int pattern)
{
    static uint8_t pairs[2 * 24];
    cc_code c;
    vit_cfg v;
    int i, nsteps = rng_range(1, 24), start;

    seeded_code(&c);
    v.code = &c;
    v.metric = rng_below(2);
    v.term = CC_TRUNC;
    v.depth = 1;
    v.wrap = 0;
    v.norm = rng_below(2) ? (uint16_t)rng_below(6) : seeded_norm();
    for (i = 0; i < 2 * nsteps; i++) {
        if (rng_below(6) == 0)
            pairs[i] = SYM_ERASED;
        else if (pattern == 5)
            pairs[i] = (uint8_t)rng_next();
        else
            pairs[i] = (uint8_t)rng_below(v.metric == VIT_SOFT ? 8 : 2);
    }
    start = rng_below(8) == 0 ? rng_range(-3, 200) : rng_range(-1, c.nstates);
    trace_steps("seed.trace", &v, start, pairs, nsteps);
}

/* random received symbols straight into the decoder */
static void seeded_garbage(int pattern)
{
    cc_code c;
    vit_cfg v;
    vit_result res;
    int n, len, i, rc;

    seeded_code(&c);
    v.code = &c;
    v.metric = rng_below(2);
    v.term = rng_below(3);
    v.depth = rng_range(1, VIT_MAX_DEPTH);
    v.wrap = rng_range(0, VIT_MAX_DEPTH);
    v.norm = seeded_norm();
    n = seeded_length(pattern, v.term);
    len = cc_coded_len(&c, v.term, n);
    for (i = 0; i < len; i++) {
        int pick = rng_below(10);
        if (pick == 0)
            sym[i] = SYM_ERASED;
        else if (pick == 1)
            sym[i] = (uint8_t)rng_next();
        else
            sym[i] = (uint8_t)rng_below(v.metric == VIT_SOFT ? 8 : 2);
    }
    memset(bits_out, 0xee, sizeof bits_out);
    memset(&res, 0xee, sizeof res);
    rc = vit_decode(&v, sym, n, bits_out, &res);
    printf("seed.garbage k %d m %d t %d d %d w %d r %u n %d rc %d\n", c.k, v.metric, v.term, v.depth, v.wrap, v.norm,
           n, rc);
    put_result("seed.garbage", &res);
    put_bits("seed.garbage", bits_out, n);
}

/* random traceback walks over a random survivor memory */
static void seeded_walks(void)
{
    static tb_mem m;
    int i, stores = rng_range(0, 300);

    tb_clear(&m);
    for (i = 0; i < stores; i++)
        tb_store(&m, rng_next());
    for (i = 0; i < 6; i++) {
        int k = rng_range(CC_MIN_K, CC_MAX_K);
        int t = rng_range(-1, stores);
        int count = rng_range(0, t + 2 < VIT_RING + 1 ? t + 2 : VIT_RING + 1);
        show_walk("seed.walk", &m, k, rng_below(1 << (k - 1)), t, count);
    }
}

/* one frame through the chain with everything random */
static void seeded_frame(int pattern, int index)
{
    cc_code c;
    vit_cfg v;
    link_cfg lc;
    char name[32];
    int n;

    seeded_code(&c);
    v.code = &c;
    v.metric = rng_below(2);
    v.term = rng_below(3);
    v.depth = rng_range(1, VIT_MAX_DEPTH);
    v.wrap = rng_range(0, VIT_MAX_DEPTH);
    v.norm = seeded_norm();
    n = seeded_length(pattern, v.term);
    pattern_bits(pattern, bits_in, n);
    memset(&lc, 0, sizeof lc);
    lc.channel = rng_below(4);
    lc.seed = rng_below(8) == 0 ? ZERO_HASH_SEED : (uint32_t)rng_next();
    lc.p16[0] = (uint32_t)rng_range(0, 65536);
    lc.p16[0] >>= rng_below(6);
    lc.p16[1] = (uint32_t)rng_range(0, 65536);
    lc.p16[2] = (uint32_t)rng_range(0, 65536);
    lc.p16[2] >>= rng_below(12);
    lc.p16[3] = (uint32_t)rng_range(0, 65536);
    lc.p16[3] >>= rng_below(3);
    lc.amp = rng_range(0, 1000);
    lc.sigma = rng_range(0, 1000);
    lc.step = rng_range(-1, 600);
    lc.rate = rng_below(4);
    lc.phase = rng_range(0, 30);
    if (pattern == 3)
        lc.channel = LINK_NONE;
    sprintf(name, "seed.frame%d", index);
    run_link(name, &lc, &v, bits_in, n);
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8), i;

    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    seeded_units(pattern);
    seeded_check();
    seeded_walks();
    for (i = 0; i < 3; i++)
        seeded_trace(pattern);
    for (i = 0; i < 3; i++)
        seeded_garbage(pattern);
    for (i = 0; i < 8; i++)
        seeded_frame(pattern, i);
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
