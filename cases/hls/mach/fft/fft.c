/*
 * fft.c - in-place iterative radix-2 decimation-in-time FFT.
 *
 * Specification: the forward discrete Fourier transform
 *     X[k] = sum over n = 0 .. N-1 of x[n] * exp(-2 pi i k n / N),
 * computed with the Cooley-Tukey algorithm (Cooley & Tukey, Math. Comp. 19
 * (1965) 297-301) in its iterative form: a bit-reversal permutation of the
 * input followed by log2(N) stages of butterflies of growing span
 * (Cormen, Leiserson, Rivest & Stein, Introduction to Algorithms, 3rd ed.,
 * Section 30.3).  Real and imaginary parts live in separate arrays.
 */
#include <math.h>
#include "fft.h"

#define PI 3.14159265358979323846

void fft(double *re, double *im)
{
    unsigned i, b, rev;
    unsigned half, step, k, g, j;
    double wr, wi, angle, tr, ti, t;

    /* bit-reversal permutation */
    for (i = 0; i < FFT_N; i++) {
        rev = 0;
        for (b = 0; b < LOG_N; b++)
            rev |= ((i >> b) & 1u) << (LOG_N - 1 - b);
        if (rev > i) {
            t = re[i]; re[i] = re[rev]; re[rev] = t;
            t = im[i]; im[i] = im[rev]; im[rev] = t;
        }
    }

    /* butterfly stages: groups of size step = 2 * half */
    for (half = 1; half < FFT_N; half <<= 1) {
        step = half << 1;
        for (k = 0; k < half; k++) {
            /* twiddle factor w = exp(-2 pi i k / step) */
            angle = -2.0 * PI * k / step;
            wr = cos(angle);
            wi = sin(angle);
            for (g = k; g < FFT_N; g += step) {
                j = g + half;
                tr = wr * re[j] - wi * im[j];
                ti = wr * im[j] + wi * re[j];
                re[j] = re[g] - tr;
                im[j] = im[g] - ti;
                re[g] += tr;
                im[g] += ti;
            }
        }
    }
}
