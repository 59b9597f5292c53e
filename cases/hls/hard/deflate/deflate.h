/*
 * deflate.h -- interface of an LZ77 + Deflate compressor and decompressor
 * (RFC 1951) with the zlib (RFC 1950) and gzip (RFC 1952) wrappers.
 *
 * The design is split over five files:
 *   checksum.c  Adler-32 and CRC-32
 *   lz77.c      hash-chain string matching, greedy and lazy parsing
 *   huffman.c   length-limited Huffman code lengths, canonical codes
 *   deflate.c   the bit writer, block cost estimates, stored / fixed /
 *               dynamic blocks, the zlib and gzip wrappers
 *   inflate.c   the bit reader, decoding of all three block types with
 *               every format error detected, wrapper parsing and checks
 *
 * Everything works on caller-provided buffers of bounded size.
 */
#ifndef DEFLATE_H
#define DEFLATE_H

#include <stddef.h>
#include <stdint.h>

#define DF_WSIZE        32768     /* window: largest distance */
#define DF_WMASK        (DF_WSIZE - 1)
#define DF_MAX_INPUT    65536     /* largest input df_compress accepts */
#define DF_MIN_MATCH    3
#define DF_MAX_MATCH    258
#define DF_HASH_BITS    13
#define DF_HASH_SIZE    (1 << DF_HASH_BITS)
#define DF_NLITLEN      288       /* literal/length alphabet (286 used) */
#define DF_NDIST        30        /* distance alphabet (32 in fixed blocks) */
#define DF_NCLEN        19        /* code-length alphabet */
#define DF_MAX_BITS     15        /* longest literal/length or distance code */
#define DF_MAX_CL_BITS  7         /* longest code-length code */
#define DF_MAX_BLOCK    16384     /* most tokens in one block */
#define DF_MAX_LOG      64        /* blocks recorded in df_info */

/* block types (BTYPE) and the choice df_compress makes */
#define DF_BLOCK_AUTO     (-1)
#define DF_BLOCK_STORED   0
#define DF_BLOCK_FIXED    1
#define DF_BLOCK_DYNAMIC  2

/* wrappers */
#define DF_RAW   0
#define DF_ZLIB  1
#define DF_GZIP  2

/* results: a length (>= 0) or one of these */
#define DF_ERR_PARAM   (-1)       /* a parameter outside its range */
#define DF_ERR_SPACE   (-2)       /* the output buffer is too small */
#define DF_ERR_DATA    (-3)       /* the stream breaks a rule of RFC 1951 */
#define DF_ERR_EOF     (-4)       /* the stream ends too early */
#define DF_ERR_CHECK   (-5)       /* a checksum or length does not match */
#define DF_ERR_HEADER  (-6)       /* a zlib or gzip header is invalid */

/* one LZ77 token: a literal (dist == 0, value in len) or a match */
typedef struct {
    uint16_t len;
    uint16_t dist;
} df_token;

typedef struct {
    int good;      /* a match this long cuts the next search's chain to a quarter */
    int lazy;      /* lazy levels: no second search after a match this long */
    int nice;      /* a match this long ends the search */
    int chain;     /* most chain links followed per search */
    int is_lazy;   /* 0: greedy parsing, 1: lazy evaluation */
} df_level;

typedef struct {
    int level;          /* 0 (no matching) .. 9 */
    int block_type;     /* DF_BLOCK_AUTO or a forced type */
    int block_tokens;   /* tokens per block, 1..DF_MAX_BLOCK */
    int wrapper;        /* DF_RAW, DF_ZLIB, DF_GZIP */
} df_params;

typedef struct {
    int tokens;                 /* LZ77 tokens of the whole input */
    int blocks;                 /* blocks written */
    uint8_t types[DF_MAX_LOG];  /* the first DF_MAX_LOG block types */
    uint32_t cost[DF_MAX_LOG][3]; /* their sizes in bits as stored, fixed, dynamic */
} df_info;

/* checksum.c */
uint32_t df_adler32(uint32_t adler, const uint8_t *p, int n);
uint32_t df_crc32(uint32_t crc, const uint8_t *p, int n);

/* lz77.c */
void df_level_config(int level, df_level *cfg);
int df_match_length(const uint8_t *in, int a, int b, int max);
int df_lz77(const uint8_t *in, int n, int level, df_token *tok, int max_tokens);

/* huffman.c: the length and distance code tables of RFC 1951, 3.2.5 */
extern const uint16_t df_len_base[29];
extern const uint8_t df_len_extra[29];
extern const uint16_t df_dist_base[30];
extern const uint8_t df_dist_extra[30];
/* huffman.c */
uint32_t df_reverse(uint32_t code, int len);
int df_huff_lengths(const uint32_t *freq, int n, int limit, uint8_t *lens);
int df_huff_codes(const uint8_t *lens, int n, uint16_t *codes);
int df_length_code(int len, int *extra_bits, int *extra);
int df_dist_code(int dist, int *extra_bits, int *extra);

/* deflate.c */
int df_check_params(const df_params *p);
int df_compress(const df_params *p, const uint8_t *in, int n, uint8_t *out, int cap, df_info *info);

/* inflate.c */
int df_inflate(const uint8_t *in, int n, int wrapper, uint8_t *out, int cap, int *consumed);

#endif
