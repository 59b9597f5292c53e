/* fft.h - size and entry point of the in-place radix-2 FFT. */
#ifndef FFT_H
#define FFT_H

#define LOG_N 8
#define FFT_N (1 << LOG_N)             /* transform length */

void fft(double *re, double *im);

#endif
