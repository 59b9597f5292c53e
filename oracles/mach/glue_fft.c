/* glue_fft.c - connects fft() to the mach data harness. */
#include <math.h>

#include "harness.h"
#include "fft.h"

int h_kernel(void)
{
    double *re = h_input("re", HT_F64, FFT_N);
    double *im = h_input("im", HT_F64, FFT_N);

    fft(re, im);
    h_output("re", HT_F64, re, FFT_N);
    h_output("im", HT_F64, im, FFT_N);
    return 0;
}

/* --seed N: the signal N % 8 picks: 0 random in [-1, 1), 1 an impulse at a
 * random position, 2 zeros, 3 a constant, 4 a pure tone of a random
 * frequency, 5 the alternating sequence +1, -1 (the Nyquist frequency),
 * 6 a real signal, 7 random values up to 1000 in magnitude. */
int h_generate(uint64_t seed)
{
    unsigned pattern = (unsigned)(seed % 8);
    double *re = h_define("re", HT_F64, FFT_N);
    double *im = h_define("im", HT_F64, FFT_N);
    double c0 = h_uniform(-1.0, 1.0), c1 = h_uniform(-1.0, 1.0);
    unsigned freq = (unsigned)h_below(FFT_N), at = (unsigned)h_below(FFT_N);
    unsigned n;

    for (n = 0; n < FFT_N; n++) {
        re[n] = h_uniform(-1.0, 1.0);
        im[n] = h_uniform(-1.0, 1.0);
        switch (pattern) {
        case 1: re[n] = n == at; im[n] = 0.0; break;
        case 2: re[n] = 0.0; im[n] = 0.0; break;
        case 3: re[n] = c0; im[n] = c1; break;
        case 4:
            re[n] = cos(2.0 * 3.14159265358979323846 * (double)((freq * n) % FFT_N) / FFT_N);
            im[n] = 0.0;
            break;
        case 5: re[n] = n % 2 ? -1.0 : 1.0; im[n] = 0.0; break;
        case 6: im[n] = 0.0; break;
        case 7: re[n] *= 1000.0; im[n] *= 1000.0; break;
        default: break;
        }
    }
    return 0;
}
