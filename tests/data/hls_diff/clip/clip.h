/* clip.h - the clip kernel: y[i] = x[i] limited to [LO, HI], and the sum of y. */
#ifndef CLIP_H
#define CLIP_H

#define LO (-100)
#define HI 100

long clip(const int *x, int *y, int n);

#endif
