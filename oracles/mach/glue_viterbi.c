/* glue_viterbi.c - connects viterbi() to the mach data harness. */
#include "harness.h"
#include "viterbi.h"

int h_kernel(void)
{
    const uint8_t *obs = h_input("obs", HT_U8, N_OBS);
    const double *init = h_input("init", HT_F64, N_STATES);
    const double *trans = h_input("trans", HT_F64, N_STATES * N_STATES);
    const double *emit = h_input("emit", HT_F64, N_STATES * N_TOKENS);
    double *cost = h_buffer("cost", HT_F64, N_OBS * N_STATES);
    uint8_t *back = h_buffer("back", HT_U8, N_OBS * N_STATES);
    uint8_t *path = h_buffer("path", HT_U8, N_OBS);
    double *best = h_buffer("best", HT_F64, 1);

    viterbi(obs, init, trans, emit, cost, back, path, best);
    h_output("path", HT_U8, path, N_OBS);
    h_output("best", HT_F64, best, 1);
    return 0;
}
