/* glue_fft.c - connects fft() to the mach data harness. */
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
