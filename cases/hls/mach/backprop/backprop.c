/*
 * backprop.c - one gradient-descent step of a two-layer perceptron.
 *
 * Specification: error back-propagation (Rumelhart, Hinton & Williams,
 * Nature 323 (1986) 533-536; Goodfellow, Bengio & Courville, Deep Learning,
 * Section 6.5) for the network
 *     h = sigmoid(W1 x + b1),   o = sigmoid(W2 h + b2)
 * with the squared-error loss L = 1/2 sum (o - y)^2, averaged over a batch.
 * Gradients of all samples are summed, then every parameter is updated once:
 * p <- p - LEARN_RATE * (1/BATCH) * dL/dp.  The returned loss is the mean
 * over the batch and the outputs of 1/2 (o - y)^2, before the update.
 * Weight matrices are row major with shift indexing:
 * W1[j][i] = w1[(j << LOG_IN) + i], W2[o][j] = w2[(o << LOG_HID) + j].
 */
#include <math.h>
#include "backprop.h"

static double sigmoid(double z)
{
    return 1.0 / (1.0 + exp(-z));
}

void backprop(double *w1, double *b1, double *w2, double *b2,
              const double *x, const double *y,
              double *gw1, double *gb1, double *gw2, double *gb2,
              double *hid, double *out, double *loss)
{
    int s, i, j, o;
    double z, err, total, scale;
    double dout[N_OUT], dhid[N_HID];

    for (j = 0; j < N_HID * N_IN; j++) {
        gw1[j] = 0.0;
    }
    for (j = 0; j < N_HID; j++) {
        gb1[j] = 0.0;
    }
    for (j = 0; j < N_OUT * N_HID; j++) {
        gw2[j] = 0.0;
    }
    for (o = 0; o < N_OUT; o++) {
        gb2[o] = 0.0;
    }
    total = 0.0;

    for (s = 0; s < BATCH; s++) {
        /* forward pass */
        for (j = 0; j < N_HID; j++) {
            z = b1[j];
            for (i = 0; i < N_IN; i++)
                z += w1[(j << LOG_IN) + i] * x[(s << LOG_IN) + i];
            hid[j] = sigmoid(z);
        }
        for (o = 0; o < N_OUT; o++) {
            z = b2[o];
            for (j = 0; j < N_HID; j++)
                z += w2[(o << LOG_HID) + j] * hid[j];
            out[o] = sigmoid(z);
        }

        /* output layer: delta = (o - y) * o * (1 - o) */
        for (o = 0; o < N_OUT; o++) {
            err = out[o] - y[(s << LOG_OUT) + o];
            total += err * err;
            dout[o] = err * out[o] * (1.0 - out[o]);
            gb2[o] += dout[o];
            for (j = 0; j < N_HID; j++)
                gw2[(o << LOG_HID) + j] += dout[o] * hid[j];
        }

        /* hidden layer: delta = (W2^T dout) * h * (1 - h) */
        for (j = 0; j < N_HID; j++) {
            z = 0.0;
            for (o = 0; o < N_OUT; o++)
                z += w2[(o << LOG_HID) + j] * dout[o];
            dhid[j] = z * hid[j] * (1.0 - hid[j]);
            gb1[j] += dhid[j];
            for (i = 0; i < N_IN; i++)
                gw1[(j << LOG_IN) + i] += dhid[j] * x[(s << LOG_IN) + i];
        }
    }

    /* parameter update with the batch-mean gradient */
    scale = LEARN_RATE * (1.0 / BATCH);
    for (j = 0; j < N_HID * N_IN; j++)
        w1[j] -= scale * gw1[j];
    for (j = 0; j < N_HID; j++)
        b1[j] -= scale * gb1[j];
    for (j = 0; j < N_OUT * N_HID; j++)
        w2[j] -= scale * gw2[j];
    for (o = 0; o < N_OUT; o++)
        b2[o] -= scale * gb2[o];

    *loss = 0.5 * total / (BATCH * N_OUT);
}
