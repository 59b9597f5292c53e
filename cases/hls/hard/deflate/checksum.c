/*
 * checksum.c -- Adler-32 (RFC 1950, 8.2) and CRC-32 (RFC 1952, 8, the
 * polynomial of ISO 3309 / ITU-T V.42 in its reflected form 0xEDB88320).
 *
 * Both are incremental: df_adler32(1, ...) and df_crc32(0, ...) start a
 * checksum, and feeding the data in pieces gives the same value as in one
 * call.
 */
#include "deflate.h"

#define ADLER_MOD   65521u      /* the largest prime below 2^16 */
#define ADLER_RUN   5552        /* most bytes before the sums must be reduced */
#define CRC_POLY    0xEDB88320u

static uint32_t crc_table[256];
static int crc_ready = 0;

uint32_t df_adler32(uint32_t adler, const uint8_t *p, int n)
{
    uint32_t a = adler & 0xFFFFu;
    uint32_t b = adler >> 16;

    while (n > 0) {
        int run = n < ADLER_RUN ? n : ADLER_RUN;
        n -= run;
        while (run-- > 0) {
            a += *p++;
            b += a;
        }
        a %= ADLER_MOD;
        b %= ADLER_MOD;
    }
    return (b << 16) | a;
}

/* the remainder of every byte value, one bit at a time */
static void make_crc_table(void)
{
    uint32_t c;
    int n, k;

    for (n = 0; n < 256; n++) {
        c = (uint32_t)n;
        for (k = 0; k < 8; k++)
            c = (c & 1) ? CRC_POLY ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
    crc_ready = 1;
}

uint32_t df_crc32(uint32_t crc, const uint8_t *p, int n)
{
    uint32_t c = crc ^ 0xFFFFFFFFu;
    int i;

    if (!crc_ready)
        make_crc_table();
    for (i = 0; i < n; i++)
        c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}
