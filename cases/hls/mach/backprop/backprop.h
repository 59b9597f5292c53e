/* backprop.h - sizes and entry point of the MLP training step. */
#ifndef BACKPROP_H
#define BACKPROP_H

#define LOG_IN 3
#define N_IN (1 << LOG_IN)             /* input features */
#define LOG_HID 4
#define N_HID (1 << LOG_HID)           /* hidden units */
#define LOG_OUT 2
#define N_OUT (1 << LOG_OUT)           /* output units */
#define BATCH 8                        /* samples per training step */
#define LEARN_RATE 0.5

void backprop(double *w1, double *b1, double *w2, double *b2,
              const double *x, const double *y,
              double *gw1, double *gb1, double *gw2, double *gb2,
              double *hid, double *out, double *loss);

#endif
