/*
 * bitio.c -- byte and bit output for jpegenc.
 *
 * Bytes go to a caller-provided buffer of 'cap' bytes; the writer keeps
 * counting past the end without storing, so the caller learns how many
 * bytes the stream needs (pos > cap means it did not fit).
 *
 * Entropy-coded data is written most significant bit first.  Every 0xFF
 * byte that the bits produce is followed by a stuffed 0x00 (F.1.2.3), so
 * that a decoder never mistakes coded data for a marker; flushing pads the
 * last byte with 1-bits.  Markers and marker segment fields are written
 * with je_bw_byte / je_bw_u16 / je_bw_marker and are never stuffed.
 */
#include "jpegenc.h"

void je_bw_init(je_bitwriter *bw, uint8_t *buf, int cap)
{
    bw->buf = buf;
    bw->cap = cap;
    bw->pos = 0;
    bw->acc = 0;
    bw->nbits = 0;
}

/* stores one byte if it fits, counts it in any case */
void je_bw_byte(je_bitwriter *bw, int b)
{
    if (bw->pos < bw->cap)
        bw->buf[bw->pos] = (uint8_t)b;
    bw->pos++;
}

/* a 16-bit field, most significant byte first */
void je_bw_u16(je_bitwriter *bw, int v)
{
    je_bw_byte(bw, (v >> 8) & 0xFF);
    je_bw_byte(bw, v & 0xFF);
}

/* a two-byte marker 0xFF m */
void je_bw_marker(je_bitwriter *bw, int m)
{
    je_bw_byte(bw, 0xFF);
    je_bw_byte(bw, m);
}

/* one byte of entropy-coded data, with the stuffed zero after 0xFF */
static void put_coded_byte(je_bitwriter *bw, uint32_t b)
{
    je_bw_byte(bw, (int)b);
    if (b == 0xFF)
        je_bw_byte(bw, 0x00);
}

/* Appends the low 'size' bits of code (0 <= size <= 16), most significant
 * first, and writes out every completed byte. */
void je_bw_bits(je_bitwriter *bw, uint32_t code, int size)
{
    uint32_t mask;

    if (size == 0)
        return;
    mask = ((uint32_t)1 << size) - 1;
    bw->acc = (bw->acc << size) | (code & mask);
    bw->nbits += size;
    while (bw->nbits >= 8) {
        uint32_t b = (bw->acc >> (bw->nbits - 8)) & 0xFF;
        put_coded_byte(bw, b);
        bw->nbits -= 8;
    }
    bw->acc &= ((uint32_t)1 << bw->nbits) - 1;
}

/* Completes the last byte with 1-bits (F.1.2.3) so that the next write
 * starts on a byte boundary. */
void je_bw_flush(je_bitwriter *bw)
{
    if (bw->nbits > 0)
        je_bw_bits(bw, 0x7F, 8 - bw->nbits);
    bw->acc = 0;
    bw->nbits = 0;
}
