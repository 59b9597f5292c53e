/*
 * huff.c -- Huffman tables for jpegenc.
 *
 *   je_std_spec      the example tables of Annex K.3 (Tables K.3 to K.6)
 *   je_huff_build    EHUFCO/EHUFSI from BITS and HUFFVAL (Annex C:
 *                    Generate_size_table, Generate_code_table, Order_codes)
 *   je_huff_optimal  BITS and HUFFVAL from symbol frequencies (Annex K.2:
 *                    Code_size, Count_BITS, Adjust_BITS, Sort_input), codes
 *                    limited to 16 bits and the all-ones code kept free
 *   je_category      the magnitude category SSSS of a DC difference or AC
 *                    coefficient (Tables F.1 and F.2)
 */
#include "jpegenc.h"

#define MAX_LEN      16      /* longest code allowed in a table */
#define TREE_LEN     64      /* longest code Code_size can produce when the counts total below 2^31 */
#define NSYM         257     /* 256 symbols and the reserved code point */
#define RESERVED     256

/* Table K.3: luminance DC */
static const uint8_t dc_luma_bits[17] = { 0, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0 };
/* Table K.4: chrominance DC */
static const uint8_t dc_chroma_bits[17] = { 0, 0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0 };
static const uint8_t dc_vals[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };

/* Table K.5: luminance AC */
static const uint8_t ac_luma_bits[17] = { 0, 0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d };
static const uint8_t ac_luma_vals[162] = {
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
    0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0,
    0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
    0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
    0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
    0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
    0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
    0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5,
    0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
    0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
    0xf9, 0xfa
};

/* Table K.6: chrominance AC */
static const uint8_t ac_chroma_bits[17] = { 0, 0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77 };
static const uint8_t ac_chroma_vals[162] = {
    0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
    0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0,
    0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26,
    0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
    0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
    0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
    0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5,
    0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
    0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
    0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
    0xf9, 0xfa
};

/* number of symbols a table holds: the sum of BITS[1..16] */
int je_spec_count(const je_huff_spec *spec)
{
    int l, n = 0;

    for (l = 1; l <= MAX_LEN; l++)
        n += spec->bits[l];
    return n;
}

/* copies one of the four tables of Annex K.3 (JE_DC_LUMA ... JE_AC_CHROMA) */
void je_std_spec(int which, je_huff_spec *spec)
{
    const uint8_t *bits, *vals;
    int i, n;

    switch (which) {
    case JE_DC_LUMA:   bits = dc_luma_bits;   vals = dc_vals;        break;
    case JE_AC_LUMA:   bits = ac_luma_bits;   vals = ac_luma_vals;   break;
    case JE_DC_CHROMA: bits = dc_chroma_bits; vals = dc_vals;        break;
    default:           bits = ac_chroma_bits; vals = ac_chroma_vals; break;
    }
    for (i = 0; i <= MAX_LEN; i++)
        spec->bits[i] = bits[i];
    n = je_spec_count(spec);
    for (i = 0; i < 256; i++)
        spec->vals[i] = (uint8_t)(i < n ? vals[i] : 0);
}

/* Generate_size_table (Figure C.1): the code length of every code in
 * order; returns the number of codes. */
static int size_table(const je_huff_spec *spec, uint8_t *huffsize)
{
    int k = 0, l, i;

    for (l = 1; l <= MAX_LEN; l++)
        for (i = 1; i <= spec->bits[l]; i++)
            huffsize[k++] = (uint8_t)l;
    huffsize[k] = 0;
    return k;
}

/* Generate_code_table (Figure C.2): consecutive codes of one length,
 * shifted left whenever the length grows.  Returns -1 when the lengths
 * over-subscribe the code space (a code would not fit in its length). */
static int code_table(const uint8_t *huffsize, uint16_t *huffcode)
{
    uint32_t code = 0;
    int si = huffsize[0];
    int k = 0;

    while (huffsize[k] != 0) {
        while (huffsize[k] == si) {
            huffcode[k++] = (uint16_t)code;
            code++;
        }
        if (code > ((uint32_t)1 << si))
            return -1;
        code <<= 1;
        si++;
    }
    return k;
}

/* Builds EHUFCO/EHUFSI (Order_codes, Figure C.3).  Returns the number of
 * codes, or JE_ERR_TABLE for a table that holds more than 256 codes, that
 * over-subscribes the code space, that uses the all-ones code of its
 * longest length for a symbol, or that lists a symbol twice. */
int je_huff_build(const je_huff_spec *spec, je_huff_code *code)
{
    uint8_t huffsize[257];
    uint16_t huffcode[257];
    int n, k, last;

    for (k = 0; k < 256; k++) {
        code->code[k] = 0;
        code->size[k] = 0;
    }
    n = je_spec_count(spec);
    if (n > 256)
        return JE_ERR_TABLE;
    if (n == 0)
        return 0;
    size_table(spec, huffsize);
    if (code_table(huffsize, huffcode) < 0)
        return JE_ERR_TABLE;
    last = huffsize[n - 1];
    if (huffcode[n - 1] == (uint16_t)(((uint32_t)1 << last) - 1))
        return JE_ERR_TABLE;
    for (k = 0; k < n; k++) {
        int v = spec->vals[k];
        if (code->size[v] != 0)
            return JE_ERR_TABLE;
        code->code[v] = huffcode[k];
        code->size[v] = huffsize[k];
    }
    return n;
}

/* Code_size (Figure K.1) on a working copy of the frequencies: merges the
 * two least frequent entries until one is left, lengthening the codes of
 * both chains; ties go to the higher symbol, so that the reserved point
 * 256 ends up with the longest code. */
static void code_sizes(uint32_t *freq, uint8_t *codesize)
{
    int16_t others[NSYM];
    int i;

    for (i = 0; i < NSYM; i++) {
        codesize[i] = 0;
        others[i] = -1;
    }
    for (;;) {
        int v1 = -1, v2 = -1;
        uint32_t f1 = 0xFFFFFFFFu, f2 = 0xFFFFFFFFu;
        for (i = 0; i < NSYM; i++) {
            if (freq[i] != 0 && freq[i] <= f1) {
                f1 = freq[i];
                v1 = i;
            }
        }
        for (i = 0; i < NSYM; i++) {
            if (freq[i] != 0 && freq[i] <= f2 && i != v1) {
                f2 = freq[i];
                v2 = i;
            }
        }
        if (v2 < 0)
            break;
        freq[v1] += freq[v2];
        freq[v2] = 0;
        codesize[v1]++;
        while (others[v1] >= 0) {
            v1 = others[v1];
            codesize[v1]++;
        }
        others[v1] = (int16_t)v2;
        codesize[v2]++;
        while (others[v2] >= 0) {
            v2 = others[v2];
            codesize[v2]++;
        }
    }
}

/* Adjust_BITS (Figure K.3): moves codes longer than 16 bits up the tree,
 * two at a time, then gives back the code of the reserved point. */
static void adjust_bits(uint8_t *bits)
{
    int i, j;

    for (i = TREE_LEN; i > MAX_LEN; i--) {
        while (bits[i] > 0) {
            j = i - 2;
            while (bits[j] == 0)
                j--;
            bits[i] = (uint8_t)(bits[i] - 2);
            bits[i - 1]++;
            bits[j + 1] = (uint8_t)(bits[j + 1] + 2);
            bits[j]--;
        }
    }
    while (bits[i] == 0)
        i--;
    bits[i]--;
}

/* Builds an optimal table for freq[0..255] (counts of each symbol, at
 * least one non-zero, totalling below 2^31).  Returns the number of symbols in the table, or
 * JE_ERR_TABLE when no symbol occurs. */
int je_huff_optimal(const uint32_t *freq, je_huff_spec *spec)
{
    uint32_t work[NSYM];
    uint8_t codesize[NSYM];
    uint8_t bits[TREE_LEN + 1];
    int i, j, k, used = 0;

    for (i = 0; i < 256; i++) {
        work[i] = freq[i];
        if (freq[i] != 0)
            used++;
    }
    if (used == 0)
        return JE_ERR_TABLE;
    work[RESERVED] = 1;
    code_sizes(work, codesize);
    /* Count_BITS (Figure K.2) */
    for (i = 0; i <= TREE_LEN; i++)
        bits[i] = 0;
    for (i = 0; i < NSYM; i++)
        if (codesize[i] != 0)
            bits[codesize[i]]++;
    adjust_bits(bits);
    for (i = 0; i <= MAX_LEN; i++)
        spec->bits[i] = bits[i];
    /* Sort_input (Figure K.4): symbols by code size, then by value */
    k = 0;
    for (i = 1; i <= TREE_LEN; i++)
        for (j = 0; j < 256; j++)
            if (codesize[j] == i)
                spec->vals[k++] = (uint8_t)j;
    for (; k < 256; k++)
        spec->vals[k] = 0;
    return used;
}

/* SSSS: the number of bits of |v| (0 for v = 0) */
int je_category(int32_t v)
{
    uint32_t mag = (uint32_t)(v < 0 ? -v : v);
    int n = 0;

    while (mag != 0) {
        n++;
        mag >>= 1;
    }
    return n;
}
