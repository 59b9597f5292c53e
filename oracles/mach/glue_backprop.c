/* glue_backprop.c - connects backprop() to the mach data harness. */
#include "harness.h"
#include "backprop.h"

int h_kernel(void)
{
    double *w1 = h_input("w1", HT_F64, N_HID * N_IN);
    double *b1 = h_input("b1", HT_F64, N_HID);
    double *w2 = h_input("w2", HT_F64, N_OUT * N_HID);
    double *b2 = h_input("b2", HT_F64, N_OUT);
    const double *x = h_input("x", HT_F64, BATCH * N_IN);
    const double *y = h_input("y", HT_F64, BATCH * N_OUT);
    double *gw1 = h_buffer("gw1", HT_F64, N_HID * N_IN);
    double *gb1 = h_buffer("gb1", HT_F64, N_HID);
    double *gw2 = h_buffer("gw2", HT_F64, N_OUT * N_HID);
    double *gb2 = h_buffer("gb2", HT_F64, N_OUT);
    double *hid = h_buffer("hid", HT_F64, N_HID);
    double *out = h_buffer("out", HT_F64, N_OUT);
    double *loss = h_buffer("loss", HT_F64, 1);

    backprop(w1, b1, w2, b2, x, y, gw1, gb1, gw2, gb2, hid, out, loss);
    h_output("loss", HT_F64, loss, 1);
    h_output("w1", HT_F64, w1, N_HID * N_IN);
    h_output("b1", HT_F64, b1, N_HID);
    h_output("w2", HT_F64, w2, N_OUT * N_HID);
    h_output("b2", HT_F64, b2, N_OUT);
    return 0;
}

/* --seed N: the network and batch N % 8 picks: 0 random (as the fixed
 * vectors), 1 zero weights and biases, 2 large inputs (saturated units),
 * 3 targets exactly 0 or 1, 4 every weight equal, 5 tiny weights, 6 zero
 * inputs (only the biases act), 7 wide weights. */
int h_generate(uint64_t seed)
{
    unsigned pattern = (unsigned)(seed % 8);
    static const struct { const char *name; int count; double lo, hi; } parts[] = {
        { "w1", N_HID * N_IN, -1.0, 1.0 }, { "b1", N_HID, -0.5, 0.5 },
        { "w2", N_OUT * N_HID, -1.0, 1.0 }, { "b2", N_OUT, -0.5, 0.5 },
        { "x", BATCH * N_IN, -1.0, 1.0 }, { "y", BATCH * N_OUT, 0.0, 1.0 },
    };
    double *v, scale;
    int p, i, weight;

    for (p = 0; p < 6; p++) {
        v = h_define(parts[p].name, HT_F64, (size_t)parts[p].count);
        weight = p < 4;
        scale = weight && pattern == 5 ? 0.01 : weight && pattern == 7 ? 3.0 : p == 4 && pattern == 2 ? 8.0 : 1.0;
        for (i = 0; i < parts[p].count; i++) {
            v[i] = scale * h_uniform(parts[p].lo, parts[p].hi);
            if ((weight && pattern == 1) || (p == 4 && pattern == 6))
                v[i] = 0.0;
            else if (weight && pattern == 4)
                v[i] = 0.1;
            else if (p == 5 && pattern == 3)
                v[i] = (double)h_below(2);
        }
    }
    return 0;
}
