/*
 * deflate_test.c -- test driver for the deflate design.
 *
 * The driver belongs to the harness: it feeds vectors to every part of the
 * compressor and decompressor and prints everything the design computes
 * as labelled tokens (checksums, code tables, tokens, compressed streams,
 * block choices, decompressed data, status codes).  Long byte strings are
 * printed in full up to 4 KiB and as a 32-bit FNV-1a digest with their
 * first and last bytes beyond that.  It judges nothing itself; the harness
 * compares the printed output with that of the known-good design.
 *
 *   ./prog            the fixed vectors: the check values of Adler-32 and
 *                     CRC-32 (RFC 1950 and the ISO 3309 "123456789" check),
 *                     incremental checksums, every length code and the
 *                     distance codes at every boundary, Huffman lengths for
 *                     frequency sets that force the 15- and 7-bit limits,
 *                     canonical codes, LZ77 tokens at every level, a corpus
 *                     compressed at every level with every block type,
 *                     block size and wrapper and decompressed again, streams
 *                     made by the zlib and gzip reference tools, and
 *                     streams that break each rule of the formats
 *   ./prog --seed N   inputs generated from N (N >= 1) by splitmix64, with
 *                     N % 8 choosing the data pattern: text, constant
 *                     bytes, random bytes, runs, periodic data, repeats
 *                     at the far end of the window, tiny inputs, the
 *                     largest input; every seed also runs random
 *                     parameters, damaged streams and every stage alone
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "deflate.h"

#define OUT_MAX   (DF_MAX_INPUT + DF_MAX_INPUT / 16 + 4096)
#define SHOW_MAX  4096

static uint8_t data[DF_MAX_INPUT + 64];
static uint8_t comp[OUT_MAX];
static uint8_t back[DF_MAX_INPUT + 4096];
static uint8_t damaged[OUT_MAX];
static df_token toks[DF_MAX_INPUT + 1];

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static uint32_t fnv1a(const uint8_t *p, int n)
{
    uint32_t h = 2166136261u;
    int i;
    for (i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static void put_bytes(const char *label, const uint8_t *p, int n)
{
    int i;
    if (n < 0)
        n = 0;
    if (n > SHOW_MAX) {
        printf("%s %d digest %08lx head", label, n, (unsigned long)fnv1a(p, n));
        for (i = 0; i < 64; i++)
            printf("%s%02x", i % 32 == 0 ? "\n " : "", p[i]);
        printf("\n tail");
        for (i = n - 64; i < n; i++)
            printf("%s%02x", (i - n) % 32 == 0 ? "\n " : "", p[i]);
        printf("\n");
        return;
    }
    printf("%s %d", label, n);
    for (i = 0; i < n; i++) {
        if (i % 32 == 0)
            printf("\n ");
        printf("%02x", p[i]);
    }
    printf("\n");
}

static void put_lens(const char *label, const uint8_t *lens, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++)
        printf("%s%d", i % 32 == 0 ? "\n " : " ", lens[i]);
    printf("\n");
}

static void put_codes(const char *label, const uint16_t *codes, const uint8_t *lens, int n)
{
    int i;
    printf("%s %d", label, n);
    for (i = 0; i < n; i++)
        printf("%s%x", i % 16 == 0 ? "\n " : " ", lens[i] ? codes[i] : 0xFFFFu);
    printf("\n");
}

/* ------------------------------------------------------------------ */
/* Generators                                                          */
/* ------------------------------------------------------------------ */

static uint32_t lcg_state = 12345u;

static uint32_t lcg(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (lcg_state >> 8) & 0xFFFFFFu;
}

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
    return lo + (int)(rng_next() % (uint64_t)((int64_t)hi - lo + 1));
}

static const char paragraph[] =
    "A compressor that looks back over the last thirty-two thousand bytes finds that "
    "most text repeats itself: words, the spaces between them, whole phrases. Each "
    "repeat becomes a pair of numbers, a length and a distance, and whatever cannot be "
    "matched is sent as a literal byte. The pairs and literals are then counted, and a "
    "code is built so that the common symbols take few bits and the rare ones many. "
    "When the data is random no code helps, and the block is better stored as it is.\n";

static const char *const words[16] = {
    "the ", "of ", "block ", "code ", "length ", "distance ", "and ", "a ",
    "window ", "match ", "literal ", "tree ", "bits, ", "stream. ", "zero ", "Huffman "
};

/*
 * Data patterns:
 *   0 text: words drawn from a small vocabulary, now and then a sentence
 *     of the paragraph
 *   1 constant: one byte value
 *   2 random: every byte random
 *   3 runs: runs of random length of random bytes
 *   4 periodic: a random string of 1..300 bytes repeated, with rare changes
 *   5 far repeats: a random chunk repeated at distances near 32768
 *   6 mixed: pieces of all the above
 *   7 binary: small integers and zero bytes, as in tables of numbers
 */
typedef uint32_t (*source_fn)(void);
static uint32_t src_lcg(void) { return lcg(); }
static uint32_t src_rng(void) { return (uint32_t)rng_next(); }

static void make_data(int pattern, int n, source_fn rnd)
{
    int i = 0, period = 1 + (int)(rnd() % 300), value = (int)(rnd() & 255);

    while (i < n) {
        int kind = pattern == 6 ? (int)(rnd() % 6) : pattern;
        int piece = pattern == 6 ? 1 + (int)(rnd() % 2000) : n - i;
        int end = i + piece > n ? n : i + piece, k;
        switch (kind) {
        case 0:
            while (i < end) {
                const char *w = (rnd() % 40 == 0) ? paragraph + rnd() % 300 : words[rnd() % 16];
                int len = (int)strlen(w);
                if (len > 60)
                    len = 60;
                for (k = 0; k < len && i < end; k++)
                    data[i++] = (uint8_t)w[k];
            }
            break;
        case 1:
            while (i < end)
                data[i++] = (uint8_t)value;
            break;
        case 2:
            while (i < end)
                data[i++] = (uint8_t)rnd();
            break;
        case 3:
            while (i < end) {
                int run = 1 + (int)(rnd() % 300), b = (int)(rnd() & 255);
                for (k = 0; k < run && i < end; k++)
                    data[i++] = (uint8_t)b;
            }
            break;
        case 4: {
            int start = i;
            for (k = 0; k < period && i < end; k++)
                data[i++] = (uint8_t)rnd();
            while (i < end) {
                data[i] = (rnd() % 997 == 0) ? (uint8_t)rnd() : data[i - period];
                i++;
            }
            (void)start;
            break;
        }
        case 5: {
            int chunk = 200 + (int)(rnd() % 800);
            while (i < end) {
                int back_by = DF_WSIZE - (int)(rnd() % 3);
                for (k = 0; k < chunk && i < end; k++, i++)
                    data[i] = (i >= back_by && rnd() % 4 != 0) ? data[i - back_by] : (uint8_t)rnd();
            }
            break;
        }
        default:
            while (i < end)
                data[i++] = (uint8_t)((rnd() % 3 == 0) ? 0 : rnd() % 16);
            break;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Shared checks                                                       */
/* ------------------------------------------------------------------ */

static void show_checksums(const char *label, const uint8_t *p, int n, int split)
{
    uint32_t a = df_adler32(1, p, n), c = df_crc32(0, p, n);
    uint32_t a2 = df_adler32(df_adler32(1, p, split), p + split, n - split);
    uint32_t c2 = df_crc32(df_crc32(0, p, split), p + split, n - split);
    printf("%s.checksums %d adler %08lx crc %08lx split %d adler %08lx crc %08lx\n", label, n,
           (unsigned long)a, (unsigned long)c, split, (unsigned long)a2, (unsigned long)c2);
}

static void show_huffman(const char *label, const uint32_t *freq, int n, int limit)
{
    uint8_t lens[DF_NLITLEN];
    uint16_t codes[DF_NLITLEN];
    char name[96];
    int longest, count, i;

    memset(lens, 0xA5, sizeof lens);
    longest = df_huff_lengths(freq, n, limit, lens);
    printf("%s.longest %d\n", label, longest);
    if (longest < 0)
        return;
    sprintf(name, "%s.lens", label);
    put_lens(name, lens, n);
    for (i = 0; i < n; i++)
        codes[i] = 0x5A5A;
    count = df_huff_codes(lens, n, codes);
    printf("%s.codes %d\n", label, count);
    if (count >= 0) {
        sprintf(name, "%s.code", label);
        put_codes(name, codes, lens, n);
    }
}

static void show_tokens(const char *label, const uint8_t *in, int n, int level)
{
    int count = df_lz77(in, n, level, toks, DF_MAX_INPUT + 1), i, bytes = 0;
    uint32_t h = 2166136261u;

    for (i = 0; i < count; i++) {
        bytes += toks[i].dist ? toks[i].len : 1;
        h = (h ^ toks[i].len) * 16777619u;
        h = (h ^ toks[i].dist) * 16777619u;
    }
    printf("%s.tokens %d bytes %d digest %08lx", label, count, bytes, (unsigned long)h);
    if (count <= 200)
        for (i = 0; i < count; i++) {
            if (i % 12 == 0)
                printf("\n");
            if (toks[i].dist)
                printf(" <%d,%d>", toks[i].len, toks[i].dist);
            else
                printf(" %d", toks[i].len);
        }
    printf("\n");
}

/* decompresses comp[0..len-1] and prints what comes back */
static void show_inflate(const char *label, const uint8_t *stream, int len, int wrapper, int cap)
{
    char name[96];
    int consumed = -7;
    int got;

    memset(back, 0xCC, sizeof back);
    got = df_inflate(stream, len, wrapper, back, cap, &consumed);
    printf("%s.inflate %d consumed %d\n", label, got, consumed);
    if (got > 0) {
        sprintf(name, "%s.output", label);
        put_bytes(name, back, got);
    }
}

/* compresses data[0..n-1], prints the stream and its blocks, decompresses
 * it, and compresses it again into a buffer of exactly its length and of
 * one byte less */
static void show_compress(const char *label, int n, int level, int type, int tokens, int wrapper,
                          int cap)
{
    df_params p;
    df_info info;
    char name[96];
    int len, i, again;

    p.level = level;
    p.block_type = type;
    p.block_tokens = tokens;
    p.wrapper = wrapper;
    memset(&info, 0xEE, sizeof info);
    memset(comp, 0xDD, sizeof comp);
    len = df_compress(&p, data, n, comp, cap, &info);
    printf("%s.params n %d level %d type %d tokens %d wrapper %d cap %d -> %d\n", label, n,
           level, type, tokens, wrapper, cap, len);
    if (len < 0)
        return;
    sprintf(name, "%s.stream", label);
    put_bytes(name, comp, len);
    printf("%s.info tokens %d blocks %d:", label, info.tokens, info.blocks);
    for (i = 0; i < info.blocks && i < DF_MAX_LOG; i++)
        printf(" %d/%lu/%lu/%lu", info.types[i], (unsigned long)info.cost[i][0],
               (unsigned long)info.cost[i][1], (unsigned long)info.cost[i][2]);
    printf("\n");
    show_inflate(label, comp, len, wrapper, (int)sizeof back);
    again = df_compress(&p, data, n, comp, len, NULL);
    printf("%s.exact %d\n", label, again);
    again = df_compress(&p, data, n, comp, len - 1, NULL);
    printf("%s.short %d\n", label, again);
}

/* ------------------------------------------------------------------ */
/* The fixed vectors                                                   */
/* ------------------------------------------------------------------ */

static void fixed_checksums(void)
{
    static const char *const strings[] = {
        "", "a", "abc", "message digest", "abcdefghijklmnopqrstuvwxyz", "123456789",
        "Wikipedia", "The quick brown fox jumps over the lazy dog"
    };
    static uint8_t big[100000];
    char label[32];
    int i;

    for (i = 0; i < 8; i++) {
        int n = (int)strlen(strings[i]);
        sprintf(label, "check%d", i);
        show_checksums(label, (const uint8_t *)strings[i], n, n / 2);
    }
    memset(big, 0xFF, sizeof big);
    show_checksums("check.ff", big, 100000, 5552);
    show_checksums("check.ff2", big, 5553, 1);
    for (i = 0; i < 100000; i++)
        big[i] = (uint8_t)lcg();
    show_checksums("check.random", big, 100000, 77777);
    printf("check.continue %08lx %08lx\n", (unsigned long)df_adler32(0xFFF0FFF0u, big, 10),
           (unsigned long)df_crc32(0xDEADBEEFu, big, 10));
}

static void fixed_codes(void)
{
    int len, d, eb, ev, s;

    printf("lengths");
    for (len = 3; len <= 258; len++) {
        s = df_length_code(len, &eb, &ev);
        printf("%s%d:%d:%d", (len - 3) % 16 == 0 ? "\n " : " ", s, eb, ev);
    }
    printf("\ndistances");
    for (s = 0; s < 30; s++) {
        int base = df_dist_base[s];
        for (d = base - 1; d <= base + 1; d++) {
            int sym;
            if (d < 1)
                continue;
            sym = df_dist_code(d, &eb, &ev);
            printf(" %d=%d:%d:%d", d, sym, eb, ev);
        }
    }
    d = df_dist_code(32768, &eb, &ev);
    printf(" 32768=%d:%d:%d\n", d, eb, ev);
    printf("reverse %lx %lx %lx %lx %lx\n", (unsigned long)df_reverse(1, 1),
           (unsigned long)df_reverse(0x1, 15), (unsigned long)df_reverse(0x6, 3),
           (unsigned long)df_reverse(0x1234, 16), (unsigned long)df_reverse(0xFFFFFFFFu, 9));
}

static void fixed_huffman(void)
{
    static uint32_t freq[DF_NLITLEN];
    uint32_t a = 1, b = 2;
    uint8_t lens[DF_NLITLEN];
    uint16_t codes[DF_NLITLEN];
    int i;

    memset(freq, 0, sizeof freq);
    show_huffman("huff.none", freq, 30, 15);
    freq[7] = 100;
    show_huffman("huff.one", freq, 30, 15);
    freq[29] = 1;
    show_huffman("huff.two", freq, 30, 15);
    for (i = 0; i < DF_NLITLEN; i++)
        freq[i] = 1;
    show_huffman("huff.uniform", freq, DF_NLITLEN, 15);
    show_huffman("huff.uniform9", freq, DF_NLITLEN, 9);
    show_huffman("huff.uniform8", freq, DF_NLITLEN, 8);
    for (i = 0; i < DF_NLITLEN; i++)
        freq[i] = (uint32_t)(DF_NLITLEN - i) * 3 + (uint32_t)(i % 7);
    show_huffman("huff.falling", freq, DF_NLITLEN, 15);
    /* Fibonacci counts: unlimited depths up to 31 */
    memset(freq, 0, sizeof freq);
    for (i = 0; i < 32; i++) {
        uint32_t c = a + b;
        freq[(i * 9) % DF_NLITLEN] = a;
        a = b;
        b = c;
    }
    show_huffman("huff.fib15", freq, DF_NLITLEN, 15);
    show_huffman("huff.fib7", freq, 40, 7);
    show_huffman("huff.fib5", freq, 40, 5);
    memset(freq, 0, sizeof freq);
    for (i = 0; i < DF_NCLEN; i++)
        freq[i] = (uint32_t)1 << i;
    show_huffman("huff.cl", freq, DF_NCLEN, DF_MAX_CL_BITS);
    for (i = 0; i < 16; i++)
        freq[i] = (uint32_t)(i + 1);
    show_huffman("huff.full4", freq, 16, 4);
    show_huffman("huff.over3", freq, 16, 3);
    show_huffman("huff.bad_limit", freq, 16, 0);
    show_huffman("huff.bad_limit16", freq, 16, 16);
    show_huffman("huff.bad_n", freq, 289, 15);
    /* canonical codes of hand-made lengths: the example of RFC 1951, 3.2.2 */
    {
        static const uint8_t ex[8] = { 3, 3, 3, 3, 3, 2, 4, 4 };
        for (i = 0; i < 8; i++)
            lens[i] = ex[i];
        printf("rfc.codes %d\n", df_huff_codes(lens, 8, codes));
        put_codes("rfc.code", codes, lens, 8);
        lens[0] = 2;
        printf("over.codes %d\n", df_huff_codes(lens, 8, codes));
        lens[0] = 16;
        printf("long.codes %d\n", df_huff_codes(lens, 8, codes));
        lens[0] = 15;
        printf("incomplete.codes %d\n", df_huff_codes(lens, 8, codes));
        for (i = 0; i < 8; i++)
            lens[i] = 0;
        printf("empty.codes %d\n", df_huff_codes(lens, 8, codes));
    }
}

static void fixed_matching(void)
{
    static const char *const inputs[] = {
        "", "a", "ab", "abc", "aaaa", "abcabcabcabc", "abcdeabcdfabcdeabcde",
        "xyzxyzxyzxyzAxyzxyzxyzxyzxyz", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "abababababcdcdcdcdcdabababcdcdabcd"
    };
    char label[32];
    int i, level;

    printf("match %d %d %d %d\n", df_match_length((const uint8_t *)"abcabd", 0, 3, 3),
           df_match_length((const uint8_t *)"aaaaaa", 0, 1, 5),
           df_match_length((const uint8_t *)"abcabd", 0, 3, 2),
           df_match_length((const uint8_t *)"xyxy", 0, 2, 0));
    for (level = 0; level <= 9; level++) {
        df_level cfg;
        df_level_config(level, &cfg);
        printf("level%d %d %d %d %d %d\n", level, cfg.good, cfg.lazy, cfg.nice, cfg.chain,
               cfg.is_lazy);
        for (i = 0; i < 10; i++) {
            sprintf(label, "lz%d.%d", level, i);
            show_tokens(label, (const uint8_t *)inputs[i], (int)strlen(inputs[i]), level);
        }
        sprintf(label, "lz%d.paragraph", level);
        show_tokens(label, (const uint8_t *)paragraph, (int)strlen(paragraph), level);
    }
}

static int fixed_text(int n)
{
    int i = 0, k = 0;
    while (i < n) {
        int len = (int)strlen(paragraph) - (k * 7) % 50;
        int j;
        for (j = 0; j < len && i < n; j++)
            data[i++] = (uint8_t)(paragraph[(j + k * 13) % (int)strlen(paragraph)]);
        k++;
    }
    return n;
}

static void fixed_streams(void)
{
    char label[48];
    int level, type, w;

    /* the text at every level */
    fixed_text(3000);
    for (level = 0; level <= 9; level++) {
        sprintf(label, "text.l%d", level);
        show_compress(label, 3000, level, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
    }
    /* every block type with every wrapper */
    for (type = DF_BLOCK_STORED; type <= DF_BLOCK_DYNAMIC; type++)
        for (w = DF_RAW; w <= DF_GZIP; w++) {
            sprintf(label, "text.t%d.w%d", type, w);
            show_compress(label, 1200, 6, type, DF_MAX_BLOCK, w, OUT_MAX);
        }
    /* small blocks */
    show_compress("text.b1", 40, 6, DF_BLOCK_AUTO, 1, DF_RAW, OUT_MAX);
    show_compress("text.b7", 400, 4, DF_BLOCK_AUTO, 7, DF_GZIP, OUT_MAX);
    show_compress("text.b100", 3000, 9, DF_BLOCK_AUTO, 100, DF_ZLIB, OUT_MAX);
    show_compress("text.b100d", 3000, 2, DF_BLOCK_DYNAMIC, 100, DF_RAW, OUT_MAX);
    /* empty and tiny inputs */
    for (type = DF_BLOCK_AUTO; type <= DF_BLOCK_DYNAMIC; type++) {
        sprintf(label, "empty.t%d", type);
        show_compress(label, 0, 6, type, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
        sprintf(label, "one.t%d", type);
        data[0] = 'x';
        show_compress(label, 1, 6, type, DF_MAX_BLOCK, DF_GZIP, OUT_MAX);
    }
    /* constant, ramp and random data */
    memset(data, 0, 20000);
    show_compress("zeros.l1", 20000, 1, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_RAW, OUT_MAX);
    show_compress("zeros.l9", 20000, 9, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
    {
        int i;
        for (i = 0; i < 1024; i++)
            data[i] = (uint8_t)i;
        show_compress("ramp.l6", 1024, 6, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
        lcg_state = 4242;
        for (i = 0; i < 2000; i++)
            data[i] = (uint8_t)lcg();
        show_compress("random.l6", 2000, 6, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
        show_compress("random.fixed", 2000, 6, DF_BLOCK_FIXED, 300, DF_RAW, OUT_MAX);
        show_compress("random.dyn", 2000, 3, DF_BLOCK_DYNAMIC, 700, DF_RAW, OUT_MAX);
    }
    /* the largest input: a mixture; stored needs two chunks per block */
    lcg_state = 777;
    make_data(6, DF_MAX_INPUT, src_lcg);
    show_compress("big.l1", DF_MAX_INPUT, 1, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
    show_compress("big.l6", DF_MAX_INPUT, 6, DF_BLOCK_AUTO, 5000, DF_GZIP, OUT_MAX);
    memset(data, 'q', DF_MAX_INPUT);
    show_compress("big.stored", DF_MAX_INPUT, 5, DF_BLOCK_STORED, DF_MAX_BLOCK, DF_RAW, OUT_MAX);
    show_compress("big.l0", DF_MAX_INPUT, 0, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_RAW, OUT_MAX);
    /* far repeats */
    lcg_state = 99;
    make_data(5, 40000, src_lcg);
    show_compress("far.l8", 40000, 8, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
    /* buffers that are too small, bad parameters */
    fixed_text(500);
    show_compress("space.0", 500, 6, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, 0);
    show_compress("space.10", 500, 6, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_GZIP, 10);
    show_compress("bad.level", 500, 10, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
    show_compress("bad.n", DF_MAX_INPUT + 1, 6, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
    show_compress("bad.neg", -1, 6, DF_BLOCK_AUTO, DF_MAX_BLOCK, DF_ZLIB, OUT_MAX);
}

static void fixed_params(void)
{
    static const int cases[][4] = {
        { 0, -1, 1, 0 }, { 9, 2, 16384, 2 }, { -1, 0, 1, 0 }, { 10, 0, 1, 0 }, { 5, -2, 1, 0 },
        { 5, 3, 1, 0 }, { 5, 0, 0, 0 }, { 5, 0, 16385, 0 }, { 5, 0, 1, -1 }, { 5, 0, 1, 3 },
        { 1, 1, 2, 1 }, { 8, 0, 16383, 2 }
    };
    df_params p;
    int i;
    for (i = 0; i < 12; i++) {
        p.level = cases[i][0];
        p.block_type = cases[i][1];
        p.block_tokens = cases[i][2];
        p.wrapper = cases[i][3];
        printf("params%d %d\n", i, df_check_params(&p));
    }
}

/* a hex string into comp[]; returns its length */
static int from_hex(const char *hex)
{
    int n = 0;
    while (hex[0] && hex[1]) {
        unsigned v;
        sscanf(hex, "%2x", &v);
        comp[n++] = (uint8_t)v;
        hex += 2;
    }
    return n;
}

static void fixed_foreign(void)
{
    /* streams made by the zlib and gzip reference tools */
    static const char *const good[][2] = {
        { "1", "7801b58ec111802010c45a591bb0161f34000a820a27202054ef35e13b994984d588c5ad2754a21660e8c551fc9d4155273c8c2f393a36da6788dfe445f281ef509c6feeb130ae6a8e0e1d70b95828f1d59ea70fb2ee3f00" },
        { "1", "789cb5cbd10180101446e155fe1668961e2c401115378498bebb44cfe73bc26ac4e2d6132a510b30f4e228fecea0aa131ece971c1d1bed33c46f7891ec7c8762d4dc63615cd59c860eb85c2c94f8ddf3f401b2ee3f00" },
        { "0", "4b4c4a0600" },
        { "1", "789c030000000001" },
        { "2", "1f8b08080000000002ff612e74787400cb48cdc9c9d75148afca2ce00200861f82a40c000000" },
        /* trailing bytes after the stream are not consumed */
        { "0", "4b4c4a0600ffee" }
    };
    char label[32];
    int i;

    for (i = 0; i < 6; i++) {
        int n = from_hex(good[i][1]);
        sprintf(label, "foreign%d", i);
        show_inflate(label, comp, n, good[i][0][0] - '0', (int)sizeof back);
        sprintf(label, "foreign%d.small", i);
        show_inflate(label, comp, n, good[i][0][0] - '0', 50);
    }
}

/* streams made bit by bit, each breaking one rule of the formats or
 * exercising a rare valid form */
static void fixed_crafted(void)
{
    static const char *const crafted[][2] = {
        { "0", "07" },   /* block type 3 */
        { "0", "010500fbff6162636465" },   /* stored: NLEN is not the complement of LEN */
        { "0", "010500faff616263" },   /* stored: data cut short */
        { "0", "fd000000" },   /* dynamic: HLIT = 288 */
        { "0", "051e0000" },   /* dynamic: HDIST = 31 */
        { "0", "050092000000" },   /* dynamic: code-length code over-subscribed */
        { "0", "050004080000" },   /* dynamic: incomplete code-length code */
        { "0", "050000040000" },   /* dynamic: code-length code of one 1-bit code */
        { "0", "05e005090000000020040000" },   /* dynamic: repeat with no previous length */
        { "0", "05e005090000000020fcff0f0000" },   /* dynamic: zero run past the last length */
        { "0", "05e005090000000020e8ffd70000" },   /* dynamic: no code for the end of block */
        { "0", "05e005090000000020e8ffd3020000" },   /* dynamic: literal/length code over-subscribed */
        { "0", "05e001090000008020f87f75000000" },   /* dynamic: incomplete literal/length code of two codes */
        { "0", "05e005090000000020fc7f2d00" },   /* dynamic: only the end of block, no distance code: valid */
        { "0", "0de0010900000080206cedff890c0000" },   /* dynamic: a match with no distance code */
        { "0", "4b1c0300" },   /* fixed: length symbol 286 */
        { "0", "4b043e00" },   /* fixed: distance symbol 30 */
        { "0", "4b044200" },   /* fixed: distance 2 after one byte */
        { "0", "4b440000" },   /* fixed: overlapping copy: valid */
        { "0", "4b04" },   /* fixed: no end of block */
        { "0", "000300fcff78797a4b046100" },   /* stored then fixed, copy from the stored data: valid */
        { "0", "010000ffff99" },   /* empty stored block: valid */
        { "0", "" },   /* nothing at all */
        { "1", "789dcb48cdc9c957c84090003a2e067d" },   /* zlib: FCHECK wrong */
        { "1", "7a9ccb48cdc9c957c84090003a2e067d" },   /* zlib: CM 10 */
        { "1", "881ccb48cdc9c957c84090003a2e067d" },   /* zlib: CINFO 8 */
        { "1", "782000000001cb48cdc9c957c84090003a2e067d" },   /* zlib: FDICT */
        { "1", "789ccb48cdc9c957c84090003a2e066d" },   /* zlib: Adler-32 wrong */
        { "1", "789ccb48cdc9c957c84090003a2e" },   /* zlib: Adler-32 cut short */
        { "1", "78" },   /* zlib: header cut short */
        { "1", "789ccb48cdc9c957c84090003a2e067d" },   /* zlib: valid */
        { "2", "1f8b081e000000000003040061626364782e62696e00686900a6b64bafca2c5048ca4fa95448492c490400876d78d90e000000" },   /* gzip: FEXTRA, FNAME, FCOMMENT, FHCRC: valid */
        { "2", "1f8b081e000000000003040061626364782e62696e00686900a7b64bafca2c5048ca4fa95448492c490400876d78d90e000000" },   /* gzip: FHCRC wrong */
        { "2", "1f8c08000000000000034bafca2c5048ca4fa95448492c490400876d78d90e000000" },   /* gzip: bad magic */
        { "2", "1f8b07000000000000034bafca2c5048ca4fa95448492c490400876d78d90e000000" },   /* gzip: CM 7 */
        { "2", "1f8b08200000000000034bafca2c5048ca4fa95448492c490400876d78d90e000000" },   /* gzip: reserved flag */
        { "2", "1f8b08000000000000034bafca2c5048ca4fa95448492c490400876c78d90e000000" },   /* gzip: CRC-32 wrong */
        { "2", "1f8b08000000000000034bafca2c5048ca4fa95448492c490400876d78d90f000000" },   /* gzip: ISIZE wrong */
        { "2", "1f8b08000000000000034bafca2c5048ca4fa95448492c490400876d78d90e" },   /* gzip: ISIZE cut short */
        { "2", "1f8b0808000000000003616263" },   /* gzip: name not ended */
        { "2", "1f8b0810000000000003616263" },   /* gzip: comment not ended */
        { "2", "1f8b08040000000000030900616263" },   /* gzip: extra cut short */
        { "2", "1f8b080400000000000309" },   /* gzip: extra length cut short */
        { "2", "1f8b080200000000000301" },   /* gzip: header CRC cut short */
        { "2", "1f8b080000000000" },   /* gzip: header cut short */
        { "3", "0300" },   /* no such wrapper */
        { "1", "4bafca2c5048ca4fa95448492c490400" },   /* raw stream read as zlib */
    };
    char label[32];
    int i;

    for (i = 0; i < (int)(sizeof crafted / sizeof crafted[0]); i++) {
        int n = from_hex(crafted[i][1]);
        sprintf(label, "crafted%d", i);
        show_inflate(label, comp, n, crafted[i][0][0] - '0', (int)sizeof back);
    }
}

/* ------------------------------------------------------------------ */
/* The seeded inputs                                                   */
/* ------------------------------------------------------------------ */

static void seeded_units(int pattern)
{
    static uint32_t freq[DF_NLITLEN];
    uint8_t lens[DF_NLITLEN];
    uint16_t codes[DF_NLITLEN];
    char label[48];
    int i, t, n;

    /* checksums of random data in two pieces, from arbitrary start values */
    n = rng_range(0, 9000);
    for (i = 0; i < n; i++)
        data[i] = (uint8_t)(pattern == 1 ? 0xFF : rng_next());
    show_checksums("seed.check", data, n, rng_range(0, n));
    {
        uint32_t a0 = (uint32_t)rng_range(0, 65520) | ((uint32_t)rng_range(0, 65520) << 16);
        uint32_t c0 = (uint32_t)rng_next();
        printf("seed.continue %08lx %08lx\n", (unsigned long)df_adler32(a0, data, n),
               (unsigned long)df_crc32(c0, data, n));
    }
    /* length and distance codes of arbitrary values */
    printf("seed.codes");
    for (i = 0; i < 16; i++) {
        int eb, ev, len = rng_range(3, 258), dist = rng_range(1, DF_WSIZE);
        int s1 = df_length_code(len, &eb, &ev);
        printf(" %d:%d:%d:%d", len, s1, eb, ev);
        s1 = df_dist_code(dist, &eb, &ev);
        printf(" %d:%d:%d:%d", dist, s1, eb, ev);
    }
    printf("\nseed.reverse");
    for (i = 0; i < 8; i++) {
        uint32_t v = (uint32_t)rng_next();
        int bits = rng_range(0, 16);
        printf(" %lx", (unsigned long)df_reverse(v, bits));
    }
    printf("\n");
    /* Huffman lengths of arbitrary counts (totalling below 2^32) under any limit */
    for (t = 0; t < 3; t++) {
        int kind = (pattern + t) % 5, limit = rng_range(1, 15), shift = rng_range(0, 22);
        n = rng_range(1, DF_NLITLEN);
        for (i = 0; i < n; i++) {
            switch (kind) {
            case 0: freq[i] = rng_range(0, 2) ? (uint32_t)(rng_next() >> (63 - shift)) : 0; break;
            case 1: freq[i] = (uint32_t)rng_range(1, 3); break;
            case 2: freq[i] = (i < 30) ? (uint32_t)1 << (i % 23) : 0; break;
            case 3: freq[i] = rng_range(0, 30) == 0 ? (uint32_t)rng_range(1, 1 << 20) : 0; break;
            default: freq[i] = (uint32_t)(rng_next() >> 42); break;
            }
        }
        if (t == 2 && limit < 9) {
            /* as many used symbols as the limit allows, often all of them */
            int room = 1 << limit;
            for (i = 0; i < n; i++)
                freq[i] = i < room ? freq[i] | 1u : 0;
        }
        sprintf(label, "seed.huff%d", t);
        printf("%s.limit %d n %d\n", label, limit, n);
        show_huffman(label, freq, n, limit);
    }
    /* canonical codes of arbitrary lengths */
    n = rng_range(1, DF_NLITLEN);
    for (i = 0; i < n; i++)
        lens[i] = (uint8_t)(rng_range(0, 3) == 0 ? 0 : rng_range(1, pattern == 3 ? 17 : 12));
    t = df_huff_codes(lens, n, codes);
    printf("seed.anycodes %d %d\n", n, t);
    if (t >= 0)
        put_codes("seed.anycode", codes, lens, n);
}

static int seeded_size(int pattern)
{
    switch (pattern) {
    case 5: return rng_range(DF_WSIZE, DF_MAX_INPUT);
    case 6: return rng_range(0, 4);
    case 7: return DF_MAX_INPUT - rng_range(0, 1);
    default: return rng_range(0, 3) == 0 ? rng_range(0, 300) : rng_range(300, 20000);
    }
}

/* damaged copies of the stream in comp[0..len-1]: bit flips, cuts, a
 * changed byte in the header or trailer */
static void seeded_damage(int len, int wrapper)
{
    char label[48];
    int t, i;

    for (t = 0; t < 4; t++) {
        int n = len, flips = rng_range(1, 3);
        memcpy(damaged, comp, (size_t)len);
        if (t == 3) {
            n = rng_range(0, len);
        } else if (len > 0) {
            for (i = 0; i < flips; i++) {
                int at = t == 2 ? (rng_range(0, 1) ? rng_range(0, len < 10 ? len - 1 : 9)
                                                   : len - 1 - rng_range(0, len < 8 ? len - 1 : 7))
                                : rng_range(0, len - 1);
                damaged[at] = (uint8_t)(damaged[at] ^ (1u << rng_range(0, 7)));
            }
        }
        sprintf(label, "seed.damaged%d", t);
        show_inflate(label, damaged, n, wrapper, (int)sizeof back);
    }
}

static void seeded_streams(int pattern)
{
    char label[48];
    int f, nfiles = pattern == 7 || pattern == 5 ? 2 : 4;

    for (f = 0; f < nfiles; f++) {
        int n = seeded_size(pattern), level, type, tokens, wrapper, cap, len;
        df_params p;
        make_data(pattern, n, src_rng);
        level = f == 0 ? rng_range(0, 9) : (rng_range(0, 2) == 0 ? 9 : rng_range(0, 9));
        if (n > 20000 && pattern != 7 && level > 6)
            level = rng_range(6, 9);
        type = rng_range(DF_BLOCK_AUTO, DF_BLOCK_DYNAMIC);
        if (rng_range(0, 1))
            type = DF_BLOCK_AUTO;
        switch (rng_range(0, 4)) {
        case 0: tokens = DF_MAX_BLOCK; break;
        case 1: tokens = rng_range(1, 3); break;
        case 2: tokens = rng_range(4, 600); break;
        default: tokens = rng_range(1, DF_MAX_BLOCK); break;
        }
        wrapper = rng_range(DF_RAW, DF_GZIP);
        cap = rng_range(0, 9) == 0 ? rng_range(0, 200) : OUT_MAX;
        sprintf(label, "seed.stream%d", f);
        show_compress(label, n, level, type, tokens, wrapper, cap);
        p.level = level;
        p.block_type = type;
        p.block_tokens = tokens;
        p.wrapper = wrapper;
        len = df_compress(&p, data, n, comp, OUT_MAX, NULL);
        if (len >= 0) {
            if (f == 0)
                seeded_damage(len, wrapper);
            sprintf(label, "seed.small%d", f);
            show_inflate(label, comp, len, wrapper, n > 0 ? rng_range(0, n - 1) : 0);
            sprintf(label, "seed.other%d", f);
            show_inflate(label, comp, len, (wrapper + 1) % 3, (int)sizeof back);
        }
        if (n <= 600) {
            sprintf(label, "seed.lz%d", f);
            show_tokens(label, data, n, rng_range(0, 9));
        }
    }
}

static void seeded_params(void)
{
    df_params p;
    int i;
    for (i = 0; i < 6; i++) {
        p.level = rng_range(-2, 11);
        p.block_type = rng_range(-3, 4);
        p.block_tokens = rng_range(0, 1) ? rng_range(-1, 3) : rng_range(16382, 16386);
        p.wrapper = rng_range(-1, 3);
        printf("seed.params %d %d %d %d -> %d\n", p.level, p.block_type, p.block_tokens,
               p.wrapper, df_check_params(&p));
    }
}

static void run_seeded(uint64_t seed)
{
    int pattern = (int)(seed % 8);
    rng_state = seed;
    printf("seed %llu pattern %d\n", (unsigned long long)seed, pattern);
    seeded_units(pattern);
    seeded_params();
    seeded_streams(pattern);
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
    if (seed != 0) {
        run_seeded((uint64_t)seed);
        return 0;
    }
    fixed_checksums();
    fixed_codes();
    fixed_huffman();
    fixed_matching();
    fixed_params();
    fixed_streams();
    fixed_foreign();
    fixed_crafted();
    return 0;
}
