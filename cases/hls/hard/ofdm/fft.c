/*
 * fft.c -- radix-2 decimation-in-time FFT and IFFT on 16-bit complex
 * samples, for every size 2^1 .. 2^FFT_MAX_LOG2.
 *
 * Twiddle factors come from one quarter-wave sine table of FFT_MAX/4 + 1
 * Q15 entries (filled once, by the quarter-wave symmetries for the rest of
 * the circle).  A size-N transform steps through the table with stride
 * FFT_MAX/N.  Bit s-1 of the scaling schedule halves the outputs of stage
 * s (rounding half up), which keeps the 16-bit samples from growing; any
 * butterfly output that still leaves the 16-bit range is saturated and
 * counted.
 *
 *   forward:  X[k] = sum x[n] e^(-2 pi i nk/N)   (times the stage scaling)
 *   inverse:  x[n] = sum X[k] e^(+2 pi i nk/N)   (times the stage scaling)
 */
#include <math.h>
#include "ofdm.h"

#define QUARTER (FFT_MAX / 4)

static int16_t quarter[QUARTER + 1];
static int fft_ready = 0;

void fft_init(void)
{
    const double two_pi = 6.283185307179586476925;
    int k;
    for (k = 0; k <= QUARTER; k++)
        quarter[k] = (int16_t)floor(32767.0 * sin(two_pi * (double)k / (double)FFT_MAX) + 0.5);
    fft_ready = 1;
}

/* sin(2 pi k / FFT_MAX) in Q15 from the quarter wave */
int16_t fft_sin(int k)
{
    if (!fft_ready)
        fft_init();
    k &= FFT_MAX - 1;
    if (k <= QUARTER)
        return quarter[k];
    if (k <= 2 * QUARTER)
        return quarter[2 * QUARTER - k];
    if (k <= 3 * QUARTER)
        return (int16_t)-quarter[k - 2 * QUARTER];
    return (int16_t)-quarter[FFT_MAX - k];
}

int16_t fft_cos(int k)
{
    return fft_sin(k + QUARTER);
}

unsigned fft_reverse_bits(unsigned v, int bits)
{
    unsigned r = 0;
    int i;
    for (i = 0; i < bits; i++) {
        r = (r << 1) | (v & 1u);
        v >>= 1;
    }
    return r;
}

void fft_bit_reverse(cplx16 *x, int log2n)
{
    int n = 1 << log2n, i;
    unsigned j;
    cplx16 t;
    for (i = 0; i < n; i++) {
        j = fft_reverse_bits((unsigned)i, log2n);
        if ((unsigned)i < j) {
            t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
    }
}

int16_t fft_sat16(int32_t v)
{
    if (v > 32767)
        return 32767;
    if (v < -32768)
        return -32768;
    return (int16_t)v;
}

/* a * (wr + i wi) with Q15 twiddles, rounded */
cplx32 fft_cmul_q15(cplx16 a, int16_t wr, int16_t wi)
{
    cplx32 r;
    int32_t re = (int32_t)a.re * wr - (int32_t)a.im * wi;
    int32_t im = (int32_t)a.re * wi + (int32_t)a.im * wr;
    r.re = (re + (1 << 14)) >> 15;
    r.im = (im + (1 << 14)) >> 15;
    return r;
}

/* one output of a butterfly: optional halving, then saturation */
static int16_t stage_out(int32_t v, int halve, int *sat)
{
    if (halve)
        v = (v + 1) >> 1;
    if (v > 32767 || v < -32768)
        (*sat)++;
    return fft_sat16(v);
}

/* in place; returns the number of saturated outputs, or OFDM_ERR_FFT */
int fft_run(cplx16 *x, int log2n, int inverse, unsigned scale_mask)
{
    int n, s, half, stride, halve, k, j, sat = 0;
    int16_t wr, wi;
    cplx16 u, v;
    cplx32 t;

    if (log2n < 1 || log2n > FFT_MAX_LOG2)
        return OFDM_ERR_FFT;
    n = 1 << log2n;
    fft_bit_reverse(x, log2n);
    for (s = 1; s <= log2n; s++) {
        half = 1 << (s - 1);
        stride = FFT_MAX >> s;
        halve = (int)((scale_mask >> (s - 1)) & 1u);
        for (k = 0; k < n; k += 2 * half) {
            for (j = 0; j < half; j++) {
                wr = fft_cos(j * stride);
                wi = fft_sin(j * stride);
                if (!inverse)
                    wi = (int16_t)-wi;
                u = x[k + j];
                v = x[k + j + half];
                t = fft_cmul_q15(v, wr, wi);
                x[k + j].re = stage_out(u.re + t.re, halve, &sat);
                x[k + j].im = stage_out(u.im + t.im, halve, &sat);
                x[k + j + half].re = stage_out(u.re - t.re, halve, &sat);
                x[k + j + half].im = stage_out(u.im - t.im, halve, &sat);
            }
        }
    }
    return sat;
}
