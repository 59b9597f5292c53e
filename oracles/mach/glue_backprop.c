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
